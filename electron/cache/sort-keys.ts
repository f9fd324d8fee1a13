/**
 * Writing the sort keys of dates whose records changed, after a sync, the way the search keys are written
 * (search-keys.ts): one date per transaction. Per day, column and gateway, a list: every current record's id in the
 * order of the column's value then the id, as SQLite orders them (one `ORDER BY` a column at the end of a date, as
 * CREATE INDEX sorts), with each record's class (payment mode, statuses and exception flags together,
 * `settlement_sort_classes`). A list is stored in blocks (migration 26, one row a block): the ids as offsets from the
 * date's first id, 3 bytes each (4 when the date needs them), and a class byte each (2 past 255 classes), about 4 bytes
 * a key where a row of value, id and fields was 40. The values are not stored: a read takes them from the records
 * by id. A read in a column's order then merges the range's lists (settlement-key-order.ts) instead of sorting the
 * range. Split by gateway because batches tie a gateway to its UTRs and settlement times: in one list a gateway's rows
 * come in runs that a gateway filter would have to step over; the classes let the other filters step over keys, not
 * records (the duplicate rule, which changes another date's flags, takes that date off too).
 *
 * Only the columns of many values and the two statuses have lists; gateway and payment mode are ordered through the
 * rollup's counts (settlement-value-order.ts). Only current records are listed, so the lists count the result without
 * reading a record; a page that changes a date's records, a record that vanishes or comes back takes the date off the
 * sorted days (settlement-ingest.ts). Reads of vanished records scan the range.
 *
 * With the blocks, each list's marks (migration 16, one row a list): each block's first key and the keys before it
 * per class, by which a seek picks a block and a jump counts a key under any filter the classes carry
 * (settlement-key-rank.ts).
 */
import type { Database } from 'better-sqlite3';
import { KEYED_SORT_COLUMNS, type KeyedSortColumn, type SettlementSortColumn } from '../../shared/settlement-query';
import { perDateWriter } from './search-keys';
import { PER_DAY, dayNumber, idRange } from './settlement-ids';
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

/** Keys a block, and between two marks: a jump counts at most this many keys a list by reading them. */
export const MARK_EVERY = 256;

/** A sort key: the column's value and the record's id. */
export type SortKey = [value: string | number, id: number];

export const hasSortKeys = (column: SettlementSortColumn): column is KeyedSortColumn =>
  (KEYED_SORT_COLUMNS as readonly string[]).includes(column);

/**
 * Where a list's blocks start after its first: every MARK_EVERY keys from an offset of its own. Lists that mix values
 * alike (amounts) would otherwise have their marks at the same shares of their values, in clusters with wide
 * stretches between them; staggered, the marks of all lists spread evenly over the values, which a jump's estimate
 * of the count below a mark assumes (settlement-key-rank.ts).
 */
const blockStarts = (day: number, col: number, pg: number, keys: number): number[] => {
  const starts = [0];
  for (let n = (day * 97 + col * 29 + pg * 61) % MARK_EVERY || MARK_EVERY; n < keys; n += MARK_EVERY) starts.push(n);
  return starts;
};

/** A block as stored: each id's offset from `base` in `idBytes`, each class in `classBytes`, little-endian. */
export function encodeBlock(
  ids: readonly number[],
  classes: readonly number[],
  base: number,
  idBytes: number,
  classBytes: number,
): [ids: Buffer, classes: Buffer] {
  const idBlob = Buffer.alloc(ids.length * idBytes);
  const classBlob = Buffer.alloc(classes.length * classBytes);
  ids.forEach((id, i) => idBlob.writeUIntLE(id - base, i * idBytes, idBytes));
  classes.forEach((code, i) => classBlob.writeUIntLE(code, i * classBytes, classBytes));
  return [idBlob, classBlob];
}

