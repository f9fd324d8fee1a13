/**
 * The exception workflow for one person or a desk, one code path: the same queue, single actions and bulk actions
 * whether a profile works alone on its SQLite cache (local mode) or is joined to a desk (its PostgreSQL database).
 * In both modes every action is journaled — one entry for a bulk action, holding its count, filter and a digest of
 * the records' natural keys — and refused whole on a closed period. After a sync, a desk profile publishes the
 * date's exceptions and settlement batches, so everyone on the desk sees them.
 */
import { createHash } from 'node:crypto';
import {
  bulkRequest,
  queueFilter,
  type BulkRequest,
  type BulkResult,
  type ExceptionKey,
  type QueueFilter,
  type QueueGroup,
  type QueuePage,
  type QueueRow,
} from '../../shared/desk';
import {
  exceptionActionRequest,
  type ExceptionActionRequest,
  type ExceptionDetail,
} from '../../shared/settlement-changes';
import type {
  CachedSettlement,
  SettlementAggregate,
  SettlementFilter,
  SettlementPageResult,
  SettlementQuery,
  SettlementTotals,
} from '../../shared/settlement-query';
import type { Cache } from '../cache/database';
import { idRange } from '../cache/settlement-ids';
import { readRowToCached, READ_COLUMNS, ruleBit } from '../cache/settlement-rows';
import { ExceptionWorkflowError } from '../cache/settlement-exceptions';
import type { DeskRegistry } from '../desk/registry';
import { DeskError } from '../desk/errors';
import type { PublishedException } from '../desk/exceptions';
import { closedPeriodWords } from '../journal/period-close';
import type { Journals } from '../journal/registry';
import type { Logger } from '../log';
import { formatCalendarDate } from '../../shared/format';
import type { SyncSummary } from '../../shared/sync';
import { RULE_IDS, type RuleId } from '../../shared/reconciliation';
import type { QueueSummary } from '../../shared/today';

/** What a record that breaks a rule puts at stake: the larger of its amount and its settled amount, in paise. */
export const amountAtRisk = (r: Pick<CachedSettlement, 'amount' | 'settled_amount'>) =>
  Math.max(Math.abs(r.amount), Math.abs(r.settled_amount));

export function keyOfRecord(r: CachedSettlement): ExceptionKey {
  return { date: r.date, pg: r.pg, pgTransactionId: r.pg_transaction_id, settlementDate: r.settlement_date };
}

const keyText = (k: ExceptionKey) => [k.date, k.pg, k.pgTransactionId, k.settlementDate].join('\u0001');

/** SHA-256 of the sorted keys, as the desk's `act_on_exceptions` computes it: a bulk entry's proof of its set. */
export function keysDigest(keys: readonly ExceptionKey[]): string {
  const lines = keys.map(keyText).sort();
  return createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex');
}

export function publishedOf(r: CachedSettlement): PublishedException {
  // The fields the service gave and the rules broken; not this console's row id or bookkeeping.
  const record: Record<string, unknown> = { ...r };
  delete record['id'];
  delete record['vanishedAt'];
  return {
    pg: r.pg,
    pgTransactionId: r.pg_transaction_id,
    settlementDate: r.settlement_date,
    rules: r.exceptions.map((e) => e.rule),
    record,
    orderId: r.order_id,
    utr: r.utr,
    amountAtRisk: amountAtRisk(r),
  };
}

const VERB: Record<ExceptionActionRequest['action'], string> = {
  acknowledge: 'Acknowledged',
  note: 'Noted',
  assign: 'Assigned',
  resolve: 'Resolved',
  reopen: 'Reopened',
};

type LocalRow = { row: QueueRow; recordId: number };

