/**
 * Sorting by a column of many values (amounts, times, ids) through the sort keys (sort-keys.ts): per day, column and
 * gateway, a list of every record's value and id in order with its ordinal and payment mode.
 *
 * A page merges the lists of the range (every gateway's, or the filter's one): each list is read from the cursor on,
 * a few keys at a time, in its order (a seek, the filter checked on the keys, a text search on their records), and
 * the smallest head wins, so a page reads about its own rows plus a few keys a list, never the range.
 * A jump (a position) finds the key at that rank by the lists' marks (settlement-key-rank.ts), then pages from it.
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

/** The filters but the dates, a gateway and a text search, checked on a key's own fields. */
export const KEY_FILTER_SQL = `(:modeCode IS NULL OR k.mode_code = :modeCode)
      AND (:orderStatusCode IS NULL OR k.order_status_code = :orderStatusCode)
      AND (:pgStatusCode IS NULL OR k.pg_status_code = :pgStatusCode)
      AND (:ruleBit IS NULL OR k.exception_flags & :ruleBit <> 0)`;

const SQL = {
  /** Dates of the range holding records whose sort keys are not current. */
  unsorted: `WITH RECURSIVE ${DAYS} SELECT count(*) FROM days
    WHERE day NOT IN (SELECT date FROM settlement_sorted_days)
      AND EXISTS (SELECT 1 FROM settlements WHERE id BETWEEN days.lo AND days.lo + ${PER_DAY - 1})`,
  sortedDays: `SELECT date FROM settlement_sorted_days WHERE date BETWEEN :from AND :to ORDER BY date`,
  /** The gateways with keys (or the filter's one), and a filter's payment mode or status, by their numbers. */
  pgCodes: `SELECT code FROM settlement_sort_codes WHERE kind = 'pg' AND (:pg IS NULL OR value = :pg)`,
  code: `SELECT code FROM settlement_sort_codes WHERE kind = :kind AND value = :value`,
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
      AND ${KEY_FILTER_SQL} ${exceptionsOnly ? 'AND k.exception_flags <> 0' : ''}
    ORDER BY k.value ${dir}, k.id ${dir} LIMIT :n`;
}

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

  return { pageIds, lists };
}
export type KeyOrder = ReturnType<typeof createKeyOrder>;
