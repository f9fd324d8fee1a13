/**
 * A jump in the date order under a filter the classes carry (a gateway, payment mode, statuses, a rule, exceptions
 * only), or on a date with vanished records: the id of the row at a rank among one date's, counted by the date's
 * order-status lists (sort-keys.ts) instead of walking the rows before it.
 *
 * A date's status list of one gateway holds its keys in (status, id) order: a run of ids in id order per status
 * (`runsOf`, each found once per filter). The kept keys of a run below an id X are one seek, (status, X), less the
 * run's start: a binary search of the marks and of a block's keys (the status from the key's class, no record read),
 * with the marks' kept counts before the block and the block's kept classes before the place. A binary search over X
 * for the smallest id with `rank + 1` kept keys at or below it finds the row: about 20 counts of a few runs each
 * (gateways × statuses).
 *
 * Null where the lists cannot count (a date of the range without current keys, or the date's kept keys not the
 * rollup's count): the caller skips rows.
 */
import type { FilterParams } from './settlement-filter';
import type { KeyOrder } from './settlement-key-order';
import type { SortList, StatusRun } from './settlement-sort-lists';

export function createDateRank(keyOrder: Pick<KeyOrder, 'sortLists' | 'statusLists'>) {
  const { sortLists } = keyOrder;

  /**
   * The id of the row at `rank` (0 is the lowest id) of a date's current records the filter keeps, which the rollup
   * counts `count`; null when the lists cannot count.
   */
  function idAtRank(filter: FilterParams, exceptionsOnly: boolean, day: number, rank: number, count: number) {
    const found = keyOrder.statusLists(filter, exceptionsOnly, day);
    if (found === null) return null;
    const { lists, wanted } = found;
    const runs: { list: SortList; run: StatusRun }[] = [];
    let total = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (const list of lists) {
      total += (wanted === null ? list.n : sortLists.keptAtMarks(list, wanted)).at(-1)!;
      for (const run of sortLists.runsOf(list, wanted)) {
        runs.push({ list, run });
        lo = Math.min(lo, idAt(list, run.start));
        hi = Math.max(hi, idAt(list, run.end - 1));
      }
    }
    if (total !== count || rank < 0 || rank >= total) return null;

    /** The kept keys of the runs with an id below `x`. */
    const keptBelow = (x: number) => {
      let sum = 0;
      for (const { list, run } of runs) {
        sum += sortLists.keptAt(list, sortLists.seek(list, [run.value, x]).n, wanted) - run.before;
      }
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
