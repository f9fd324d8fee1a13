/**
 * Settlement sync as the UI and the CLI see it: what to sync, progress while it runs, and the summary
 * at the end. The sync engine (electron/sync/) produces these; the IPC contract carries them.
 *
 * Counts in a summary are the run's totals: a run resumed after a crash or a cancel reports the pages
 * and records of every attempt, not only the last one.
 */
import { z } from 'zod';
import { calendarDate } from './api/common';
import { cacheDate, filterText } from './settlement-query';

/** The longest range one sync takes: a year, well past the sandbox's 90 days of settlements. */
export const MAX_SYNC_DAYS = 366;

const count = z.number().int().nonnegative();

export const syncRequest = z
  .object({ from: cacheDate, to: cacheDate, pg: filterText.optional() })
  .strict()
  .refine((r) => r.from <= r.to, { message: 'must not be before from', path: ['to'] })
  .refine((r) => daysBetween(r.from, r.to) < MAX_SYNC_DAYS, {
    message: `must be within ${MAX_SYNC_DAYS} days of from`,
    path: ['to'],
  });
export type SyncRequest = z.output<typeof syncRequest>;

export const syncProgress = z.object({
  runId: z.number().int().positive(),
  dates: count,
  datesDone: count,
  pages: count,
  records: count,
  /** Records per second over this attempt. */
  ratePerSec: z.number().nonnegative(),
  /** Null until there is enough to estimate from: one finished date, or a date's record count known. */
  etaSeconds: z.number().nonnegative().nullable(),
  /** The date whose pages are being stored, or null between dates and at the end. */
  currentDate: calendarDate.nullable(),
});
export type SyncProgress = z.output<typeof syncProgress>;

export const SYNC_DATE_STATUSES = ['completed', 'failed', 'cancelled'] as const;

export const syncDateSummary = z.object({
  date: calendarDate,
  status: z.enum(SYNC_DATE_STATUSES),
  records: count,
  pages: count,
  /** Records already cached whose fields changed. */
  updated: count,
  /** Records cached before that the API no longer returned for this date: kept and marked. */
  vanished: count,
  /** Why the date failed, in words a treasury user understands. */
  error: z.string().optional(),
});
export type SyncDateSummary = z.output<typeof syncDateSummary>;

export const SYNC_STATUSES = ['completed', 'partial', 'cancelled'] as const;

/** Dates that failed for the same reason, as one line: offline, a 90-day sync fails 90 times the same way. */
export const syncFailure = z.object({
  error: z.string(),
  count: count,
  /** Oldest first. */
  dates: z.array(calendarDate),
});
export type SyncFailure = z.output<typeof syncFailure>;

export const syncSummary = z.object({
  runId: z.number().int().positive(),
  /** True when this call continued an unfinished run of the same range instead of starting over. */
  resumed: z.boolean(),
  /** Pages asked at once: the profile's setting, or the CLI's `--concurrency`. */
  concurrency: z.number().int().positive(),
  status: z.enum(SYNC_STATUSES),
  from: calendarDate,
  to: calendarDate,
  pg: z.string().nullable(),
  dates: z.array(syncDateSummary),
  records: count,
  pages: count,
  updated: count,
  vanished: count,
  /** Completed dates for which the service returned no settlement at all (before its history, a quiet day). */
  empty: z.array(calendarDate),
  /** The failed dates grouped by reason, most dates first. */
  failures: z.array(syncFailure),
  /** Wall time of this attempt. */
  ms: count,
});
export type SyncSummary = z.output<typeof syncSummary>;

/**
 * Why a sync of `request` must not start when it is `today` in IST: the service has no settlements for dates
 * still to come, and a sync that "completed" them would say they were empty. Null when it may start.
 */
export function futureDatesProblem(request: Pick<SyncRequest, 'to'>, today: string): string | null {
  return request.to > today
    ? `The range reaches past today (${today}, IST): the service has no settlements for future dates. Choose dates up to today.`
    : null;
}

/** Failed dates grouped by their reason, most dates first, then by the first date. */
export function groupFailures(dates: readonly Pick<SyncDateSummary, 'date' | 'status' | 'error'>[]): SyncFailure[] {
  const groups = new Map<string, string[]>();
  for (const d of dates) {
    if (d.status !== 'failed') continue;
    const error = d.error ?? 'The date failed for a reason that was not recorded.';
    groups.set(error, [...(groups.get(error) ?? []), d.date]);
  }
  return [...groups.entries()]
    .map(([error, list]) => ({ error, count: list.length, dates: [...list].sort() }))
    .sort((a, b) => b.count - a.count || (a.dates[0]! < b.dates[0]! ? -1 : 1));
}

function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}
