/**
 * The desk's exception queue, from a console: publish a synced date's exceptions, read the queue (a page, its
 * totals and its groups), and act on one record or on a selection or a whole filtered set. Every action is one call
 * of `act_on_exceptions` in one transaction; a bulk action over a filter reads the rows it matches at their versions,
 * and the function locks them and refuses the whole action if any moved, so the set acted on is the set counted. Each action carries a request id that its journal
 * entry holds, so an action whose answer was lost while committing can be found, or not, in the journal.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type {
  BulkRequest,
  BulkResult,
  ExceptionKey,
  QueueFilter,
  QueueGroup,
  QueuePage,
  QueueRow,
} from '../../shared/desk';
import { withClient } from './checkout';
import { DeskError, deskErrorOf, isUnreachable } from './errors';

/** One record that breaks a rule, as a sync publishes it. */
export interface PublishedException extends Omit<ExceptionKey, 'date'> {
  rules: string[];
  record: Record<string, unknown>;
  orderId: string | null;
  utr: string | null;
  amountAtRisk: number;
}

/** The WHERE clause of a filter and its parameters, from $1. */
export function queueWhere(filter: QueueFilter, me: string): { sql: string; params: unknown[] } {
  const clauses = ['cardinality(rules) > 0'];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    clauses.push(clause.replace('?', `$${params.length}`));
  };
  if (filter.state === 'unresolved') clauses.push("state <> 'resolved'");
  else if (filter.state) add('state = ?', filter.state);
  if (filter.assignedTo) add('assignee = ?', filter.assignedTo === 'me' ? me : filter.assignedTo);
  if (filter.unassigned) clauses.push('assignee IS NULL');
  if (filter.rule) add('? = ANY (rules)', filter.rule);
  if (filter.pg) add('pg = ?', filter.pg);
  if (filter.from) add('date >= ?::date', filter.from);
  if (filter.to) add('date <= ?::date', filter.to);
  return { sql: clauses.join(' AND '), params };
}

interface RowOut {
  date: string;
  pg: string;
  pg_transaction_id: string;
  settlement_date: string;
  rules: string[];
  order_id: string | null;
  utr: string | null;
  amount_at_risk: number;
  state: QueueRow['state'];
  assignee: string | null;
  note: string | null;
  version: number;
  updated_by: string | null;
  updated_at: Date | null;
  first_seen_at: Date;
}

/** A group as json_agg writes it: dates as text, the oldest stamp as PostgreSQL's own text. */
interface GroupOut {
  rule: string;
  pg: string;
  date: string;
  state: QueueGroup['state'];
  count: number;
  at_risk: number;
  oldest: string;
  owners: string[];
}

const toRow = (r: RowOut): QueueRow => ({
  date: r.date,
  pg: r.pg,
  pgTransactionId: r.pg_transaction_id,
  settlementDate: r.settlement_date,
  rules: r.rules,
  orderId: r.order_id,
  utr: r.utr,
  amountAtRisk: r.amount_at_risk,
  state: r.state,
  assignee: r.assignee,
  note: r.note,
  version: r.version,
  updatedBy: r.updated_by,
  updatedAt: r.updated_at?.toISOString() ?? null,
  firstSeenAt: r.first_seen_at.toISOString(),
});

const wireKey = (k: ExceptionKey & { version?: number }) => ({
  date: k.date,
  pg: k.pg,
  pgTransactionId: k.pgTransactionId,
  settlementDate: k.settlementDate,
  version: k.version ?? null,
});

