/**
 * The Today screen's summary and its "Refresh all", for the app (IPC `today.*`) and the CLI (`today`). Every figure is
 * the owning module's own (Accounts' headroom, Reconciliation's report, the exception queue's page, the approvals'
 * counts, the watch list's state, the cache's sync times and completeness, the journal's last verification and its
 * closed periods), called here and never worked out a second way, so each one ties to the screen it links to. Every
 * panel reads the cache (and the desk in desk mode): no request to the service, so it works offline, dated.
 */
import { randomUUID } from 'node:crypto';
import { addDays, epochMsToIstDate } from '../../shared/time';
import {
  DEFAULT_REFRESH_DAYS,
  REFRESH_PARTS,
  type RefreshPart,
  type RefreshState,
  type NotArrivedAccount,
  type TodaySummary,
} from '../../shared/today';
import { ApiError } from '../api/errors';
import type { Cache } from '../cache/database';
import type { DeskRegistry } from '../desk/registry';
import type { EventBus } from '../ipc/events';
import type { IpcEventPayload } from '../../shared/ipc/contract';
import type { Journals } from '../journal/registry';
import type { Approvals } from '../approvals/approvals';
import type { Reconciliation } from '../reconciliation/service';
import type { SyncJobs } from '../sync/jobs';
import type { AccountService } from '../treasury/accounts';
import type { ExceptionQueue } from '../treasury/exception-queue';
import type { PayoutWatch } from '../treasury/payout-watch';

export interface TodayDeps {
  cacheFor(profileId: string): Cache;
  /** Whether the profile has a cache file: asking must not create one (a profile never synced has none). */
  hasCache(profileId: string): boolean;
  accounts: AccountService;
  reconciliation: Reconciliation;
  exceptionQueue: ExceptionQueue;
  approvals: Approvals;
  payoutWatch: PayoutWatch;
  journals: Journals;
  desks: DeskRegistry;
  syncJobs: SyncJobs;
  events: EventBus;
  now: () => number;
}

/** Reconciliation's own default period (its screen opens on the seven days before today). */
export const RECON_PERIOD_DAYS = 7;

/** A last statement older than this many days is named on its account ("no statement for N days"). */
const STATEMENT_STALE_DAYS = 2;

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** What a person reads when a source failed: the service's own sentence for an API error, else the error's. */
export function sentenceOf(e: unknown): string {
  if (e instanceof ApiError) return e.userMessage;
  return e instanceof Error ? e.message : String(e);
}

type Panel<T> = { data: T | null; asOf: string | null; error: string | null };

/** One panel: its source's figures and age, or why it could not be read, never hiding the others. */
async function panelOf<T>(read: () => Promise<{ data: T; asOf: string | null }> | { data: T; asOf: string | null }) {
  try {
    const { data, asOf } = await read();
    return { data, asOf, error: null } satisfies Panel<T>;
  } catch (e) {
    return { data: null, asOf: null, error: sentenceOf(e) } satisfies Panel<T>;
  }
}

const EMPTY = { data: null, asOf: null, error: null };

