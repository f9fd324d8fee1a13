/**
 * Sorting by a column of many values (amounts, times, ids) through the sort keys (sort-keys.ts): per day and column,
 * every record's value and id in order with its ordinal.
 *
 * A page merges the days of the range: each day is read from the cursor on, a few keys at a time, in its keys' order
 * (a seek, then the records checked against the filter as they come), and the smallest head wins, so a page reads
 * about its own rows plus a few keys a day, never the range. A jump (a position) in an unfiltered range finds the
 * key at that rank by selection across the days: a pivot taken from the widest day's window, its rank in every day
 * one seek each (its ordinal), the windows narrowed to the pivot's side, until a few hundred keys remain, which are
 * read and sorted. A filter other than the dates has no counts to rank with (the keys are not split by gateway or
 * status): its jumps skip rows as before (settlement-pages.ts).
 *
 * Dates whose keys are not current (a sync writing them, one cancelled) make a read fall back to scanning the range,
 * so an answer is never missing a record, only slower until the keys are written.
 */
import type { Database, Statement } from 'better-sqlite3';
import { EXCEPTIONS_SQL, FILTER_SQL, type FilterParams } from './settlement-filter';
import { PER_DAY, dayNumber } from './settlement-ids';
import { DAYS } from './settlement-search';
import { KEYED_SORT_COLUMNS, type KeyedSortColumn } from './sort-keys';

type Value = string | number;
type Key = [value: Value, id: number];

/** Text in SQLite's BINARY order (UTF-8 bytes, which is code point order); numbers by value; ties by id. */
function compareValues(a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  if (x === y) return 0;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const cx = x.charCodeAt(i);
    const cy = y.charCodeAt(i);
    if (cx === cy) continue;
    // A surrogate (a code point past U+FFFF) is above every other UTF-16 unit in code point order.
    const sx = cx >= 0xd800 && cx <= 0xdfff;
    const sy = cy >= 0xd800 && cy <= 0xdfff;
    return sx === sy ? cx - cy : sx ? 1 : -1;
  }
  return x.length - y.length;
}
export const compareKeys = (a: Key, b: Key): number => compareValues(a[0], b[0]) || a[1] - b[1];

const SQL = {
  /** Dates of the range holding records whose sort keys are not current. */
  unsorted: `WITH RECURSIVE ${DAYS} SELECT count(*) FROM days
    WHERE day NOT IN (SELECT date FROM settlement_sorted_days)
      AND EXISTS (SELECT 1 FROM settlements WHERE id BETWEEN days.lo AND days.lo + ${PER_DAY - 1})`,
  sortedDays: `SELECT date FROM settlement_sorted_days WHERE date BETWEEN :from AND :to ORDER BY date`,
  currentCount: `SELECT coalesce(sum(count), 0) FROM settlement_rollup WHERE date BETWEEN :from AND :to`,
  dayCount: `SELECT n + 1 FROM settlement_sort_keys WHERE day = :day AND col = :col ORDER BY value DESC, id DESC LIMIT 1`,
  /** Keys of a day below a key: its ordinal, or none when every key is below. */
  rank: `SELECT n FROM settlement_sort_keys WHERE day = :day AND col = :col AND (value, id) >= (:value, :id)
    ORDER BY value, id LIMIT 1`,
  /** A day's keys in order from its first, or (`windowAfter`) after a key: two statements, so each seeks. */
  window: `SELECT value, id FROM settlement_sort_keys WHERE day = :day AND col = :col
    ORDER BY value, id LIMIT :n OFFSET :skip`,
  windowAfter: `SELECT value, id FROM settlement_sort_keys WHERE day = :day AND col = :col
    AND (value, id) > (:value, :id) ORDER BY value, id LIMIT :n OFFSET :skip`,
} as const;

/** A day's keys from a cursor on, in the read's direction, whose records pass the filter. */
function chunkSql(direction: 'asc' | 'desc', exceptions: string, resumed: boolean): string {
  const [dir, past] = direction === 'desc' ? ['DESC', '<'] : ['ASC', '>'];
  return `SELECT k.value, k.id FROM settlement_sort_keys AS k CROSS JOIN settlements ON settlements.id = k.id
    WHERE k.day = :day AND k.col = :col ${resumed ? `AND (k.value, k.id) ${past} (:kValue, :kId)` : ''}
      AND ${FILTER_SQL} ${exceptions}
    ORDER BY k.value ${dir}, k.id ${dir} LIMIT :n`;
}

/** Below this many candidate keys a jump reads them all and sorts them. */
const FEW = 512;
/** Selection rounds before a jump gives up to the scan: each round at least halves the widest day. */
const MAX_ROUNDS = 200;

