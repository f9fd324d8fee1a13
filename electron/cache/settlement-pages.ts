/**
 * Keyset pages of cached settlements. A page continues strictly after the last row of the previous one
 * in (sort key, row id) order, so rows are never skipped or repeated however many share a sort value,
 * and a page deep in a million rows costs what the first one does.
 *
 * The default order, newest date first, is the id order itself (settlement-ids.ts): a page is a rowid
 * range read from the cursor on (or, for exceptions only, a range of their index). Other sort
 * columns have no index of their own (each would cost the ingest a random B-tree insert a row): they read
 * the date range once and keep the top rows, which SQLite does without sorting everything.
 *
 * Statement texts come only from the constant allow-list below; one named statement per
 * (column, direction, exceptions-only), prepared on first use.
 */
import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import { SETTLEMENT_PAGE } from '../../shared/api/settlements';
import {
  SETTLEMENT_SORT_COLUMNS,
  type CachedSettlement,
  type SettlementSort,
  type SettlementSortColumn,
} from '../../shared/settlement-query';
import { CursorError, decodeCursor, encodeCursor } from './cursor';
import { EXCEPTIONS_SQL, FILTER_SQL, type FilterParams } from './settlement-filter';
import { READ_COLUMNS, readRowToCached } from './settlement-rows';

const COLUMNS = READ_COLUMNS.join(', ');

type OtherColumn = Exclude<SettlementSortColumn, 'date'>;

/** What each sort column orders by; null ids and UTRs sort as empty text. */
const SORT_EXPRESSION: Readonly<Record<OtherColumn, string>> = {
  settlement_date: 'settlement_date',
  order_date: 'order_date',
  amount: 'amount',
  mer_service_fee: 'mer_service_fee',
  mer_service_tax: 'mer_service_tax',
  settled_amount: 'settled_amount',
  pg: 'pg',
  payment_mode: 'payment_mode',
  order_status: 'order_status',
  pg_status: 'pg_status',
  order_id: "ifnull(order_id, '')",
  pg_transaction_id: 'pg_transaction_id',
  utr: "ifnull(utr, '')",
};

export const DEFAULT_SORT: SettlementSort = { column: 'date', direction: 'desc' };

/** One bound each way, both on the rowid: given two upper bounds SQLite would seek by one and filter by the other. */
function byIdSql(direction: 'asc' | 'desc', exceptions: string): string {
  const [dir, range] = direction === 'desc' ? ['DESC', 'id >= :lo AND id < :kId'] : ['ASC', 'id > :kId AND id <= :hi'];
  return `
    SELECT ${COLUMNS} FROM settlements
    WHERE ${range} AND ${FILTER_SQL} ${exceptions}
    ORDER BY id ${dir} LIMIT :limit`;
}

function byColumnSql(expression: string, direction: 'asc' | 'desc', exceptions: string): string {
  const [dir, past] = direction === 'desc' ? ['DESC', '<'] : ['ASC', '>'];
  return `
    SELECT ${COLUMNS} FROM settlements
    WHERE id BETWEEN :lo AND :hi AND ${FILTER_SQL} ${exceptions}
      AND (:kId IS NULL OR (${expression}, id) ${past} (:kValue, :kId))
    ORDER BY ${expression} ${dir}, id ${dir} LIMIT :limit`;
}

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

export function createSettlementPages(db: Database) {
  const statements = new Map<string, Statement>();
  const statement = (sort: SettlementSort, exceptionsOnly: boolean): Statement => {
    const name = `page:${sort.column}:${sort.direction}:${exceptionsOnly ? 'exceptions' : 'all'}`;
    let s = statements.get(name);
    if (!s) {
      const exceptions = exceptionsOnly ? EXCEPTIONS_SQL : '';
      s = db.prepare(
        sort.column === 'date'
          ? byIdSql(sort.direction, exceptions)
          : byColumnSql(SORT_EXPRESSION[sort.column], sort.direction, exceptions),
      );
      s.raw(true);
      statements.set(name, s);
    }
    return s;
  };

  function page(
    filter: FilterParams,
    exceptionsOnly: boolean,
    options: { sort?: SettlementSort; after?: string; limit?: number },
  ): { rows: CachedSettlement[]; nextCursor: string | null } {
    const sort = options.sort ?? DEFAULT_SORT;
    const limit = options.limit ?? SETTLEMENT_PAGE.defaultLimit;
    const cursor = options.after === undefined ? null : readCursor(options.after, sort);
    const byId = sort.column === 'date';
    const kId = !byId
      ? (cursor?.id ?? null)
      : sort.direction === 'desc'
        ? Math.min(filter.hi + 1, cursor?.id ?? Infinity)
        : Math.max(filter.lo - 1, cursor?.id ?? -Infinity);
    const stored = statement(sort, exceptionsOnly).all({
      ...filter,
      kId,
      kValue: cursor?.value ?? null,
      limit: limit + 1,
    }) as unknown[][];
    const more = stored.length > limit;
    const rows = (more ? stored.slice(0, limit) : stored).map(readRowToCached);
    const last = rows.at(-1);
    const nextCursor =
      more && last
        ? encodeCursor([sort.column, sort.direction, byId ? null : (last[sort.column as OtherColumn] ?? ''), last.id])
        : null;
    return { rows, nextCursor };
  }

  return { page, statement };
}
