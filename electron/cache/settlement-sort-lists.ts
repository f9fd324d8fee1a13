/**
 * The sort keys' lists as reads see them (sort-keys.ts): a list's marks (each block's first key and ordinal), its
 * blocks decoded, its keys' values read from the records by id, and the classes of record a filter keeps. A key's
 * place in a list is an ordinal: its block's first ordinal (the marks') and its place in the block.
 *
 * Marks and blocks are kept while the file's data stays the same (`renew` with the data's generation): a page and
 * the next one, or a jump's cuts, read the same few blocks again.
 */
import type { Database } from 'better-sqlite3';
import { FILTER_SQL, type FilterParams } from './settlement-filter';
import { PER_DAY } from './settlement-ids';
import { SORT_EXPRESSION, decodeBlock, decodeMarkCounts, type Block, type SortKey } from './sort-keys';
import { KEYED_SORT_COLUMNS } from '../../shared/settlement-query';

type Value = string | number;

/** Text in SQLite's BINARY order (UTF-8 bytes, which is code point order); numbers by value. */
export function compareValues(a: Value, b: Value): number {
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
/** Keys in a list's order: by value, ties by id. */
export const compareKeys = (a: SortKey, b: SortKey): number => compareValues(a[0], b[0]) || a[1] - b[1];

/** The place of the first of `keys` (in `order`) not below `key`: `keys.length` when every one is. */
export function firstNotBelow(
  keys: readonly SortKey[],
  key: SortKey,
  order: (a: SortKey, b: SortKey) => number,
): number {
  let a = 0;
  let b = keys.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (order(keys[m]!, key) < 0) a = m + 1;
    else b = m;
  }
  return a;
}

/** The filters but the dates, a gateway and a text search, checked on a class of record. */
const CLASS_FILTER_SQL = `(:modeCode IS NULL OR k.mode_code = :modeCode)
      AND (:orderStatusCode IS NULL OR k.order_status_code = :orderStatusCode)
      AND (:pgStatusCode IS NULL OR k.pg_status_code = :pgStatusCode)
      AND (:ruleBit IS NULL OR k.exception_flags & :ruleBit <> 0)
      AND (:exceptionsOnly = 0 OR k.exception_flags <> 0)`;

/** One list (column, day, gateway): its marks' keys and counts, and `n`, each block's first ordinal then its size. */
export interface SortList {
  col: number;
  day: number;
  pg: number;
  keys: SortKey[];
  n: number[];
  counts: Uint8Array;
}

/**
 * One status's keys in a status list, their ids rising: ordinals `start` to `end` (excluded), and the list's keys a
 * filter keeps before each of the two (`before`, `through`).
 */
export interface StatusRun {
  value: Value;
  start: number;
  end: number;
  before: number;
  through: number;
}

/** The filter's numbers of payment mode and statuses (-1: a value no record has), its rule and exceptions only. */
export interface ClassFilter {
  modeCode: number | null;
  orderStatusCode: number | null;
  pgStatusCode: number | null;
  ruleBit: number | null;
  exceptionsOnly: boolean;
}

/** Blocks kept decoded (about 2.3 KB each), lists, and values a seek read: bounds on their memory. */
const KEPT_BLOCKS = 4096;
const KEPT_LISTS = 20_000;
const KEPT_VALUES = 200_000;
/** Kept keys of a block up to which a seek reads each one's value rather than search the block (`seekKept`). */
const FEW_KEPT = 6;

