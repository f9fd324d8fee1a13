/** Amounts in words (Indian system), rupees typed by a desk, and an order's refundable balance: exact, in paise. */
import { describe, expect, it } from 'vitest';
import { amountInWords, wholeInWords } from '../../shared/amount-words';
import { checkRupees, parseRupees, RETYPE_ABOVE_MINOR } from '../../shared/merchant-amounts';
import { MoneyError } from '../../shared/money';
import { missingOrderFields, ORDER_FIELDS, refundableBalance, refundProblem, refundState } from '../../shared/orders';

describe('amount in words', () => {
  it.each([
    [12_345_678, 'Rupees one lakh twenty-three thousand four hundred fifty-six and paise seventy-eight'],
    [10_000, 'Rupees one hundred'],
    [10_005, 'Rupees one hundred and paise five'],
    [50, 'Rupees zero and paise fifty'],
    [0, 'Rupees zero'],
    [100_000_00, 'Rupees one lakh'],
    [1_00_00_000_00, 'Rupees one crore'],
    [
      12_34_56_789_01,
      'Rupees twelve crore thirty-four lakh fifty-six thousand seven hundred eighty-nine and paise one',
    ],
    [-1_500_00, 'minus Rupees one thousand five hundred'],
    [1_11_111_00, 'Rupees one lakh eleven thousand one hundred eleven'],
  ])('%i paise', (minor, words) => {
    expect(amountInWords(minor)).toBe(words);
  });

  it('says crores of crores in lakhs and thousands, exactly up to the largest safe integer', () => {
    expect(wholeInWords(1_000_00_00_000)).toBe('one thousand crore');
    expect(amountInWords(Number.MAX_SAFE_INTEGER)).toBe(
      // 90,07,199 crore 25,47,409 rupees and 91 paise.
      'Rupees ninety lakh seven thousand one hundred ninety-nine crore twenty-five lakh forty-seven thousand four hundred nine and paise ninety-one',
    );
  });

  it('names another currency by its code, minor units as hundredths', () => {
    expect(amountInWords(1250, 'USD')).toBe('USD twelve and 50/100');
  });

  it('refuses what is not a whole number of paise', () => {
    expect(() => amountInWords(1.5)).toThrow(MoneyError);
  });
});

describe('rupees typed by a desk', () => {
  it.each([
    ['1500', 150_000],
    ['1500.5', 150_050],
    ['  1500.50 ', 150_050],
    ['₹ 1,500.50', 150_050],
    ['1,23,456.78', 12_345_678],
    ['123,456.78', 12_345_678],
    ['0.01', 1],
    ['10.500', 1050],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('%s is %i paise', (text, minor) => {
    expect(parseRupees(text)).toBe(minor);
  });

  it.each([
    ['', /Enter an amount/],
    ['-5', /negative/],
    ['0', /more than zero/],
    ['0.00', /more than zero/],
    ['10.505', /more than two decimals/],
    ['1e3', /not an amount in rupees/],
    ['12,34', /commas in odd places/],
    ['abc', /not an amount in rupees/],
    ['90071992547409.92', /too large/],
  ])('%j is refused with the reason', (text, reason) => {
    expect(() => parseRupees(text)).toThrow(reason);
    expect(checkRupees(text)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('asks for re-typing above one lakh rupees', () => {
    expect(RETYPE_ABOVE_MINOR).toBe(parseRupees('1,00,000'));
  });
});

describe('refundable balance', () => {
  const attempts = [
    { amount: 10_000, status: 'success' },
    { amount: 2_500, status: 'pending' },
    { amount: 7_000, status: 'failed' },
    { amount: 1_000, status: 'processed' },
    { amount: 99, status: 'SOMETHING_NEW' },
  ];

  it('is the amount less successful and pending refunds; a failed attempt frees its amount', () => {
    expect(refundableBalance(50_000, attempts)).toEqual({
      amount: 50_000,
      refunded: 11_000,
      pending: 2_599,
      refundable: 36_401,
    });
  });

  it('counts a status it does not know as pending, so it never offers money that may be on its way back', () => {
    expect(refundState('SOMETHING_NEW')).toBe('pending');
    expect(refundState('REJECTED')).toBe('failed');
    expect(refundState('Success')).toBe('succeeded');
  });

  it('never goes below zero, and is exact past 2^53 / 100', () => {
    expect(refundableBalance(100, [{ amount: 150, status: 'success' }]).refundable).toBe(0);
    const big = Number.MAX_SAFE_INTEGER;
    expect(refundableBalance(big, [{ amount: big - 1, status: 'success' }]).refundable).toBe(1);
  });

  it('refuses zero, nothing left, and one paisa above the balance, with the reason', () => {
    const balance = refundableBalance(50_000, attempts);
    expect(refundProblem(balance.refundable, balance, 'INR')).toBeNull();
    expect(refundProblem(balance.refundable + 1, balance, 'INR')).toBe(
      'The refund of ₹364.02 is more than the refundable balance of ₹364.01.',
    );
    expect(refundProblem(0, balance, 'INR')).toMatch(/more than zero/);
    expect(refundProblem(1, refundableBalance(100, [{ amount: 100, status: 'success' }]), 'INR')).toMatch(
      /Nothing is left/,
    );
  });
});

describe('Variant B gaps', () => {
  it('names every documented field the answer did not carry', () => {
    const short = { order_id: 'o', amount: 1, currency: 'INR', order_status: 'success', card_last_4: null };
    expect(missingOrderFields(short)).toEqual(
      ORDER_FIELDS.filter((f) => !['order_id', 'amount', 'currency', 'order_status', 'card_last_4'].includes(f)),
    );
  });
});
