/**
 * Bulk payout checks for the UI and the CLI: every distinct id of a run is looked up once (through the payout
 * service, so each answer is recorded like a single lookup), a few at a time, and ends as an item of the run.
 *
 * - Bounded: at most `concurrency` lookups in flight per run.
 * - Advance (a hard pull from the gateway) is chosen per run and paced: advance lookups start at least
 *   `advanceIntervalMs` apart across every run of this process, so a long list does not hammer the gateways.
 * - Offline: once a lookup of the run cannot reach the service (or the profile is known offline when the run
 *   starts), the rest are not sent; normal items fail with the reason, advance items are queued in the cache and
 *   run when the service answers again (`runQueued`, called by the core when connectivity turns online).
 */
import { countOutcomes, type PayoutCheckOutcome, type PayoutCheckRun } from '../../shared/payout-checks';
import type { PayoutLookupMode } from '../../shared/payouts';
import { ApiError, isUnreachable } from '../api/errors';
import type { Cache } from '../cache/database';
import type { EventBus } from '../ipc/events';
import type { PayoutService } from './payouts';

export interface PayoutCheckLimits {
  concurrency: number;
  advanceIntervalMs: number;
}

export const PAYOUT_CHECK_LIMITS: PayoutCheckLimits = { concurrency: 4, advanceIntervalMs: 500 };

const QUEUED_REASON = 'Waiting for the service: the advance check runs when it can be reached again.';
const NOT_SENT = 'Not checked: the service could not be reached.';

type Ending = { outcome: PayoutCheckOutcome; lookupId?: number | null; error?: string | null };

export function createPayoutCheckService(deps: {
  payouts: PayoutService;
  cacheFor: (profileId: string) => Cache;
  isOffline: (profileId: string) => boolean;
  events: EventBus;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  limits?: Partial<PayoutCheckLimits>;
}) {
  const limits = { ...PAYOUT_CHECK_LIMITS, ...deps.limits };
  const running = new Set<number>();
  const draining = new Map<string, Promise<number>>();
  let nextAdvanceAt = 0;

  /** Waits for an advance lookup's turn: each starts at least `advanceIntervalMs` after the one before. */
  async function advanceTurn(): Promise<void> {
    for (;;) {
      const wait = nextAdvanceAt - deps.now();
      if (wait <= 0) {
        nextAdvanceAt = deps.now() + limits.advanceIntervalMs;
        return;
      }
      await deps.sleep(wait);
    }
  }

  /**
   * Checks `ids` (distinct) with at most `concurrency` in flight; `settle` gets each id's ending exactly once.
   * Returns whether the service stayed reachable.
   */
  async function checkAll(
    profileId: string,
    mode: PayoutLookupMode,
    ids: readonly string[],
    settle: (index: number, end: Ending) => void,
  ): Promise<boolean> {
    let next = 0;
    let reachable = !(deps.isOffline(profileId) && mode === 'advance');
    const unreached = (): Ending =>
      mode === 'advance' ? { outcome: 'queued', error: QUEUED_REASON } : { outcome: 'failed', error: NOT_SENT };
    const worker = async () => {
      while (next < ids.length) {
        const index = next++;
        if (!reachable) {
          settle(index, unreached());
          continue;
        }
        if (mode === 'advance') await advanceTurn();
        settle(index, await checkOne(profileId, ids[index]!, mode, () => (reachable = false), unreached));
      }
    };
    await Promise.all(Array.from({ length: Math.min(limits.concurrency, ids.length) }, worker));
    return reachable;
  }

  async function checkOne(
    profileId: string,
    id: string,
    mode: PayoutLookupMode,
    lostService: () => void,
    unreached: () => Ending,
  ): Promise<Ending> {
    try {
      const lookup = await deps.payouts.lookup(profileId, id, mode);
      return lookup.payout === null
        ? { outcome: 'refused', lookupId: lookup.id, error: lookup.error }
        : { outcome: 'checked', lookupId: lookup.id };
    } catch (e) {
      if (isUnreachable(e)) {
        lostService();
        return unreached();
      }
      const message = e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : String(e);
      return { outcome: 'failed', error: message };
    }
  }

  function progress(profileId: string, runId: number, done: number, total: number, finished: boolean) {
    deps.events.emit('payoutCheckProgress', { runId, profileId, done, total, finished });
  }

  /** A run as stored; items left pending by a process that closed mid-run read as failed, with why. */
  function read(profileId: string, runId: number): PayoutCheckRun | null {
    const run = deps.cacheFor(profileId).payoutChecks.get(runId);
    if (!run || running.has(runId)) return run;
    const items = run.items.map((i) =>
      i.outcome === 'pending'
        ? { ...i, outcome: 'failed' as const, error: 'Not checked: the app closed before this run ended.' }
        : i,
    );
    return { ...run, items, counts: countOutcomes(items) };
  }

  async function drainQueue(profileId: string): Promise<number> {
    const repo = deps.cacheFor(profileId).payoutChecks;
    const queued = repo.queued();
    const ids = [...new Set(queued.map((q) => q.payoutId))];
    const runs = new Set(queued.map((q) => q.runId));
    let settled = 0;
    await checkAll(profileId, 'advance', ids, (index, end) => {
      if (end.outcome === 'queued') return;
      settled += 1;
      for (const q of queued) if (q.payoutId === ids[index]) repo.settle(q.runId, q.position, end);
    });
    for (const runId of runs) {
      const run = repo.get(runId)!;
      progress(profileId, runId, run.items.length - run.counts.queued, run.items.length, true);
    }
    return settled;
  }

  return {
    async check(profileId: string, request: { ids: readonly string[]; mode: PayoutLookupMode }) {
      const ids = [...new Set(request.ids)];
      const repo = deps.cacheFor(profileId).payoutChecks;
      const runId = repo.start(request.mode, ids);
      running.add(runId);
      let done = 0;
      try {
        await checkAll(profileId, request.mode, ids, (index, end) => {
          repo.settle(runId, index, end);
          done += 1;
          if (done % 10 === 0 || done === ids.length) progress(profileId, runId, done, ids.length, false);
        });
        repo.finish(runId);
      } finally {
        running.delete(runId);
      }
      progress(profileId, runId, done, ids.length, true);
      return read(profileId, runId)!;
    },

    /**
     * Runs the queued advance checks of the profile (each distinct id once); they stay queued while unreachable.
     * Resolves with how many were settled. A drain already under way is joined, not doubled, so a caller that
     * must not exit before the queue has run (the CLI) can wait for the one the core started.
     */
    runQueued(profileId: string): Promise<number> {
      const under = draining.get(profileId);
      if (under) return under;
      const drain = drainQueue(profileId).finally(() => draining.delete(profileId));
      draining.set(profileId, drain);
      return drain;
    },

    /** One lookup outside a run (the watch list's), paced like a run's when it is an advance check. */
    async lookupPaced(profileId: string, id: string, mode: PayoutLookupMode) {
      if (mode === 'advance') await advanceTurn();
      return deps.payouts.lookup(profileId, id, mode);
    },

    get: (profileId: string, runId: number) => read(profileId, runId),
    latest(profileId: string): PayoutCheckRun | null {
      const id = deps.cacheFor(profileId).payoutChecks.latestId();
      return id === null ? null : read(profileId, id);
    },
  };
}
export type PayoutCheckService = ReturnType<typeof createPayoutCheckService>;
