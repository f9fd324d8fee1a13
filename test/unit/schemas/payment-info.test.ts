/**
 * Payment information: payment-method listing, UPI address (VPA) validation, currency conversion.
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, request, requestIssues, edit, DROP } from './contract-helpers';

// ---- payment methods --------------------------------------------------------------------------------------

const METHODS_DATA_A = {
  netbanking: {
    priority: 1,
    data: [
      {
        code: 'HDFC',
        title: 'HDFC Bank',
        health: true,
        favorite: true,
        image: 'https://cdn.example.com/banks/hdfc.png',
      },
      {
        code: 'SBIN',
        title: 'State Bank of India',
        health: false,
        favorite: false,
        image: 'https://cdn.example.com/banks/sbin.png',
      },
    ],
  },
  debitcard: { priority: 2, data: [{ code: 'VISA', title: 'Visa' }] },
  creditcard: {
    priority: 3,
    data: [
      { code: 'MAST', title: 'Mastercard' },
      { code: 'AMEX', title: 'American Express' },
    ],
  },
  upi: { priority: 4, data: { collect: 'Pay with UPI ID', intent: 'Pay with a UPI app', qr: 'Scan a QR code' } },
  intent: true,
  wallet: true,
  emi: false,
  scanAndPay: true,
  upiQr: true,
  convenience_fee: false,
};
const METHODS_A = { status: true, data: METHODS_DATA_A, request_id: 'req_m1' };

const METHODS_B = {
  status: true,
  methods: [
    { id: 'HDFC', name: 'HDFC Bank', type: 'netbanking' },
    { id: 'SBIN', name: 'State Bank of India', type: 'nb' },
    { id: 'VISA', name: 'Visa', type: 'debitcard' },
    { id: 'MAST', name: 'Mastercard', type: 'creditcard' },
    { id: 'collect', name: 'Pay with UPI ID', type: 'upi' },
    { id: 'intent', name: 'Pay with a UPI app', type: 'upi' },
    { id: 'paytm', name: 'Paytm', type: 'wallet' },
  ],
};

describe('info.paymentMethods response', () => {
  it('Variant A: the listing is kept exactly as sent', () => {
    expect(parse('info.paymentMethods', METHODS_A)).toStrictEqual({ data: METHODS_DATA_A, request_id: 'req_m1' });
  });

  it('Variant B: methods [{id, name, type}] are grouped into Variant A sections', () => {
    expect(parse('info.paymentMethods', METHODS_B)).toStrictEqual({
      data: {
        netbanking: {
          data: [
            { code: 'HDFC', title: 'HDFC Bank' },
            { code: 'SBIN', title: 'State Bank of India' },
          ],
        },
        debitcard: { data: [{ code: 'VISA', title: 'Visa' }] },
        creditcard: { data: [{ code: 'MAST', title: 'Mastercard' }] },
        upi: { data: { collect: 'Pay with UPI ID', intent: 'Pay with a UPI app' } },
        wallet: true,
      },
      request_id: undefined,
    });
  });

  it('Variant B overlaps Variant A: same codes/titles per section and the same upi map entries', () => {
    const a = parse('info.paymentMethods', METHODS_A).data;
    const b = parse('info.paymentMethods', METHODS_B).data;
    for (const section of ['netbanking', 'debitcard', 'creditcard'] as const) {
      const aEntries = a[section]!.data.map(({ code, title }) => ({ code, title }));
      for (const entry of b[section]!.data) expect(aEntries, section).toContainEqual(entry);
    }
    for (const [code, title] of Object.entries(b.upi!.data)) expect(a.upi!.data[code]).toBe(title);
    expect(b.wallet).toBe(true);
    expect(a.wallet).toBe(true);
  });

  it('flags are kept as sent (boolean, or any value when the gateway sends more than a boolean)', () => {
    const a = parse('info.paymentMethods', METHODS_A).data;
    expect([a.intent, a.emi, a.convenience_fee]).toStrictEqual([true, false, false]);
    const withObject = parse('info.paymentMethods', edit(METHODS_A, 'data.emi', { tenures: [3, 6] })).data;
    expect(withObject.emi).toStrictEqual({ tenures: [3, 6] });
    expect(parse('info.paymentMethods', METHODS_B).data).not.toHaveProperty('emi');
  });

  it('a numeric Variant B id becomes text', () => {
    const out = parse('info.paymentMethods', { status: true, methods: [{ id: 3044, name: 'Axis Bank', type: 'nb' }] });
    expect(out.data.netbanking!.data).toStrictEqual([{ code: '3044', title: 'Axis Bank' }]);
  });

  it('keeps unknown fields in sections, entries and new sections', () => {
    const out = parse(
      'info.paymentMethods',
      edit(edit(METHODS_A, 'data.netbanking.data.0.downtime', 'none'), 'data.paylater', { priority: 9, data: [] }),
    );
    expect(out.data.netbanking!.data[0]).toMatchObject({ code: 'HDFC', downtime: 'none' });
    expect(out.data).toMatchObject({ paylater: { priority: 9, data: [] } });
    expect(parse('info.paymentMethods', { ...METHODS_A, served_by: 'edge-3' }).data).toStrictEqual(METHODS_DATA_A);
  });

  it('refuses entries without code or title, a non-boolean health, a non-integer priority, a malformed upi map', () => {
    refuse('info.paymentMethods', edit(METHODS_A, 'data.netbanking.data.0.code', DROP));
    refuse('info.paymentMethods', edit(METHODS_A, 'data.debitcard.data.0.title', 7));
    refuse('info.paymentMethods', edit(METHODS_A, 'data.netbanking.data.1.health', 'yes'));
    refuse('info.paymentMethods', edit(METHODS_A, 'data.netbanking.priority', 1.5));
    refuse('info.paymentMethods', edit(METHODS_A, 'data.upi.data', ['collect']));
    refuse('info.paymentMethods', edit(METHODS_B, 'methods.0.name', DROP));
    refuse('info.paymentMethods', { status: true });
  });
});

describe('info.paymentMethods request', () => {
  it('all fields are optional strings; amount is whole minor units as text', () => {
    expect(request('info.paymentMethods', {}).success).toBe(true);
    expect(
      request('info.paymentMethods', {
        amount: '150050',
        currency: 'INR',
        callback: 'https://merchant.example.com/return',
        udf1: 'x',
        pg: 'razorpay',
        pg_pool_id: 'pool_1',
      }).success,
    ).toBe(true);
    expect(requestIssues('info.paymentMethods', { amount: '1500.50' })).toBe(
      'amount: must be whole minor units as text',
    );
    expect(requestIssues('info.paymentMethods', { amount: 150050 })).toMatch(/^amount: /);
    expect(requestIssues('info.paymentMethods', { currency: 'inr' })).toBe(
      'currency: must be a 3-letter currency code',
    );
    expect(requestIssues('info.paymentMethods', { callback: 'not a url' })).toMatch(/^callback: /);
  });
});

// ---- VPA ---------------------------------------------------------------------------------------------------

describe('info.vpa response', () => {
  const A = { status: true, isVPAValid: true, payerAccountName: 'ASHA VERMA', request_id: 'req_v1' };

  it('Variant A: isVPAValid and payerAccountName', () => {
    expect(parse('info.vpa', A)).toStrictEqual({
      isVPAValid: true,
      payerAccountName: 'ASHA VERMA',
      request_id: 'req_v1',
    });
    expect(parse('info.vpa', { status: true, isVPAValid: false })).toStrictEqual({
      isVPAValid: false,
      payerAccountName: undefined,
      request_id: undefined,
    });
  });

  it('Variant B: {message, vpa} is a valid address; the overlapping field matches A', () => {
    const b = parse('info.vpa', { status: true, message: 'VPA is valid', vpa: 'asha.verma@okhdfcbank' });
    expect(b).toStrictEqual({
      isVPAValid: true,
      payerAccountName: undefined,
      vpa: 'asha.verma@okhdfcbank',
      message: 'VPA is valid',
      request_id: undefined,
    });
    expect(b.isVPAValid).toBe(parse('info.vpa', A).isVPAValid);
  });

  it('ignores unknown top-level fields', () => {
    expect(parse('info.vpa', { ...A, bank: 'HDFC' }).payerAccountName).toBe('ASHA VERMA');
  });

  it('refuses a text isVPAValid and a body with neither isVPAValid nor vpa', () => {
    refuse('info.vpa', { status: true, isVPAValid: 'true' });
    refuse('info.vpa', { status: true, message: 'ok' });
  });
});

describe('info.vpa request', () => {
  it('needs a UPI address', () => {
    expect(request('info.vpa', { vpa: 'asha.verma@okhdfcbank' }).success).toBe(true);
    for (const vpa of ['asha', '@okhdfcbank', 'asha@', 'as ha@okhdfc', 'a@b']) {
      expect(requestIssues('info.vpa', { vpa })).toBe('vpa: must be a UPI address such as name@bank');
    }
  });
});

// ---- currency ----------------------------------------------------------------------------------------------

describe('info.currency response', () => {
  // Variant A is not shown in the document; the contract's shape (the sandbox's answer) is {from, to, conversion_rate}.
  it('the contract shape: rate kept as decimal text', () => {
    expect(parse('info.currency', { status: true, from: 'USD', to: 'INR', conversion_rate: '83.125' })).toStrictEqual({
      from: 'USD',
      to: 'INR',
      conversion_rate: '83.125',
      converted_amount: undefined,
      request_id: undefined,
    });
  });

  it('Variant B: conversion_rate number -> text, converted_amount (major units) -> paise', () => {
    const b = parse('info.currency', { status: true, conversion_rate: 83.125, converted_amount: 8312.5 });
    expect(b).toStrictEqual({
      from: undefined,
      to: undefined,
      conversion_rate: '83.125',
      converted_amount: 831250,
      request_id: undefined,
    });
    expect(b.conversion_rate).toBe(parse('info.currency', { status: true, conversion_rate: '83.125' }).conversion_rate);
  });

  it('converted_amount given as text is read exactly too', () => {
    expect(
      parse('info.currency', { status: true, conversion_rate: '0.012', converted_amount: '12.00' }).converted_amount,
    ).toBe(1200);
  });

  it('refuses a missing or malformed rate, a non-positive numeric rate and a converted amount needing rounding', () => {
    expect(refuse('info.currency', { status: true, from: 'USD', to: 'INR' })).toMatch(/^conversion_rate: /);
    expect(refuse('info.currency', { status: true, conversion_rate: '83,12' })).toMatch(/^conversion_rate: /);
    expect(refuse('info.currency', { status: true, conversion_rate: 0 })).toMatch(/^conversion_rate: /);
    expect(refuse('info.currency', { status: true, conversion_rate: 83.1, converted_amount: 831.234 })).toBe(
      'converted_amount: "831.234" has more than 2 decimal places',
    );
  });
});

describe('info.currency request', () => {
  it('from and to are 3-letter upper-case codes', () => {
    expect(request('info.currency', { from: 'USD', to: 'INR' }).success).toBe(true);
    expect(requestIssues('info.currency', { from: 'usd', to: 'INR' })).toBe('from: must be a 3-letter currency code');
    expect(requestIssues('info.currency', { from: 'USD', to: 'RUPEE' })).toBe('to: must be a 3-letter currency code');
    expect(requestIssues('info.currency', { from: 'USD' })).toMatch(/^to: /);
  });
});

// ---- known contract bugs ---------------------------------------------------------------------------------

/** See orders.test.ts: describeIssues prints `(body): Invalid input` for a failed Variant A|B union. */
describe('known contract bugs: describeIssues does not name the field inside a Variant A|B union', () => {
  it('info.paymentMethods names data.netbanking.data.0.code', () => {
    expect(refuse('info.paymentMethods', edit(METHODS_A, 'data.netbanking.data.0.code', DROP))).toMatch(
      /^data\.netbanking\.data\.0\.code: /,
    );
  });

  it('info.paymentMethods (Variant B) names methods.0.name', () => {
    expect(refuse('info.paymentMethods', edit(METHODS_B, 'methods.0.name', DROP))).toMatch(/^methods\.0\.name: /);
  });

  it('info.vpa names isVPAValid', () => {
    expect(refuse('info.vpa', { status: true, isVPAValid: 'true' })).toMatch(/^isVPAValid: /);
  });
});
