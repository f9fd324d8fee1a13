/**
 * Text search of cached settlements: a UTR, gateway transaction id or order id, typed in full or by its start, in
 * any case (ASCII). The row check itself is the filter's `LIKE 'text%'` (settlement-filter.ts); this decides which
 * rows a read visits.
 *
 * The three keys of every record are in `settlement_keys`, ordered by day then key without case (migrations.ts),
 * so a search seeks each date of its range once: 90 seeks for a 90-day range, and only the matching rows are
 * read. A date whose records changed since its keys were written (a sync writing it now, or one that stopped
 * half-way) is not in `settlement_keyed_days`; its records are walked instead, which only that date costs.
 *
 * Seeking wins while matches are few; a text most rows start with ("pay_") would have the read fetch and sort
 * every one of them, while a plain walk of the range in the read's order meets a match at nearly every row. So a
 * read first counts matches up to MAX_KEYED (keys only, no rows) and takes the seeks below that, the walk above.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { FilterParams } from './settlement-filter';
import { PER_DAY, idRange } from './settlement-ids';

/** Above this many matches, walking the range finds a page sooner than fetching and sorting the matches. */
export const MAX_KEYED = 10_000;

/** The dates of the range with the first id of each (settlement-ids.ts). */
export const DAYS = `days(day, lo) AS (SELECT :from, :lo UNION ALL SELECT date(day, '+1 day'), lo + ${PER_DAY} FROM days WHERE day < :to)`;

/** Matches in the dates whose keys are current, by the keys. */
const KEYED = `SELECT days.lo + k.n AS mid FROM days JOIN settlement_keys AS k
    ON k.day = days.lo / ${PER_DAY} AND k.key >= :searchLo AND k.key < :searchHi`;

/** Matches in the other dates, by walking their records. */
const WALKED = `SELECT s.id AS mid FROM days JOIN settlements AS s ON s.id BETWEEN days.lo AND days.lo + ${PER_DAY - 1}
    WHERE days.day NOT IN (SELECT date FROM settlement_keyed_days)
      AND (s.order_id LIKE :search ESCAPE '\\' OR s.pg_transaction_id LIKE :search ESCAPE '\\'
           OR s.utr LIKE :search ESCAPE '\\')`;

/**
 * Put before a read's SELECT; the read then takes its rows `FROM ${SEARCHED_ROWS}`. The rows a search matches,
 * each once (a record whose UTR and order id both match is one row).
 */
export const SEARCH_WITH = `WITH RECURSIVE ${DAYS}, matches(mid) AS (${KEYED} UNION ${WALKED})`;
export const SEARCHED_ROWS = 'matches CROSS JOIN settlements ON settlements.id = matches.mid';

/** Keys and walked rows, stopping at the cap; a row matching by two keys counts twice, which only errs towards the walk. */
const COUNT_SQL = `WITH RECURSIVE ${DAYS} SELECT count(*) FROM (${KEYED} UNION ALL ${WALKED} LIMIT :cap)`;

/**
 * The first and last dates of the range that may hold a match: a date whose keys hold one, or a date with records
 * whose keys are not current. A walk reads only between them: a UTR is one settlement batch's, often all on one
 * date, and walking the range from its other end read every record of the dates before it (a second day of
 * 1,000,000 records cost a search 220 ms). Dates without a match between two with one are still walked.
 */
const SPAN_SQL = `WITH RECURSIVE ${DAYS} SELECT min(day), max(day) FROM days
  WHERE EXISTS (SELECT 1 FROM settlement_keys AS k
                WHERE k.day = days.lo / ${PER_DAY} AND k.key >= :searchLo AND k.key < :searchHi)
     OR (day NOT IN (SELECT date FROM settlement_keyed_days)
         AND EXISTS (SELECT 1 FROM settlements AS s WHERE s.id BETWEEN days.lo AND days.lo + ${PER_DAY - 1}))`;

/** The key range of every text starting with `text` in SQLite's NOCASE order: [text, text + the highest character). */
export function searchBounds(text: string): { searchLo: string; searchHi: string } {
  return { searchLo: text, searchHi: `${text}\u{10FFFF}` };
}

export function createSearchPlanner(db: Database) {
  let count: Statement | undefined;
  let span: Statement | undefined;
  /** True when a read should visit the search's matches by the key indexes rather than walk its range. */
  function keyed(params: FilterParams): boolean {
    if (params.searchLo === null) return false;
    count ??= db.prepare(COUNT_SQL).pluck();
    return (count.get({ ...params, cap: MAX_KEYED + 1 }) as number) <= MAX_KEYED;
  }
  /** For a read that walks: the filter narrowed to the dates that may hold a match (SPAN_SQL), the same rows. */
  function walked(params: FilterParams): FilterParams {
    if (params.searchLo === null) return params;
    span ??= db.prepare(SPAN_SQL).raw(true);
    const [from, to] = span.get(params) as [string | null, string | null];
    if (from === null || to === null || (from === params.from && to === params.to)) return params;
    return { ...params, from, to, ...idRange(from, to) };
  }
  return {
    walked,
    /**
     * Matches of the search up to `cap`: a key counted per field it matches in the keyed dates, a record once in the
     * others. At least one per record whose UTR starts with the text, so a count equal to the UTR batches' records
     * says those records are every match (settlements.ts reads their totals from the batches).
     */
    matchesUpTo(params: FilterParams, cap: number): number {
      count ??= db.prepare(COUNT_SQL).pluck();
      return count.get({ ...params, cap }) as number;
    },
    /** How any read of `asked` takes its rows: by the keys, or walking only the dates that may hold a match. */
    forRead(asked: FilterParams): { keyed: boolean; params: FilterParams } {
      const byKeys = keyed(asked);
      return { keyed: byKeys, params: byKeys ? asked : walked(asked) };
    },
  };
}
export type SearchPlanner = ReturnType<typeof createSearchPlanner>;
