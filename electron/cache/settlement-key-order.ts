/**
 * Sorting by a column of many values (amounts, times, ids) through the sort keys (sort-keys.ts): per day, column and
 * gateway, a list of every record's value and id in order with its ordinal and payment mode.
 *
 * A page merges the lists of the range (every gateway's, or the filter's one): each list is read from the cursor on,
 * a few keys at a time, in its order (a seek, the filter checked on the keys, a text search on their records), and
 * the smallest head wins, so a page reads about its own rows plus a few keys a list, never the range. Where a page
 * stopped is kept for the next one, which takes the merge up there unless the file was written in between (`pageIds`).
 * A jump (a position) with no filter but the dates and a gateway finds the key at that rank by selection across the
 * lists: a pivot chosen where the rank should fall, its rank in every list one seek each (its ordinal), the windows
 * narrowed to the pivot's side, until a few hundred keys remain, which are read and sorted. Other filters have no
 * counts to rank with: their jumps skip rows as before (settlement-pages.ts).
 *
 * Dates whose keys are not current (a sync writing them, one cancelled) make a read fall back to scanning the range,
 * so an answer is never missing a record, only slower until the keys are written.
 */
import type { Database, Statement } from 'better-sqlite3';
import { createDataGeneration } from './data-generation';
import { FILTER_SQL, type FilterParams } from './settlement-filter';
import { PER_DAY, dayNumber } from './settlement-ids';
import { DAYS } from './settlement-search';
import { ROLLUP_WHERE } from './settlement-rollup';
import { KEYED_SORT_COLUMNS, classCountIn, type KeyedSortColumn } from './sort-keys';

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
const KEY_FILTER_SQL = `(:modeCode IS NULL OR k.mode_code = :modeCode)
      AND (:orderStatusCode IS NULL OR k.order_status_code = :orderStatusCode)
      AND (:pgStatusCode IS NULL OR k.pg_status_code = :pgStatusCode)
      AND (:ruleBit IS NULL OR k.exception_flags & :ruleBit <> 0)`;

