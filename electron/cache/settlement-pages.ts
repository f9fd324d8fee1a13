/**
 * Keyset pages of cached settlements. A page continues strictly after the last row of the previous one
 * in (sort key, row id) order, so rows are never skipped or repeated however many share a sort value,
 * and a page deep in a million rows costs what the first one does.
 *
 * The default order, newest date first, is the id order itself (settlement-ids.ts): a page is a rowid
 * range read from the cursor on (or, for exceptions only, a range of their index). Other sort
 * columns have no index of their own (each would cost the ingest a random B-tree insert a row): they read
 * the date range once and keep the top rows, which SQLite does without sorting everything. A text search
 * with few matches visits only its matches (settlement-search.ts), in any order.
 *
 * A page can also start at a position of the result instead of after a cursor: a scrollbar dragged to the
 * middle, "go to row", "go to date". In the date order with a filter the rollup answers, the rollup's counts
 * per date say which date holds the position and how many rows come before it; within the date, its ids (no filter)
 * or its order-status lists' counts (settlement-date-rank.ts) name the row, and where neither can the read skips
 * rows of that one date. Elsewhere the read skips rows up to the position. Skipping reads only sort keys (the sorter
 * holds keys, not rows), and the row before the position becomes the cursor of an ordinary keyset page.
 *
 * Statement texts come only from the constant allow-list below; one named statement per
 * (column, direction, exceptions-only, searched by keys), prepared on first use.
 */
import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import { SETTLEMENT_PAGE } from '../../shared/api/settlements';
import {
  SETTLEMENT_SORT_COLUMNS,
  type CachedSettlement,
  type SettlementSort,
  type SettlementSortColumn,
  type KeyedSortColumn,
} from '../../shared/settlement-query';
import { CursorError, decodeCursor, encodeCursor } from './cursor';
import { EXCEPTIONS_SQL, FILTER_SQL, type FilterParams } from './settlement-filter';
import { PER_DAY, dayNumber } from './settlement-ids';
import { ROLLUP_WHERE } from './settlement-rollup';
import { READ_COLUMNS, readRowToCached } from './settlement-rows';
import { SEARCHED_ROWS, SEARCH_WITH, type SearchPlanner } from './settlement-search';
import { createValueOrder, isValueColumn, type ValueColumn } from './settlement-value-order';
import { createKeyOrder } from './settlement-key-order';
import { createKeyRank } from './settlement-key-rank';
import { createDateRank } from './settlement-date-rank';
import { SORT_EXPRESSION, hasSortKeys } from './sort-keys';

const COLUMNS = READ_COLUMNS.join(', ');

type OtherColumn = Exclude<SettlementSortColumn, 'date'>;

export const DEFAULT_SORT: SettlementSort = { column: 'date', direction: 'desc' };

/** Where a read takes its rows: the whole table, or only a search's matches. */
const source = (keyed: boolean): [withClause: string, from: string] =>
  keyed ? [SEARCH_WITH, SEARCHED_ROWS] : ['', 'settlements'];

/**
 * What a read selects: a page's rows, or (for a jump) only the sort key of the row `:skip` rows on, so that skipping
 * keeps keys in SQLite's sorter rather than whole rows.
 */
type Selected = 'rows' | 'key';

