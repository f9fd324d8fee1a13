/**
 * A jump in a column's order through the sort keys (sort-keys.ts): the key at a rank (a position of the result) among a
 * range's lists (day × gateway), with no filter but the dates and a gateway or with any filter the classes carry
 * (payment mode, statuses, a rule, exceptions only), by the lists' marks.
 *
 * A list's blocks start at its marks, each holding the block's first key and how many keys of each class of record
 * come before it (one row a list). A jump reads the range's marks (about 8,500 in 360 lists at two million rows), sums
 * the classes the filter keeps before each mark (and every class: its ordinal), and orders the marks. The count
 * before a mark is bounded by sums of mark counts, which narrow the sought key K to a stretch of marks; an estimate
 * (each list's count rising evenly between its marks) picks a mark to count exactly (a cut) in every list: a seek in
 * the list's block (a binary search by its records' values), then the marks' count before the block and the kept
 * classes of the block before the place (none where the points either side hold the same count). The estimate's
 * error at a cut corrects the next pick; two to four cuts leave few keys between the lists' points next to K, which
 * are read and sorted. Every count is exact; the estimate only chooses where.
 *
 * Null where the marks cannot count: a date without current keys (settlement-key-order.ts `lists`), or marks whose
 * total is not the rollup's (a date changed since its keys were written). The caller then skips rows.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { FilterParams } from './settlement-filter';
import type { KeyOrder } from './settlement-key-order';
import { ROLLUP_WHERE } from './settlement-rollup';
import { compareKeys, firstNotBelow, type SortList } from './settlement-sort-lists';
import type { SortKey } from './sort-keys';
import { KEYED_SORT_COLUMNS, type KeyedSortColumn } from '../../shared/settlement-query';

const SQL = {
  /** Rows of the range the filter keeps (the rollup's count). */
  filteredCount: `SELECT coalesce(sum(count), 0) FROM settlement_rollup WHERE ${ROLLUP_WHERE}`,
} as const;

/**
 * Keys between the lists' points next to the two marks around K, above which a jump counts at another mark rather than
 * read them: a count is a seek a list, a block read and a binary search by its records' values.
 */
const READ_FEW = 2048;
/** Keys of a block a scan steps through for about the time of one record's value read. */
const KEYS_SCANNED_PER_VALUE = 64;
/** Cuts picked by the estimate before a jump halves the stretch instead, should the estimate mislead. */
const GUIDED_CUTS = 6;

/**
 * A known point of a list: a key (null: the list's start or end), the filter's keys before it (exact), the list's
 * keys before it (`nLo`..`nHi`: exact at a mark or a count; a range where the marks either side left no kept key
 * between them, so nothing was counted), and where its key falls among all marks (`p`, -1 and their number at the ends).
 */
interface Point {
  key: SortKey | null;
  count: number;
  nLo: number;
  nHi: number;
  p: number;
}

interface List {
  list: SortList;
  /** The marks' keys; for each mark then the whole list, the keys before it and those the filter keeps. */
  keys: SortKey[];
  n: number[];
  kept: number[];
  /** Where each mark falls among all marks. */
  at: number[];
  /** The list's points at the last cuts below and above K. */
  low: Point | null;
  high: Point | null;
}

/** How far a jump counts before it reads (the tests take both to their ends, so every path runs on small files). */
export interface KeyRankTuning {
  readFew: number;
  guidedCuts: number;
}

const ABOVE_SURROGATES = /[\uD800-\uFFFF]/;

/**
 * The cheapest comparator in SQLite's order for these keys: numbers by value; text below U+D800 by JavaScript's own
 * comparison (UTF-16 units, the code points there, so UTF-8's order); anything else by `compareKeys`. Ties by id.
 */
function comparatorFor(keys: readonly SortKey[]): (a: SortKey, b: SortKey) => number {
  if (keys.every(([value]) => typeof value === 'number')) {
    return (a, b) => (a[0] as number) - (b[0] as number) || a[1] - b[1];
  }
  if (keys.every(([value]) => typeof value === 'string' && !ABOVE_SURROGATES.test(value))) {
    return (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);
  }
  return compareKeys;
}

