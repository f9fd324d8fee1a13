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
import { perDateWriter, withTempOnDisk } from './search-keys';
import { PER_DAY, dayNumber, idRange } from './settlement-ids';
import { prepareAll, type Statements } from './statements';

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

/** What a date's lists are built from: reads only, so a read-only connection (a worker thread's) builds them too. */
const READ_SQL = {
  /** Each current record's gateway and what its class is made of. */
  records: `SELECT id, pg, payment_mode, order_status, pg_status, exception_flags FROM settlements
            WHERE id BETWEEN @lo AND @hi AND vanished_at IS NULL`,
  lastId: `SELECT max(id) FROM settlements WHERE id BETWEEN @lo AND @hi`,
  codes: `SELECT kind, value, code FROM settlement_sort_codes`,
  classes: `SELECT mode_code, order_status_code, pg_status_code, exception_flags, code FROM settlement_sort_classes`,
} as const;

const WRITE_SQL = {
  /** A synced date whose keys are not current, but those named (dates whose lists were found out of date). */
  pending: `SELECT date FROM settlement_days
            WHERE date NOT IN (SELECT date FROM settlement_sorted_days) AND date NOT IN (SELECT value FROM json_each(?))
            ORDER BY date LIMIT 1`,
  isPending: `SELECT 1 FROM settlement_days WHERE date = ? AND date NOT IN (SELECT date FROM settlement_sorted_days)`,
  drop: `DELETE FROM settlement_sort_blocks WHERE col = ? AND day = ?`,
  dropMarks: `DELETE FROM settlement_sort_mark_lists WHERE col = ? AND day = ?`,
  addCode: `INSERT INTO settlement_sort_codes (code, kind, value) VALUES (?, ?, ?)`,
  addClass: `INSERT INTO settlement_sort_classes (code, mode_code, order_status_code, pg_status_code, exception_flags)
             VALUES (?, ?, ?, ?, ?)`,
  block: `INSERT INTO settlement_sort_blocks (col, day, pg_code, block, ids, classes) VALUES (?, ?, ?, ?, ?, ?)`,
  markList: `INSERT INTO settlement_sort_mark_lists (col, day, pg_code, keys, counts) VALUES (?, ?, ?, ?, ?)`,
  sorted: `INSERT OR IGNORE INTO settlement_sorted_days (date) VALUES (?)`,
  unsorted: `DELETE FROM settlement_sorted_days WHERE date = ?`,
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

/**
 * A date's lists as read from one snapshot, for `SortKeys.commit` to write: their blocks and marks, and the numbers
 * of the gateways, payment modes, statuses and classes the date met that the file had not numbered yet (numbered
 * on from the snapshot's highest).
 */
export interface DateSortLists {
  date: string;
  codes: [code: number, kind: string, value: string][];
  classes: [code: number, mode: number, orderStatus: number, pgStatus: number, flags: number][];
  blocks: [col: number, pg: number, block: number, ids: Uint8Array, classes: Uint8Array][];
  marks: [col: number, pg: number, keys: string, counts: Uint8Array][];
}

/** The file's numbers of gateways, payment modes, statuses and classes, numbering on those a date brings. */
function numbering(sql: Statements<keyof typeof READ_SQL>) {
  const codes = new Map<string, number>();
  const classes = new Map<string, number>();
  let topCode = 0;
  let topClass = 0;
  for (const [kind, value, code] of sql.codes.raw(true).all() as [string, string, number][]) {
    codes.set(`${kind}:${value}`, code);
    topCode = Math.max(topCode, code);
  }
  for (const [m, o, g, flags, code] of sql.classes.raw(true).all() as number[][]) {
    classes.set(`${m}:${o}:${g}:${flags}`, code!);
    topClass = Math.max(topClass, code!);
  }
  const added: Pick<DateSortLists, 'codes' | 'classes'> = { codes: [], classes: [] };
  const code = (kind: string, value: string): number => {
    const name = `${kind}:${value}`;
    let found = codes.get(name);
    if (found === undefined) {
      codes.set(name, (found = ++topCode));
      added.codes.push([found, kind, value]);
    }
    return found;
  };
  return {
    added,
    pg: (value: string) => code('pg', value),
    classOf(mode: string, orderStatus: string, pgStatus: string, flags: number): number {
      const parts = [
        code('mode', mode),
        code('order_status', orderStatus),
        code('pg_status', pgStatus),
        flags,
      ] as const;
      const name = parts.join(':');
      let found = classes.get(name);
      if (found === undefined) {
        classes.set(name, (found = ++topClass));
        added.classes.push([found, ...parts]);
      }
      return found;
    },
  };
}

/** Builds a date's lists by reading only; call inside one read transaction, so they are of one snapshot. */
export function createSortListBuilder(db: Database) {
  const sql = prepareAll(db, READ_SQL);
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

  /**
   * One list's blocks and marks: its blocks' first keys, and the keys of each class before each block. `ids` are
   * offsets from the date's first id; `classAt` each offset's class.
   */
  function buildList(
    out: DateSortLists,
    [col, day, pg]: [number, number, number],
    ids: Uint32Array,
    classAt: Uint16Array,
    [idBytes, classBytes]: [number, number],
  ) {
    const base = day * PER_DAY;
    const starts = blockStarts(day, col, pg, ids.length);
    // The list's classes, each with its place in the marks' counts.
    const place = new Map<number, number>();
    for (const offset of ids) place.set(classAt[offset]!, 0);
    const codes = [...place.keys()].sort((x, y) => x - y);
    codes.forEach((code, j) => place.set(code, j));
    const running = new Array<number>(codes.length).fill(0);
    const before: number[][] = [];
    const keys: SortKey[] = [];
    starts.forEach((start, block) => {
      const end = starts[block + 1] ?? ids.length;
      const idBlob = Buffer.allocUnsafe((end - start) * idBytes);
      const classBlob = Buffer.allocUnsafe((end - start) * classBytes);
      before.push([...running]);
      for (let i = start; i < end; i++) {
        const code = classAt[ids[i]!]!;
        running[place.get(code)!]!++;
        idBlob.writeUIntLE(ids[i]!, (i - start) * idBytes, idBytes);
        classBlob.writeUIntLE(code, (i - start) * classBytes, classBytes);
      }
      keys.push([valueOf[col]!.get(base + ids[start]!) as string | number, base + ids[start]!]);
      out.blocks.push([col, pg, block, idBlob, classBlob]);
    });
    before.push(running);
    out.marks.push([col, pg, JSON.stringify(keys), encodeMarkCounts(codes, before)]);
  }

  /**
   * Every column's lists of `date`: the records' gateways and classes read once, each column's order by SQLite, its
   * sorts spilling to disk (withTempOnDisk) on any connection.
   */
  const build = (date: string): DateSortLists => withTempOnDisk(db, () => buildLists(date));
  function buildLists(date: string): DateSortLists {
    const day = dayNumber(date);
    const range = idRange(date, date);
    const numbers = numbering(sql);
    const out: DateSortLists = { date, ...numbers.added, blocks: [], marks: [] };
    const span = ((sql.lastId.pluck().get(range) as number | null) ?? range.lo) - range.lo + 1;
    // By offset from the date's first id: a sync numbers a date's records in arrival order, so the offsets are dense.
    const pgOf = new Uint16Array(span);
    const classAt = new Uint16Array(span);
    const sizes = new Map<number, number>();
    let topClass = 0;
    for (const [id, pg, mode, orderStatus, pgStatus, flags] of sql.records.raw(true).iterate(range) as Iterable<
      [number, string, string, string, string, number]
    >) {
      const pgCode = numbers.pg(pg);
      const code = numbers.classOf(mode, orderStatus, pgStatus, flags);
      if (pgCode >= 2 ** 16 || code >= 2 ** 16)
        throw new Error('sort keys: more than 65,535 gateways or classes of record');
      pgOf[id - range.lo] = pgCode;
      classAt[id - range.lo] = code;
      sizes.set(pgCode, (sizes.get(pgCode) ?? 0) + 1);
      topClass = Math.max(topClass, code);
    }
    // The widths of the whole date: 3 bytes an id up to 2^24 records a date, a class byte up to code 255.
    const widths: [number, number] = [span <= 2 ** 24 ? 3 : 4, topClass < 2 ** 8 ? 1 : 2];
    for (let col = 0; col < KEYED_SORT_COLUMNS.length; col++) {
      const lists = new Map<number, { ids: Uint32Array; n: number }>();
      for (const [pg, size] of sizes) lists.set(pg, { ids: new Uint32Array(size), n: 0 });
      for (const id of ordered[col]!.all(range.lo, range.hi) as number[]) {
        const list = lists.get(pgOf[id - range.lo]!)!;
        list.ids[list.n++] = id - range.lo;
      }
      for (const [pg, { ids }] of lists) buildList(out, [col, day, pg], ids, classAt, widths);
    }
    return out;
  }
  return { build };
}
export type SortListBuilder = ReturnType<typeof createSortListBuilder>;

/**
 * Which dates' sort keys are current (`settlement_sorted_days`), and how many times this connection has taken each
 * off: one per connection, shared by everything on it that changes records (the ingest, the duplicate rule) and by
 * the sort keys, whose lists built elsewhere are written only if their date was not taken off meanwhile.
 */
export function createSortedDays(db: Database) {
  const unsorted = db.prepare(WRITE_SQL.unsorted);
  const takenOff = new Map<string, number>();
  return {
    /** The date's records changed: its sort keys are no longer current. */
    takeOff(date: string): void {
      unsorted.run(date);
      takenOff.set(date, (takenOff.get(date) ?? 0) + 1);
    },
    timesTakenOff: (date: string): number => takenOff.get(date) ?? 0,
  };
}
export type SortedDays = ReturnType<typeof createSortedDays>;

/** A date whose lists are being built elsewhere, with what must not change before they are written. */
export interface SortTicket {
  date: string;
  timesTakenOff: number;
  /** SQLite's `data_version`: changes when another connection (a worker's, another process's) commits. */
  dataVersion: number;
}

export function createSortKeys(db: Database, sortedDays: SortedDays) {
  const sql = prepareAll(db, WRITE_SQL);
  const builder = createSortListBuilder(db);
  const blob = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  /** Replaces the date's lists with `lists` and marks its keys current; inside the caller's write transaction. */
  function write(lists: DateSortLists) {
    const day = dayNumber(lists.date);
    for (let col = 0; col < KEYED_SORT_COLUMNS.length; col++) {
      sql.drop.run(col, day);
      sql.dropMarks.run(col, day);
    }
    for (const code of lists.codes) sql.addCode.run(...code);
    for (const code of lists.classes) sql.addClass.run(...code);
    for (const [col, pg, block, ids, classes] of lists.blocks)
      sql.block.run(col, day, pg, block, blob(ids), blob(classes));
    for (const [col, pg, keys, counts] of lists.marks) sql.markList.run(col, day, pg, keys, blob(counts));
    sql.sorted.run(lists.date);
  }

  const pending = (skip: readonly string[] = []) => sql.pending.pluck().get(JSON.stringify(skip)) as string | undefined;
  const dataVersion = () => db.pragma('data_version', { simple: true }) as number;

  const writeDate = db.transaction((): string | null => {
    const date = pending();
    if (date === undefined) return null;
    write(builder.build(date));
    return date;
  });
  // Immediate: the checks and the writes see the file as no other connection can change it until they are done.
  const commit = db.transaction((ticket: SortTicket, lists: DateSortLists): boolean => {
    const current =
      lists.date === ticket.date &&
      dataVersion() === ticket.dataVersion &&
      sortedDays.timesTakenOff(ticket.date) === ticket.timesTakenOff &&
      sql.isPending.get(ticket.date) !== undefined;
    if (!current) return false;
    write(lists);
    return true;
  });

  return {
    ...perDateWriter(db, writeDate),
    /** The next date whose keys are not current, but those in `skip`, to build elsewhere; null when none is left. */
    next(skip: readonly string[] = []): SortTicket | null {
      const date = pending(skip);
      if (date === undefined) return null;
      return { date, timesTakenOff: sortedDays.timesTakenOff(date), dataVersion: dataVersion() };
    },
    /**
     * Writes lists built from a snapshot taken after `ticket` (a worker thread's read): false, writing nothing, when
     * the date's records may have changed since (this connection took it off, or any other connection committed).
     */
    commit: (ticket: SortTicket, lists: DateSortLists): boolean => commit.immediate(ticket, lists),
  };
}
export type SortKeys = ReturnType<typeof createSortKeys>;

/**
 * Writes the sort keys of every date whose keys are not current, each date's lists built by `build` (a worker
 * thread's read-only connection: the sorting, about 0.2 s a date of 20,000 records, off main's event loop) and only
 * written by main. A date changed meanwhile is left for the next call. Stops when none is left or `signal` aborts;
 * the number of dates written.
 */
export async function writeSortKeysBuiltElsewhere(
  keys: Pick<SortKeys, 'next' | 'commit'>,
  build: (date: string) => Promise<DateSortLists>,
  signal?: AbortSignal,
): Promise<number> {
  let written = 0;
  const changed: string[] = [];
  for (let ticket = keys.next(); ticket !== null && !signal?.aborted; ticket = keys.next(changed)) {
    const lists = await build(ticket.date);
    if (keys.commit(ticket, lists)) written++;
    else changed.push(ticket.date);
  }
  return written;
}
