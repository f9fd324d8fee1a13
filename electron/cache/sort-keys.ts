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
 *
 * With the keys, each list's marks (migration 16, one row a list): every MARK_EVERY keys the key there and the keys
 * before it per class of record, by which a jump ranks a key under any filter the keys carry (settlement-key-rank.ts).
 */
import type { Database } from 'better-sqlite3';
import { KEYED_SORT_COLUMNS, type KeyedSortColumn, type SettlementSortColumn } from '../../shared/settlement-query';
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

/** A list's keys between two marks (migration 15): a jump counts at most this many keys a list by reading them. */
export const MARK_EVERY = 256;

/** A sort key: the column's value and the record's id. */
export type SortKey = [value: string | number, id: number];

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
  /** A synced date whose keys are not current. */
  pending: `SELECT date FROM settlement_days WHERE date NOT IN (SELECT date FROM settlement_sorted_days)
            ORDER BY date LIMIT 1`,
  /** A date whose keys are current but have no marks: written before migration 16 packed them one row a list. */
  unmarked: `SELECT date FROM settlement_sorted_days AS d
              WHERE EXISTS (SELECT 1 FROM settlement_sort_keys WHERE day = unixepoch(d.date) / 86400 AND col = 0)
                AND NOT EXISTS (SELECT 1 FROM settlement_sort_mark_lists WHERE col = 0 AND day = unixepoch(d.date) / 86400)
            ORDER BY date LIMIT 1`,
  drop: `DELETE FROM settlement_sort_keys WHERE day = ?`,
  codes: `INSERT OR IGNORE INTO settlement_sort_codes (kind, value)
            SELECT DISTINCT 'pg', pg FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'mode', payment_mode FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'order_status', order_status FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'pg_status', pg_status FROM settlements WHERE id BETWEEN @lo AND @hi`,
  sorted: `INSERT OR IGNORE INTO settlement_sorted_days (date) VALUES (?)`,
  dropMarks: `DELETE FROM settlement_sort_mark_lists WHERE day = ?`,
  classes: `INSERT OR IGNORE INTO settlement_sort_classes (mode_code, order_status_code, pg_status_code, exception_flags)
            SELECT DISTINCT mode_code, order_status_code, pg_status_code, exception_flags FROM settlement_sort_keys
            WHERE day = ? AND col = 0`,
  classCodes: `SELECT code, mode_code, order_status_code, pg_status_code, exception_flags FROM settlement_sort_classes`,
  /** Each list's keys per block and class, in list and block order. */
  blockCounts: `SELECT pg_code, ${BLOCK_SQL}, mode_code, order_status_code, pg_status_code, exception_flags, count(*)
            FROM settlement_sort_keys WHERE day = ? AND col = ?
            GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2`,
  /** The key at each block's start, in list and block order (the table's). */
  blockKeys: `SELECT pg_code, value, id FROM settlement_sort_keys WHERE day = ? AND col = ?
            AND (n = 0 OR (n - ${MARK_OFFSET_SQL}) % ${MARK_EVERY} = 0)`,
  markList: `INSERT INTO settlement_sort_mark_lists (col, day, pg_code, keys, counts) VALUES (?, ?, ?, ?, ?)`,
} as const;

/**
 * A list's marks as stored (migration 16): their keys as JSON, and one BLOB of little-endian 32-bit numbers: how
 * many classes of record the list holds (C), their codes, then for each mark and last for the whole list C counts,
 * the keys of each class before it. About twenty classes a list: 2 KB a list of 5,500 keys.
 */
export function encodeMarkCounts(codes: readonly number[], before: readonly (readonly number[])[]): Buffer {
  const out = Buffer.alloc(4 * (1 + codes.length * (1 + before.length)));
  let at = out.writeUInt32LE(codes.length, 0);
  for (const code of codes) at = out.writeUInt32LE(code, at);
  for (const row of before) for (const count of row) at = out.writeUInt32LE(count, at);
  return out;
}

