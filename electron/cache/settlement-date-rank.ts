/**
 * A jump in the date order under a filter the classes carry (a gateway, payment mode, statuses, a rule, exceptions
 * only), or on a date with vanished records: the id of the row at a rank among one date's, counted by the date's
 * order-status lists (sort-keys.ts) instead of walking the rows before it.
 *
 * A date's status list of one gateway holds its keys in (status, id) order: a run of ids in id order per status. The
 * kept keys of a run below an id X are the difference of two seeks (the run's start and (status, X)): each a binary
 * search of the marks and of a block's keys (the status from the key's class, no record read), with the marks' kept
 * counts before the block and the block's kept classes before the place. A binary search over X for the smallest id
 * with `rank + 1` kept keys at or below it finds the row: about 20 counts of a few runs each (gateways × statuses).
 *
 * Null where the lists cannot count (a date of the range without current keys, or the date's kept keys not the
 * rollup's count): the caller skips rows.
 */
import type { FilterParams } from './settlement-filter';
import type { KeyOrder } from './settlement-key-order';
import type { SortList } from './settlement-sort-lists';
import { KEYED_SORT_COLUMNS } from '../../shared/settlement-query';

const COL = KEYED_SORT_COLUMNS.indexOf('order_status');

/** One status's keys in a list, their ids rising: the list's kept keys before the run (`before`) and at its marks. */
interface Run {
  list: SortList;
  kept: number[];
  value: string | number;
  before: number;
}

export function createDateRank(keyOrder: Pick<KeyOrder, 'lists' | 'sortLists'>) {
  const { sortLists } = keyOrder;

  /**
   * The id of the row at `rank` (0 is the lowest id) of a date's current records the filter keeps, which the rollup
   * counts `count`; null when the lists cannot count.
   */
  function idAtRank(filter: FilterParams, exceptionsOnly: boolean, day: number, rank: number, count: number) {
    const found = keyOrder.lists(filter);
    if (found === null) return null;
    const wanted = sortLists.wanted({ ...found.codes, ruleBit: filter.ruleBit, exceptionsOnly });
    /** A list's kept keys before a place: the marks' count before its block, and the block's before the place. */
    const keptAt = (l: SortList, kept: number[], { block, at }: { block: number; at: number }) =>
      kept[block]! + (wanted === null ? at : sortLists.keptBefore(l, block, at, wanted));

    const runs: Run[] = [];
    let total = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (const list of sortLists.listsOf(
      COL,
      found.lists.filter((l) => l.day === day),
    )) {
      if (list === null) continue;
      const kept = wanted === null ? list.n : sortLists.keptAtMarks(list, wanted);
      const size = list.n.at(-1)!;
      total += kept.at(-1)!;
      // The list's runs, one seek past each status's last key; a run with no kept key is left out.
      for (let start = 0; start < size;) {
        const b = sortLists.blockOf(list, start);
        const value = sortLists.valueIn(list, b, start - list.n[b]!);
        const end = sortLists.seek(list, [value, Number.MAX_SAFE_INTEGER]);
        const before = keptAt(list, kept, { block: b, at: start - list.n[b]! });
        if (keptAt(list, kept, end) > before) {
          runs.push({ list, kept, value, before });
          lo = Math.min(lo, idAt(list, start));
          hi = Math.max(hi, idAt(list, end.n - 1));
        }
        start = end.n;
      }
    }
    if (total !== count || rank < 0 || rank >= total) return null;

    /** The kept keys of the runs with an id below `x`. */
    const keptBelow = (x: number) => {
      let sum = 0;
      for (const r of runs) sum += keptAt(r.list, r.kept, sortLists.seek(r.list, [r.value, x])) - r.before;
      return sum;
    };
    // The smallest id with more than `rank` kept keys at or below it is the row's: the key counted there is kept.
    let a = lo;
    let b = hi;
    while (a < b) {
      const m = Math.floor((a + b) / 2);
      if (keptBelow(m + 1) > rank) b = m;
      else a = m + 1;
    }
    return a;
  }

  /** The id at a list's ordinal `n`. */
  function idAt(l: SortList, n: number): number {
    const b = sortLists.blockOf(l, n);
    return sortLists.block(l, b).ids[n - l.n[b]!]!;
  }

  return { idAtRank };
}
export type DateRank = ReturnType<typeof createDateRank>;