/** The local cache's queue: its records that break a rule, with their workflow state, filtered. */
function localRows(cache: Cache, filter: QueueFilter, me: string): LocalRow[] {
  const where = ['s.exception_flags <> 0', 's.vanished_at IS NULL'];
  const params: (string | number)[] = [];
  if (filter.from || filter.to) {
    const r = idRange(filter.from ?? '2000-01-01', filter.to ?? '2099-12-31');
    where.push('s.id BETWEEN ? AND ?');
    params.push(r.lo, r.hi);
  }
  if (filter.pg) {
    where.push('s.pg = ?');
    params.push(filter.pg);
  }
  if (filter.rule) {
    where.push('(s.exception_flags & ?) <> 0');
    params.push(ruleBit(filter.rule as RuleId) ?? 0);
  }
  if (filter.state === 'unresolved') where.push("coalesce(st.state, 'open') <> 'resolved'");
  else if (filter.state) {
    where.push("coalesce(st.state, 'open') = ?");
    params.push(filter.state);
  }
  if (filter.assignedTo) {
    where.push('st.assignee = ?');
    params.push(filter.assignedTo === 'me' ? me : filter.assignedTo);
  }
  if (filter.unassigned) where.push('st.assignee IS NULL');
  const columns = READ_COLUMNS.map((c) => `s.${c}`).join(', ');
  const rows = cache.db
    .prepare(
      `SELECT ${columns}, coalesce(st.state, 'open'), st.assignee, st.note, st.updated_at
         FROM settlements s LEFT JOIN settlement_exception_states st
           ON st.date = s.date AND st.pg = s.pg AND st.pg_transaction_id = s.pg_transaction_id
          AND st.settlement_date = s.settlement_date
        WHERE ${where.join(' AND ')} ORDER BY s.id DESC`,
    )
    .raw()
    .all(...params) as unknown[][];
  return rows.map((values) => {
    const r = readRowToCached(values.slice(0, READ_COLUMNS.length));
    const [state, assignee, note, updatedAt] = values.slice(READ_COLUMNS.length) as [
      QueueRow['state'],
      string | null,
      string | null,
      string | null,
    ];
    return {
      recordId: r.id,
      row: {
        ...keyOfRecord(r),
        rules: r.exceptions.map((e) => e.rule),
        orderId: r.order_id,
        utr: r.utr,
        amountAtRisk: amountAtRisk(r),
        state,
        assignee,
        note,
        version: 0,
        updatedBy: updatedAt ? me : null,
        updatedAt,
        firstSeenAt: `${r.date}T00:00:00.000Z`,
      },
    };
  });
}

/**
 * The queue's figures Today shows, from the local cache in one grouped pass: the queue's own page reads and parses
 * every row of the set (seconds at 30,000 open), where the figures need only their counts and sums. The same rows and
 * states as `localRows` (records that break a rule, not vanished, with their workflow state); the amount at risk is
 * `amountAtRisk`'s, in SQL.
 */
function localSummary(cache: Cache, me: string): QueueSummary {
  // Each date's groups as the cache keeps them (exception-figures.ts): a few rows a date, not every record.
  const groups = cache.exceptionFigures.figures().map((f) => ({
    flags: f.flags,
    state: f.state,
    mine: f.assignee === me,
    n: f.records,
    risk: f.risk,
    oldest: f.date,
  }));
  const total = (rows: typeof groups) => ({
    count: rows.reduce((t, g) => t + g.n, 0),
    amount: rows.reduce((t, g) => t + g.risk, 0),
  });
  const open = groups.filter((g) => g.state === 'open');
  return {
    open: total(open),
    byRule: RULE_IDS.map((rule) => ({ rule, ...total(open.filter((g) => (g.flags & ruleBit(rule)) !== 0)) })).filter(
      (r) => r.count > 0,
    ),
    assignedToMe: total(groups.filter((g) => g.state !== 'resolved' && g.mine)),
    oldestDate: open.map((g) => g.oldest).sort()[0] ?? null,
  };
}

/** The same figures from a desk's queue: its aggregate answers each read at once (docs/performance). */
async function deskSummary(
  queue: (filter: QueueFilter, page: { offset: number; limit: number }) => Promise<QueuePage>,
) {
  const one = { offset: 0, limit: 1 };
  const [open, mine, ...rules] = await Promise.all([
    queue({ state: 'open' }, one),
    queue({ state: 'unresolved', assignedTo: 'me' }, one),
    ...RULE_IDS.map((rule) => queue({ state: 'open', rule }, one)),
  ]);
  // The queue is newest first: its last row is the oldest open exception.
  const last = open.total === 0 ? null : (await queue({ state: 'open' }, { offset: open.total - 1, limit: 1 })).rows[0];
  return {
    open: { count: open.total, amount: open.amountAtRisk },
    byRule: RULE_IDS.map((rule, i) => ({ rule, count: rules[i]!.total, amount: rules[i]!.amountAtRisk })).filter(
      (r) => r.count > 0,
    ),
    assignedToMe: { count: mine.total, amount: mine.amountAtRisk },
    oldestDate: last?.date ?? null,
  };
}

