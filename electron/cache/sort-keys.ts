/**
 * Writing the sort keys (migration 14) of dates whose records changed, after a sync, the way the search keys are
 * written (search-keys.ts): one date per transaction, each column's keys appended in the table's own order. Per day,
 * column and gateway: every record's sort value and id, ordered, with its ordinal in that order (`n`), and what the
 * other filters check (payment mode and statuses by number, exception flags). A read in a column's order then merges the range's days and gateways (a seek each) instead of sorting the
 * range, and counts the rows before any key with one seek a list (settlement-key-order.ts). Split by gateway because
 * batches tie a gateway to its UTRs and settlement times: in one list a gateway's rows come in runs that a gateway
 * filter would have to step over; the filters' fields beside each key let the other filters step over keys, not
 * records (the duplicate rule, which changes another date's flags, takes that date off too).
 *
 * Only the columns of many values have keys; gateway, payment mode and statuses are ordered through the rollup's
 * counts (settlement-value-order.ts). Only current records have keys, so the keys count the result without reading
 * a record; a page that changes a date's records, a record that vanishes or comes back takes the date off the
 * sorted days (settlement-ingest.ts). Reads of vanished records scan the range.
 */
import type { Database } from 'better-sqlite3';
import type { SettlementSortColumn } from '../../shared/settlement-query';
import { perDateWriter } from './search-keys';
import { dayNumber, idRange } from './settlement-ids';
import { prepareAll } from './statements';

/** What each sort column orders by; null ids and UTRs sort as empty text. */
export const SORT_EXPRESSION: Readonly<Record<Exclude<SettlementSortColumn, 'date'>, string>> = {
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

/** The columns with sort keys; a column's number in the table is its place here. */
export const KEYED_SORT_COLUMNS = [
  'settlement_date',
  'order_date',
  'amount',
  'mer_service_fee',
  'mer_service_tax',
  'settled_amount',
  'order_id',
  'pg_transaction_id',
  'utr',
] as const satisfies readonly SettlementSortColumn[];
export type KeyedSortColumn = (typeof KEYED_SORT_COLUMNS)[number];

export const hasSortKeys = (column: SettlementSortColumn): column is KeyedSortColumn =>
  (KEYED_SORT_COLUMNS as readonly string[]).includes(column);

const SQL = {
  pending: `SELECT date FROM settlement_days WHERE date NOT IN (SELECT date FROM settlement_sorted_days)
            ORDER BY date LIMIT 1`,
  drop: `DELETE FROM settlement_sort_keys WHERE day = ?`,
  codes: `INSERT OR IGNORE INTO settlement_sort_codes (kind, value)
            SELECT DISTINCT 'pg', pg FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'mode', payment_mode FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'order_status', order_status FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'pg_status', pg_status FROM settlements WHERE id BETWEEN @lo AND @hi`,
  sorted: `INSERT OR IGNORE INTO settlement_sorted_days (date) VALUES (?)`,
} as const;

/** One column's keys of a day, per gateway, in the table's order so they are appended. */
const buildSql = (column: KeyedSortColumn) => `INSERT INTO settlement_sort_keys
    (day, col, pg_code, value, id, n, mode_code, order_status_code, pg_status_code, exception_flags)
  SELECT @day, ${KEYED_SORT_COLUMNS.indexOf(column)}, p.code, s.v, s.id,
    row_number() OVER (PARTITION BY p.code ORDER BY s.v, s.id) - 1, m.code, o.code, g.code, s.exception_flags
  FROM (SELECT ${SORT_EXPRESSION[column]} AS v, id, pg, payment_mode, order_status, pg_status, exception_flags
    FROM settlements WHERE id BETWEEN @lo AND @hi AND vanished_at IS NULL) AS s
    JOIN settlement_sort_codes AS p ON p.kind = 'pg' AND p.value = s.pg
    JOIN settlement_sort_codes AS m ON m.kind = 'mode' AND m.value = s.payment_mode
    JOIN settlement_sort_codes AS o ON o.kind = 'order_status' AND o.value = s.order_status
    JOIN settlement_sort_codes AS g ON g.kind = 'pg_status' AND g.value = s.pg_status
  ORDER BY p.code, s.v, s.id`;

export function createSortKeys(db: Database) {
  const sql = prepareAll(db, SQL);
  const build = KEYED_SORT_COLUMNS.map((column) => db.prepare(buildSql(column)));
  const writeDate = db.transaction((): string | null => {
    const date = sql.pending.pluck().get() as string | undefined;
    if (date === undefined) return null;
    const day = dayNumber(date);
    sql.drop.run(day);
    sql.codes.run(idRange(date, date));
    for (const statement of build) statement.run({ day, ...idRange(date, date) });
    sql.sorted.run(date);
    return date;
  });
  return perDateWriter(db, writeDate);
}
export type SortKeys = ReturnType<typeof createSortKeys>;
