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

/** A list's keys between two marks (migration 15): a filtered jump counts at most this many keys a list by reading them. */
export const MARK_EVERY = 256;

export const hasSortKeys = (column: SettlementSortColumn): column is KeyedSortColumn =>
  (KEYED_SORT_COLUMNS as readonly string[]).includes(column);

/**
 * Where a list's marks fall: its first key, then every MARK_EVERY keys from an offset of its own. Lists that mix
 * values alike (amounts) would otherwise have their marks at the same shares of their values, in clusters with
 * wide stretches between them; staggered, the marks of all lists spread evenly over the values.
 */
const MARK_OFFSET_SQL = `((day * 97 + col * 29 + pg_code * 61) % ${MARK_EVERY})`;
/** A key's block: 0 before the list's offset, then one per MARK_EVERY keys. */
const BLOCK_SQL = `(n + ${MARK_EVERY} - ${MARK_OFFSET_SQL}) / ${MARK_EVERY}`;

const SQL = {
  /** A synced date whose keys are not current, or were written before their marks were (migration 15). */
  pending: `SELECT date FROM settlement_days AS d WHERE date NOT IN (SELECT date FROM settlement_sorted_days)
              OR (EXISTS (SELECT 1 FROM settlement_sort_keys WHERE day = unixepoch(d.date) / 86400 AND col = 0)
                AND NOT EXISTS (SELECT 1 FROM settlement_sort_marks WHERE col = 0 AND day = unixepoch(d.date) / 86400))
            ORDER BY date LIMIT 1`,
  drop: `DELETE FROM settlement_sort_keys WHERE day = ?`,
  codes: `INSERT OR IGNORE INTO settlement_sort_codes (kind, value)
            SELECT DISTINCT 'pg', pg FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'mode', payment_mode FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'order_status', order_status FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'pg_status', pg_status FROM settlements WHERE id BETWEEN @lo AND @hi`,
  sorted: `INSERT OR IGNORE INTO settlement_sorted_days (date) VALUES (?)`,
  dropMarks: `DELETE FROM settlement_sort_marks WHERE col = ? AND day = ?`,
  classes: `INSERT OR IGNORE INTO settlement_sort_classes (mode_code, order_status_code, pg_status_code, exception_flags)
            SELECT DISTINCT mode_code, order_status_code, pg_status_code, exception_flags FROM settlement_sort_keys
            WHERE day = ? AND col = 0`,
  classCodes: `SELECT code, mode_code, order_status_code, pg_status_code, exception_flags FROM settlement_sort_classes`,
  /** Each list's keys per block and class, in list and block order. */
  blockCounts: `SELECT pg_code, ${BLOCK_SQL}, mode_code, order_status_code, pg_status_code, exception_flags, count(*)
            FROM settlement_sort_keys WHERE day = ? AND col = ?
            GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2`,
  /** The key at each block's start, in list and block order. */
  blockKeys: `SELECT pg_code, n, value, id FROM settlement_sort_keys WHERE day = ? AND col = ?
            AND (n = 0 OR (n - ${MARK_OFFSET_SQL}) % ${MARK_EVERY} = 0)`,
  mark: `INSERT INTO settlement_sort_marks (col, day, pg_code, n, value, id, counts) VALUES (?, ?, ?, ?, ?, ?, ?)`,
} as const;

/**
 * A mark's counts: the class codes with keys before it and how many, as pairs of little-endian 32-bit numbers (about
 * twenty classes a list, 160 bytes).
 */
export function encodeClassCounts(counts: ReadonlyMap<number, number>): Buffer {
  const out = Buffer.alloc(counts.size * 8);
  let at = 0;
  for (const [code, count] of counts) {
    out.writeUInt32LE(code, at);
    out.writeUInt32LE(count, at + 4);
    at += 8;
  }
  return out;
}

/** The keys a mark's counts hold in the classes `wanted` says yes to. */
export function classCountIn(counts: Buffer, wanted: ReadonlySet<number>): number {
  let n = 0;
  for (let at = 0; at < counts.length; at += 8)
    if (wanted.has(counts.readUInt32LE(at))) n += counts.readUInt32LE(at + 4);
  return n;
}

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
  sql.blockCounts.raw(true);
  sql.blockKeys.raw(true);

  /** A list's marks from its blocks' counts per class: the counts before each block's first key, then the totals. */
  function writeMarks(day: number) {
    sql.classes.run(day);
    const classOf = new Map<string, number>();
    for (const c of sql.classCodes.raw(true).all() as number[][]) classOf.set(c.slice(1).join(','), c[0]!);
    for (let col = 0; col < KEYED_SORT_COLUMNS.length; col++) {
      sql.dropMarks.run(col, day);
      const firsts = sql.blockKeys.all(day, col) as [number, number, string | number, number][];
      let at = 0;
      let pg: number | null = null;
      let block = -1;
      let before = new Map<number, number>();
      let counts = new Map<number, number>();
      const closeBlock = () => {
        if (block < 0) return;
        const [kPg, n, value, id] = firsts[at++]!;
        if (kPg !== pg) throw new Error('sort keys: a block without its first key');
        sql.mark.run(col, day, pg, n, value, id, encodeClassCounts(before));
        before = new Map(counts);
      };
      const closeList = () => {
        if (pg === null) return;
        closeBlock();
        const size = [...counts.values()].reduce((s, c) => s + c, 0);
        sql.mark.run(col, day, pg, size, null, null, encodeClassCounts(counts));
      };
      for (const [rowPg, rowBlock, ...rest] of sql.blockCounts.all(day, col) as number[][]) {
        if (rowPg !== pg) {
          closeList();
          pg = rowPg!;
          block = -1;
          before = new Map();
          counts = new Map();
        }
        if (rowBlock !== block) {
          closeBlock();
          block = rowBlock!;
        }
        const count = rest.pop()!;
        const code = classOf.get(rest.join(','))!;
        counts.set(code, (counts.get(code) ?? 0) + count);
      }
      closeList();
    }
  }

  const writeDate = db.transaction((): string | null => {
    const date = sql.pending.pluck().get() as string | undefined;
    if (date === undefined) return null;
    const day = dayNumber(date);
    sql.drop.run(day);
    sql.codes.run(idRange(date, date));
    for (const statement of build) statement.run({ day, ...idRange(date, date) });
    writeMarks(day);
    sql.sorted.run(date);
    return date;
  });
  return perDateWriter(db, writeDate);
}
export type SortKeys = ReturnType<typeof createSortKeys>;
