/**
 * The watch list as main keeps it: the pending payouts it checks again on a timer (on any screen, while the app
 * is open), and what it found — a payout whose status changed, or one still pending past its expected time.
 */
import { z } from 'zod';

export const watchNotice = z.object({
  kind: z.enum(['status', 'overdue']),
  payoutId: z.string(),
  /** ISO UTC time it was noticed. */
  at: z.string(),
  /** For a status change: before and after. */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** For overdue: when it was due (ISO UTC). */
  expectedBy: z.string().nullable(),
});
export type WatchNotice = z.output<typeof watchNotice>;

export const watchState = z.object({
  profileId: z.string(),
  /** Pending payouts on the list (at most `limit` are checked per round, least recently checked first). */
  watching: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  overdue: z.number().int().nonnegative(),
  /** Whether its checks are advance checks (the desk's setting). */
  advance: z.boolean(),
  lastCheckedAt: z.string().nullable(),
  nextCheckAt: z.string().nullable(),
  /** Why the last round sent nothing (the service could not be reached); null when it checked. */
  paused: z.string().nullable(),
  /** The latest notices, newest first. */
  notices: z.array(watchNotice),
  /** Notices of the round that just ended: what the status bar and the OS notification announce. */
  fresh: z.array(watchNotice),
});
export type WatchState = z.output<typeof watchState>;

/** The notices of a round in one sentence (status bar, OS notification); null when there are none. */
export function watchNoticeText(fresh: readonly WatchNotice[]): string | null {
  if (fresh.length === 0) return null;
  const one = (n: WatchNotice) =>
    n.kind === 'status'
      ? `${n.payoutId} is now ${n.to ?? 'unknown'} (was ${n.from ?? 'unknown'})`
      : `${n.payoutId} is overdue`;
  return fresh.length <= 2
    ? fresh.map(one).join('; ') + '.'
    : `${one(fresh[0]!)} and ${fresh.length - 1} more notices.`;
}