/** Totals and groups of a whole filtered set, as the desk's queue computes them. */
function pageOf(rows: QueueRow[], page: { offset: number; limit: number }): QueuePage {
  const groups = new Map<string, QueueGroup>();
  let amount = 0;
  for (const r of rows) {
    amount += r.amountAtRisk;
    for (const rule of r.rules) {
      const id = [rule, r.pg, r.date, r.state].join('\u0001');
      let g = groups.get(id);
      if (!g) {
        g = {
          rule,
          pg: r.pg,
          date: r.date,
          state: r.state,
          count: 0,
          amountAtRisk: 0,
          oldestSeenAt: r.firstSeenAt,
          owners: [],
        };
        groups.set(id, g);
      }
      g.count++;
      g.amountAtRisk += r.amountAtRisk;
      if (r.firstSeenAt < g.oldestSeenAt) g.oldestSeenAt = r.firstSeenAt;
      if (r.assignee && !g.owners.includes(r.assignee)) g.owners.push(r.assignee);
    }
  }
  return {
    rows: rows.slice(page.offset, page.offset + page.limit),
    total: rows.length,
    amountAtRisk: amount,
    groups: [...groups.values()].slice(0, 500),
  };
}

export interface ExceptionQueueDeps {
  cacheFor(profileId: string): Cache;
  journals: Journals;
  desks: DeskRegistry;
  /** The person in local mode: the OS account's name. */
  osUser: string;
  now: () => Date;
  log: Logger;
}

/** How long a desk that did not answer is left before the grid asks it for its states again. */
const STATES_RETRY_MS = 10_000;

/**
 * The Settlements grid's copy of each desk's states (desk_exception_states in the cache): current until the desk
 * announces a change to its exceptions, its connection comes back, or this console acts on it.
 */
function createDeskStateCopy(deps: ExceptionQueueDeps) {
  // The generation catches an announcement that arrives while a copy is being read.
  const fresh = new Set<string>();
  const generation = new Map<string, number>();
  const refreshing = new Map<string, Promise<void>>();
  const lastTry = new Map<string, number>();

  function deskChanged(profileId: string): void {
    fresh.delete(profileId);
    generation.set(profileId, (generation.get(profileId) ?? 0) + 1);
    lastTry.delete(profileId);
  }

  async function refreshDeskStates(profileId: string): Promise<void> {
    const started = generation.get(profileId) ?? 0;
    lastTry.set(profileId, deps.now().getTime());
    try {
      const states = await (await deps.desks.for(profileId))!.exceptions.states();
      deps.cacheFor(profileId).exceptions.replaceDeskStates(states);
      if ((generation.get(profileId) ?? 0) === started) fresh.add(profileId);
    } catch (e) {
      // The grid keeps reading the last copy (the desk's states as last seen), as every screen shows what it has.
      deps.log.warn("the desk's exception states were not read; the grid shows the last ones", { profileId, error: e });
    }
  }

  /**
   * Whose states the grid's state column and "Exceptions only" read: the cache's own workflow, or on a desk the
   * desk's, copied into the cache when they changed (one read of the desk per change, none per page).
   */
  async function gridSource(profileId: string): Promise<'local' | 'desk'> {
    if (!deps.desks.joined(profileId)) return 'local';
    const tried = lastTry.get(profileId);
    if (!fresh.has(profileId) && (tried === undefined || deps.now().getTime() - tried >= STATES_RETRY_MS)) {
      let pending = refreshing.get(profileId);
      if (!pending) {
        pending = refreshDeskStates(profileId).finally(() => refreshing.delete(profileId));
        refreshing.set(profileId, pending);
      }
      await pending;
    }
    return 'desk';
  }

  return { deskChanged, gridSource };
}

