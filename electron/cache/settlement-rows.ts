/**
 * How a settlement record maps to a `settlements` row and back: the stored columns in one fixed order,
 * the exceptions kept with the row (a JSON list plus a bit per rule, which the exceptions filter reads),
 * and the fields the contract does not name, kept as JSON.
 */
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { RULE_IDS, type ReconciliationException, type RuleId } from '../../shared/reconciliation';
import type { CachedSettlement } from '../../shared/settlement-query';
import { parseUnnamedFields, unnamedFieldsJson } from './unnamed-fields';

/** The record's own columns after the key, in insert order. */
export const FIELD_COLUMNS = [
  'order_id',
  'order_date',
  'utr',
  'order_status',
  'pg_status',
  'payment_mode',
  'amount',
  'mer_service_fee',
  'mer_service_tax',
  'merchant_subvention_amount',
  'cgst',
  'igst',
  'sgst',
  'settled_amount',
  'dispute_id',
  'description',
  'extra',
] as const;

/** Every column a stored row is written with, in insert order (page reads select READ_COLUMNS). */
export const ROW_COLUMNS = [
  'id',
  'date',
  'pg',
  'pg_transaction_id',
  'settlement_date',
  ...FIELD_COLUMNS,
  'exception_flags',
  'exceptions',
  'seen_run',
] as const;

export type FieldValues = (string | number | null)[];

const KNOWN = new Set(Object.keys(settlementRecord.shape));

/** The row's field values in FIELD_COLUMNS order. */
export function fieldValues(r: SettlementRecord): FieldValues {
  const values: FieldValues = new Array<string | number | null>(FIELD_COLUMNS.length);
  putFieldValues(r, values, 0);
  return values;
}

/** The same values written into `out` from `at` (a buffer reused record after record); how many. */
export function putFieldValues(r: SettlementRecord, out: FieldValues, at: number): number {
  out[at] = r.order_id;
  out[at + 1] = r.order_date;
  out[at + 2] = r.utr ?? null;
  out[at + 3] = r.order_status;
  out[at + 4] = r.pg_status;
  out[at + 5] = r.payment_mode;
  out[at + 6] = r.amount;
  out[at + 7] = r.mer_service_fee;
  out[at + 8] = r.mer_service_tax;
  out[at + 9] = r.merchant_subvention_amount;
  out[at + 10] = r.cgst;
  out[at + 11] = r.igst;
  out[at + 12] = r.sgst;
  out[at + 13] = r.settled_amount;
  out[at + 14] = r.dispute_id;
  out[at + 15] = r.description;
  out[at + 16] = unnamedFieldsJson(r, KNOWN);
  return FIELD_COLUMNS.length;
}

export type StoredRow = Record<(typeof FIELD_COLUMNS)[number], string | number | null> & {
  id: number;
  date: string;
  pg: string;
  pg_transaction_id: string;
  settlement_date: string;
  exception_flags: number;
  exceptions: string | null;
  seen_run: number;
  vanished_at: string | null;
};

export function sameFields(row: StoredRow, values: FieldValues): boolean {
  for (let i = 0; i < FIELD_COLUMNS.length; i++) if (row[FIELD_COLUMNS[i]!] !== values[i]) return false;
  return true;
}

const BIT: Readonly<Record<RuleId, number>> = Object.fromEntries(RULE_IDS.map((id, i) => [id, 1 << i])) as Record<
  RuleId,
  number
>;

export function ruleBit(rule: RuleId): number {
  return BIT[rule];
}

export function flagsOf(exceptions: readonly ReconciliationException[]): number {
  let flags = 0;
  for (const e of exceptions) flags |= BIT[e.rule];
  return flags;
}

export function parseExceptions(json: string | null): ReconciliationException[] {
  return json === null ? [] : (JSON.parse(json) as ReconciliationException[]);
}

/** What a page read selects, in the order `readRowToCached` takes it. */
export const READ_COLUMNS = [
  'id',
  'date',
  'pg',
  'pg_transaction_id',
  'settlement_date',
  ...FIELD_COLUMNS,
  'exceptions',
  'vanished_at',
] as const;

type ReadRow = [
  id: number,
  date: string,
  pg: string,
  pg_transaction_id: string,
  settlement_date: string,
  order_id: string | null,
  order_date: string,
  utr: string | null,
  order_status: string,
  pg_status: string,
  payment_mode: string,
  amount: number,
  mer_service_fee: number,
  mer_service_tax: number,
  merchant_subvention_amount: number,
  cgst: number,
  igst: number,
  sgst: number,
  settled_amount: number,
  dispute_id: string | null,
  description: string | null,
  extra: string | null,
  exceptions: string | null,
  vanished_at: string | null,
];

/**
 * A row read in READ_COLUMNS order with `.raw()`: better-sqlite3 then builds no object of its own, so an
 * export's million rows are built once instead of twice.
 */
export function readRowToCached(values: readonly unknown[]): CachedSettlement {
  const [
    id,
    date,
    pg,
    pg_transaction_id,
    settlement_date,
    order_id,
    order_date,
    utr,
    order_status,
    pg_status,
    payment_mode,
    amount,
    mer_service_fee,
    mer_service_tax,
    merchant_subvention_amount,
    cgst,
    igst,
    sgst,
    settled_amount,
    dispute_id,
    description,
    extra,
    exceptions,
    vanishedAt,
  ] = values as ReadRow;
  return {
    id,
    date,
    pg,
    pg_transaction_id,
    settlement_date,
    order_id,
    order_date,
    utr,
    order_status,
    pg_status,
    payment_mode,
    amount,
    mer_service_fee,
    mer_service_tax,
    merchant_subvention_amount,
    cgst,
    igst,
    sgst,
    settled_amount,
    dispute_id,
    description,
    extra: parseUnnamedFields(extra),
    exceptions: parseExceptions(exceptions),
    vanishedAt,
  };
}