export function createSortLists(db: Database) {
  // A column's marks over a range of days, in one read: the range's 360 lists (90 days, 4 gateways) read one by one
  // took 30 ms of a first page, in one statement 17–21 (1.6 MB of marks at 2,000,000 rows).
  const markRows = db
    .prepare(
      `SELECT day, pg_code, keys, counts FROM settlement_sort_mark_lists
       WHERE col = :col AND day BETWEEN :lo AND :hi AND (:pg IS NULL OR pg_code = :pg)`,
    )
    .raw(true);
  const blockRow = db
    .prepare(`SELECT ids, classes FROM settlement_sort_blocks WHERE col = ? AND day = ? AND pg_code = ? AND block = ?`)
    .raw(true);
  const classes = db.prepare(`SELECT code FROM settlement_sort_classes AS k WHERE ${CLASS_FILTER_SQL}`).pluck();
  const valueOf = KEYED_SORT_COLUMNS.map((column) =>
    db.prepare(`SELECT ${SORT_EXPRESSION[column]} FROM settlements WHERE id = ?`).pluck(),
  );
  // A status list's value is its key's class's status: a seek there reads no record.
  const statusOfClass = (kind: 'order_status' | 'pg_status') =>
    db
      .prepare(
        `SELECT k.code, c.value FROM settlement_sort_classes AS k
         JOIN settlement_sort_codes AS c ON c.code = k.${kind}_code`,
      )
      .raw(true);
  const classValueRows = KEYED_SORT_COLUMNS.map((column) =>
    column === 'order_status' || column === 'pg_status' ? statusOfClass(column) : null,
  );
  const keysOf = (searched: boolean) =>
    KEYED_SORT_COLUMNS.map((column) =>
      db
        .prepare(
          `SELECT id, ${SORT_EXPRESSION[column]} FROM settlements WHERE id IN (SELECT value FROM json_each(:ids))
           ${searched ? `AND ${FILTER_SQL}` : ''}`,
        )
        .raw(true),
    );
  const plainKeys = keysOf(false);
  const searchedKeys = keysOf(true);

  let generation = '';
  const lists = new Map<string, SortList | null>();
  const blocks = new Map<string, Block>();
  /** Per column, values by id: a jump's cuts seek in the same blocks, whose binary searches read the same records. */
  const values = KEYED_SORT_COLUMNS.map(() => new Map<number, Value>());
  /** The classes each filter keeps (`wanted`), by the filter. */
  const wantedKept = new Map<string, ReadonlySet<number>>();
  /** Per status column, its value by class (`classValues`). */
  const classValuesKept = new Map<number, Map<number, Value>>();
  /** A status list's runs by the filter's classes (`runsOf`; null: all), for as long as the list is kept. */
  const runsKept = new WeakMap<SortList, Map<ReadonlySet<number> | null, readonly StatusRun[]>>();

  /** Drops what was kept when the data's generation is not the one it was read under. */
  function renew(now: string) {
    if (now === generation && lists.size < KEPT_LISTS) return;
    generation = now;
    lists.clear();
    blocks.clear();
    wantedKept.clear();
    classValuesKept.clear();
    for (const kept of values) kept.clear();
  }

  /** A status column's value of each class of record; null for the other columns, whose values are the records'. */
  function classValues(col: number): Map<number, Value> | null {
    const rows = classValueRows[col];
    if (!rows) return null;
    let found = classValuesKept.get(col);
    if (found === undefined) {
      classValuesKept.set(col, (found = new Map(rows.all() as [number, Value][])));
    }
    return found;
  }

  /** The value of a list's key at place `i` of its block `b`. */
  function valueIn(l: SortList, b: number, i: number): Value {
    const { ids, classes: blockClasses } = block(l, b);
    const byClass = classValues(l.col);
    return byClass === null ? valueAt(l.col, ids[i]!) : byClass.get(blockClasses[i]!)!;
  }

  /** A record's value in a column. */
  function valueAt(col: number, id: number): Value {
    const kept = values[col]!;
    let found = kept.get(id);
    if (found === undefined) {
      if (kept.size >= KEPT_VALUES) kept.clear();
      kept.set(id, (found = valueOf[col]!.get(id) as Value));
    }
    return found;
  }

  /** The marks of a column's lists `wanted` (day, gateway), in their order; null for a list with no keys. */
  function listsOf(col: number, wanted: readonly { day: number; pg: number }[]): (SortList | null)[] {
    const name = (day: number, pg: number) => `${col}:${day}:${pg}`;
    const missing = wanted.filter(({ day, pg }) => !lists.has(name(day, pg)));
    if (missing.length > 0) {
      const days = missing.map(({ day }) => day);
      const pgs = new Set(missing.map(({ pg }) => pg));
      // One gateway's lists (a gateway filter) skip the others' by the key, without reading their marks.
      const range = { col, lo: Math.min(...days), hi: Math.max(...days), pg: pgs.size === 1 ? missing[0]!.pg : null };
      const asked = new Set(missing.map(({ day, pg }) => name(day, pg)));
      for (const [day, pg, keys, counts] of markRows.iterate(range) as Iterable<[number, number, string, Uint8Array]>) {
        if (!asked.has(name(day, pg))) continue;
        const list = { col, day, pg, keys: JSON.parse(keys) as SortKey[], n: decodeMarkCounts(counts, null).n, counts };
        lists.set(name(day, pg), list);
      }
      for (const key of asked) if (!lists.has(key)) lists.set(key, null);
    }
    return wanted.map(({ day, pg }) => lists.get(name(day, pg))!);
  }

  /**
   * A status list's runs holding a key the classes `wanted` keeps (null: every class), each status's keys in id order,
   * with the list's kept keys before and after it. Found once per list and filter while the data stays the same: a
   * page of the date order reads them for each date it spans, a jump for each count.
   */
  function runsOf(l: SortList, wanted: ReadonlySet<number> | null): readonly StatusRun[] {
    const byFilter = runsKept.get(l) ?? runsKept.set(l, new Map()).get(l)!;
    let runs = byFilter.get(wanted);
    if (runs === undefined) {
      const found: StatusRun[] = [];
      for (let start = 0, size = l.n.at(-1)!; start < size;) {
        const b = blockOf(l, start);
        const value = valueIn(l, b, start - l.n[b]!);
        // One seek past the status's last key.
        const end = seek(l, [value, Number.MAX_SAFE_INTEGER]).n;
        const before = keptAt(l, start, wanted);
        const through = keptAt(l, end, wanted);
        if (through > before) found.push({ value, start, end, before, through });
        start = end;
      }
      byFilter.set(wanted, (runs = found));
    }
    return runs;
  }

  /** A list's keys the classes `wanted` keeps (null: all) before ordinal `n`: the marks' count, and its block's. */
  function keptAt(l: SortList, n: number, wanted: ReadonlySet<number> | null): number {
    const b = blockOf(l, n);
    const at = n - l.n[b]!;
    return wanted === null ? n : keptAtMarks(l, wanted)[b]! + keptBefore(l, b, at, wanted);
  }

  /** A list's block `b`, decoded. */
  function block(l: SortList, b: number): Block {
    const name = `${l.col}:${l.day}:${l.pg}:${b}`;
    let found = blocks.get(name);
    if (found === undefined) {
      if (blocks.size >= KEPT_BLOCKS) blocks.clear();
      const [ids, codes] = blockRow.get(l.col, l.day, l.pg, b) as [Uint8Array, Uint8Array];
      found = decodeBlock(ids, codes, l.day * PER_DAY);
      blocks.set(name, found);
    }
    return found;
  }

  /** The block holding ordinal `n` (its last block for the list's size). */
  function blockOf(l: SortList, n: number): number {
    let a = 0;
    let b = l.n.length - 2;
    while (a < b) {
      const m = (a + b + 1) >> 1;
      if (l.n[m]! <= n) a = m;
      else b = m - 1;
    }
    return a;
  }

  /**
   * Where `key` falls in a list: the block and the place in it of the first key at or above it (the block's length
   * when every key of the block is below), and its ordinal. The block by the marks' keys, the place by the values of
   * a few of the block's keys (their records', or a status's from their classes), a binary search.
   */
  function seek(l: SortList, key: SortKey): { block: number; at: number; n: number } {
    const a = firstNotBelow(l.keys, key, compareKeys);
    if (a === 0) return { block: 0, at: 0, n: 0 };
    // The last block whose first key is below `key`: the place sought is past that first key, in it or at its end.
    const found = a - 1;
    const { ids } = block(l, found);
    let lo = 1;
    let hi = ids.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (compareKeys([valueIn(l, found, m), ids[m]!], key) < 0) lo = m + 1;
      else hi = m;
    }
    return { block: found, at: lo, n: l.n[found]! + lo };
  }

  /**
   * Where `key` falls among the kept keys (the classes `wanted` keeps) of the list's block that holds it, when the block
   * holds at most FEW_KEPT: the list's kept keys below it, and the ordinals its place lies between, with no kept key
   * between them. Each kept key's value is read in turn, where a binary search of the block reads about 8: under a
   * rare status, most of the 360 lists (90 days) a jump counts in, or a page after it seeks, hold one or none.
   * Null for a block of more.
   */
  function seekKept(l: SortList, key: SortKey, wanted: ReadonlySet<number>) {
    const kept = keptAtMarks(l, wanted);
    const a = firstNotBelow(l.keys, key, compareKeys);
    if (a === 0) return { kept: 0, nLo: 0, nHi: 0 };
    const b = a - 1;
    if (kept[a]! - kept[b]! > FEW_KEPT) return null;
    const { ids, classes: blockClasses } = block(l, b);
    let below = 0;
    let nLo = l.n[b]!;
    let nHi = l.n[a]!;
    for (let i = 0; i < ids.length && below < kept[a]! - kept[b]!; i++) {
      if (!wanted.has(blockClasses[i]!)) continue;
      if (compareKeys([valueIn(l, b, i), ids[i]!], key) >= 0) {
        nHi = l.n[b]! + i;
        break;
      }
      below++;
      nLo = l.n[b]! + i + 1;
    }
    return { kept: kept[b]! + below, nLo, nHi };
  }

  /** Where a `scan` by `step` starts for the kept keys at or above `key` (1), or below it (-1). */
  function seekFrom(l: SortList, key: SortKey, wanted: ReadonlySet<number> | null, step: 1 | -1): number {
    const few = wanted === null ? null : seekKept(l, key, wanted);
    if (few !== null) return step === 1 ? few.nHi : few.nLo - 1;
    const { n } = seek(l, key);
    return step === 1 ? n : n - 1;
  }

  /**
   * A list's ids from ordinal `from`, stepping by `step` (1 or -1), up to `to` (excluded; the list's end by default),
   * those whose class `wanted` keeps (null: all), at most `most`; and the ordinal after the last one looked at.
   */
  function scan(
    l: SortList,
    from: number,
    step: 1 | -1,
    wanted: ReadonlySet<number> | null,
    most: number,
    to = step === 1 ? l.n.at(-1)! : -1,
  ): { ids: number[]; next: number } {
    const ids: number[] = [];
    const kept = wanted === null ? null : keptAtMarks(l, wanted);
    let n = from;
    while (n !== to && ids.length < most) {
      const b = blockOf(l, n);
      const start = l.n[b]!;
      if (kept !== null && kept[b + 1] === kept[b]) {
        // No key of the block is kept: stepped over by the marks' counts, unread. A rare status's keys, all at the far
        // end of an amount's order, had a first screen read every block of its lists: 7,656, 140–220 ms.
        n = step === 1 ? Math.min(l.n[b + 1]!, to) : Math.max(start - 1, to);
        continue;
      }
      const { ids: blockIds, classes: blockClasses } = block(l, b);
      // The block's places from `n` on, this way, to the block's end or `to`.
      const stop = step === 1 ? Math.min(blockIds.length, to - start) : Math.max(-1, to - start);
      let i = n - start;
      for (; i !== stop && ids.length < most; i += step) {
        if (wanted === null || wanted.has(blockClasses[i]!)) ids.push(blockIds[i]!);
      }
      n = start + i;
    }
    return { ids, next: n };
  }

  /**
   * Per filter's classes (`wanted`), each list's kept keys before each mark, then in the whole list
   * (`decodeMarkCounts`).
   */
  const keptOfLists = new WeakMap<ReadonlySet<number>, Map<SortList, number[]>>();
  function keptAtMarks(l: SortList, wanted: ReadonlySet<number>): number[] {
    const ofLists = keptOfLists.get(wanted) ?? keptOfLists.set(wanted, new Map()).get(wanted)!;
    let kept = ofLists.get(l);
    if (kept === undefined) ofLists.set(l, (kept = decodeMarkCounts(l.counts, wanted).kept));
    return kept;
  }

  /**
   * The keys `scan` reads for the kept keys from ordinal `from` to `to` (the whole list by default): those of the
   * blocks holding any, whole blocks at the two ends.
   */
  function keysToScan(l: SortList, wanted: ReadonlySet<number> | null, from = 0, to = l.n.at(-1)!): number {
    if (wanted === null) return to - from;
    const kept = keptAtMarks(l, wanted);
    let keys = 0;
    for (let b = blockOf(l, from); b + 1 < l.n.length && l.n[b]! < to; b++) {
      if (kept[b + 1]! > kept[b]!) keys += l.n[b + 1]! - l.n[b]!;
    }
    return keys;
  }

  /** The kept keys (the classes `wanted` keeps) of a block before place `at`. */
  function keptBefore(l: SortList, b: number, at: number, wanted: ReadonlySet<number>): number {
    const { classes: blockClasses } = block(l, b);
    let kept = 0;
    for (let i = 0; i < at; i++) if (wanted.has(blockClasses[i]!)) kept++;
    return kept;
  }

  /**
   * The keys of `ids` in their order: each record's value in the column; with a text search (`filter`), only the
   * records that pass it.
   */
  function keys(col: number, ids: number[], filter: FilterParams | null = null): SortKey[] {
    const byId = valuesOf(col, ids, filter);
    const out: SortKey[] = [];
    for (const id of ids) {
      const value = byId.get(id);
      if (value !== undefined) out.push([value, id]);
    }
    return out;
  }

  /** The column's value of each of `ids` in one read; with a text search (`filter`), of those that pass it. */
  function valuesOf(col: number, ids: number[], filter: FilterParams | null = null): Map<number, Value> {
    const byId = new Map<number, Value>();
    if (ids.length === 0) return byId;
    const params = { ...filter, ids: JSON.stringify(ids) };
    for (const [id, value] of (filter === null ? plainKeys : searchedKeys)[col]!.all(params) as [number, Value][])
      byId.set(id, value);
    return byId;
  }

  /**
   * The classes of record a filter keeps; null when it keeps every class. The same set for the same filter while the
   * data stays the same, so the lists' kept counts (`keptAtMarks`) serve every page and jump under it.
   */
  function wanted(filter: ClassFilter): ReadonlySet<number> | null {
    const { modeCode, orderStatusCode, pgStatusCode, ruleBit, exceptionsOnly } = filter;
    if (!exceptionsOnly && modeCode === null && orderStatusCode === null && pgStatusCode === null && ruleBit === null)
      return null;
    const name = JSON.stringify([modeCode, orderStatusCode, pgStatusCode, ruleBit, exceptionsOnly]);
    let kept = wantedKept.get(name);
    if (kept === undefined) {
      const params = { modeCode, orderStatusCode, pgStatusCode, ruleBit, exceptionsOnly: Number(exceptionsOnly) };
      wantedKept.set(name, (kept = new Set(classes.all(params) as number[])));
    }
    return kept;
  }

  return {
    renew,
    listsOf,
    block,
    blockOf,
    runsOf,
    keptAt,
    seek,
    seekKept,
    seekFrom,
    scan,
    keysToScan,
    keptAtMarks,
    keptBefore,
    keys,
    valuesOf,
    wanted,
  };
}
export type SortLists = ReturnType<typeof createSortLists>;