export function createKeyRank(
  db: Database,
  keyOrder: Pick<KeyOrder, 'lists' | 'sortLists'>,
  { readFew, guidedCuts }: KeyRankTuning = { readFew: READ_FEW, guidedCuts: GUIDED_CUTS },
) {
  const filteredCount = db.prepare(SQL.filteredCount).pluck(true) as Statement;
  const { sortLists } = keyOrder;

  /**
   * The key at `rank` (0 is the smallest) of a column's order among the range's current records the filter keeps,
   * with the result's size; a null key when `rank` is outside the result; null when the marks cannot count.
   */
  function keyAtRank(
    column: KeyedSortColumn,
    filter: FilterParams,
    exceptionsOnly: boolean,
    rankOf: (total: number) => number,
  ): { key: SortKey | null; total: number } | null {
    const found = keyOrder.lists(filter);
    if (found === null) return null;
    const col = KEYED_SORT_COLUMNS.indexOf(column);
    // With no filter the classes carry, every class is kept: a list's count below a key is its ordinal.
    const wanted = sortLists.wanted({ ...found.codes, ruleBit: filter.ruleBit, exceptionsOnly });

    const all: List[] = [];
    for (const list of sortLists.listsOf(col, found.lists)) {
      if (list === null) continue;
      const kept = wanted === null ? list.n : sortLists.keptAtMarks(list, wanted);
      all.push({ list, keys: list.keys, n: list.n, kept, at: [], low: null, high: null });
    }
    const total = all.reduce((sum, l) => sum + l.kept.at(-1)!, 0);
    if (total !== (filteredCount.get({ ...filter, exceptionsOnly: Number(exceptionsOnly) }) as number)) return null;
    const rank = rankOf(total);
    if (rank < 0 || rank >= total) return { key: null, total };

    const { marks, order, lower, upper } = orderMarks(all);
    const estimate = estimateBelow(all, marks);
    const end = (l: List) => endOf(l, marks.length);
    const around = (l: List, key: SortKey) => pointsAround(l, key, order, marks.length);

    // K has `rank` kept keys below it. A mark with at most `rank` below is at or below K, one with more is above it:
    // `lo` and `hi` are the nearest such marks known (-1 and marks.length: the ends).
    let lo = -1;
    while (lo + 1 < marks.length && upper[lo + 1]! <= rank) lo++;
    let hi = lo + 1;
    while (hi < marks.length && lower[hi]! <= rank) hi++;
    const cutAt = new Set<number>();
    const error: { lo: number | null; hi: number | null } = { lo: null, hi: null };

    /**
     * Counts every list's kept keys below the mark at `p` (a cut): nothing where the list's known points either side
     * hold the same count, else a seek in the list: its ordinal there, and the marks' count before its block with the
     * kept keys of the block before it.
     */
    const cut = (p: number) => {
      const key = marks[p]!.key;
      const points = all.map((l): Point => {
        const [below, above] = around(l, key);
        if (below === above) return below;
        if (below.count === above.count) return { key, count: below.count, nLo: below.nLo, nHi: above.nHi, p };
        const few = wanted === null ? null : sortLists.seekKept(l.list, key, wanted);
        if (few !== null) return { key, count: few.kept, nLo: few.nLo, nHi: few.nHi, p };
        const { block, at, n } = sortLists.seek(l.list, key);
        const count = wanted === null ? n : l.kept[block]! + sortLists.keptBefore(l.list, block, at, wanted);
        return { key, count, nLo: n, nHi: n, p };
      });
      const below = points.reduce((sum, point) => sum + point.count, 0);
      if (below <= rank) {
        all.forEach((l, i) => (l.low = points[i]!));
        lo = p;
        error.lo = below - estimate[p]!;
      } else {
        all.forEach((l, i) => (l.high = points[i]!));
        hi = p;
        error.hi = below - estimate[p]!;
      }
      cutAt.add(p);
    };

    /** Each list's nearest known points at or below the `lo` mark and at or above the `hi` mark: K is between two. */
    const bounds = (): [Point, Point][] =>
      all.map((l) => [
        lo < 0 ? START : around(l, marks[lo]!.key)[0],
        hi >= marks.length ? end(l) : around(l, marks[hi]!.key)[1],
      ]);
    /**
     * What reading a list's kept keys between two points costs, in values read: each kept key's, and the blocks that
     * hold them, decoded (`scan` steps over the others). Under a rare status, 90 days' 360 lists each held a block of
     * keys between their points long after the kept keys there were a few dozen, and a jump cut 13 times for them.
     */
    const readCost = (l: List, from: Point, to: Point) =>
      wanted === null
        ? to.nHi - from.nLo
        : to.count - from.count + sortLists.keysToScan(l.list, wanted, from.nLo, to.nHi) / KEYS_SCANNED_PER_VALUE;
    let readBefore = Infinity;
    for (let guided = 0; ; guided++) {
      const toRead = bounds().reduce(
        (sum, [from, to], i) => sum + (to.count > from.count ? readCost(all[i]!, from, to) : 0),
        0,
      );
      if (toRead <= readFew) break;
      // Where the kept keys bunch (a rare status's amounts), the estimate's cuts crept toward them a few marks at a
      // time, each a seek in most lists: a cut that took less than a quarter off the reading is followed by a halving.
      const guide = guided < guidedCuts && toRead < 0.75 * readBefore;
      readBefore = toRead;
      if (hi - lo > 1) {
        cut(guide ? guidedCut(estimate, error, lo, hi, rank) : (lo + hi) >> 1);
      } else if (lo >= 0 && !cutAt.has(lo)) {
        cut(lo);
      } else if (hi < marks.length && !cutAt.has(hi)) {
        cut(hi);
      } else break;
    }
    // Every list's kept keys between its two points, read with their values and sorted: K is the one `rank` minus
    // those below them. Where a point's ordinal is a range, the keys of that range are none the filter keeps.
    let below = 0;
    const ids: number[] = [];
    bounds().forEach(([from, to], i) => {
      below += from.count;
      if (to.count === from.count) return;
      for (const id of sortLists.scan(all[i]!.list, from.nLo, 1, wanted, Infinity, to.nHi).ids) ids.push(id);
    });
    const keys = sortLists.keys(col, ids);
    keys.sort(comparatorFor(keys));
    return { key: keys[rank - below] ?? null, total };
  }

  return { keyAtRank };
}