export function createKeyOrder(db: Database) {
  const sql = Object.fromEntries(Object.entries(SQL).map(([k, v]) => [k, db.prepare(v)])) as Record<
    keyof typeof SQL,
    Statement
  >;
  const chunks = new Map<string, Statement>();
  const chunk = (direction: 'asc' | 'desc', exceptionsOnly: boolean, resumed: boolean): Statement => {
    const name = `${direction}:${exceptionsOnly}:${resumed}`;
    let s = chunks.get(name);
    if (!s) {
      s = db.prepare(chunkSql(direction, exceptionsOnly ? EXCEPTIONS_SQL : '', resumed)).raw(true);
      chunks.set(name, s);
    }
    return s;
  };
  sql.window.raw(true);
  sql.windowAfter.raw(true);

  /** The range's days with current keys, or null when a date with records has none (the caller scans instead). */
  function days(filter: FilterParams): number[] | null {
    if ((sql.unsorted.pluck().get(filter) as number) > 0) return null;
    return (sql.sortedDays.pluck().all(filter) as string[]).map(dayNumber);
  }

  /**
   * The ids of one page in (column, id) order after `cursor` (or from the first row): `limit + 1` when more follow.
   * Null when the range's keys are not all current.
   */
  function pageIds(
    column: KeyedSortColumn,
    direction: 'asc' | 'desc',
    filter: FilterParams,
    exceptionsOnly: boolean,
    cursor: { value: Value; id: number } | null,
    limit: number,
  ): number[] | null {
    const dayList = days(filter);
    if (dayList === null) return null;
    const col = KEYED_SORT_COLUMNS.indexOf(column);
    const sign = direction === 'desc' ? -1 : 1;
    const first = Math.max(8, Math.ceil((2 * (limit + 1)) / Math.max(1, dayList.length)));
    const heads = dayList.map((day) => ({ day, keys: [] as Key[], at: 0, size: first, done: false }));
    const fill = (h: (typeof heads)[number], after: { value: Value; id: number } | null) => {
      const keys = chunk(direction, exceptionsOnly, after !== null).all({
        ...filter,
        day: h.day,
        col,
        kValue: after?.value ?? null,
        kId: after?.id ?? null,
        n: h.size,
      }) as Key[];
      h.keys = keys;
      h.at = 0;
      h.done = keys.length < h.size;
      h.size *= 2;
    };
    for (const h of heads) fill(h, cursor);
    const ids: number[] = [];
    while (ids.length <= limit) {
      let best: (typeof heads)[number] | null = null;
      for (const h of heads) {
        if (h.at === h.keys.length) {
          if (h.done) continue;
          const last = h.keys.at(-1)!;
          fill(h, { value: last[0], id: last[1] });
          if (h.keys.length === 0) continue;
        }
        if (best === null || sign * compareKeys(h.keys[h.at]!, best.keys[best.at]!) < 0) best = h;
      }
      if (best === null) break;
      ids.push(best.keys[best.at++]![1]);
    }
    return ids;
  }

  /**
   * The key at `rank` (0 is the smallest) among the current records of an unfiltered range, by selection across the
   * days; null when the keys cannot count them (a date without current keys, vanished records in the range, or
   * `rank` past the end), `total` beside it.
   */
  function keyAtRank(
    column: KeyedSortColumn,
    filter: FilterParams,
    rankOf: (total: number) => number,
  ): { key: Key | null; total: number } | null {
    const dayList = days(filter);
    if (dayList === null) return null;
    const col = KEYED_SORT_COLUMNS.indexOf(column);
    const windows = dayList.map((day) => {
      const size = (sql.dayCount.pluck().get({ day, col }) as number | undefined) ?? 0;
      return { day, a: 0, b: size, size, low: null as Key | null };
    });
    const total = windows.reduce((s, w) => s + w.size, 0);
    // Vanished records have keys but are not in the result: the ranks would be off by them.
    if (total !== (sql.currentCount.pluck().get(filter) as number)) return null;
    const rank = rankOf(total);
    if (rank < 0 || rank >= total) return { key: null, total };
    const at = (w: (typeof windows)[number], skip: number, n: number) =>
      (w.low === null
        ? sql.window.all({ day: w.day, col, n, skip })
        : sql.windowAfter.all({ day: w.day, col, value: w.low[0], id: w.low[1], n, skip })) as Key[];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let widest = windows[0]!;
      let left = 0;
      let below = 0;
      for (const w of windows) {
        left += w.b - w.a;
        below += w.a;
        if (w.b - w.a > widest.b - widest.a) widest = w;
      }
      if (left <= FEW) {
        const keys = windows.flatMap((w) => (w.b > w.a ? at(w, 0, w.b - w.a) : [])).sort(compareKeys);
        return { key: keys[rank - below] ?? null, total };
      }
      const mid = (widest.a + widest.b) >> 1;
      const pivot = at(widest, mid - widest.a, 1)[0]!;
      const ranks = windows.map((w) =>
        w === widest
          ? mid
          : ((sql.rank.pluck().get({ day: w.day, col, value: pivot[0], id: pivot[1] }) as number | undefined) ??
            w.size),
      );
      const pivotRank = ranks.reduce((s, r) => s + r, 0);
      if (pivotRank === rank) return { key: pivot, total };
      windows.forEach((w, i) => {
        if (pivotRank < rank) {
          // The pivot and every key below it are before the one sought.
          const a = w === widest ? mid + 1 : ranks[i]!;
          if (a > w.a) {
            w.a = a;
            w.low = pivot;
          }
        } else {
          w.b = Math.min(w.b, ranks[i]!);
        }
      });
    }
    return null;
  }

  return { pageIds, keyAtRank };
}
