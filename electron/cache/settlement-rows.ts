/**
 * How a settlement record maps to a `settlements` row and back: the stored columns in one fixed order,
 * the exceptions kept with the row (a JSON list plus a bit per rule, which the exceptions filter reads),
 * and the fields the contract does not name, kept as JSON.
 */
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { RULE_IDS, type ReconciliationException, type RuleId } from '../../shared/reconciliation';
import type { CachedSettlement } from '../../shared/settlement-query';

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

/** Every column a stored row is written with, in insert order; reads add `vanished_at`. */
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
  let extra: Record<string, unknown> | undefined;
  for (const k in r) {
    if (!KNOWN.has(k)) (extra ??= {})[k] = (r as Record<string, unknown>)[k];
  }
  return [
    r.order_id,
    r.order_date,
    r.utr ?? null,
    r.order_status,
    r.pg_status,
    r.payment_mode,
    r.amount,
    r.mer_service_fee,
    r.mer_service_tax,
    r.merchant_subvention_amount,
    r.cgst,
    r.igst,
    r.sgst,
    r.settled_amount,
    r.dispute_id,
    r.description,
    extra === undefined ? null : JSON.stringify(extra),
  ];
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

export function rowToCached(row: StoredRow): CachedSettlement {
  return {
    id: row.id,
    date: row.date,
    pg: row.pg,
    pg_transaction_id: row.pg_transaction_id,
    settlement_date: row.settlement_date,
    order_id: row.order_id as string | null,
    order_date: row.order_date as string,
    utr: row.utr as string | null,
    order_status: row.order_status as string,
    pg_status: row.pg_status as string,
    payment_mode: row.payment_mode as string,
    amount: row.amount as number,
    mer_service_fee: row.mer_service_fee as number,
    mer_service_tax: row.mer_service_tax as number,
    merchant_subvention_amount: row.merchant_subvention_amount as number,
    cgst: row.cgst as number,
    igst: row.igst as number,
    sgst: row.sgst as number,
    settled_amount: row.settled_amount as number,
    dispute_id: row.dispute_id as string | null,
    description: row.description as string | null,
    extra: row.extra === null ? null : (JSON.parse(row.extra as string) as Record<string, unknown>),
    exceptions: parseExceptions(row.exceptions),
    vanishedAt: row.vanished_at,
  };
}
