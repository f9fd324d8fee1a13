/**
 * Sorting by a column of many values (amounts, times, ids, statuses) through the sort keys (sort-keys.ts): per day,
 * column and gateway, a list of every record's id in order with its class of record, in blocks.
 *
 * A page merges the lists of the range (every gateway's, or the filter's one): each list is read from the cursor on,
 * a few keys at a time, in its order (a seek by the marks and a block's values, the filter checked on the classes,
 * a text search on the records, whose values the merge compares), and the smallest head wins, so a page reads about
 * its own rows plus a few keys a list, never the range. Where a page stopped is kept for the next one, which takes
 * the merge up there unless the file was written in between (`pageIds`). A jump (a position) finds the key at that
 * rank by the lists' marks (settlement-key-rank.ts), then pages from it.
 *
 * Dates whose keys are not current (a sync writing them, one cancelled) make a read fall back to scanning the range,
 * so an answer is never missing a record, only slower until the keys are written.
 */
import type { Database, Statement } from 'better-sqlite3';
import { createDataGeneration } from './data-generation';
import type { FilterParams } from './settlement-filter';
import { PER_DAY, dayNumber } from './settlement-ids';
import { DAYS } from './settlement-search';
import { compareKeys, compareValues, createSortLists, type SortList, type StatusRun } from './settlement-sort-lists';
import type { SortKey } from './sort-keys';
import { KEYED_SORT_COLUMNS, type KeyedSortColumn } from '../../shared/settlement-query';

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