export function createToday(deps: TodayDeps) {
  const refreshes = new Map<string, { state: RefreshState; cancel: () => void; ended: Promise<RefreshState> }>();
  const today = () => epochMsToIstDate(deps.now());
  const nowIso = () => new Date(deps.now()).toISOString();

  function refreshDays(profileId: string): number {
    if (!deps.hasCache(profileId)) return DEFAULT_REFRESH_DAYS;
    return deps.cacheFor(profileId).today.refreshDays() ?? DEFAULT_REFRESH_DAYS;
  }

  function payable(profileId: string) {
    const r = deps.accounts.headroom(profileId);
    // No balance ever refreshed is no figure, not "₹0.00 payable": the panel says to refresh them.
    if (r.gateways.length === 0) return { data: null, asOf: null };
    return {
      data: {
        gateways: r.gateways,
        total: r.total,
        unreported: r.unreported,
        low: r.gateways.filter((g) => g.low).map((g) => g.pg),
      },
      asOf: r.asOf,
    };
  }

  async function notArrived(profileId: string, syncedAt: string | null) {
    const to = addDays(today(), -1);
    const from = addDays(today(), -RECON_PERIOD_DAYS);
    const { accounts } = await deps.reconciliation.accounts(profileId);
    const rows: NotArrivedAccount[] = [];
    for (const a of accounts) {
      const r = await deps.reconciliation.report(profileId, { account: a.name, from, to });
      const batch = (state: string) => r.batchTotals.find((t) => t.state === state)!;
      const credit = (state: string) => r.creditTotals.find((t) => t.state === state)!;
      const differs = credit('differs');
      const last =
        r.statements
          .map((s) => s.to)
          .sort()
          .at(-1) ?? null;
      const gap = last === null ? RECON_PERIOD_DAYS + 1 : daysBetween(last, today());
      rows.push({
        account: a.name,
        overdue: { count: batch('overdue').count, amount: batch('overdue').amount },
        differs: {
          count: differs.count,
          amount: differs.amount,
          difference: batch('differs').difference,
        },
        unmatched: { count: credit('unmatched').count, amount: credit('unmatched').amount },
        lastStatementDate: last,
        noStatementDays: gap > STATEMENT_STALE_DAYS ? gap : null,
      });
    }
    const sum = (pick: (a: (typeof rows)[number]) => { count: number; amount: number }) => ({
      count: rows.reduce((t, a) => t + pick(a).count, 0),
      amount: rows.reduce((t, a) => t + pick(a).amount, 0),
    });
    return {
      data: {
        from,
        to,
        accounts: rows,
        total: {
          overdue: sum((a) => a.overdue),
          differs: { ...sum((a) => a.differs), difference: rows.reduce((t, a) => t + a.differs.difference, 0) },
          unmatched: sum((a) => a.unmatched),
        },
      },
      // The batches are the cache's, as of the last sync; the statements are dated on each account.
      asOf: syncedAt,
    };
  }

  async function exceptions(profileId: string, syncedAt: string | null) {
    const q = await deps.exceptionQueue.summary(profileId);
    return {
      data: { ...q, oldestDays: q.oldestDate === null ? null : daysBetween(q.oldestDate, today()) },
      // On a desk the queue is read live; alone it is the cache's, as of the last sync.
      asOf: deps.desks.joined(profileId) ? nowIso() : syncedAt,
    };
  }

  function freshness(profileId: string) {
    const cache = deps.cacheFor(profileId);
    const to = addDays(today(), -1);
    const from = addDays(today(), -RECON_PERIOD_DAYS);
    const known = new Map(cache.manifests.completeness({ from, to }).map((d) => [d.date, d.state]));
    const incomplete: { date: string; state: 'unstable' | 'unknown' | 'never' }[] = [];
    for (let d = from; d <= to; d = addDays(d, 1)) {
      const state = known.get(d) ?? 'never';
      if (state !== 'complete') incomplete.push({ date: d, state });
    }
    const journal = deps.journals.for(profileId);
    const periods = journal.periods.list();
    return {
      data: {
        settlementsSyncedAt: cache.settlements.syncedAsOf(from, to),
        from,
        to,
        incomplete,
        changes: cache.changes.summary({ from, to }).byKind,
        balancesAt: cache.accounts.overview().asOf,
        journalVerify: journal.journal.lastVerification(),
        periods: {
          closed: periods.length,
          changed: periods.filter((p) => p.state === 'changed').map((p) => ({ id: p.id, from: p.from, to: p.to })),
        },
      },
      asOf: null,
    };
  }

  async function summary(profileId: string): Promise<TodaySummary> {
    const mode = deps.desks.joined(profileId) ? 'desk' : 'local';
    const approvals =
      mode === 'desk'
        ? await panelOf(async () => ({ data: await deps.approvals.counts(profileId), asOf: nowIso() }))
        : EMPTY;
    const base = {
      profileId,
      today: today(),
      mode,
      refreshDays: refreshDays(profileId),
      approvals,
      refresh: refreshes.get(profileId)?.state ?? null,
    } as const;
    if (!deps.hasCache(profileId)) {
      return {
        ...base,
        firstRun: true,
        payable: EMPTY,
        notArrived: EMPTY,
        exceptions: EMPTY,
        watch: EMPTY,
        freshness: EMPTY,
      };
    }
    const syncedAt = deps.cacheFor(profileId).settlements.lastSyncedAt();
    return {
      ...base,
      firstRun: syncedAt === null,
      payable: await panelOf(() => payable(profileId)),
      notArrived: await panelOf(() => notArrived(profileId, syncedAt)),
      exceptions: await panelOf(() => exceptions(profileId, syncedAt)),
      watch: await panelOf(() => {
        const w = deps.payoutWatch.state(profileId);
        return {
          data: { watching: w.watching, overdue: w.overdue, lastCheckedAt: w.lastCheckedAt, paused: w.paused },
          asOf: w.lastCheckedAt,
        };
      }),
      freshness: await panelOf(() => freshness(profileId)),
    };
  }

  /**
   * A sync of the dates through the sync jobs (progress as the Settlements screen shows it), waited for; dates that
   * did not sync are the part's failure, in the sync's own words.
   */
  async function syncAndWait(profileId: string, from: string, to: string, onJob: (jobId: string) => void) {
    const ended = new Map<string, IpcEventPayload<'syncFinished'>>();
    let wake = () => {};
    const stop = deps.events.subscribe((event, payload) => {
      if (event !== 'syncFinished') return;
      const finished = payload as IpcEventPayload<'syncFinished'>;
      ended.set(finished.jobId, finished);
      wake();
    });
    try {
      const jobId = deps.syncJobs.start(profileId, { from, to });
      onJob(jobId);
      while (!ended.has(jobId)) await new Promise<void>((resolve) => (wake = resolve));
      const { summary, error } = ended.get(jobId)!;
      if (summary === null) throw new Error(error ?? 'The sync did not run.');
      if (summary.status === 'cancelled') throw new Error('Cancelled.');
      if (summary.failures.length > 0) {
        throw new Error(summary.failures.map((f) => `${f.error} (${f.count} of the dates)`).join(' '));
      }
    } finally {
      stop();
    }
  }

  /** "Refresh all": the balances, a sync of the last N days and a watch round, one after the other; cancellable. */
  function refresh(profileId: string): RefreshState {
    const running = refreshes.get(profileId);
    if (running?.state.running) return running.state;
    const days = refreshDays(profileId);
    const to = addDays(today(), -1);
    const state: RefreshState = {
      jobId: randomUUID(),
      profileId,
      running: true,
      from: addDays(to, -(days - 1)),
      to,
      parts: REFRESH_PARTS.map((part) => ({ part, state: 'waiting', error: null })),
      startedAt: nowIso(),
      finishedAt: null,
    };
    let cancelled = false;
    let syncJobId: string | null = null;
    // Kept before the first part starts, so its events already find this refresh (and Cancel reaches it).
    const entry = {
      state,
      cancel: () => {
        cancelled = true;
        if (syncJobId) deps.syncJobs.cancel(syncJobId);
      },
      ended: Promise.resolve(state),
    };
    refreshes.set(profileId, entry);
    const set = (part: RefreshPart, s: RefreshState['parts'][number]['state'], error: string | null = null) => {
      const i = state.parts.findIndex((p) => p.part === part);
      state.parts[i] = { part, state: s, error };
      deps.events.emit('todayRefresh', state);
    };
    const parts: Record<RefreshPart, () => Promise<unknown>> = {
      balances: () => deps.accounts.refresh(profileId),
      sync: () => syncAndWait(profileId, state.from, state.to, (id) => (syncJobId = id)),
      watch: async () => {
        const w = await deps.payoutWatch.tick(profileId);
        if (w.paused) throw new Error(w.paused);
      },
    };
    entry.ended = (async () => {
      for (const part of REFRESH_PARTS) {
        if (cancelled) {
          set(part, 'cancelled');
          continue;
        }
        set(part, 'running');
        try {
          await parts[part]();
          set(part, cancelled ? 'cancelled' : 'done');
        } catch (e) {
          set(part, cancelled ? 'cancelled' : 'failed', cancelled ? null : sentenceOf(e));
        }
      }
      state.running = false;
      state.finishedAt = nowIso();
      deps.events.emit('todayRefresh', state);
      return state;
    })();
    return state;
  }

  return {
    summary,
    refresh,
    /**
     * "Refresh all" waited for (the CLI's `today --refresh`): starts one, or joins the one running, and resolves with
     * each part's outcome once the last has ended; `signal` cancels it as the screen's Cancel does. No part throws out
     * of it: a failure is its part's `error`.
     */
    async refreshAndWait(profileId: string, signal?: AbortSignal): Promise<RefreshState> {
      refresh(profileId);
      const running = refreshes.get(profileId)!;
      const cancel = () => running.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        return await running.ended;
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    },
    /** Stops "Refresh all": the part running stops (a sync where it is), the rest are not started. */
    cancelRefresh(profileId: string, jobId: string): boolean {
      const r = refreshes.get(profileId);
      if (!r || r.state.jobId !== jobId || !r.state.running) return false;
      r.cancel();
      return true;
    },
    setRefreshDays(profileId: string, days: number): number {
      deps.cacheFor(profileId).today.setRefreshDays(days);
      return days;
    },
  };
}
export type Today = ReturnType<typeof createToday>;
