/**
 * Sorting by a column of many values (amounts, times, ids) through the sort keys (sort-keys.ts): per day, column and
 * gateway, a list of every record's value and id in order with its ordinal and payment mode.
 *
 * A page merges the lists of the range (every gateway's, or the filter's one): each list is read from the cursor on,
 * a few keys at a time, in its order (a seek, the filter checked on the keys, a text search on their records), and
 * the smallest head wins, so a page reads about its own rows plus a few keys a list, never the range.
 * A jump (a position) with no filter but the dates and a gateway finds the key at that rank by selection across the
 * lists: a pivot chosen where the rank should fall, its rank in every list one seek each (its ordinal), the windows
 * narrowed to the pivot's side, until a few hundred keys remain, which are read and sorted. Other filters have no
 * counts to rank with: their jumps skip rows as before (settlement-pages.ts).
 *
 * Dates whose keys are not current (a sync writing them, one cancelled) make a read fall back to scanning the range,
 * so an answer is never missing a record, only slower until the keys are written.
 */
import type { Database, Statement } from 'better-sqlite3';
import { FILTER_SQL, type FilterParams } from './settlement-filter';
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
  /** The gateways with keys (or the filter's one), and a filter's payment mode or status, by their numbers. */
  pgCodes: `SELECT code FROM settlement_sort_codes WHERE kind = 'pg' AND (:pg IS NULL OR value = :pg)`,
  code: `SELECT code FROM settlement_sort_codes WHERE kind = :kind AND value = :value`,
  currentCount: `SELECT coalesce(sum(count), 0) FROM settlement_rollup
    WHERE date BETWEEN :from AND :to AND (:pg IS NULL OR pg = :pg)`,
  listCount: `SELECT n + 1 FROM settlement_sort_keys WHERE day = :day AND col = :col AND pg_code = :pg
    ORDER BY value DESC, id DESC LIMIT 1`,
  /** Keys of a list below a key: its ordinal, or none when every key is below. */
  rank: `SELECT n FROM settlement_sort_keys WHERE day = :day AND col = :col AND pg_code = :pg AND (value, id) >= (:value, :id)
    ORDER BY value, id LIMIT 1`,
  /** A list's keys in order from its first, or (`windowAfter`) after a key: two statements, so each seeks. */
  window: `SELECT value, id FROM settlement_sort_keys WHERE day = :day AND col = :col AND pg_code = :pg
    ORDER BY value, id LIMIT :n OFFSET :skip`,
  windowAfter: `SELECT value, id FROM settlement_sort_keys WHERE day = :day AND col = :col AND pg_code = :pg
    AND (value, id) > (:value, :id) ORDER BY value, id LIMIT :n OFFSET :skip`,
} as const;

/**
 * A list's keys from a cursor on, in the read's direction, whose records pass the filter: checked on the keys, which
 * carry every field a filter names but the text a search looks for; a search reads each key's record.
 */
function chunkSql(direction: 'asc' | 'desc', searched: boolean, exceptionsOnly: boolean, resumed: boolean): string {
  const [dir, past] = direction === 'desc' ? ['DESC', '<'] : ['ASC', '>'];
  const records = searched ? `CROSS JOIN settlements ON settlements.id = k.id AND ${FILTER_SQL}` : '';
  return `SELECT k.value, k.id FROM settlement_sort_keys AS k ${records}
    WHERE k.day = :day AND k.col = :col AND k.pg_code = :pgCode ${resumed ? `AND (k.value, k.id) ${past} (:kValue, :kId)` : ''}
      AND (:modeCode IS NULL OR k.mode_code = :modeCode)
      AND (:orderStatusCode IS NULL OR k.order_status_code = :orderStatusCode)
      AND (:pgStatusCode IS NULL OR k.pg_status_code = :pgStatusCode)
      AND (:ruleBit IS NULL OR k.exception_flags & :ruleBit <> 0) ${exceptionsOnly ? 'AND k.exception_flags <> 0' : ''}
    ORDER BY k.value ${dir}, k.id ${dir} LIMIT :n`;
}

/** Below this many candidate keys a jump reads them all and sorts them. */
const FEW = 512;
/** Selection rounds before a jump gives up to the scan: each round at least halves the widest list. */
const MAX_ROUNDS = 200;

interface Head {
  day: number;
  pg: number;
  keys: Key[];
  at: number;
  size: number;
  done: boolean;
}

