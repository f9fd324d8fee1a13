/**
 * The watch list, run by main: every `intervalMs` (on any screen, while the app is open) the active profile's
 * pending payouts are checked again — at most `limit` per round, least recently checked first, one at a time —
 * with normal checks, or advance checks (paced with the bulk checks') when the desk turned that on. A status
 * change, or a pending payout passing its expected time (shared/payout-ageing.ts, on the injected clock), becomes
 * a notice, pushed as the `payoutWatch` event for the status bar and the OS notification. While the service cannot
 * be reached a round sends nothing, but still notices what went overdue.
 */
import { payoutAge } from '../../shared/payout-ageing';
import { isPendingTransfer } from '../../shared/payouts';
import type { WatchNotice, WatchState } from '../../shared/payout-watch';
import { isUnreachable } from '../api/errors';
import type { Cache } from '../cache/database';
import type { EventBus } from '../ipc/events';
import type { Logger } from '../log';
import type { PayoutCheckService } from './payout-checks';

export const WATCH_INTERVAL_MS = 30_000;
export const WATCH_LIMIT = 100;
const KEPT_NOTICES = 50;

interface ProfileWatch {
  lastCheckedAt: string | null;
  paused: string | null;
  notices: WatchNotice[];
  /** Payouts already announced as overdue, so each is announced once. */
  overdueNoticed: Set<string>;
  fresh: WatchNotice[];
}

export function createPayoutWatch(deps: {
  checks: PayoutCheckService;
  cacheFor: (profileId: string) => Cache;
  activeProfileId: () => string;
  isOffline: (profileId: string) => boolean;
  events: EventBus;
  now: () => number;
  log: Logger;
  intervalMs?: number;
  limit?: number;
}) {
  const intervalMs = deps.intervalMs ?? WATCH_INTERVAL_MS;
  const limit = deps.limit ?? WATCH_LIMIT;
  const profiles = new Map<string, ProfileWatch>();
  const busy = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let nextAt: number | null = null;

  const of = (profileId: string): ProfileWatch => {
    let w = profiles.get(profileId);
    if (!w)
      profiles.set(
        profileId,
        (w = { lastCheckedAt: null, paused: null, notices: [], overdueNoticed: new Set(), fresh: [] }),
      );
    return w;
  };
  const pendingOf = (cache: Cache) => cache.payouts.recent(1_000).filter((l) => isPendingTransfer(l.transferStatus));

  function state(profileId: string): WatchState {
    const w = of(profileId);
    const cache = deps.cacheFor(profileId);
    const settings = cache.payoutSettings.get();
    const pending = pendingOf(cache);
    const at = deps.now();
    return {
      profileId,
      watching: pending.length,
      limit,
      overdue: pending.filter((l) => payoutAge(l, at, settings.turnaround).overdue).length,
      advance: settings.watchAdvance,
      lastCheckedAt: w.lastCheckedAt,
      nextCheckAt: nextAt === null ? null : new Date(nextAt).toISOString(),
      paused: w.paused,
      notices: w.notices,
      fresh: w.fresh,
    };
  }

  /** One round for the profile; resolves with its state. A round already running for it is not doubled. */
  async function tick(profileId = deps.activeProfileId()): Promise<WatchState> {
    if (busy.has(profileId)) return state(profileId);
    busy.add(profileId);
    const w = of(profileId);
    const fresh: WatchNotice[] = [];
    const noticedAt = () => new Date(deps.now()).toISOString();
    try {
      const cache = deps.cacheFor(profileId);
      const settings = cache.payoutSettings.get();
      const round = pendingOf(cache)
        .sort((a, b) => (a.lookedUpAt < b.lookedUpAt ? -1 : a.lookedUpAt > b.lookedUpAt ? 1 : 0))
        .slice(0, limit);
      w.paused = null;
      for (const before of round) {
        if (deps.isOffline(profileId)) {
          w.paused = 'The service cannot be reached: the watch list checks again when it answers.';
          break;
        }
        try {
          const after = await deps.checks.lookupPaced(
            profileId,
            before.payoutId,
            settings.watchAdvance ? 'advance' : 'normal',
          );
          if (after.payout !== null && after.transferStatus !== before.transferStatus) {
            fresh.push({
              kind: 'status',
              payoutId: before.payoutId,
              at: noticedAt(),
              from: before.transferStatus,
              to: after.transferStatus,
              expectedBy: null,
            });
          }
        } catch (e) {
          if (isUnreachable(e)) {
            w.paused = e.userMessage;
            break;
          }
          deps.log.warn('watch list check failed', { profileId, payoutId: before.payoutId, error: e });
        }
      }
      const at = deps.now();
      for (const l of pendingOf(cache)) {
        const age = payoutAge(l, at, settings.turnaround);
        if (!age.overdue || w.overdueNoticed.has(l.payoutId)) continue;
        w.overdueNoticed.add(l.payoutId);
        fresh.push({
          kind: 'overdue',
          payoutId: l.payoutId,
          at: noticedAt(),
          from: null,
          to: null,
          expectedBy: age.expectedBy,
        });
      }
      w.lastCheckedAt = new Date(at).toISOString();
      w.fresh = fresh;
      w.notices = [...fresh.slice().reverse(), ...w.notices].slice(0, KEPT_NOTICES);
      const s = state(profileId);
      deps.events.emit('payoutWatch', s);
      return s;
    } finally {
      busy.delete(profileId);
    }
  }

  return {
    tick,
    state,
    /** Starts the timer (the app does; the CLI and most tests do not). */
    start(): void {
      if (timer) return;
      nextAt = deps.now() + intervalMs;
      timer = setInterval(() => {
        nextAt = deps.now() + intervalMs;
        tick().catch((e: unknown) => deps.log.warn('watch list round failed', { error: e }));
      }, intervalMs);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
      nextAt = null;
    },
  };
}
export type PayoutWatch = ReturnType<typeof createPayoutWatch>;