/** A stored block's ids (from the date's first id, `base`) and classes; the widths follow from the two lengths. */
export function decodeBlock(idBlob: Uint8Array, classBlob: Uint8Array, base: number) {
  // Ids take 3 or 4 bytes, classes 1 or 2: the ratio is 3 or 4 with 1-byte classes, 1.5 or 2 with 2-byte ones.
  const ratio = idBlob.length / classBlob.length;
  const classBytes = ratio < 3 ? 2 : 1;
  const idBytes = ratio * classBytes;
  const count = classBlob.length / classBytes;
  const ids = new Float64Array(count);
  for (let i = 0, at = 0; i < count; i++, at += idBytes) {
    const low = idBlob[at]! | (idBlob[at + 1]! << 8) | (idBlob[at + 2]! << 16);
    ids[i] = base + low + (idBytes === 4 ? idBlob[at + 3]! * 2 ** 24 : 0);
  }
  let classes: Uint8Array | Uint16Array = classBlob;
  if (classBytes === 2) {
    classes = new Uint16Array(count);
    for (let i = 0; i < count; i++) classes[i] = classBlob[2 * i]! | (classBlob[2 * i + 1]! << 8);
  }
  return { ids, classes };
}
export type Block = ReturnType<typeof decodeBlock>;

/** Records with their gateway's, payment mode's and statuses' numbers. */
const RECORD_CODES = `FROM settlements AS s
    JOIN settlement_sort_codes AS p ON p.kind = 'pg' AND p.value = s.pg
    JOIN settlement_sort_codes AS m ON m.kind = 'mode' AND m.value = s.payment_mode
    JOIN settlement_sort_codes AS o ON o.kind = 'order_status' AND o.value = s.order_status
    JOIN settlement_sort_codes AS g ON g.kind = 'pg_status' AND g.value = s.pg_status`;
const CURRENT = `s.id BETWEEN @lo AND @hi AND s.vanished_at IS NULL`;

