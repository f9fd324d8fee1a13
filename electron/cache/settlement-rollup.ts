/**
 * The rollup: count and sums of current (not vanished) records per date x gateway x payment mode x order
 * status x gateway status x exception flags, refunds and chargebacks summed apart from the amount (sales are the
 * amount less both). Totals and aggregates with any filter but text search read it
 * instead of the records: a few hundred rows a day, however many records the day has.
 *
 * Writers add and remove rows as they change them and flush the deltas in the same transaction, so the
 * rollup is always exactly the sum of the records (the tests check it against a direct SQL sum).
 *
 * The same deltas keep `settlement_batches`: count and sums per date x gateway x UTR x settlement time, what reaches
 * the bank as one credit (a missing UTR is "", the batch "UTR pending"). Rolling batches up from the records at read
 * time sorts every record of the range (33 s for 1,800,000 on the shared machine); kept here, a page pays a few
 * upserts and a read of 90 days is a few hundred rows. And `settlement_batch_modes`: the chart's sums per date x
 * gateway x UTR x payment mode, so a search whose matches are all batch records draws its chart from a few rows
 * (migration 28). A row of either whose count reaches 0 is deleted.
 */
import type { Database } from 'better-sqlite3';
import { lineKind } from '../../shared/reconciliation';

/** What the rollup reads of a record; a record from the API carries all but the first three. */
export interface RollupFields {
  utr: string | null;
  dispute_id: string | null;
  settlement_date: string;
  merchant_subvention_amount: number;
  payment_mode: string;
  order_status: string;
  pg_status: string;
  amount: number;
  mer_service_fee: number;
  mer_service_tax: number;
  settled_amount: number;
}

export interface RollupRow extends RollupFields {
  date: string;
  pg: string;
  exception_flags: number;
}

/** The columns of a settlements row that the rollup reads, for statements that fetch them. */
export const ROLLUP_COLUMNS =
  'date, pg, utr, settlement_date, payment_mode, order_status, pg_status, exception_flags, amount, mer_service_fee, ' +
  'mer_service_tax, merchant_subvention_amount, settled_amount, dispute_id';

/**
 * The signed sums of a set of rows' refunds and chargebacks: `lineKind` (shared/reconciliation.ts) in SQL, 0 where
 * there are none, as the rollup and the batches store them.
 */
export const DEBIT_SUMS = `sum(CASE WHEN amount < 0 AND trim(ifnull(dispute_id, ''), ' ' || char(9, 10, 13)) = '' THEN amount ELSE 0 END),
  sum(CASE WHEN amount < 0 AND trim(ifnull(dispute_id, ''), ' ' || char(9, 10, 13)) <> '' THEN amount ELSE 0 END)`;

/** The rollup rows of a filter (settlement-filter.ts) it answers, `:exceptionsOnly` as 0 or 1. */
export const ROLLUP_WHERE = `date BETWEEN :from AND :to AND (:pg IS NULL OR pg = :pg) AND (:mode IS NULL OR payment_mode = :mode)
  AND (:orderStatus IS NULL OR order_status = :orderStatus) AND (:pgStatus IS NULL OR pg_status = :pgStatus)
  AND (:ruleBit IS NULL OR exception_flags & :ruleBit <> 0) AND (:exceptionsOnly = 0 OR exception_flags <> 0)`;

const UPSERT = `
  INSERT INTO settlement_rollup (date, pg, payment_mode, order_status, pg_status, exception_flags, count, amount, fees, taxes, settled,
    refunds, chargebacks)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (date, pg, payment_mode, order_status, pg_status, exception_flags) DO UPDATE SET
    count = count + excluded.count, amount = amount + excluded.amount, fees = fees + excluded.fees,
    taxes = taxes + excluded.taxes, settled = settled + excluded.settled, refunds = refunds + excluded.refunds,
    chargebacks = chargebacks + excluded.chargebacks`;

const BATCH_UPSERT = `
  INSERT INTO settlement_batches (date, pg, utr, settlement_date, records, amount, fees, taxes, subvention, settled, exceptions,
    refunds, chargebacks)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (date, pg, utr, settlement_date) DO UPDATE SET
    records = records + excluded.records, amount = amount + excluded.amount, fees = fees + excluded.fees,
    taxes = taxes + excluded.taxes, subvention = subvention + excluded.subvention, settled = settled + excluded.settled,
    exceptions = exceptions + excluded.exceptions, refunds = refunds + excluded.refunds,
    chargebacks = chargebacks + excluded.chargebacks`;
/** A batch whose records all moved (a UTR filled in) or vanished is no batch any more. */
const BATCH_DROP_EMPTY = `DELETE FROM settlement_batches
  WHERE date = ? AND pg = ? AND utr = ? AND settlement_date = ? AND records = 0`;

const MODE_UPSERT = `
  INSERT INTO settlement_batch_modes (date, pg, utr, payment_mode, count, amount, fees, taxes, settled, refunds, chargebacks)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (date, pg, utr, payment_mode) DO UPDATE SET
    count = count + excluded.count, amount = amount + excluded.amount, fees = fees + excluded.fees,
    taxes = taxes + excluded.taxes, settled = settled + excluded.settled, refunds = refunds + excluded.refunds,
    chargebacks = chargebacks + excluded.chargebacks`;
const MODE_DROP_EMPTY = `DELETE FROM settlement_batch_modes
  WHERE date = ? AND pg = ? AND utr = ? AND payment_mode = ? AND count = 0`;

/** Count, amount, fees, taxes, settled, refunds and chargebacks: a rollup group's sums, and a chart group's. */
type Sums = [number, number, number, number, number, number, number];
type Group = [date: string, pg: string, mode: string, orderStatus: string, pgStatus: string, flags: number];