/** One bound each way, both on the rowid: given two upper bounds SQLite would seek by one and filter by the other. */
function byIdSql(direction: 'asc' | 'desc', exceptions: string, keyed: boolean, selected: Selected): string {
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  const range = (id: string) =>
    direction === 'desc' ? `${id} >= :lo AND ${id} < :kId` : `${id} > :kId AND ${id} <= :hi`;
  const columns = selected === 'rows' ? COLUMNS : 'NULL, id';
  const limit = selected === 'rows' ? 'LIMIT :limit' : 'LIMIT 1 OFFSET :skip';
  if (keyed) {
    // The matches' ids in the page's order first, then their rows in that order until the page is full, which SQLite
    // does without sorting again (the outer ORDER BY is the materialized list's own): joined first, every match's
    // row was read and sorted for a page of 64 (a 5,000-record batch: 9–14 ms against 5). The bound is on the
    // list, unary-plussed, so that it reaches neither the list nor the walk of unkeyed dates inside it, which it
    // turned into a read of every record of the range (about 190 ms at 580,000 records).
    return `${SEARCH_WITH}, ordered(mid) AS MATERIALIZED (SELECT mid FROM matches ORDER BY mid ${dir})
      SELECT ${columns} FROM ordered CROSS JOIN settlements ON settlements.id = ordered.mid
      WHERE ${range('+ordered.mid')} AND ${FILTER_SQL} ${exceptions}
      ORDER BY ordered.mid ${dir} ${limit}`;
  }
  return `SELECT ${columns} FROM settlements
    WHERE ${range('id')} AND ${FILTER_SQL} ${exceptions}
    ORDER BY id ${dir} ${limit}`;
}

function byColumnSql(
  expression: string,
  direction: 'asc' | 'desc',
  exceptions: string,
  keyed: boolean,
  selected: Selected,
): string {
  const [dir, past] = direction === 'desc' ? ['DESC', '<'] : ['ASC', '>'];
  const [withClause, from] = source(keyed);
  return `${withClause}
    SELECT ${selected === 'rows' ? COLUMNS : `${expression}, id`} FROM ${from}
    WHERE id BETWEEN :lo AND :hi AND ${FILTER_SQL} ${exceptions}
      AND (:kId IS NULL OR (${expression}, id) ${past} (:kValue, :kId))
    ORDER BY ${expression} ${dir}, id ${dir} ${selected === 'rows' ? 'LIMIT :limit' : 'LIMIT 1 OFFSET :skip'}`;
}

/** Rows per date of the range from the rollup, in the order a date-ordered read meets the dates. */
const DAY_COUNTS = {
  desc: `SELECT date, sum(count) FROM settlement_rollup WHERE ${ROLLUP_WHERE} GROUP BY date ORDER BY date DESC`,
  asc: `SELECT date, sum(count) FROM settlement_rollup WHERE ${ROLLUP_WHERE} GROUP BY date ORDER BY date ASC`,
} as const;

/** A date's first and last ids, vanished rows included: two seeks, where min() and max() together would scan. */
const DAY_IDS = `SELECT (SELECT min(id) FROM settlements WHERE id BETWEEN :lo AND :hi),
                        (SELECT max(id) FROM settlements WHERE id BETWEEN :lo AND :hi)`;

/** True when the filter keeps every current row of its dates (the rollup's count of a date is then its rows). */
const filtersNothing = (f: FilterParams): boolean =>
  f.pg === null &&
  f.mode === null &&
  f.orderStatus === null &&
  f.pgStatus === null &&
  f.ruleBit === null &&
  f.search === null &&
  f.state === 'current';

/** The cursor: the sort it belongs to, the last row's sort value (none for the id order) and its id. */
const cursorShape = z.tuple([
  z.enum(SETTLEMENT_SORT_COLUMNS),
  z.enum(['asc', 'desc']),
  z.union([z.string(), z.number(), z.null()]),
  z.number().int(),
]);

function readCursor(cursor: string, sort: SettlementSort): { value: string | number | null; id: number } {
  const [column, direction, value, id] = decodeCursor(cursor, cursorShape);
  if (column !== sort.column || direction !== sort.direction) {
    throw new CursorError('The page position belongs to another sort order; start from the first page.');
  }
  return { value, id };
}

export interface PageOptions {
  sort?: SettlementSort;
  after?: string;
  /** Start at this row of the result (0 is the first), instead of after a cursor. */
  position?: number;
  limit?: number;
}

