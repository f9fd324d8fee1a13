/**
 * What a check of the cached settlements found (electron/cache/settlement-verify.ts): each date's records against the
 * digest its last sync stored, and its rollup, batches and batch modes against its rows. A mismatch is shown, never repaired from
 * the cache's own data: re-fetching the date from the API is the repair.
 */
import { z } from 'zod';
import { calendarDate } from './api/common';

const count = z.number().int().nonnegative();

export const CACHE_MISMATCH_KINDS = ['records', 'rollup', 'batches', 'batch_modes'] as const;

export const cacheMismatch = z.object({
  date: calendarDate,
  /** The gateway whose records differ from their digest; null for the sums (rollup, batches, batch modes), per date. */
  pg: z.string().nullable(),
  kind: z.enum(CACHE_MISMATCH_KINDS),
  /** One sentence: what differs, in records and paise. */
  message: z.string(),
});
export type CacheMismatch = z.output<typeof cacheMismatch>;

export const cacheVerifyResult = z.object({
  /** The synced dates checked, oldest first: their first and last, or null when the cache holds none. */
  from: calendarDate.nullable(),
  to: calendarDate.nullable(),
  dates: count,
  /** Current records read. */
  records: count,
  /**
   * Dates whose records could not be held against a digest: synced before digests were kept, last synced while the
   * service's list kept moving (no stable digest), or written since by a sync that did not finish the date. Their
   * rollup and batches are still checked.
   */
  undigested: z.array(calendarDate),
  mismatches: z.array(cacheMismatch),
  /** The dates with a mismatch, oldest first: what to re-fetch. */
  affectedDates: z.array(calendarDate),
});
export type CacheVerifyResult = z.output<typeof cacheVerifyResult>;

export const cacheVerifyProgress = z.object({ datesDone: count, dates: count, records: count });
export type CacheVerifyProgress = z.output<typeof cacheVerifyProgress>;