/** A tree of Maps, one level per group column: several times faster than one composite string key. */
type Level = Map<string | number, Level | { group: Group; sums: Sums }>;

/** The map under `key` in `level`, made when missing. The group's parts are only gathered at a leaf made new. */
function child<L extends Map<string | number, unknown>>(level: L, key: string | number): L {
  let next = level.get(key) as L | undefined;
  if (!next) level.set(key, (next = new Map() as L));
  return next;
}

/** Adds a record (sign +1) or takes it away (-1) from a group's Sums; `debit` as `debitAt` answers. */
function addSums(sums: Sums, r: RollupFields, sign: 1 | -1, debit: 0 | 1 | 2): void {
  sums[0] += sign;
  sums[1] += sign * r.amount;
  sums[2] += sign * r.mer_service_fee;
  sums[3] += sign * r.mer_service_tax;
  sums[4] += sign * r.settled_amount;
  if (debit !== 0) sums[4 + debit]! += sign * r.amount;
}

type BatchKey = [date: string, pg: string, utr: string, part: string];
type BatchLevel = Map<string, BatchLevel | { key: BatchKey; sums: number[] }>;

/**
 * The deltas of a table keyed by date x gateway x UTR x one part more (the batches: the settlement time; the batch
 * modes: the payment mode), whose first sum is the count: upserted at a flush, and a row whose count a negative delta
 * brought to 0 deleted.
 */
function batchDeltas(db: Database, upsertSql: string, dropSql: string, width: number) {
  const upsert = db.prepare(upsertSql);
  const dropEmpty = db.prepare(dropSql);
  let deltas: BatchLevel = new Map();
  const write = (level: BatchLevel, depth: number): void => {
    for (const node of level.values()) {
      if (depth < 3) write(node as BatchLevel, depth + 1);
      else {
        const { key, sums } = node as { key: BatchKey; sums: number[] };
        if (sums.every((v) => v === 0)) continue;
        upsert.run(...key, ...sums);
        if (sums[0]! < 0) dropEmpty.run(...key);
      }
    }
  };
  return {
    /** The deltas of the row `date`, `pg`, `utr`, `part`, zero when new: the caller adds to them. */
    sumsOf(date: string, pg: string, utr: string, part: string): number[] {
      const level = child(child(child(deltas, date), pg), utr);
      let d = level.get(part) as { key: BatchKey; sums: number[] } | undefined;
      if (!d) level.set(part, (d = { key: [date, pg, utr, part], sums: new Array<number>(width).fill(0) }));
      return d.sums;
    },
    flush(): void {
      write(deltas, 0);
      deltas = new Map();
    },
    discard(): void {
      deltas = new Map();
    },
  };
}

export function createRollup(db: Database) {
  const upsert = db.prepare(UPSERT);
  const batches = batchDeltas(db, BATCH_UPSERT, BATCH_DROP_EMPTY, 9);
  const batchModes = batchDeltas(db, MODE_UPSERT, MODE_DROP_EMPTY, 7);
  let deltas: Level = new Map();
  /** Where a record's amount adds beside the amount: 0 for a sale, else the offset of its refunds or chargebacks. */
  const debitAt = (r: RollupFields): 0 | 1 | 2 => (r.amount >= 0 ? 0 : lineKind(r) === 'refund' ? 1 : 2);
  const addToBatch = (r: RollupFields, date: string, pg: string, flags: number, sign: 1 | -1, debit: 0 | 1 | 2) => {
    const utr = r.utr ?? '';
    const b = batches.sumsOf(date, pg, utr, r.settlement_date);
    b[0]! += sign;
    b[1]! += sign * r.amount;
    b[2]! += sign * r.mer_service_fee;
    b[3]! += sign * r.mer_service_tax;
    b[4]! += sign * r.merchant_subvention_amount;
    b[5]! += sign * r.settled_amount;
    if (flags !== 0) b[6]! += sign;
    if (debit !== 0) b[6 + debit]! += sign * r.amount;
    addSums(batchModes.sumsOf(date, pg, utr, r.payment_mode) as Sums, r, sign, debit);
  };
  const addRecord = (r: RollupFields, date: string, pg: string, flags: number, sign: 1 | -1): void => {
    const debit = debitAt(r);
    addToBatch(r, date, pg, flags, sign, debit);
    const level = child(child(child(child(child(deltas, date), pg), r.payment_mode), r.order_status), r.pg_status);
    let d = level.get(flags) as { group: Group; sums: Sums } | undefined;
    if (!d) {
      const group: Group = [date, pg, r.payment_mode, r.order_status, r.pg_status, flags];
      level.set(flags, (d = { group, sums: [0, 0, 0, 0, 0, 0, 0] }));
    }
    addSums(d.sums, r, sign, debit);
  };
  const write = (level: Level, depth: number): void => {
    for (const node of level.values()) {
      if (depth < 5) write(node as Level, depth + 1);
      else {
        const { group, sums } = node as { group: Group; sums: Sums };
        if (sums.some((v) => v !== 0)) upsert.run(...group, ...sums);
      }
    }
  };
  return {
    /** Counts a record in (+1) or out (-1) of its group; its date, gateway and flags given beside it. */
    addRecord,
    /** The same for a cached row, which carries them. */
    add: (r: RollupRow, sign: 1 | -1) => addRecord(r, r.date, r.pg, r.exception_flags, sign),
    /** Writes the deltas; call inside the transaction that changed the rows. */
    flush(): void {
      write(deltas, 0);
      batches.flush();
      batchModes.flush();
      deltas = new Map();
    },
    /** Drops unwritten deltas, when the transaction that made them rolled back. */
    discard(): void {
      deltas = new Map();
      batches.discard();
      batchModes.discard();
    },
  };
}
export type Rollup = ReturnType<typeof createRollup>;