/** A list's marks read back: each mark's key, and before each mark then for the whole list, all keys and those kept. */
export interface MarkList {
  keys: SortKey[];
  /** Keys before each mark (its ordinal), then the list's size. */
  n: number[];
  /** Keys of the classes `wanted` keeps before each mark, then in the whole list; `n` itself when it keeps all. */
  kept: number[];
}

/** A stored list's marks, counting the classes `wanted` says yes to (null: every class). */
export function decodeMarkList(keys: string, counts: Buffer, wanted: ReadonlySet<number> | null): MarkList {
  const view = new DataView(counts.buffer, counts.byteOffset, counts.byteLength);
  const classes = view.getUint32(0, true);
  const picked: number[] = [];
  for (let j = 0; j < classes; j++)
    if (wanted === null || wanted.has(view.getUint32(4 * (1 + j), true))) picked.push(j);
  const rows = (counts.byteLength / 4 - 1 - classes) / classes;
  const n = new Array<number>(rows);
  const kept = wanted === null ? n : new Array<number>(rows);
  for (let i = 0, at = 4 * (1 + classes); i < rows; i++, at += 4 * classes) {
    let all = 0;
    for (let j = 0; j < classes; j++) all += view.getUint32(at + 4 * j, true);
    n[i] = all;
    if (kept !== n) {
      let some = 0;
      for (const j of picked) some += view.getUint32(at + 4 * j, true);
      kept[i] = some;
    }
  }
  return { keys: JSON.parse(keys) as SortKey[], n, kept };
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

  /** Each list's marks from its blocks' counts per class: the counts before each block's first key, then the totals. */
  function writeMarks(day: number) {
    sql.classes.run(day);
    const classOf = new Map<string, number>();
    for (const c of sql.classCodes.raw(true).all() as number[][]) classOf.set(c.slice(1).join(','), c[0]!);
    sql.dropMarks.run(day);
    for (let col = 0; col < KEYED_SORT_COLUMNS.length; col++) {
      const firsts = sql.blockKeys.all(day, col) as [number, string | number, number][];
      let at = 0;
      let pg: number | null = null;
      let block = -1;
      /** The list's blocks, each its keys per class code. */
      let blocks: Map<number, number>[] = [];
      const closeList = () => {
        if (pg === null) return;
        const keys = firsts.slice(at, at + blocks.length).map(([kPg, value, id]): SortKey => {
          if (kPg !== pg) throw new Error('sort keys: a block without its first key');
          return [value, id];
        });
        at += blocks.length;
        const codes = [...new Set(blocks.flatMap((b) => [...b.keys()]))].sort((x, y) => x - y);
        let running = codes.map(() => 0);
        const before = [running];
        for (const b of blocks) {
          running = running.map((count, j) => count + (b.get(codes[j]!) ?? 0));
          before.push(running);
        }
        sql.markList.run(col, day, pg, JSON.stringify(keys), encodeMarkCounts(codes, before));
      };
      for (const [rowPg, rowBlock, ...rest] of sql.blockCounts.all(day, col) as number[][]) {
        if (rowPg !== pg) {
          closeList();
          pg = rowPg!;
          block = -1;
          blocks = [];
        }
        if (rowBlock !== block) {
          blocks.push(new Map());
          block = rowBlock!;
        }
        const count = rest.pop()!;
        blocks.at(-1)!.set(classOf.get(rest.join(','))!, count);
      }
      closeList();
      if (at !== firsts.length) throw new Error('sort keys: a block without its counts');
    }
  }

  const writeDate = db.transaction((): string | null => {
    const pending = sql.pending.pluck().get() as string | undefined;
    if (pending !== undefined) {
      const day = dayNumber(pending);
      sql.drop.run(day);
      sql.codes.run(idRange(pending, pending));
      for (const statement of build) statement.run({ day, ...idRange(pending, pending) });
      writeMarks(day);
      sql.sorted.run(pending);
      return pending;
    }
    // Keys current but without marks (written before migration 16): the marks alone, from those keys.
    const unmarked = sql.unmarked.pluck().get() as string | undefined;
    if (unmarked === undefined) return null;
    writeMarks(dayNumber(unmarked));
    return unmarked;
  });
  return perDateWriter(db, writeDate);
}
export type SortKeys = ReturnType<typeof createSortKeys>;
