import { describe, expect, it } from 'vitest';
import {
  RULE_IDS,
  checkRecord,
  disputeOpen,
  duplicateSettlement,
  expectedSettledAmount,
  failedButSettled,
  missingUtr,
  settledAmountMismatch,
  taxBreakdownMismatch,
  type CheckedRecord,
} from '../../shared/reconciliation';

// ₹1,000.00 by UPI: fee ₹15.00, tax 18% of it ₹2.70 split CGST/SGST, no subvention.
const clean: CheckedRecord = {
  amount: 100000,
  mer_service_fee: 1500,
  mer_service_tax: 270,
  merchant_subvention_amount: 0,
  cgst: 135,
  sgst: 135,
  igst: 0,
  settled_amount: 98230,
  pg_status: 'success',
  utr: '004512345678',
  dispute_id: null,
};

describe('reconciliation rules', () => {
  it('a clean record breaks none', () => {
    expect(expectedSettledAmount(clean)).toBe(98230);
    expect(checkRecord(clean)).toEqual([]);
  });

  it('settled amount mismatch says by how much', () => {
    expect(settledAmountMismatch({ ...clean, settled_amount: 98227 })).toEqual({
      rule: 'settled_amount_mismatch',
      values: {
        amount: 100000,
        mer_service_fee: 1500,
        mer_service_tax: 270,
        merchant_subvention_amount: 0,
        expected: 98230,
        settled_amount: 98227,
        difference: -3,
      },
    });
  });

  it('subvention is added back', () => {
    expect(settledAmountMismatch({ ...clean, merchant_subvention_amount: 500, settled_amount: 98730 })).toBeNull();
  });

  it('tax breakdown must add up, inter-state IGST included', () => {
    expect(taxBreakdownMismatch({ ...clean, cgst: 0, sgst: 0, igst: 270 })).toBeNull();
    expect(taxBreakdownMismatch({ ...clean, cgst: 135, sgst: 134 })).toMatchObject({ values: { difference: 1 } });
  });

  it('a failed payment must settle nothing; the formula does not apply to it', () => {
    const failed = {
      ...clean,
      pg_status: 'FAILED',
      mer_service_fee: 0,
      mer_service_tax: 0,
      cgst: 0,
      sgst: 0,
      settled_amount: 0,
      utr: null,
    };
    expect(checkRecord(failed)).toEqual([]);
    expect(failedButSettled({ ...clean, pg_status: 'failed' })).toEqual({
      rule: 'failed_but_settled',
      values: { pg_status: 'failed', settled_amount: 98230 },
    });
  });

  it('money settled without a UTR', () => {
    expect(missingUtr({ ...clean, utr: null })).toMatchObject({ rule: 'missing_utr' });
    expect(missingUtr({ ...clean, utr: '  ' })).toMatchObject({ rule: 'missing_utr' });
    expect(missingUtr({ ...clean, utr: null, settled_amount: 0 })).toBeNull();
  });

  it('an open dispute', () => {
    expect(disputeOpen({ ...clean, dispute_id: 'dsp_1' })).toEqual({
      rule: 'dispute_open',
      values: { dispute_id: 'dsp_1' },
    });
    expect(disputeOpen({ ...clean, dispute_id: '' })).toBeNull();
    // The chargeback's own debit: the dispute is over, lost, and the money already taken back.
    const chargeback = { ...clean, amount: -50_000, mer_service_fee: 0, mer_service_tax: 0, cgst: 0, sgst: 0, igst: 0 };
    expect(
      checkRecord({ ...chargeback, merchant_subvention_amount: 0, settled_amount: -50_000, dispute_id: 'dsp_1' }),
    ).toEqual([]);
  });

  it('settled twice', () => {
    expect(duplicateSettlement(['2026-11-20 10:00:00'])).toBeNull();
    expect(duplicateSettlement(['2026-11-21 14:00:00', '2026-11-20 10:00:00'])).toEqual({
      rule: 'duplicate_settlement',
      values: { times_settled: 2, settlement_dates: '2026-11-20 10:00:00, 2026-11-21 14:00:00' },
    });
  });

  it('several rules at once, in a stable order', () => {
    const bad = { ...clean, pg_status: 'failed', utr: null, dispute_id: 'dsp_9' };
    expect(checkRecord(bad).map((e) => e.rule)).toEqual(['failed_but_settled', 'missing_utr', 'dispute_open']);
    expect(RULE_IDS).toHaveLength(6);
  });
});