export function createKeyOrder(db: Database) {
  const sql = Object.fromEntries(Object.entries(SQL).map(([k, v]) => [k, db.prepare(v)])) as Record<
    keyof typeof SQL,
    Statement
  >;
  const chunks = new Map<string, Statement>();
  const chunk = (direction: 'asc' | 'desc', searched: boolean, exceptionsOnly: boolean, resumed: boolean) => {
    const name = `${direction}:${searched}:${exceptionsOnly}:${resumed}`;
    let s = chunks.get(name);
    if (!s) {
      s = db.prepare(chunkSql(direction, searched, exceptionsOnly, resumed)).raw(true);
      chunks.set(name, s);
    }
    return s;
  };
  sql.window.raw(true);
  sql.windowAfter.raw(true);

  /**
   * The range's lists (day × gateway) with current keys, or null when a date with records has none (the caller
   * scans instead); empty when the filter names a gateway or payment mode no key holds.
   */
  function lists(filter: FilterParams) {
    if (filter.state !== 'current' || (sql.unsorted.pluck().get(filter) as number) > 0) return null;
    const pgs = sql.pgCodes.pluck().all(filter) as number[];
    // A value no key holds is no record's: its number -1 matches nothing.
    const code = (kind: string, value: string | null) =>
      value === null ? null : ((sql.code.pluck().get({ kind, value }) as number | undefined) ?? -1);
    const days = (sql.sortedDays.pluck().all(filter) as string[]).map(dayNumber);
    return {
      lists: days.flatMap((day) => pgs.map((pg) => ({ day, pg }))),
      codes: {
        modeCode: code('mode', filter.mode),
        orderStatusCode: code('order_status', filter.orderStatus),
        pgStatusCode: code('pg_status', filter.pgStatus),
      },
    };
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
    const found = lists(filter);
    if (found === null) return null;
    const col = KEYED_SORT_COLUMNS.indexOf(column);
    const sign = direction === 'desc' ? -1 : 1;
    const first = Math.max(4, Math.ceil((2 * (limit + 1)) / Math.max(1, found.lists.length)));
    const fill = (h: Head, after: { value: Value; id: number } | null): boolean => {
      h.keys = chunk(direction, filter.search !== null, exceptionsOnly, after !== null).all({
        ...filter,
        ...found.codes,
        day: h.day,
        col,
        pgCode: h.pg,
        kValue: after?.value ?? null,
        kId: after?.id ?? null,
        n: h.size,
      }) as Key[];
      h.at = 0;
      h.done = h.keys.length < h.size;
      h.size *= 2;
      return h.keys.length > 0;
    };
    // A binary heap of the lists by their next key, in the read's order.
    const before = (a: Head, b: Head) => sign * compareKeys(a.keys[a.at]!, b.keys[b.at]!) < 0;
    const heap: Head[] = [];
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    for (const { day, pg } of found.lists) {
      const h: Head = { day, pg, keys: [], at: 0, size: first, done: false };
      if (fill(h, cursor)) heap.push(h);
    }
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    const ids: number[] = [];
    while (ids.length <= limit && heap.length > 0) {
      const h = heap[0]!;
      const key = h.keys[h.at++]!;
      ids.push(key[1]);
      if (h.at === h.keys.length && (h.done || !fill(h, { value: key[0], id: key[1] }))) {
        heap[0] = heap.at(-1)!;
        heap.pop();
      }
      if (heap.length > 0) down(0);
    }
    return ids;
  }

  /**
   * The key at `rank` (0 is the smallest) among the current records of a range, all of them or one gateway's, by
   * selection across the lists; null when the keys cannot count them (a date without current keys, vanished records
   * asked for), a null key when `rank` is outside the result, and the result's size beside it.
   */
  function keyAtRank(
    column: KeyedSortColumn,
    filter: FilterParams,
    rankOf: (total: number) => number,
  ): { key: Key | null; total: number } | null {
    const found = lists(filter);
    if (found === null) return null;
    const col = KEYED_SORT_COLUMNS.indexOf(column);
    const windows = found.lists.map(({ day, pg }) => {
      const size = (sql.listCount.pluck().get({ day, col, pg }) as number | undefined) ?? 0;
      return { day, pg, a: 0, b: size, size, low: null as Key | null };
    });
    const total = windows.reduce((s, w) => s + w.size, 0);
    // The keys are the current records': their count is the rollup's, unless a date changed since they were written.
    if (total !== (sql.currentCount.pluck().get(filter) as number)) return null;
    const rank = rankOf(total);
    if (rank < 0 || rank >= total) return { key: null, total };
    const at = (w: (typeof windows)[number], skip: number, n: number) =>
      (w.low === null
        ? sql.window.all({ day: w.day, col, pg: w.pg, n, skip })
        : sql.windowAfter.all({ day: w.day, col, pg: w.pg, value: w.low[0], id: w.low[1], n, skip })) as Key[];
    /** The list and ordinal where the `t`-th remaining key would be if the lists held bands one after another. */
    const byBands = (t: number): [(typeof windows)[number], number] => {
      const firsts = windows.filter((w) => w.b > w.a).map((w) => ({ w, key: at(w, 0, 1)[0]! }));
      firsts.sort((x, y) => compareKeys(x.key, y.key));
      for (const { w } of firsts) {
        if (t < w.b - w.a) return [w, w.a + t];
        t -= w.b - w.a;
      }
      const last = firsts.at(-1)!.w;
      return [last, last.b - 1];
    };
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
      // Three ways to pick the pivot, in turn. Lists that hold bands of values one after another (settlement times: a
      // date's batches) are ordered by their first keys and the sought key taken to be where the count falls among
      // them. Lists that mix values alike (amounts) hold it about as far into any one of them as into all together.
      // The middle of the widest list halves it whatever the values.
      const [chosen, mid] =
        round % 3 === 0
          ? byBands(rank - below)
          : [
              widest,
              widest.a + Math.floor(((widest.b - widest.a) * (round % 3 === 1 ? rank - below : left >> 1)) / left),
            ];
      const pivot = at(chosen, mid - chosen.a, 1)[0]!;
      const ranks = windows.map((w) =>
        w === chosen
          ? mid
          : w.a === w.b
            ? w.a
            : ((sql.rank.pluck().get({ day: w.day, col, pg: w.pg, value: pivot[0], id: pivot[1] }) as
                number | undefined) ?? w.size),
      );
      const pivotRank = ranks.reduce((s, r) => s + r, 0);
      if (pivotRank === rank) return { key: pivot, total };
      windows.forEach((w, i) => {
        if (pivotRank < rank) {
          // The pivot and every key below it are before the one sought.
          const a = w === chosen ? mid + 1 : ranks[i]!;
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