export function createDeskExceptions(pool: pg.Pool, me: string, consoleName: string) {
  async function act(
    keysOf: (client: pg.PoolClient) => Promise<(ExceptionKey & { version?: number })[]>,
    action: string,
    text: string | null,
    selection: QueueFilter | null,
  ): Promise<BulkResult> {
    const requestId = randomUUID();
    return withClient(pool, async (client) => {
      let sent = false;
      try {
        await client.query('BEGIN');
        const keys = await keysOf(client);
        if (keys.length === 0) throw new DeskError('EXCEPTION_REFUSED', 'No exceptions match; nothing was changed.');
        const { rows } = await client.query<{ r: { count: number; digest: string; journalSeq: number } }>(
          'SELECT desk.act_on_exceptions($1, $2, $3, $4, $5, $6) AS r',
          [
            JSON.stringify(keys.map(wireKey)),
            action,
            text,
            selection ? JSON.stringify(selection) : null,
            consoleName,
            requestId,
          ],
        );
        sent = true;
        await client.query('COMMIT');
        const r = rows[0]!.r;
        return { action: action as BulkResult['action'], count: r.count, digest: r.digest, journalSeq: r.journalSeq };
      } catch (e) {
        if (isUnreachable(e)) {
          if (sent) {
            throw new DeskError(
              'DESK_OUTCOME_UNKNOWN',
              `The desk connection was lost while the ${action} was being committed: it was applied to all of them or ` +
                `to none. Look at the queue once the desk answers again; its journal entry, if any, holds request ${requestId}.`,
              requestId,
            );
          }
          throw new DeskError(
            'DESK_UNREACHABLE',
            `The desk connection was lost before the ${action} was committed: none of them was changed.`,
          );
        }
        await client.query('ROLLBACK').catch(() => undefined);
        throw deskErrorOf(e);
      }
    });
  }

  return {
    /**
     * A date's records that break a rule. `wholeDate` (a sync's whole date): the date's other rows (of `gateways`
     * only, when given: the ones this console holds whole for the date) break no rule any more; otherwise only these
     * records are added or updated.
     */
    async publish(
      date: string,
      records: PublishedException[],
      wholeDate = true,
      gateways: readonly string[] | null = null,
    ): Promise<number> {
      try {
        const { rows } = await pool.query<{ n: number }>('SELECT desk.publish_exceptions($1, $2, $3, $4) AS n', [
          date,
          JSON.stringify(records),
          wholeDate,
          gateways,
        ]);
        const written = rows[0]!.n;
        // The queue's reads planned on its new size at once (migration 013). Best effort: the server's autovacuum
        // analyzes within a minute anyway, and a desk of an earlier schema lacks the function.
        await pool.query('SELECT desk.refresh_queue_statistics($1)', [written]).catch(() => undefined);
        return written;
      } catch (e) {
        throw deskErrorOf(e);
      }
    },

    async queue(filter: QueueFilter, page: { offset: number; limit: number }): Promise<QueuePage> {
      const where = queueWhere(filter, me);
      const n = where.params.length;
      try {
        // The page, and everything about the whole set in one pass: grouped first by the rule set (a few hundred
        // groups for 30,000 rows), then by each rule, which is where the time went when rows were unnested first.
        const [rows, whole] = await Promise.all([
          pool.query<RowOut>(
            `SELECT date, pg, pg_transaction_id, settlement_date, rules, order_id, utr, amount_at_risk, state, assignee,
                    note, version, updated_by, updated_at, first_seen_at
               FROM desk.exceptions WHERE ${where.sql}
              ORDER BY date DESC, pg, pg_transaction_id, settlement_date LIMIT $${n + 1} OFFSET $${n + 2}`,
            [...where.params, page.limit, page.offset],
          ),
          pool.query<{ total: number; at_risk: number; groups: GroupOut[] | null }>(
            `WITH g AS (
               SELECT rules, pg, date, state, assignee, count(*) AS n, sum(amount_at_risk) AS s, min(first_seen_at) AS o
                 FROM desk.exceptions WHERE ${where.sql} GROUP BY rules, pg, date, state, assignee)
             SELECT (SELECT coalesce(sum(n), 0)::bigint FROM g) AS total,
                    (SELECT coalesce(sum(s), 0)::bigint FROM g) AS at_risk,
                    (SELECT json_agg(x) FROM (
                       SELECT rule, pg, date, state, sum(n)::int AS count, sum(s)::bigint AS at_risk, min(o) AS oldest,
                              array_remove(array_agg(DISTINCT assignee), NULL) AS owners
                         FROM g, unnest(rules) AS rule GROUP BY rule, pg, date, state
                        ORDER BY date DESC, rule, pg, state LIMIT 500) x) AS groups`,
            where.params,
          ),
        ]);
        const totals = whole.rows[0]!;
        return {
          rows: rows.rows.map(toRow),
          total: totals.total,
          amountAtRisk: totals.at_risk,
          groups: (totals.groups ?? []).map((g) => ({
            rule: g.rule,
            pg: g.pg,
            date: g.date,
            state: g.state,
            count: g.count,
            amountAtRisk: g.at_risk,
            oldestSeenAt: new Date(g.oldest).toISOString(),
            owners: g.owners,
          })),
        };
      } catch (e) {
        throw deskErrorOf(e);
      }
    },

    /**
     * Every exception that is not plainly open (acknowledged, resolved or with an owner): the Settlements grid's
     * copy of the desk's states (treasury/exception-queue.ts), as key, state and assignee.
     */
    async states(): Promise<[string, string, string, string, string, string | null][]> {
      try {
        const { rows } = await pool.query<{
          date: string;
          pg: string;
          pg_transaction_id: string;
          settlement_date: string;
          state: string;
          assignee: string | null;
        }>(
          `SELECT date, pg, pg_transaction_id, settlement_date, state, assignee FROM desk.exceptions
            WHERE state <> 'open' OR assignee IS NOT NULL`,
        );
        return rows.map((r) => [r.date, r.pg, r.pg_transaction_id, r.settlement_date, r.state, r.assignee]);
      } catch (e) {
        throw deskErrorOf(e);
      }
    },

    /** One record's row on the desk, by its natural key; null when no sync has published it. */
    async row(key: ExceptionKey): Promise<QueueRow | null> {
      try {
        const { rows } = await pool.query<RowOut>(
          `SELECT date, pg, pg_transaction_id, settlement_date, rules, order_id, utr, amount_at_risk, state, assignee,
                  note, version, updated_by, updated_at, first_seen_at
             FROM desk.exceptions WHERE date = $1 AND pg = $2 AND pg_transaction_id = $3 AND settlement_date = $4`,
          [key.date, key.pg, key.pgTransactionId, key.settlementDate],
        );
        return rows[0] ? toRow(rows[0]) : null;
      } catch (e) {
        throw deskErrorOf(e);
      }
    },

    /** One record, at the version the person saw: a newer version means someone else acted first. */
    act: (key: ExceptionKey & { version: number }, action: string, text: string | null) =>
      act(async () => [key], action, text, null),

    /** A selection (`keys`) or the whole filtered set, all or none, with one journal entry. */
    bulk(request: BulkRequest): Promise<BulkResult> {
      const text = request.text;
      const action = request.action;
      // Assign takes the login as its text; the other actions take it as the note.
      return act(
        async (client) => {
          if (request.keys) return request.keys;
          // The rows the filter matches, at the versions read: the function locks them, and refuses the whole
          // action if anyone moved one of them in between (a person may read the queue, not lock it).
          const where = queueWhere(request.filter, me);
          const { rows } = await client.query<RowOut>(
            `SELECT date, pg, pg_transaction_id, settlement_date, version FROM desk.exceptions WHERE ${where.sql}`,
            where.params,
          );
          return rows.map((r) => ({
            date: r.date,
            pg: r.pg,
            pgTransactionId: r.pg_transaction_id,
            settlementDate: r.settlement_date,
            version: r.version,
          }));
        },
        action,
        text,
        request.filter,
      );
    },

    async events(key: ExceptionKey): Promise<{ at: string; person: string; action: string; text: string | null }[]> {
      const { rows } = await pool.query<{ at: Date; person: string; action: string; text: string | null }>(
        `SELECT at, person, action, text FROM desk.exception_events
          WHERE date = $1 AND pg = $2 AND pg_transaction_id = $3 AND settlement_date = $4 ORDER BY id`,
        [key.date, key.pg, key.pgTransactionId, key.settlementDate],
      );
      return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
    },
  };
}
export type DeskExceptions = ReturnType<typeof createDeskExceptions>;
