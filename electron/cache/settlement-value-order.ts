/**
 * Sorting by a column of few values (gateway, payment mode, order status, gateway status) without an index.
 *
 * The rollup (settlement-rollup.ts) already counts current records per date × gateway × mode × statuses × exception
 * flags, so for any filter it answers it says, per value of the column and per date, how many rows the result holds.
 * `ORDER BY pg DESC, id DESC` is then: the values in order, each value's dates in order (ids are date-major,
 * settlement-ids.ts), and within a date the rows of that value in id order — a rowid range read with the value pinned
 * as one more filter, which stops at the group's last row since the group's count is known. A page reads the groups
 * it spans, each within one date; a jump counts groups to the one holding the position, and within its date the
 * sort keys' status lists count to the row (`ByRankRead`) or, where they cannot, the read skips rows of that one date.
 * Nothing is written for it: no ingest cost, no bytes in the file. A group of few rows (a status's "failed") takes its
 * ids from the sort keys of its date instead of walking every record of the date (`ByKeysRead`).
 *
 * Only where the rollup counts (current records, no text search); elsewhere settlement-pages.ts reads the range.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { SettlementSortColumn } from '../../shared/settlement-query';
import type { FilterParams } from './settlement-filter';
import { PER_DAY, dateOfId, dayNumber } from './settlement-ids';
import { ROLLUP_WHERE } from './settlement-rollup';

/** The columns the rollup groups by, with the filter parameter that pins each to one value. */
export const VALUE_COLUMNS = {
  pg: 'pg',
  payment_mode: 'mode',
  order_status: 'orderStatus',
  pg_status: 'pgStatus',
} as const satisfies Partial<Record<SettlementSortColumn, keyof FilterParams>>;
export type ValueColumn = keyof typeof VALUE_COLUMNS;

export const isValueColumn = (column: SettlementSortColumn): column is ValueColumn => column in VALUE_COLUMNS;

/**
 * The (value, date) groups of a filter with their row counts, in the sort's order; with a cursor, from the cursor's
 * group on (SQLite compares the values, so the order is exactly the one `ORDER BY` gives the records).
 */
function groupsSql(column: ValueColumn, direction: 'asc' | 'desc'): string {
  const [dir, from] = direction === 'desc' ? ['DESC', '<='] : ['ASC', '>='];
  return `SELECT ${column}, date, sum(count) FROM settlement_rollup WHERE ${ROLLUP_WHERE}
    AND (:kValue IS NULL OR (${column}, date) ${from} (:kValue, :kDate))
    GROUP BY ${column}, date HAVING sum(count) > 0 ORDER BY ${column} ${dir}, date ${dir}`;
}

type Group = [value: string, date: string, count: number];

/**
 * Reads that walk one date's ids in one direction from `kId` (exclusive) with the filter as given: the date order's
 * row and key statements (settlement-pages.ts).
 */
export type ByIdRead = (selected: 'rows' | 'key') => Statement;

/**
 * One date's rows of a group read through the sort keys (settlement-key-order.ts `dayIds`), with the filter as given,
 * after `afterId` in the read's order; null where the keys cannot answer (the statement then walks the date).
 */
export type ByKeysRead = (
  filter: FilterParams,
  day: number,
  afterId: number,
  limit: number,
  groupCount: number,
) => unknown[][] | null;

/**
 * The id of a group's row at `rank` in id order (settlement-date-rank.ts), with the filter as given and the group's
 * count; null where the keys cannot count (the read then skips rows of the date).
 */
export type ByRankRead = (filter: FilterParams, day: number, rank: number, groupCount: number) => number | null;

export interface ValueStart {
  /** The first group to read and the id bound, inside its date, that its read starts after. */
  group: number;
  kId: number;
}

