/**
 * Sorting by a column of few values (gateway, payment mode, order status, gateway status) without an index.
 *
 * The rollup (settlement-rollup.ts) already counts current records per date × gateway × mode × statuses × exception
 * flags, so for any filter it answers it says, per value of the column and per date, how many rows the result holds.
 * `ORDER BY pg DESC, id DESC` is then: the values in order, each value's dates in order (ids are date-major,
 * settlement-ids.ts), and within a date the rows of that value in id order — a rowid range read with the value pinned
 * as one more filter, which stops at the group's last row since the group's count is known. A page reads the groups
 * it spans, each within one date; a jump counts groups to the one holding the position and skips rows of that one
 * date. Nothing is written for it: no ingest cost, no bytes in the file. A group of few rows (a status's "failed")
 * takes its ids from the sort keys of its date instead of walking every record of the date (`ByKeysRead`).
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
        // A jump: the row before the position, found by its key alone, is where the read starts.
        const key = byId('key').get({ ...params, kId: from, kValue: null, skip: skip - 1 }) as
          [null, number] | undefined;
        if (key === undefined) break;
        from = key[1];
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