export function createExceptionQueue(deps: ExceptionQueueDeps) {
  const { deskChanged, gridSource } = createDeskStateCopy(deps);

  /** Refuses when any key's date lies in a locally closed period, naming when it was closed. */
  function refuseClosed(profileId: string, keys: readonly ExceptionKey[]) {
    if (keys.length === 0) return;
    const dates = keys.map((k) => k.date).sort();
    const periods = deps.journals.for(profileId).periods.list({ from: dates[0]!, to: dates[dates.length - 1]! });
    for (const p of periods) {
      if (keys.some((k) => k.date >= p.from && k.date <= p.to)) {
        throw new DeskError('PERIOD_CLOSED', `${closedPeriodWords(p)}; reopen it before acting on its exceptions.`);
      }
    }
  }

  /** One transaction in the local cache: every key's state and event, and one journal entry. */
  function localAct(
    profileId: string,
    keys: readonly ExceptionKey[],
    action: ExceptionActionRequest['action'],
    text: string | null,
    selection: QueueFilter | null,
  ): BulkResult {
    const cache = deps.cacheFor(profileId);
    const digest = keysDigest(keys);
    const result = deps.journals.for(profileId).journal.transact((append) => {
      refuseClosed(profileId, keys);
      const tuples = keys.map((k) => [k.date, k.pg, k.pgTransactionId, k.settlementDate] as const);
      for (const t of tuples) {
        const refused = cache.exceptions.refusal(action, cache.exceptions.stateOfKey(t));
        if (refused) throw new ExceptionWorkflowError(`${refused} (${t[1]} ${t[2]} of ${formatCalendarDate(t[0])})`);
      }
      const at = deps.now().toISOString();
      for (const t of tuples) cache.exceptions.write(t, action, text, at);
      const single = keys.length === 1 && selection === null;
      const k = keys[0]!;
      const entry = append({
        kind: 'exception',
        event: single ? `exception.${action}` : 'exception.bulk',
        outcome: 'done',
        summary: single
          ? `${VERB[action]} the exception on ${k.pg} ${k.pgTransactionId} (${formatCalendarDate(k.date)})${text ? `: ${text}` : '.'}`
          : `${VERB[action]} ${keys.length} exceptions${text ? `: ${text}` : '.'}`,
        data: {
          action,
          count: keys.length,
          text,
          digest,
          filter: selection,
          key: single ? { ...k } : undefined,
        },
      });
      return { action: action as BulkResult['action'], count: keys.length, digest, journalSeq: entry.seq };
    });
    // The touched dates' figures worked out now: a bulk action over the whole queue must not slow Today's next open.
    cache.exceptionFigures.refresh();
    return result;
  }

  return {
    /** The desk announced a change to its exceptions (or came back): the grid's copy of its states is read again. */
    deskChanged,

    /**
     * A page of the Settlements grid, each exception with its workflow state; resolved ones as the filter says. Read
     * in the cache's worker thread (settlement-reader.ts), like the grid's totals and chart.
     */
    async gridPage(profileId: string, query: SettlementQuery): Promise<SettlementPageResult> {
      const source = await gridSource(profileId);
      return deps.cacheFor(profileId).settlementReads.page(query, source);
    },

    /** The grid's totals, with the same resolved exceptions left out as its pages. */
    async gridTotals(profileId: string, filter: SettlementFilter): Promise<SettlementTotals> {
      const source = await gridSource(profileId);
      return deps.cacheFor(profileId).settlementReads.totals(filter, source);
    },

    /** The grid's aggregate, likewise. */
    async gridAggregate(profileId: string, filter: SettlementFilter): Promise<SettlementAggregate> {
      const source = await gridSource(profileId);
      return deps.cacheFor(profileId).settlementReads.aggregate(filter, source);
    },

    async queue(profileId: string, filterInput: QueueFilter, page: { offset: number; limit: number }) {
      const filter = queueFilter.parse(filterInput);
      const desk = await deps.desks.for(profileId);
      if (desk) return desk.exceptions.queue(filter, page);
      return pageOf(
        localRows(deps.cacheFor(profileId), filter, deps.osUser).map((r) => r.row),
        page,
      );
    },

    /** The open set's count, amount at risk, oldest date and rules, and this person's unresolved: Today's panel. */
    async summary(profileId: string): Promise<QueueSummary> {
      const desk = await deps.desks.for(profileId);
      if (desk) return deskSummary((filter, page) => desk.exceptions.queue(filter, page));
      return localSummary(deps.cacheFor(profileId), deps.osUser);
    },

    /** A selection or a whole filtered set, all or none, with one journal entry. */
    async bulk(profileId: string, input: BulkRequest): Promise<BulkResult> {
      const request = bulkRequest.parse(input);
      const desk = await deps.desks.for(profileId);
      if (desk) {
        try {
          return await desk.exceptions.bulk(request);
        } finally {
          deskChanged(profileId);
        }
      }
      const cache = deps.cacheFor(profileId);
      const keys = request.keys ?? localRows(cache, request.filter, deps.osUser).map((r) => r.row);
      if (keys.length === 0) throw new ExceptionWorkflowError('No exceptions match; nothing was changed.');
      if (request.keys) {
        // Ticked rows must be records of the cache that break a rule: one read of their dates, not one per key.
        const dates = keys.map((k) => k.date).sort();
        const known = new Set(
          localRows(cache, { from: dates[0]!, to: dates[dates.length - 1]! }, deps.osUser).map((r) => keyText(r.row)),
        );
        const missing = keys.filter((k) => !known.has(keyText(k))).length;
        if (missing > 0) {
          throw new ExceptionWorkflowError(
            `${missing} of the ${keys.length} exceptions chosen are not in this console's cache; nothing was changed.`,
          );
        }
      }
      return localAct(profileId, keys, request.action, request.text, request.filter);
    },

    /** The Settlements screen's one-record action, by its cached row id. */
    async act(profileId: string, input: ExceptionActionRequest): Promise<ExceptionDetail> {
      const q = exceptionActionRequest.parse(input);
      const cache = deps.cacheFor(profileId);
      const r = cache.exceptions.record(q.recordId);
      const key = keyOfRecord(r);
      const desk = await deps.desks.for(profileId);
      if (desk) {
        // A record no sync has published yet (this console's cache is ahead of the desk) goes up with its action.
        const row = await desk.exceptions.row(key);
        if (!row) await desk.exceptions.publish(key.date, [publishedOf(r)], false);
        try {
          await desk.exceptions.act({ ...key, version: row?.version ?? 0 }, q.action, q.text ?? null);
        } finally {
          deskChanged(profileId);
        }
        return this.detail(profileId, q.recordId);
      }
      localAct(profileId, [key], q.action, q.text ?? null, null);
      return cache.exceptions.detail(q.recordId);
    },

    /** A record's workflow state and trail: the desk's in desk mode (with who did each step), else the cache's. */
    async detail(profileId: string, recordId: number): Promise<ExceptionDetail> {
      const cache = deps.cacheFor(profileId);
      const local = cache.exceptions.detail(recordId);
      const desk = await deps.desks.for(profileId);
      if (!desk) return local;
      const r = cache.exceptions.record(recordId);
      const key = keyOfRecord(r);
      const row = await desk.exceptions.row(key);
      const events = await desk.exceptions.events(key);
      return {
        ...local,
        state: row?.state ?? 'open',
        assignee: row?.assignee ?? null,
        note: row?.note ?? null,
        updatedAt: row?.updatedAt ?? null,
        events: events.map((e) => ({
          at: e.at,
          action: e.action,
          text: e.text ? `${e.text} (${e.person})` : `(${e.person})`,
        })),
      };
    },

    /**
     * After a sync, on a desk: each stored date's records that break a rule and its batches, for everyone. A desk
     * that cannot be reached is logged and left: the sync itself stands, and the dates wait for it (`publishDates`).
     */
    async publishSynced(profileId: string, summary: SyncSummary): Promise<string[]> {
      const dates = summary.dates.filter((d) => d.status === 'completed').map((d) => d.date);
      return this.publishDates(profileId, dates);
    },

    /**
     * Publishes dates to the desk in order; those it cannot reach now are kept in the cache and published when the
     * desk answers again (`publishPending`), so a sync made while it was down still reaches everyone.
     */
    async publishDates(profileId: string, dates: readonly string[]): Promise<string[]> {
      const exceptions = deps.cacheFor(profileId).exceptions;
      const published: string[] = [];
      for (const [i, date] of dates.entries()) {
        try {
          if ((await this.publishDate(profileId, date)) === null) return published;
          exceptions.markPublished(date);
          published.push(date);
        } catch (e) {
          deps.log.warn('exceptions and batches not published to the desk', { profileId, date, error: e });
          for (const later of dates.slice(i)) exceptions.markUnpublished(later);
          return published;
        }
      }
      return published;
    },

    /** The dates a sync could not publish (the desk was down), sent now; called when the desk is live again. */
    publishPending(profileId: string): Promise<string[]> {
      return this.publishDates(profileId, deps.cacheFor(profileId).exceptions.unpublishedDates());
    },

    /**
     * After a sync of a date, on a desk: its records that break a rule and its settlement batches, for everyone (a
     * console without the API secret reconciles against those batches). The exceptions' count; null in local mode.
     */
    async publishDate(profileId: string, date: string): Promise<number | null> {
      const desk = await deps.desks.for(profileId);
      if (!desk) return null;
      const cache = deps.cacheFor(profileId);
      // Only what this cache holds whole: a console that synced one gateway of the date must not replace the others'.
      const gateways = cache.settlements.gatewaysHeldWhole(date);
      const held = <T extends { pg: string }>(rows: T[]) =>
        gateways ? rows.filter((r) => gateways.includes(r.pg)) : rows;
      const records = held(cache.exceptions.exceptionsOfDate(idRange(date, date), null));
      // Batches decide every console's matches, so the desk takes them from operators' syncs only; a viewer's
      // sync still publishes its exceptions, and is not left retrying a publish its role refuses.
      if (desk.status().role !== 'viewer') {
        await desk.reconciliation.publishBatches(date, held(cache.reconciliation.batches(date, date)), gateways);
      }
      return desk.exceptions.publish(date, records.map(publishedOf), true, gateways);
    },
  };
}
export type ExceptionQueue = ReturnType<typeof createExceptionQueue>;
