/**
 * Reconciliation rules for settlement records: small pure functions, each a documented check that yields
 * an exception with the values that broke it. The cache stores the exceptions with the record; the UI and
 * the workbook show them. All amounts are integer minor units (paise).
 *
 * The settlement formula, our documented decision (the sandbox's data obeys it):
 *     settled_amount  = amount - mer_service_fee - mer_service_tax + merchant_subvention_amount
 *     mer_service_tax = cgst + sgst + igst
 * A failed payment moves no money: its settled amount must be 0, and the formula does not apply to it.
 * A refund or chargeback is a negative line (amount and settled amount below 0, no fee, tax or subvention), and
 * obeys the same formula.
 */
import type { SettlementRecord } from './api/settlements';

export const RULES = {
  settled_amount_mismatch: 'Settled amount differs from amount − fee − tax + subvention',
  tax_breakdown_mismatch: 'Service tax differs from CGST + SGST + IGST',
  failed_but_settled: 'Payment failed but money was settled',
  missing_utr: 'Money settled without a UTR',
  dispute_open: 'A dispute is open on the payment',
  duplicate_settlement: 'The same gateway transaction was settled more than once',
} as const;
export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];

/** The settlement record's fields that are amounts (paise in the cache): changes, exports and the UI format them. */
export const SETTLEMENT_MONEY_FIELDS: ReadonlySet<string> = new Set([
  'amount',
  'mer_service_fee',
  'mer_service_tax',
  'merchant_subvention_amount',
  'cgst',
  'sgst',
  'igst',
  'settled_amount',
]);

/** The names under which an exception's values are amounts in paise (the others are ids, statuses, text). */
export const MONEY_VALUE_NAMES: ReadonlySet<string> = new Set([...SETTLEMENT_MONEY_FIELDS, 'expected', 'difference']);

export interface ReconciliationException {
  rule: RuleId;
  /** The values that broke the rule, named as the record names them (amounts in minor units). */
  values: Record<string, number | string | null>;
}

type Amounts = Pick<
  SettlementRecord,
  | 'amount'
  | 'mer_service_fee'
  | 'mer_service_tax'
  | 'merchant_subvention_amount'
  | 'cgst'
  | 'sgst'
  | 'igst'
  | 'settled_amount'
>;
export type CheckedRecord = Amounts & Pick<SettlementRecord, 'pg_status' | 'utr' | 'dispute_id'>;

export function isFailed(record: Pick<SettlementRecord, 'pg_status'>): boolean {
  return /^(failed|failure)$/i.test(record.pg_status.trim());
}

/**
 * What a line of a batch is, from the interface's own fields: a sale (amount 0 or more, a failed payment
 * included), or a debit netted out of the batch, a chargeback when it carries a dispute id and a refund when not.
 * The sign and the dispute id, not the status words, which differ between gateways. `DEBIT_SUMS` in
 * electron/cache/settlement-rollup.ts is the same rule in SQL (a dispute id of spaces, tabs or line breaks is none).
 */
export type LineKind = 'sale' | 'refund' | 'chargeback';
export function lineKind(r: Pick<SettlementRecord, 'amount' | 'dispute_id'>): LineKind {
  if (r.amount >= 0) return 'sale';
  return /^[ \t\n\r]*$/.test(r.dispute_id ?? '') ? 'refund' : 'chargeback';
}

export function expectedSettledAmount(r: Amounts): number {
  return r.amount - r.mer_service_fee - r.mer_service_tax + r.merchant_subvention_amount;
}

export function settledAmountMismatch(r: CheckedRecord): ReconciliationException | null {
  if (isFailed(r)) return null;
  const expected = expectedSettledAmount(r);
  if (r.settled_amount === expected) return null;
  return {
    rule: 'settled_amount_mismatch',
    values: {
      amount: r.amount,
      mer_service_fee: r.mer_service_fee,
      mer_service_tax: r.mer_service_tax,
      merchant_subvention_amount: r.merchant_subvention_amount,
      expected,
      settled_amount: r.settled_amount,
      difference: r.settled_amount - expected,
    },
  };
}

export function taxBreakdownMismatch(r: CheckedRecord): ReconciliationException | null {
  const parts = r.cgst + r.sgst + r.igst;
  if (parts === r.mer_service_tax) return null;
  return {
    rule: 'tax_breakdown_mismatch',
    values: {
      mer_service_tax: r.mer_service_tax,
      cgst: r.cgst,
      sgst: r.sgst,
      igst: r.igst,
      difference: r.mer_service_tax - parts,
    },
  };
}

export function failedButSettled(r: CheckedRecord): ReconciliationException | null {
  if (!isFailed(r) || r.settled_amount === 0) return null;
  return { rule: 'failed_but_settled', values: { pg_status: r.pg_status, settled_amount: r.settled_amount } };
}

export function missingUtr(r: CheckedRecord): ReconciliationException | null {
  if (r.settled_amount === 0 || (r.utr ?? '').trim() !== '') return null;
  return { rule: 'missing_utr', values: { utr: r.utr ?? null, settled_amount: r.settled_amount } };
}

/**
 * A payment settled to the merchant while its dispute is open. A debit carrying a dispute id is the chargeback
 * itself, the dispute closed against the merchant and netted out of a batch: nothing is open on it.
 */
export function disputeOpen(r: CheckedRecord): ReconciliationException | null {
  if ((r.dispute_id ?? '').trim() === '' || r.amount < 0) return null;
  return { rule: 'dispute_open', values: { dispute_id: r.dispute_id ?? null } };
}

/** The rules that need only the record itself. */
export const RECORD_RULES = [
  settledAmountMismatch,
  taxBreakdownMismatch,
  failedButSettled,
  missingUtr,
  disputeOpen,
] as const;

export function checkRecord(r: CheckedRecord): ReconciliationException[] {
  const out: ReconciliationException[] = [];
  for (const rule of RECORD_RULES) {
    const e = rule(r);
    if (e) out.push(e);
  }
  return out;
}

/**
 * The cross-record rule: `settlementDates` are every settlement time at which this gateway transaction was
 * settled with money (this record's included). More than one is an exception on each of them.
 */
export function duplicateSettlement(settlementDates: readonly string[]): ReconciliationException | null {
  if (settlementDates.length < 2) return null;
  return {
    rule: 'duplicate_settlement',
    values: { times_settled: settlementDates.length, settlement_dates: [...settlementDates].sort().join(', ') },
  };
}
