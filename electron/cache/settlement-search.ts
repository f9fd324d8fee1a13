/**
 * Text search of cached settlements: a UTR, gateway transaction id or order id, typed in full or by its start, in
 * any case (ASCII). The row check itself is the filter's `LIKE 'text%'` (settlement-filter.ts); this decides which
 * rows a read visits.
 *
 * The three keys are indexed per date (`date`, then the key without case: migration 7), so a search seeks each
 * date of its range once per key: a few hundred index seeks for a 90-day range, and only the matching rows are
 * read. That wins while matches are few; a text most rows start with ("pay_") would have the read fetch and sort
 * every one of them, while a plain walk of the range in the read's order meets a match at nearly every row. So a
 * read first counts matches up to MAX_KEYED (index entries only, no rows) and takes the seeks below that, the
 * walk above it.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { FilterParams } from './settlement-filter';

/** Above this many index matches, walking the range finds a page sooner than fetching and sorting the matches. */
export const MAX_KEYED = 10_000;

/** The dates of the range, one row each; the key indexes are entered once per date. */
const DAYS = `days(day) AS (SELECT :from UNION ALL SELECT date(day, '+1 day') FROM days WHERE day < :to)`;

/** One key's matches in the range, by its per-date index. */
function keyMatches(column: string, index: string): string {
  return `SELECT s.id AS mid FROM days JOIN settlements AS s INDEXED BY ${index}
    ON s.date = days.day AND s.${column} COLLATE NOCASE >= :searchLo AND s.${column} COLLATE NOCASE < :searchHi
    WHERE s.${column} IS NOT NULL`;
}

const KEY_MATCHES = [
  keyMatches('utr', 'settlements_utr_by_date'),
  keyMatches('pg_transaction_id', 'settlements_transaction_by_date'),
  keyMatches('order_id', 'settlements_order_by_date'),
];

/**
 * Put before a read's SELECT; the read then takes its rows `FROM ${SEARCHED_ROWS}`. The rows a search matches,
 * each once (a record whose UTR and order id both match is one row).
 */
export const SEARCH_WITH = `WITH RECURSIVE ${DAYS}, matches(mid) AS (${KEY_MATCHES.join(' UNION ')})`;
export const SEARCHED_ROWS = 'matches CROSS JOIN settlements ON settlements.id = matches.mid';

/** Index entries only, stopping at the cap; a row matching by two keys counts twice, which only errs towards the walk. */
const COUNT_SQL = `WITH RECURSIVE ${DAYS} SELECT count(*) FROM (${KEY_MATCHES.join(' UNION ALL ')} LIMIT :cap)`;

/** The key range of every text starting with `text` in SQLite's NOCASE order: [text, text + the highest character). */
export function searchBounds(text: string): { searchLo: string; searchHi: string } {
  return { searchLo: text, searchHi: `${text}\u{10FFFF}` };
}

export function createSearchPlanner(db: Database) {
  let count: Statement | undefined;
  return {
    /** True when a read should visit the search's matches by the key indexes rather than walk its range. */
    keyed(params: FilterParams): boolean {
      if (params.searchLo === null) return false;
      count ??= db.prepare(COUNT_SQL).pluck();
      return (count.get({ ...params, cap: MAX_KEYED + 1 }) as number) <= MAX_KEYED;
    },
  };
}
export type SearchPlanner = ReturnType<typeof createSearchPlanner>;