/** A list's keys from a key (itself included) up to another (excluded) or to the list's end, that pass the filter. */
const RANGE_SQL = (what: string, bounded: boolean) => `SELECT ${what} FROM settlement_sort_keys AS k
    WHERE k.day = :day AND k.col = :col AND k.pg_code = :pgCode AND (k.value, k.id) >= (:fromValue, :fromId)
      ${bounded ? 'AND (k.value, k.id) < (:toValue, :toId)' : ''}
      AND ${KEY_FILTER_SQL} AND (:exceptionsOnly = 0 OR k.exception_flags <> 0)`;

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
  /** Rows of the range a filter with a payment mode, a status or exceptions only keeps (the rollup's count). */
  filteredCount: `SELECT coalesce(sum(count), 0) FROM settlement_rollup WHERE ${ROLLUP_WHERE}`,
  /** The classes of record a filter keeps. */
  classes: `SELECT code FROM settlement_sort_classes AS k WHERE ${KEY_FILTER_SQL}
    AND (:exceptionsOnly = 0 OR k.exception_flags <> 0)`,
  /** The marks of a column's lists over a range of days (all gateways, or one), list by list, in order. */
  marks: `SELECT day, pg_code, value, id, counts FROM settlement_sort_marks
    WHERE col = :col AND day BETWEEN :dayFrom AND :dayTo AND (:pgCode IS NULL OR pg_code = :pgCode)
    ORDER BY day, pg_code, n`,
  /** A day's keys of one gateway in id order, from the first column's list (every list holds every record). */
  dayIdsAsc: `SELECT k.id FROM settlement_sort_keys AS k WHERE k.day = :day AND k.col = 0 AND k.pg_code = :pgCode
    AND k.id > :kId AND ${KEY_FILTER_SQL} ORDER BY k.id LIMIT :n`,
  dayIdsDesc: `SELECT k.id FROM settlement_sort_keys AS k WHERE k.day = :day AND k.col = 0 AND k.pg_code = :pgCode
    AND k.id < :kId AND ${KEY_FILTER_SQL} ORDER BY k.id DESC LIMIT :n`,
  countBetween: RANGE_SQL('count(*)', true),
  keysBetween: `${RANGE_SQL('k.value, k.id', true)} ORDER BY k.value, k.id`,
  keysFrom: `${RANGE_SQL('k.value, k.id', false)} ORDER BY k.value, k.id`,
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
      AND ${KEY_FILTER_SQL} ${exceptionsOnly ? 'AND k.exception_flags <> 0' : ''}
    ORDER BY k.value ${dir}, k.id ${dir} LIMIT :n`;
}

/** Below this many candidate keys a jump reads them all and sorts them. */
const FEW = 512;
/** Selection rounds before a jump gives up to the scan: each round at least halves the widest list. */
const MAX_ROUNDS = 200;

/** A list in a page's merge: its keys read and not yet taken (`keys` from `at`), and how many the next read asks. */
interface Head {
  day: number;
  pg: number;
  /** Never changed once read (a read replaces it), so a kept merge and the one continuing it share it. */
  keys: readonly Key[];
  at: number;
  size: number;
  done: boolean;
}

/** A list's reads double from the first up to this many keys. */
const MOST_READ = 1024;
/**
 * Merges kept for the pages after theirs, and the keys they may hold between them: a bound on their memory (a key
 * about 100 bytes; a merge of 360 lists held 2,000 at the median, at most 5,100, over 11 pages of 500 at 2,000,000 rows).
 */
const KEPT_MERGES = 8;
const KEPT_KEYS = 100_000;
/** A group of the value order is read from the keys when its rows are at most one in this many of its lists' keys. */
const SPARSE = 8;
/** The answers of `lists` kept for the same data, by filter. */
const KEPT_LISTS = 32;

/** A page's merge where it stopped, for the page after it: the lists' heads after the page's last key. */
interface Merge {
  generation: string;
  /** The page's last key's value, which the next page's cursor carries. */
  value: Value;
  heap: Head[];
  held: number;
}

/** Every field of a filter, in one order: a name for what a merge or a list read under it. */
const filterName = (filter: FilterParams) => JSON.stringify(filter, Object.keys(filter).sort());

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
  for (const s of [sql.window, sql.windowAfter, sql.marks, sql.keysBetween, sql.keysFrom]) s.raw(true);

  const generation = createDataGeneration(db);
  const listsKept = new Map<string, ReturnType<typeof readLists>>();
  let listsGeneration = '';
  const merges = new Map<string, Merge>();
  let mergesHeld = 0;
  let mergesGeneration = '';

  function readLists(filter: FilterParams) {
    if ((sql.unsorted.pluck().get(filter) as number) > 0) return null;
    const pgs = sql.pgCodes.pluck().all(filter) as number[];
    // A value no key holds is no record's: its number -1 matches nothing.
    const code = (kind: string, value: string | null) =>
      value === null ? null : ((sql.code.pluck().get({ kind, value }) as number | undefined) ?? -1);
    const days = (sql.sortedDays.pluck().all(filter) as string[]).map(dayNumber);
    // Frozen: the same answer is handed to every read of the same filter until the data changes.
    return Object.freeze({
      lists: Object.freeze(days.flatMap((day) => pgs.map((pg) => Object.freeze({ day, pg })))),
      codes: Object.freeze({
        modeCode: code('mode', filter.mode),
        orderStatusCode: code('order_status', filter.orderStatus),
        pgStatusCode: code('pg_status', filter.pgStatus),
      }),
    });
  }

  /**
   * The range's lists (day × gateway) with current keys, or null when a date with records has none (the caller
   * scans instead); empty when the filter names a gateway or payment mode no key holds. Kept per filter until the
   * file's data changes (`createDataGeneration`): read afresh it costs a walk of the range's days (about 0.2–0.5 ms
   * for 90) on every page.
   */
  function lists(filter: FilterParams) {
    if (filter.state !== 'current') return null;
    const now = generation();
    if (now !== listsGeneration || listsKept.size >= KEPT_LISTS) {
      listsKept.clear();
      listsGeneration = now;
    }
    const name = JSON.stringify([
      filter.from,
      filter.to,
      filter.lo,
      filter.pg,
      filter.mode,
      filter.orderStatus,
      filter.pgStatus,
    ]);
    let found = listsKept.get(name);
    if (found === undefined) listsKept.set(name, (found = readLists(filter)));
    return found;
  }

  /** Keeps a merge for the page after its own, the oldest dropped past KEPT_MERGES or KEPT_KEYS. */
  function keepMerge(name: string, merge: Merge) {
    const old = merges.get(name);
    if (old) {
      merges.delete(name);
      mergesHeld -= old.held;
    }
    merges.set(name, merge);
    mergesHeld += merge.held;
    for (const [oldest, m] of merges) {
      if (merges.size <= KEPT_MERGES && mergesHeld <= KEPT_KEYS) break;
      merges.delete(oldest);
      mergesHeld -= m.held;
    }
  }

  /**
   * The ids of one page in (column, id) order after `cursor` (or from the first row): `limit + 1` when more follow.
   * Null when the range's keys are not all current.
   *
   * The lists' heads where a page stopped are kept (a few merges, like open cursors of a database), named by the
   * sort, the filter and the page's last key, with the data's generation: the next page, whose cursor is that key,
   * takes them up where they were instead of seeking every list again (360 seeks over 90 days and 4 gateways), unless
   * anything was written in between. Taken up, they are exactly what seeking after the cursor would read: every key
   * up to it in any list was taken before it, and a list's keys are read in order.
   */
  function pageIds(
    column: KeyedSortColumn,
    direction: 'asc' | 'desc',
    filter: FilterParams,
    exceptionsOnly: boolean,
    cursor: { value: Value; id: number } | null,
    limit: number,
  ): number[] | null {
    const now = generation();
    if (now !== mergesGeneration) {
      // Written since: no kept merge can be taken up, and each holds its keys' memory.
      merges.clear();
      mergesHeld = 0;
      mergesGeneration = now;
    }
    const found = lists(filter);
    if (found === null) return null;
    const col = KEYED_SORT_COLUMNS.indexOf(column);
    const sign = direction === 'desc' ? -1 : 1;
    const mergeName = (id: number) => `${col}:${direction}:${Number(exceptionsOnly)}:${filterName(filter)}:${id}`;
    const params: Record<string, unknown> = { ...filter, ...found.codes, col };
    const fill = (h: Head, after: { value: Value; id: number } | null): boolean => {
      params.day = h.day;
      params.pgCode = h.pg;
      params.kValue = after?.value ?? null;
      params.kId = after?.id ?? null;
      params.n = h.size;
      h.keys = chunk(direction, filter.search !== null, exceptionsOnly, after !== null).all(params) as Key[];
      h.at = 0;
      h.done = h.keys.length < h.size;
      h.size = Math.min(2 * h.size, MOST_READ);
      return h.keys.length > 0;
    };
    // A binary heap of the lists by their next key, in the read's order.
    const before = (a: Head, b: Head) => sign * compareKeys(a.keys[a.at]!, b.keys[b.at]!) < 0;
    let heap: Head[] = [];
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
    const kept = cursor === null ? undefined : merges.get(mergeName(cursor.id));
    if (kept !== undefined && kept.generation === now && compareValues(kept.value, cursor!.value) === 0) {
      // The kept heads are left as they are, for a page asked again; a head's keys are shared, never changed.
      heap = kept.heap.map((h) => ({ ...h }));
    } else {
      const first = Math.max(4, Math.ceil((2 * (limit + 1)) / Math.max(1, found.lists.length)));
      for (const { day, pg } of found.lists) {
        const h: Head = { day, pg, keys: [], at: 0, size: first, done: false };
        if (fill(h, cursor)) heap.push(h);
      }
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    }
    const ids: number[] = [];
    let last: Key | null = null;
    while (ids.length < limit && heap.length > 0) {
      const h = heap[0]!;
      last = h.keys[h.at++]!;
      ids.push(last[1]);
      if (h.at === h.keys.length && (h.done || !fill(h, { value: last[0], id: last[1] }))) {
        heap[0] = heap.at(-1)!;
        heap.pop();
      }
      if (heap.length > 0) down(0);
    }
    // The next page's first row, left in its list: the page stops after its last key, where the next one starts.
    if (heap.length > 0 && last !== null) {
      const h = heap[0]!;
      ids.push(h.keys[h.at]![1]);
      const held = heap.reduce((sum, x) => sum + x.keys.length - x.at, 0);
      keepMerge(mergeName(last[1]), { generation: now, value: last[0], heap, held });
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

  /**
   * `keyAtRank` for a filter with a payment mode, a status, a rule or exceptions only, whose keys have no ordinal:
   * counted with the lists' marks (sort-keys.ts), every MARK_EVERY keys the keys before it per class of record.
   * The marks of the range (about 8,000 at two million rows) are read and sorted together; the filter's count below
   * each lies between two sums of mark counts, which narrow the sought key to a stretch of marks. Within it, the
   * count below a mark is made exact by counting each list's kept keys from its nearest known point (a mark, or a
   * key counted before) to it, and the stretch halved until two marks next to each other hold the key between them;
   * the kept keys between those two are read and sorted. Null where the marks cannot count (as `keyAtRank`), or when
   * their total is not the rollup's (a date changed since its keys were written).
   */
  function keyAtFilteredRank(
    column: KeyedSortColumn,
    filter: FilterParams,
    exceptionsOnly: boolean,
    rankOf: (total: number) => number,
  ): { key: Key | null; total: number } | null {
    const found = lists(filter);
    if (found === null) return null;
    const col = KEYED_SORT_COLUMNS.indexOf(column);
    const params = { ...found.codes, ruleBit: filter.ruleBit, exceptionsOnly: Number(exceptionsOnly), col };
    const wanted = new Set(sql.classes.pluck().all(params) as number[]);
    const listedDays = new Set(found.lists.map(({ day }) => day));

    /** A point of a list: the kept keys below `key` (null: below everything, or past every key for `high`). */
    interface Point {
      key: Key | null;
      count: number;
    }
    interface List {
      day: number;
      pg: number;
      /** The marks' keys, and the kept keys below each. */
      keys: Key[];
      counts: number[];
      low: Point;
      high: Point;
    }
    const all: List[] = [];
    let list: List | null = null;
    for (const [day, pg, value, id, counts] of sql.marks.all({
      col,
      dayFrom: dayNumber(filter.from),
      dayTo: dayNumber(filter.to),
      pgCode: filter.pg === null ? null : (found.lists[0]?.pg ?? -1),
    }) as [number, number, Value | null, number | null, Buffer][]) {
      if (!listedDays.has(day)) continue;
      if (list === null || list.day !== day || list.pg !== pg) {
        list = { day, pg, keys: [], counts: [], low: { key: null, count: 0 }, high: { key: null, count: 0 } };
        all.push(list);
      }
      const count = classCountIn(counts, wanted);
      // The mark with no key closes its list with the totals.
      if (value === null || id === null) list.high.count = count;
      else {
        list.keys.push([value, id]);
        list.counts.push(count);
      }
    }
    const total = all.reduce((sum, l) => sum + l.high.count, 0);
    if (total !== (sql.filteredCount.pluck().get({ ...filter, exceptionsOnly: params.exceptionsOnly }) as number)) {
      return null;
    }
    const rank = rankOf(total);
    if (rank < 0 || rank >= total) return { key: null, total };

    // Every mark in key order, with the sums of mark counts that bound the filter's count below it: `lower` from
    // each list's last mark at or below it, `upper` from each list's first mark above it (or its total).
    const marks = all.flatMap((l, li) => l.keys.map((key, mi) => ({ key, li, mi })));
    marks.sort((x, y) => compareKeys(x.key, y.key));
    const lower: number[] = [];
    const upper: number[] = [];
    {
      const next = (l: List, mi: number) => (mi + 1 < l.counts.length ? l.counts[mi + 1]! : l.high.count);
      let low = 0;
      let up = all.reduce((sum, l) => sum + l.counts[0]!, 0);
      for (const { li, mi } of marks) {
        const l = all[li]!;
        low += l.counts[mi]! - (mi > 0 ? l.counts[mi - 1]! : 0);
        up += next(l, mi) - l.counts[mi]!;
        lower.push(low);
        upper.push(up);
      }
    }
    // An estimate of the count below each mark: each list's count rising evenly between its marks, by how many of
    // all lists' marks lie between (past its first key, the marks spread evenly over the keys, sort-keys.ts; the
    // lists' first keys, all marks, bunch up at the low end and are not counted as distance), with running sums.
    const estimate = new Float64Array(marks.length);
    {
      const at = all.map((l) => new Array<number>(l.keys.length));
      const x = new Float64Array(marks.length + 1);
      marks.forEach(({ li, mi }, p) => {
        at[li]![mi] = p;
        x[p + 1] = x[p]! + (mi > 0 ? 1 : 0);
      });
      const dConst = new Float64Array(marks.length + 1);
      const dSlope = new Float64Array(marks.length + 1);
      all.forEach((l, li) => {
        for (let mi = 0; mi < l.keys.length; mi++) {
          const i0 = at[li]![mi]!;
          const i1 = mi + 1 < l.keys.length ? at[li]![mi + 1]! : marks.length;
          const x0 = mi === 0 ? 0 : x[i0]!;
          const rise = (mi + 1 < l.keys.length ? l.counts[mi + 1]! : l.high.count) - l.counts[mi]!;
          const slope = rise / Math.max(1, x[i1]! - x0);
          const base = l.counts[mi]! - slope * x0;
          dConst[i0] = dConst[i0]! + base;
          dConst[i1] = dConst[i1]! - base;
          dSlope[i0] = dSlope[i0]! + slope;
          dSlope[i1] = dSlope[i1]! - slope;
        }
      });
      let c = 0;
      let k = 0;
      for (let p = 0; p < marks.length; p++) {
        c += dConst[p]!;
        k += dSlope[p]!;
        estimate[p] = c + k * x[p]!;
      }
    }
    // The sought key K has `rank` kept keys below it. A mark with at most `rank` below is at or below K, one with more
    // is above it: `lo` and `hi` are the nearest such marks known (-1 and marks.length: the ends).
    let lo = -1;
    while (lo + 1 < marks.length && upper[lo + 1]! <= rank) lo++;
    let hi = lo + 1;
    while (hi < marks.length && lower[hi]! <= rank) hi++;
    const exactAt = new Set<number>();

    /** The kept keys below `key` in every list, counted from each list's nearest known points; kept as their low or high points. */
    const countBelow = (at: number): number => {
      const key = marks[at]!.key;
      const counted = all.map((l) => {
        // The list's last mark at or below the key, and the one after it.
        let a = 0;
        let b = l.keys.length;
        while (a < b) {
          const m = (a + b) >> 1;
          if (compareKeys(l.keys[m]!, key) <= 0) a = m + 1;
          else b = m;
        }
        if (a === 0) return 0;
        let from: Point = { key: l.keys[a - 1]!, count: l.counts[a - 1]! };
        if (l.low.key !== null && compareKeys(l.low.key, from.key!) > 0) from = l.low;
        let toCount = a < l.keys.length ? l.counts[a]! : l.high.count;
        if (l.high.key !== null && (a === l.keys.length || compareKeys(l.high.key, l.keys[a]!) < 0)) {
          toCount = l.high.count;
        }
        if (toCount === from.count) return from.count;
        return (
          from.count +
          (sql.countBetween.pluck().get({
            ...params,
            day: l.day,
            pgCode: l.pg,
            fromValue: from.key![0],
            fromId: from.key![1],
            toValue: key[0],
            toId: key[1],
          }) as number)
        );
      });
      const below = counted.reduce((sum, c) => sum + c, 0);
      const side = below <= rank ? 'low' : 'high';
      all.forEach((l, i) => (l[side] = { key, count: counted[i]! }));
      exactAt.add(at);
      return below;
    };
    // The next mark counted: where the estimate says K is, or, after a guess that did not halve the stretch, its middle.
    // The next mark counted: where the estimate says K is, corrected by its errors at the marks counted on either
    // side (they change little from one mark to the next); the stretch's middle after two guesses that did not halve it.
    const error: { lo: number | null; hi: number | null } = { lo: null, hi: null };
    let slow = 0;
    while (hi - lo > 1) {
      let mid = (lo + hi) >> 1;
      if (slow < 2) {
        const eLo = error.lo ?? error.hi ?? 0;
        const eHi = error.hi ?? eLo;
        const errorAt = (m: number) => eLo + ((eHi - eLo) * (m - lo)) / (hi - lo);
        let a = lo + 1;
        let b = hi;
        while (a < b) {
          const m = (a + b) >> 1;
          if (estimate[m]! + errorAt(m) <= rank) a = m + 1;
          else b = m;
        }
        mid = Math.min(hi - 1, Math.max(lo + 1, a - 1));
      }
      const width = hi - lo;
      const below = countBelow(mid);
      if (below <= rank) {
        lo = mid;
        error.lo = below - estimate[mid]!;
      } else {
        hi = mid;
        error.hi = below - estimate[mid]!;
      }
      slow = hi - lo <= width / 2 ? 0 : slow + 1;
    }
    // Both ends counted exactly (an end the bounds alone settled is counted now); K is between them, in some list.
    if (lo >= 0 && !exactAt.has(lo)) countBelow(lo);
    if (hi < marks.length && !exactAt.has(hi)) countBelow(hi);
    const keys: Key[] = [];
    let below = 0;
    for (const l of all) {
      below += l.low.count;
      if (l.high.count === l.low.count) continue;
      // With no low point the list is read from its first key, whose count is 0.
      const from = l.low.key ?? l.keys[0]!;
      const bound = { ...params, day: l.day, pgCode: l.pg, fromValue: from[0], fromId: from[1] };
      const read =
        l.high.key === null
          ? sql.keysFrom.all(bound)
          : sql.keysBetween.all({ ...bound, toValue: l.high.key[0], toId: l.high.key[1] });
      for (const k of read as Key[]) keys.push(k);
    }
    keys.sort(compareKeys);
    return { key: keys[rank - below] ?? null, total };
  }

  /**
   * The ids of one date's current records that pass the filter (no text search), in id order after `afterId`, at
   * most `limit`: a group of the value order (settlement-value-order.ts), read from the date's keys, which carry
   * every field such a filter checks, a few bytes each, instead of from every record of the date (a gateway's
   * 'failed' rows of 9 dates at 2,000,000 rows: 26 ms of CPU walked, 5.6 read from the keys with their rows).
   * Null when the range's keys are not all current.
   */
  function dayIds(
    filter: FilterParams,
    exceptionsOnly: boolean,
    day: number,
    direction: 'asc' | 'desc',
    afterId: number,
    limit: number,
    groupCount: number,
  ): number[] | null {
    // Exceptions only, the walk reads the index of records with exceptions: a few of the date's.
    const found = filter.search === null && !exceptionsOnly ? lists(filter) : null;
    if (found === null) return null;
    const dayLists = found.lists.filter((l) => l.day === day);
    // Every key of the lists is read (they are in value order, not id order), where the walk stops at the group's
    // last row: the keys only for a group of few of them (a status's "failed", 1% of the rows, not its "success").
    const keys = dayLists.reduce(
      (sum, l) => sum + ((sql.listCount.pluck().get({ day, col: 0, pg: l.pg }) as number | undefined) ?? 0),
      0,
    );
    if (groupCount * SPARSE > keys) return null;
    const read = direction === 'desc' ? sql.dayIdsDesc : sql.dayIdsAsc;
    const params = { ...filter, ...found.codes, day, kId: afterId, n: limit };
    const ids: number[] = [];
    for (const list of dayLists) {
      for (const id of read.pluck().all({ ...params, pgCode: list.pg }) as number[]) ids.push(id);
    }
    // Each gateway's ids are in order; together, sorted.
    ids.sort(direction === 'desc' ? (a, b) => b - a : (a, b) => a - b);
    return ids.length > limit ? ids.slice(0, limit) : ids;
  }

  return { pageIds, keyAtRank, keyAtFilteredRank, dayIds };
}