/**
 * Every mark of the lists in key order (each list learns where its marks fall), with the sums of mark counts that
 * bound the filter's count below each: `lower` from each list's last mark at or below it, `upper` from each list's
 * first mark above it (or its total).
 */
function orderMarks(all: readonly List[]) {
  const marks = all.flatMap((l, li) => l.keys.map((key, mi) => ({ key, li, mi })));
  const order = comparatorFor(marks.map(({ key }) => key));
  marks.sort((x, y) => order(x.key, y.key));
  const lower = new Float64Array(marks.length);
  const upper = new Float64Array(marks.length);
  let low = 0;
  let up = 0;
  marks.forEach(({ li, mi }, p) => {
    const l = all[li]!;
    l.at[mi] = p;
    low += l.kept[mi]! - (mi > 0 ? l.kept[mi - 1]! : 0);
    up += l.kept[mi + 1]! - l.kept[mi]!;
    lower[p] = low;
    upper[p] = up;
  });
  return { marks, order, lower, upper };
}

const START: Point = { key: null, count: 0, nLo: 0, nHi: 0, p: -1 };

/** A list's end, past all `markCount` marks. */
const endOf = (l: List, markCount: number): Point => ({
  key: null,
  count: l.kept.at(-1)!,
  nLo: l.n.at(-1)!,
  nHi: l.n.at(-1)!,
  p: markCount,
});

const markOf = (l: List, i: number): Point => ({
  key: l.keys[i]!,
  count: l.kept[i]!,
  nLo: l.n[i]!,
  nHi: l.n[i]!,
  p: l.at[i]!,
});

/** A list's nearest known points at or below `key` and at or above it (one point at a mark's key). */
function pointsAround(
  l: List,
  key: SortKey,
  order: (a: SortKey, b: SortKey) => number,
  markCount: number,
): [Point, Point] {
  const a = firstNotBelow(l.keys, key, order);
  if (a < l.keys.length && order(l.keys[a]!, key) === 0) {
    const at = markOf(l, a);
    return [at, at];
  }
  let below = a > 0 ? markOf(l, a - 1) : START;
  let above = a < l.keys.length ? markOf(l, a) : endOf(l, markCount);
  // The points of earlier cuts (keys of marks, so their places among the marks order them).
  if (l.low !== null && l.low.p > below.p && order(l.low.key!, key) <= 0) below = l.low;
  if (l.high !== null && l.high.p < above.p && order(l.high.key!, key) >= 0) above = l.high;
  return [below, above];
}

/**
 * The mark to cut at between `lo` and `hi`, where the estimate, corrected by its errors at the cuts either side,
 * crosses `rank`: the first mark above K by it (`a`) and the one before, below K by it. Count below K first, then
 * above it.
 */
function guidedCut(
  estimate: Float64Array,
  error: { lo: number | null; hi: number | null },
  lo: number,
  hi: number,
  rank: number,
): number {
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
  return a - 1 > lo ? a - 1 : Math.min(a, hi - 1);
}

/**
 * An estimate of the filter's keys below each mark (in key order): each list's count rising evenly between its marks,
 * by how many of all lists' marks lie between (past its first key, the marks spread evenly over the keys, sort-keys.ts;
 * the lists' first keys, all marks, bunch up at the low end and are not counted as distance), with running sums.
 */
function estimateBelow(all: readonly List[], marks: readonly { li: number; mi: number }[]): Float64Array {
  const estimate = new Float64Array(marks.length);
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
      const slope = (l.kept[mi + 1]! - l.kept[mi]!) / Math.max(1, x[i1]! - x0);
      const base = l.kept[mi]! - slope * x0;
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
  return estimate;
}