export function createSettlementPages(db: Database, search: SearchPlanner) {
  const statements = new Map<string, Statement>();
  const statement = (
    sort: SettlementSort,
    exceptionsOnly: boolean,
    keyed: boolean,
    selected: Selected = 'rows',
  ): Statement => {
    const name = `page:${sort.column}:${sort.direction}:${exceptionsOnly ? 'exceptions' : 'all'}:${keyed ? 'keyed' : 'walk'}:${selected}`;
    let s = statements.get(name);
    if (!s) {
      const exceptions = exceptionsOnly ? EXCEPTIONS_SQL : '';
      s = db.prepare(
        sort.column === 'date'
          ? byIdSql(sort.direction, exceptions, keyed, selected)
          : byColumnSql(SORT_EXPRESSION[sort.column], sort.direction, exceptions, keyed, selected),
      );
      s.raw(true);
      statements.set(name, s);
    }
    return s;
  };
  const valueOrder = createValueOrder(db);
  const keyOrder = createKeyOrder(db);
  const keyRank = createKeyRank(db, keyOrder);
  const dateRank = createDateRank(keyOrder);
  const rowsById = db
    .prepare(`SELECT ${COLUMNS} FROM settlements WHERE id IN (SELECT value FROM json_each(:ids))`)
    .raw(true);
  /** The rows of `ids`, in their order. */
  const rowsOf = (ids: number[]): unknown[][] => {
    const byId = new Map<number, unknown[]>();
    for (const row of rowsById.all({ ids: JSON.stringify(ids) }) as unknown[][]) byId.set(row[0] as number, row);
    return ids.map((id) => byId.get(id)!);
  };
  const dayCounts = { desc: db.prepare(DAY_COUNTS.desc).raw(), asc: db.prepare(DAY_COUNTS.asc).raw() };
  const dayIds = db.prepare(DAY_IDS).raw();

  /**
   * Where a date-ordered read starts to reach row `position`: the id bound just before the row, or just outside the
   * date that holds it and the rows of that date to skip; past the last row, the bound at the far end of the range.
   */
  function dateStart(
    filter: FilterParams,
    exceptionsOnly: boolean,
    direction: 'asc' | 'desc',
    position: number,
  ): { kId: number; skip: number } {
    let before = 0;
    for (const [date, count] of dayCounts[direction].iterate({
      ...filter,
      exceptionsOnly: Number(exceptionsOnly),
    }) as Iterable<[string, number]>) {
      if (position < before + count) {
        const day = dayNumber(date);
        const skip = position - before;
        if (!exceptionsOnly && filtersNothing(filter)) {
          // Every row of the date counts; when its ids are as many as its rows, none vanished and none is missing
          // between the first and the last, so the row `skip` rows in is an id away: no rows to skip at all
          // (a date of a million rows skipped half a million, 100–300 ms).
          const [firstId, lastId] = dayIds.get({ lo: day * PER_DAY, hi: (day + 1) * PER_DAY - 1 }) as [number, number];
          if (lastId - firstId + 1 === count) {
            return { kId: direction === 'desc' ? lastId - skip + 1 : firstId + skip - 1, skip: 0 };
          }
        }
        // A filter, or a vanished record: the date's status lists count to the row (a gateway at 37% of a date of a
        // million rows skipped 121 ms of its rows, NB at 50% 170).
        const id = dateRank.idAtRank(
          filter,
          exceptionsOnly,
          day,
          direction === 'desc' ? count - 1 - skip : skip,
          count,
        );
        if (id !== null) return { kId: direction === 'desc' ? id + 1 : id - 1, skip: 0 };
        return { kId: direction === 'desc' ? (day + 1) * PER_DAY : day * PER_DAY - 1, skip };
      }
      before += count;
    }
    return { kId: direction === 'desc' ? filter.lo : filter.hi, skip: 0 };
  }

  /**
   * The date order under a filter the rollup counts (no exceptions only, whose walk reads their index), after id
   * `kId`: date by date, each date's rows from its status lists where that reads less than its records (a rare
   * status's rows, a few of each date's: a page of 500 chargebacks over 90 days walked 45–99 ms of records), else
   * walked; `limit + 1` rows when more follow.
   */
  function dateRows(filter: FilterParams, direction: 'asc' | 'desc', kId: number, limit: number): unknown[][] {
    const rows: unknown[][] = [];
    // Iterated, so a page that ends in its first dates does not sum the rollup of the rest of the range.
    const days = dayCounts[direction].iterate({ ...filter, exceptionsOnly: 0 }) as Iterable<[string, number]>;
    for (const [date, count] of days) {
      if (rows.length > limit) break;
      const day = dayNumber(date);
      const lo = day * PER_DAY;
      const hi = lo + PER_DAY - 1;
      // A date at or before the cursor in the read's order has nothing left to read.
      if (direction === 'desc' ? lo >= kId : hi <= kId) continue;
      const n = limit + 1 - rows.length;
      const ids = keyOrder.dayIds(filter, false, day, direction, kId, n, count);
      const more = ids
        ? rowsOf(ids)
        : (statement({ column: 'date', direction }, false, false).all({
            ...filter,
            lo,
            hi,
            kId: direction === 'desc' ? Math.min(kId, hi + 1) : Math.max(kId, lo - 1),
            limit: n,
          }) as unknown[][]);
      for (const row of more) rows.push(row);
    }
    return rows;
  }

  function page(
    asked: FilterParams,
    exceptionsOnly: boolean,
    rollupCovers: boolean,
    options: PageOptions,
  ): { rows: CachedSettlement[]; nextCursor: string | null } {
    const sort = options.sort ?? DEFAULT_SORT;
    const limit = options.limit ?? SETTLEMENT_PAGE.defaultLimit;
    const byId = sort.column === 'date';
    const { keyed, params: filter } = search.forRead(asked);
    /** The id bound of the date order before any cursor: just outside the range. */
    const edge = sort.direction === 'desc' ? filter.hi + 1 : filter.lo - 1;
    let cursor = options.after === undefined ? null : readCursor(options.after, sort);
    // A status's order is counted by the rollup: a jump there counts groups (the value order), where its keys' marks
    // would take longer; its pages merge its keys, whose merge the next page takes up, where the value order would
    // walk a rare status's dates again (settlement-value-order.ts).
    const byValues = rollupCovers && isValueColumn(sort.column);
    const jump = options.position !== undefined && options.position > 0;
    // Resolved exceptions left out: only the statement knows workflow states (settlement-filter.ts).
    const stored =
      (hasSortKeys(sort.column) &&
        !keyed &&
        !(byValues && jump) &&
        filter.hideResolved === 0 &&
        readByKeys(sort.column)) ||
      (byValues
        ? readByValues(sort.column as ValueColumn)
        : byId && rollupCovers && !exceptionsOnly && !filtersNothing(filter)
          ? readByDates()
          : readByStatement());
    const more = stored.length > limit;
    const rows = (more ? stored.slice(0, limit) : stored).map(readRowToCached);
    const last = rows.at(-1);
    const nextCursor =
      more && last
        ? encodeCursor([sort.column, sort.direction, byId ? null : (last[sort.column as OtherColumn] ?? ''), last.id])
        : null;
    return { rows, nextCursor };

    /**
     * A column with sort keys: a page merged from the range's lists; a jump from the key at its rank. Null where the
     * keys cannot answer (dates without current keys, a text search's jump): the statement reads.
     */
    function readByKeys(column: KeyedSortColumn): unknown[][] | null {
      let after = cursor && { value: cursor.value ?? '', id: cursor.id };
      if (options.position !== undefined && options.position > 0) {
        const position = options.position;
        // The row before the position: in descending order the one `position` from the largest, ranked by the
        // lists' marks.
        const rankOf = (total: number) => (sort.direction === 'desc' ? total - position : position - 1);
        const found = rollupCovers ? keyRank.keyAtRank(column, filter, exceptionsOnly, rankOf) : null;
        if (found === null) return null;
        if (found.key === null) return [];
        after = { value: found.key[0], id: found.key[1] };
      }
      const ids = keyOrder.pageIds(column, sort.direction, filter, exceptionsOnly, after, limit);
      return ids && rowsOf(ids);
    }

    /** A column of few values, by the rollup's counts per value and date. */
    function readByValues(column: ValueColumn): unknown[][] {
      return valueOrder.page(
        column,
        sort.direction,
        filter,
        exceptionsOnly,
        (selected) => statement({ column: 'date', direction: sort.direction }, exceptionsOnly, false, selected),
        (pinned, day, afterId, n, count) => {
          const ids = keyOrder.dayIds(pinned, exceptionsOnly, day, sort.direction, afterId, n, count);
          return ids && rowsOf(ids);
        },
        (pinned, day, rank, count) => dateRank.idAtRank(pinned, exceptionsOnly, day, rank, count),
        { cursor: cursor && { value: String(cursor.value), id: cursor.id }, position: options.position ?? 0 },
        limit,
      );
    }

    /** Any other order or filter: one statement, after the cursor or the row before the position. */
    function readByStatement(): unknown[][] {
      if (!toPosition()) return [];
      return statement(sort, exceptionsOnly, keyed).all({
        ...filter,
        kId: idBound(),
        kValue: cursor?.value ?? null,
        limit: limit + 1,
      }) as unknown[][];
    }

    function readByDates(): unknown[][] {
      return toPosition() ? dateRows(filter, sort.direction, idBound() as number, limit) : [];
    }

    /**
     * A jump: the row just before the position becomes the cursor. In the date order with a filter the rollup
     * counts, the search starts at the date that holds it; elsewhere it skips from the start of the result. False
     * when the position is past the last row.
     */
    function toPosition(): boolean {
      if (!jump) return true;
      const position = options.position!;
      const start = byId && rollupCovers ? dateStart(filter, exceptionsOnly, sort.direction, position) : null;
      const before = start ? start.skip - 1 : position - 1;
      const bound = start ? start.kId : edge;
      const key =
        before < 0
          ? null
          : (statement(sort, exceptionsOnly, keyed, 'key').get({
              ...filter,
              kId: byId ? bound : null,
              kValue: null,
              skip: before,
            }) as [string | number | null, number] | undefined);
      if (key === undefined) return false;
      cursor = key === null ? { value: null, id: bound } : { value: key[0], id: key[1] };
      return true;
    }

    /** The id bound a read starts after: the cursor's, or just outside the range in the date order. */
    function idBound(): number | null {
      if (!byId) return cursor?.id ?? null;
      return sort.direction === 'desc'
        ? Math.min(edge, cursor?.id ?? Infinity)
        : Math.max(edge, cursor?.id ?? -Infinity);
    }
  }

  /**
   * The first `limit` rows of `filter` in `sort`, read for what the read leaves kept (sort-warming.ts): by the keys,
   * the lists' marks and blocks and SQLite's pages of their heads, and no merge kept for a next page; a column of few
   * values (a gateway, a status), its first page as the rollup gives it. Nothing where a first page would not read
   * those: a text search, resolved exceptions left out, or dates whose keys are not current (where a page reads the
   * records, seconds over a long range).
   */
  function warm(
    asked: FilterParams,
    exceptionsOnly: boolean,
    rollupCovers: boolean,
    sort: SettlementSort,
    limit: number,
  ) {
    const { params: filter } = search.forRead(asked);
    if (filter.search !== null || filter.hideResolved !== 0) return;
    if (rollupCovers && isValueColumn(sort.column)) page(asked, exceptionsOnly, rollupCovers, { sort, limit });
    else if (hasSortKeys(sort.column)) {
      keyOrder.pageIds(sort.column, sort.direction, filter, exceptionsOnly, null, limit, false);
    }
  }

  // One read transaction a page: its statements (360 seeks of the sort keys' lists over 90 days, a rollup read and a
  // read per group in the value order, the rows) then read one snapshot, and none of them takes and releases the
  // file's read lock of its own, which was about half the time of a seek (360 seeks of a list's first keys: 11.6 ms of
  // CPU against 5.9 in one transaction, at 2,000,000 rows). Inside a caller's transaction (an export's) it is a
  // savepoint.
  return { page: db.transaction(page), warm: db.transaction(warm), statement };
}