export function createValueOrder(db: Database) {
  const statements = new Map<string, Statement>();
  const groupsOf = (
    column: ValueColumn,
    direction: 'asc' | 'desc',
    params: FilterParams & { exceptionsOnly: number; kValue: string | null; kDate: string | null },
  ): Group[] => {
    const name = `${column}:${direction}`;
    let s = statements.get(name);
    if (!s) {
      s = db.prepare(groupsSql(column, direction)).raw(true);
      statements.set(name, s);
    }
    return s.all(params) as Group[];
  };

  /** The id range of one date of a group, within the filter's range. */
  const dateBounds = (filter: FilterParams, date: string) => {
    const day = dayNumber(date);
    return { lo: Math.max(filter.lo, day * PER_DAY), hi: Math.min(filter.hi, (day + 1) * PER_DAY - 1) };
  };
  /** The id just outside a date on the side a read in `direction` starts from. */
  const dateEdge = (bounds: { lo: number; hi: number }, direction: 'asc' | 'desc') =>
    direction === 'desc' ? bounds.hi + 1 : bounds.lo - 1;

  /**
   * One page in (column, id) order: `limit` rows, or `limit + 1` when more follow (the caller's test for a next page).
   * Starts after `cursor` (its value and id), at `position`, or at the first row.
   */
  function page(
    column: ValueColumn,
    direction: 'asc' | 'desc',
    filter: FilterParams,
    exceptionsOnly: boolean,
    byId: ByIdRead,
    byKeys: ByKeysRead,
    byRank: ByRankRead,
    start: { cursor: { value: string; id: number } | null; position: number },
    limit: number,
  ): unknown[][] {
    const pin = VALUE_COLUMNS[column];
    const cursor = start.cursor;
    const cursorDate = cursor === null ? null : dateOfId(cursor.id);
    const groups = groupsOf(column, direction, {
      ...filter,
      exceptionsOnly: Number(exceptionsOnly),
      kValue: cursor?.value ?? null,
      kDate: cursorDate,
    });
    let at = 0;
    /** Where the first group's read resumes: after the cursor, when its own group is still there. */
    let resume: number | null = null;
    let skip = 0;
    if (cursor !== null) {
      const first = groups[0];
      if (first && first[0] === cursor.value && first[1] === cursorDate) resume = cursor.id;
    } else {
      let before = 0;
      while (at < groups.length && start.position >= before + groups[at]![2]) before += groups[at++]![2];
      skip = start.position - before;
    }
    const rows: unknown[][] = [];
    for (; at < groups.length && rows.length <= limit; at++) {
      const [value, date, count] = groups[at]!;
      const bounds = dateBounds(filter, date);
      const pinned = { ...filter, [pin]: value };
      const params = { ...pinned, ...bounds };
      let from = resume ?? dateEdge(bounds, direction);
      if (skip > 0) {
        // A jump: the read starts just before the row at the position, counted by the keys (a gateway's group at
        // 37% of a date of a million rows skipped 183 ms of its rows) or found by skipping to the row before it.
        const id = byRank(pinned, dayNumber(date), direction === 'desc' ? count - 1 - skip : skip, count);
        if (id !== null) from = direction === 'desc' ? id + 1 : id - 1;
        else {
          const key = byId('key').get({ ...params, kId: from, kValue: null, skip: skip - 1 }) as
            [null, number] | undefined;
          if (key === undefined) break;
          from = key[1];
        }
      }
      // A whole group ends at its count: reading on would walk the rest of the date for nothing. A resumed one's
      // remainder is not counted, and ends with its date.
      const wanted = limit + 1 - rows.length;
      const n = resume === null ? Math.min(wanted, count - skip) : wanted;
      // A rare value's rows are a few of its date's: its keys are read rather than every record of the date.
      const more =
        byKeys(pinned, dayNumber(date), from, n, count) ?? byId('rows').all({ ...params, kId: from, limit: n });
      for (const row of more as unknown[][]) rows.push(row);
      resume = null;
      skip = 0;
    }
    return rows;
  }

  return { page };
}