const SQL = {
  /** A synced date whose keys are not current. */
  pending: `SELECT date FROM settlement_days WHERE date NOT IN (SELECT date FROM settlement_sorted_days)
            ORDER BY date LIMIT 1`,
  drop: `DELETE FROM settlement_sort_blocks WHERE col = ? AND day = ?`,
  dropMarks: `DELETE FROM settlement_sort_mark_lists WHERE col = ? AND day = ?`,
  codes: `INSERT OR IGNORE INTO settlement_sort_codes (kind, value)
            SELECT DISTINCT 'pg', pg FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'mode', payment_mode FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'order_status', order_status FROM settlements WHERE id BETWEEN @lo AND @hi
            UNION SELECT DISTINCT 'pg_status', pg_status FROM settlements WHERE id BETWEEN @lo AND @hi`,
  classes: `INSERT OR IGNORE INTO settlement_sort_classes (mode_code, order_status_code, pg_status_code, exception_flags)
            SELECT DISTINCT m.code, o.code, g.code, s.exception_flags ${RECORD_CODES} WHERE ${CURRENT}`,
  /** Each current record's gateway and class. */
  records: `SELECT s.id, p.code, c.code ${RECORD_CODES}
            JOIN settlement_sort_classes AS c ON c.mode_code = m.code AND c.order_status_code = o.code
              AND c.pg_status_code = g.code AND c.exception_flags = s.exception_flags
            WHERE ${CURRENT}`,
  lastId: `SELECT max(id) FROM settlements WHERE id BETWEEN @lo AND @hi`,
  block: `INSERT INTO settlement_sort_blocks (col, day, pg_code, block, ids, classes) VALUES (?, ?, ?, ?, ?, ?)`,
  markList: `INSERT INTO settlement_sort_mark_lists (col, day, pg_code, keys, counts) VALUES (?, ?, ?, ?, ?)`,
  sorted: `INSERT OR IGNORE INTO settlement_sorted_days (date) VALUES (?)`,
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

/** A list's marks' counts read back: before each mark (its block) then in the whole list, all keys and those kept. */
export interface MarkCounts {
  /** Keys before each mark (its block's first ordinal), then the list's size. */
  n: number[];
  /** Keys of the classes `wanted` keeps before each mark, then in the whole list; `n` itself when it keeps all. */
  kept: number[];
}

/** A stored list's mark counts, counting the classes `wanted` says yes to (null: every class). */
export function decodeMarkCounts(counts: Uint8Array, wanted: ReadonlySet<number> | null): MarkCounts {
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
  return { n, kept };
}

export function createSortKeys(db: Database) {
  const sql = prepareAll(db, SQL);
  // SQLite sorts each list, so its order is exactly the one a read's ORDER BY and the ranks' tests hold it to.
  const ordered = KEYED_SORT_COLUMNS.map((column) =>
    db
      .prepare(
        `SELECT id FROM settlements WHERE id BETWEEN ? AND ? AND vanished_at IS NULL
         ORDER BY ${SORT_EXPRESSION[column]}, id`,
      )
      .pluck(),
  );
  const valueOf = KEYED_SORT_COLUMNS.map((column) =>
    db.prepare(`SELECT ${SORT_EXPRESSION[column]} FROM settlements WHERE id = ?`).pluck(),
  );

  /** One list's blocks and marks: its block's first keys, and the keys of each class before each block. */
  function writeList(
    col: number,
    day: number,
    pg: number,
    ids: number[],
    classOf: (id: number) => number,
    widths: number[],
  ) {
    const base = day * PER_DAY;
    const starts = blockStarts(day, col, pg, ids.length);
    const running = new Map<number, number>();
    const before: Map<number, number>[] = [];
    const keys: SortKey[] = [];
    starts.forEach((start, block) => {
      const end = starts[block + 1] ?? ids.length;
      const blockIds = ids.slice(start, end);
      const classes = blockIds.map(classOf);
      before.push(new Map(running));
      for (const code of classes) running.set(code, (running.get(code) ?? 0) + 1);
      keys.push([valueOf[col]!.get(blockIds[0]) as string | number, blockIds[0]!]);
      sql.block.run(col, day, pg, block, ...encodeBlock(blockIds, classes, base, widths[0]!, widths[1]!));
    });
    before.push(running);
    const codes = [...running.keys()].sort((x, y) => x - y);
    const counts = encodeMarkCounts(
      codes,
      before.map((row) => codes.map((code) => row.get(code) ?? 0)),
    );
    sql.markList.run(col, day, pg, JSON.stringify(keys), counts);
  }

  /** A date's lists, every column's: the records' gateways and classes read once, each column's order sorted by SQLite. */
  function writeLists(date: string) {
    const day = dayNumber(date);
    const range = idRange(date, date);
    for (let col = 0; col < KEYED_SORT_COLUMNS.length; col++) {
      sql.drop.run(col, day);
      sql.dropMarks.run(col, day);
    }
    sql.codes.run(range);
    sql.classes.run(range);
    const span = ((sql.lastId.pluck().get(range) as number | null) ?? range.lo) - range.lo + 1;
    // By offset from the date's first id: a sync numbers a date's records in arrival order, so the offsets are dense.
    const pgOf = new Uint16Array(span);
    const classAt = new Uint16Array(span);
    let topClass = 0;
    for (const [id, pg, code] of sql.records.raw(true).iterate(range) as Iterable<[number, number, number]>) {
      if (pg >= 2 ** 16 || code >= 2 ** 16)
        throw new Error('sort keys: more than 65,535 gateways or classes of record');
      pgOf[id - range.lo] = pg;
      classAt[id - range.lo] = code;
      topClass = Math.max(topClass, code);
    }
    // The widths of the whole date: 3 bytes an id up to 2^24 records a date, a class byte up to code 255.
    const widths = [span <= 2 ** 24 ? 3 : 4, topClass < 2 ** 8 ? 1 : 2];
    const classOf = (id: number) => classAt[id - range.lo]!;
    for (let col = 0; col < KEYED_SORT_COLUMNS.length; col++) {
      const lists = new Map<number, number[]>();
      for (const id of ordered[col]!.all(range.lo, range.hi) as number[]) {
        const pg = pgOf[id - range.lo]!;
        let list = lists.get(pg);
        if (list === undefined) lists.set(pg, (list = []));
        list.push(id);
      }
      for (const [pg, ids] of lists) writeList(col, day, pg, ids, classOf, widths);
    }
  }

  const writeDate = db.transaction((): string | null => {
    const pending = sql.pending.pluck().get() as string | undefined;
    if (pending === undefined) return null;
    writeLists(pending);
    sql.sorted.run(pending);
    return pending;
  });
  return perDateWriter(db, writeDate);
}
export type SortKeys = ReturnType<typeof createSortKeys>;
