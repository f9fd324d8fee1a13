/**
 * Money edge cases, driven through the operation schemas (not only through shared/money.ts): every money
 * field must come out as exact integer paise or be refused with a message that says why and where.
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, edit } from './contract-helpers';

const RECORD = {
  order_id: 'ord_1',
  pg_transaction_id: 'pay_1',
  order_date: '2024-03-04 18:42:11',
  utr: 'UTR1',
  settlement_date: '2024-03-05 10:00:00',
  order_status: 'success',
  pg_status: 'captured',
  payment_mode: 'UPI',
  amount: 100000,
  mer_service_fee: 1000,
  mer_service_tax: 180,
  merchant_subvention_amount: '0.00',
  cgst: '0.90',
  igst: '0.00',
  sgst: '0.90',
  settled_amount: 98820,
  dispute_id: null,
  description: null,
};
const SETTLEMENT = { status: true, data: [RECORD], is_last_page: true };
// Subvention, not a GST part: the decimal cases include a negative, which a GST part may not be.
const settlementDecimal = (value: unknown) =>
  parse('settlement.fetch', edit(SETTLEMENT, 'data.0.merchant_subvention_amount', value)).data[0]!
    .merchant_subvention_amount;

const BALANCE_A = { status: 'true', account: { cashfree: { account_no: '1234567890123', balance: '0.00' } } };
const balanceA = (balance: unknown) =>
  parse('payout.balance', edit(BALANCE_A, 'account.cashfree.balance', balance)).balances[0]!.balance;

const PAYOUT = {
  status: true,
  payout: {
    transfer_status: true,
    transfer_id: 'tr_1',
    amount: 1500.5,
    method: 'neft',
    processed_at: '2024-03-07 11:05:00',
  },
};
const payoutAmount = (amount: unknown) => parse('payout.fetch', edit(PAYOUT, 'payout.amount', amount)).payout.amount;

describe('decimal strings in major units (settlement subvention and GST, balance Variant A)', () => {
  it.each([
    ['0.00', 0],
    ['1.80', 180],
    ['12.5', 1250],
    ['-3.10', -310],
    ['1.500', 150],
    ['1000', 100000],
    ['0.01', 1],
    ['90071992547409.91', 9007199254740991],
  ])('%j -> %d paise', (text, paise) => {
    expect(settlementDecimal(text)).toBe(paise);
    expect(balanceA(text)).toBe(paise);
  });

  it('refuses "1.005" (would need rounding) and names the field', () => {
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.cgst', '1.005'))).toBe(
      'data.0.cgst: "1.005" has more than 2 decimal places',
    );
  });

  it('refuses a huge amount with a clear message', () => {
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.cgst', '99999999999999999999.99'))).toBe(
      'data.0.cgst: "99999999999999999999.99" is too large to hold exactly',
    );
    refuse('payout.balance', edit(BALANCE_A, 'account.cashfree.balance', '99999999999999999999.99'));
  });

  it.each(['', 'abc', '1,000.00', '.5', '5.', '1e3', '₹10', 'NaN'])('refuses %j as not a decimal amount', (text) => {
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.cgst', text))).toBe(
      `data.0.cgst: "${text}" is not a decimal amount`,
    );
  });

  it('refuses a boolean or null in a required money field', () => {
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.cgst', true))).toMatch(/^data\.0\.cgst: /);
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.cgst', null))).toMatch(/^data\.0\.cgst: /);
  });
});

describe('JSON numbers in major units (payout amount)', () => {
  it.each([
    [1500.5, 150050],
    [1500, 150000],
    [0, 0],
    [0.1, 10],
    [0.07, 7],
    [-3.1, -310],
    [1.15, 115],
    [1e5, 10000000],
    [12345678901.23, 1234567890123],
  ])('%d -> %d paise, exactly (no float multiplication)', (rupees, paise) => {
    expect(payoutAmount(rupees)).toBe(paise);
  });

  it('refuses numbers that are not whole paise and numbers too large to hold exactly', () => {
    expect(refuse('payout.fetch', edit(PAYOUT, 'payout.amount', 0.1 + 0.2))).toBe(
      'payout.amount: "0.30000000000000004" has more than 2 decimal places',
    );
    expect(refuse('payout.fetch', edit(PAYOUT, 'payout.amount', 1e-7))).toMatch(
      /^payout\.amount: .*more than 2 decimal places/,
    );
    expect(refuse('payout.fetch', edit(PAYOUT, 'payout.amount', 1e21))).toBe(
      'payout.amount: "1e+21" is too large to hold exactly',
    );
  });
});

describe("integer minor-unit fields (the document's `integer` amounts)", () => {
  it('pass through unchanged', () => {
    expect(parse('settlement.fetch', edit(SETTLEMENT, 'data.0.settled_amount', 0)).data[0]!.settled_amount).toBe(0);
    expect(parse('settlement.fetch', edit(SETTLEMENT, 'data.0.amount', -50050)).data[0]!.amount).toBe(-50050);
  });

  it('take a negative amount and settled amount (a refund or chargeback) but refuse a negative fee or GST', () => {
    const refund = edit(edit(SETTLEMENT, 'data.0.amount', -50050), 'data.0.settled_amount', -50050);
    expect(parse('settlement.fetch', refund).data[0]).toMatchObject({ amount: -50050, settled_amount: -50050 });
    const why = 'is negative: a fee or its GST is charged by the gateway, never paid by it';
    expect(refuse('settlement.fetch', edit(refund, 'data.0.mer_service_fee', -100))).toBe(
      `data.0.mer_service_fee: ${why}`,
    );
    expect(refuse('settlement.fetch', edit(refund, 'data.0.mer_service_tax', -18))).toBe(
      `data.0.mer_service_tax: ${why}`,
    );
    for (const field of ['cgst', 'sgst', 'igst']) {
      expect(refuse('settlement.fetch', edit(refund, `data.0.${field}`, '-0.09'))).toBe(`data.0.${field}: ${why}`);
    }
  });

  it('refuse a float such as 10.5, naming the field', () => {
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.amount', 10.5))).toBe(
      'data.0.amount: 10.5 is not a whole number of minor units',
    );
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.mer_service_fee', 0.5))).toBe(
      'data.0.mer_service_fee: 0.5 is not a whole number of minor units',
    );
    const adhoc = {
      status: true,
      transaction: { id: 't', amount: 10.5, currency: 'INR', status: 'success' },
    };
    expect(refuse('subscription.adhoc', adhoc)).toBe('transaction.amount: 10.5 is not a whole number of minor units');
  });

  it('refuse an integer beyond the exact range and a rupee string', () => {
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.amount', 2 ** 53))).toBe(
      `data.0.amount: ${2 ** 53} is not a whole number of minor units`,
    );
    expect(refuse('settlement.fetch', edit(SETTLEMENT, 'data.0.amount', '1000.00'))).toMatch(
      /^data\.0\.amount: .*expected number/,
    );
  });
});