/** A list in a page's merge: its keys read and not yet taken (`keys` from `at`), and how many the next read asks. */
interface Head {
  list: SortList;
  /** Never changed once read (a read replaces it), so a kept merge and the one continuing it share it. */
  keys: readonly SortKey[];
  at: number;
  size: number;
  /** The ordinal of the list's next key to read, in the read's direction. */
  next: number;
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
/**
 * A record walked costs about as much as this many keys read: on the UI bench's full set, a date's 1,000,000 records
 * walked for one payment mode took 290–430 ms, its 1,000,000 keys read 78 ms (277 cold).
 */
const KEYS_PER_RECORD = 4;
/** The order-status lists' column: their runs hold each status's ids in id order. */
const STATUS_COL = KEYED_SORT_COLUMNS.indexOf('order_status');
/** The answers of `lists` kept for the same data, by filter. */
const KEPT_LISTS = 32;

/** A page's merge where it stopped, for the page after it: the lists' heads after the page's last key. */
interface Merge {
  generation: string;
  /** The page's last key's value, which the next page's cursor carries. */
  value: string | number;
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
  const sortLists = createSortLists(db);
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
    sortLists.renew(now);
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
   * up to it in any list was taken before it, and a list's keys are read in order. A read that only warms the lists
   * (`keep` false) keeps no merge, so it displaces none of the grid's.
   */
  function pageIds(
    column: KeyedSortColumn,
    direction: 'asc' | 'desc',
    filter: FilterParams,
    exceptionsOnly: boolean,
    cursor: { value: string | number; id: number } | null,
    limit: number,
    keep = true,
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
    const wanted = sortLists.wanted({ ...found.codes, ruleBit: filter.ruleBit, exceptionsOnly });
    const searched = filter.search === null ? null : filter;
    const end = (h: Head) => (sign === 1 ? h.list.n.at(-1)! : -1);
    /** A head's keys just read, from its `next` ordinal on: its next read asks twice as many; false when none. */
    const took = (h: Head, keys: SortKey[]): boolean => {
      h.keys = keys;
      h.at = 0;
      h.done = h.next === end(h);
      h.size = Math.min(2 * h.size, MOST_READ);
      return keys.length > 0;
    };
    /** A list's next keys that pass the filter, from its `next` ordinal on: false when there are none. */
    const fill = (h: Head): boolean => {
      const keys: SortKey[] = [];
      // With a text search a record may fail it: read on until enough pass or the list ends.
      while (keys.length < h.size && h.next !== end(h)) {
        const { ids, next } = sortLists.scan(h.list, h.next, sign, wanted, h.size - keys.length);
        h.next = next;
        for (const key of sortLists.keys(col, ids, searched)) keys.push(key);
      }
      return took(h, keys);
    };
    /**
     * `fill` of every head, those with keys: with no text search to drop a record, every list's first keys are read
     * in one statement (360 lists over 90 days read one by one took about 27 ms of a cold first page, at 2,000,000
     * rows).
     */
    const fillAll = (heads: Head[]): Head[] => {
      if (searched !== null) return heads.filter(fill);
      const scans = heads.map((h) => sortLists.scan(h.list, h.next, sign, wanted, h.size));
      const values = sortLists.valuesOf(
        col,
        scans.flatMap((scanned) => scanned.ids),
      );
      return heads.filter((h, i) => {
        const { ids, next } = scans[i]!;
        // A record gone from under its list (never, while the list is current) is left out as `fill` leaves it out.
        if (ids.some((id) => !values.has(id))) return fill(h);
        h.next = next;
        return took(
          h,
          ids.map((id): SortKey => [values.get(id)!, id]),
        );
      });
    };
    /** The ordinal of a list's first key after the cursor in the read's order. */
    const start = (l: SortList): number => {
      if (cursor === null) return sign === 1 ? 0 : l.n.at(-1)! - 1;
      // Ids are whole numbers: the first key above (value, id) is the first at or above (value, id + 1).
      return sign === 1
        ? sortLists.seekFrom(l, [cursor.value, cursor.id + 1], wanted, 1)
        : sortLists.seekFrom(l, [cursor.value, cursor.id], wanted, -1);
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
      // Each list's first read: twice its share of the page. The grid's first screen of 64 rows over 360 lists takes
      // one key a list, each read in the one statement, and a list whose key the page takes reads on by itself; four
      // a list (the old floor) read 1,440 records' values for it, a quarter to a half more time for a first screen.
      const first = Math.max(1, Math.ceil((2 * (limit + 1)) / Math.max(1, found.lists.length)));
      const heads: Head[] = [];
      for (const list of sortLists.listsOf(col, found.lists)) {
        if (list !== null) heads.push({ list, keys: [], at: 0, size: first, next: start(list), done: false });
      }
      heap = fillAll(heads);
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    }
    const ids: number[] = [];
    let last: SortKey | null = null;
    while (ids.length < limit && heap.length > 0) {
      const h = heap[0]!;
      last = h.keys[h.at++]!;
      ids.push(last[1]);
      if (h.at === h.keys.length && (h.done || !fill(h))) {
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
      if (keep) keepMerge(mergeName(last[1]), { generation: now, value: last[0], heap, held });
    }
    return ids;
  }

  /**
   * One date's order-status lists under a filter the classes carry (no text search), with the classes it keeps; null
   * when the range's keys are not all current.
   */
  function statusLists(filter: FilterParams, exceptionsOnly: boolean, day: number) {
    const found = filter.search === null ? lists(filter) : null;
    if (found === null) return null;
    const wanted = sortLists.wanted({ ...found.codes, ruleBit: filter.ruleBit, exceptionsOnly });
    const dayLists = sortLists
      .listsOf(
        STATUS_COL,
        found.lists.filter((l) => l.day === day),
      )
      .filter((l) => l !== null);
    return { lists: dayLists, wanted };
  }

  /**
   * The ids of one date's current records that pass the filter (no text search), in id order after `afterId`, at
   * most `limit`: a group of the value order (settlement-value-order.ts) or a date of the date order
   * (settlement-pages.ts), read from the date's order-status lists, whose runs (one a status and gateway) hold ids in
   * id order with every field such a filter checks, instead of from every record of the date. Each run with kept
   * keys is read from `afterId` on for up to `limit` of them, the blocks without one stepped over (a gateway's
   * 'failed' rows of 9 dates at 2,000,000 rows: 26 ms of CPU walked, 5.6 read from the keys with their rows). Null
   * when the range's keys are not all current, or where the walk reads less.
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
    const found = exceptionsOnly ? null : statusLists(filter, exceptionsOnly, day);
    if (found === null) return null;
    const { lists: dayLists, wanted } = found;
    const runs: { list: SortList; run: StatusRun }[] = [];
    let listed = 0;
    let toScan = 0;
    for (const list of dayLists) {
      listed += list.n.at(-1)!;
      for (const run of sortLists.runsOf(list, wanted)) {
        runs.push({ list, run });
        // A run's kept keys read for the page: its keys (those of blocks holding a kept one) in proportion.
        toScan +=
          sortLists.keysToScan(list, wanted, run.start, run.end) * Math.min(1, limit / (run.through - run.before));
      }
    }
    // The walk stops at its `limit`-th row of the group, about limit / groupCount of the date's records (the lists'
    // keys standing for them), the group's rows being spread over it: a screen of a common payment mode is read
    // from the records, a rare status's rows or a group's last rows from the keys.
    if (toScan > KEYS_PER_RECORD * listed * Math.min(1, limit / groupCount)) return null;
    const step = direction === 'desc' ? -1 : 1;
    const ids: number[] = [];
    for (const { list, run } of runs) {
      // Ids are whole numbers: the first key after `afterId` ascending is the first at or above `afterId + 1`.
      const from =
        step === 1
          ? sortLists.seekFrom(list, [run.value, afterId + 1], wanted, 1)
          : sortLists.seekFrom(list, [run.value, afterId], wanted, -1);
      const to = step === 1 ? run.end : run.start - 1;
      if (from === to || (step === 1 ? from > to : from < to)) continue;
      for (const id of sortLists.scan(list, from, step, wanted, limit, to).ids) ids.push(id);
    }
    ids.sort(direction === 'desc' ? (a, b) => b - a : (a, b) => a - b);
    return ids.length > limit ? ids.slice(0, limit) : ids;
  }

  return { pageIds, lists, statusLists, dayIds, sortLists };
}
export type KeyOrder = ReturnType<typeof createKeyOrder>;
