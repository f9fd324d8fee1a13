/**
 * Row ids of cached settlements, which are also their default order. The writer assigns them:
 *
 *     id = day * 2^32 + n
 *
 * day: days since 1970-01-01 of the date the API was asked for; n: the order in which the records of that
 * date arrived (the API's own order, then any record a later sync adds). Exact as a JavaScript number.
 *
 * Why: a sync stores dates oldest first and each date's records in arrival order, so ids only grow and
 * the table's B-tree is appended to like a bare insert (ids in settlement-time order, or newest date
 * first, cost a fifth more: every insert lands mid-tree). The default order and a date range are rowid
 * ranges, with no index to maintain, and every row has a unique key, so keyset pages need no tie-breaker.
 */
import { isCalendarDate } from '../../shared/time';

export const PER_DAY = 2 ** 32;

export function dayNumber(date: string): number {
  if (!isCalendarDate(date)) throw new RangeError(`"${date}" is not a YYYY-MM-DD date`);
  const day = Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  if (day < 0) throw new RangeError(`${date} is before the dates the cache can hold`);
  return day;
}

/** Every id of the dates from `from` to `to`, both included. */
export function idRange(from: string, to: string): { lo: number; hi: number } {
  return { lo: dayNumber(from) * PER_DAY, hi: (dayNumber(to) + 1) * PER_DAY - 1 };
}

/** The date an id belongs to: the inverse of `dayNumber` on its day. */
export function dateOfId(id: number): string {
  return new Date(Math.floor(id / PER_DAY) * 86_400_000).toISOString().slice(0, 10);
}
