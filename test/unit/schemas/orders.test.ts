/**
 * Orders: fetch, capture, full / partial refund, refund attempts, process order (seamless checkout).
 * Bodies are built from the interface document's field tables (Variant A, and Variant B where the
 * document shows one); the expectations are the contract's normalized domain shape (Variant A names,
 * money in integer paise).
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, request, requestIssues, edit, DROP } from './contract-helpers';

// ---- fixtures ---------------------------------------------------------------------------------------

const ADDRESS = {
  firstname: 'Asha',
  lastname: 'Verma',
  phone: '9876543210',
  line1: '12 MG Road',
  line2: 'Near Metro',
  city: 'Bengaluru',
  state: 'Karnataka',
  country: 'IN',
  zipcode: '560001',
};

const ORDER_A = {
  order_id: 'ord_8f3kq2',
  receipt_id: 'rcpt_2024_0042',
  pg_transaction_id: 'pay_N1x2Y3z4',
  amount: 150050,
  currency: 'INR',
  pg: 'razorpay',
  method: 'card',
  order_status: 'success',
  unmapped_status: 'captured',
  card_last_4: '4242',
  card_issuer: 'HDFC Bank',
  customer: { name: 'Asha Verma', email: 'asha@example.com', phone: '9876543210' },
  notes: { udf1: 'invoice-77', udf2: '', udf3: '', udf4: '', udf5: '', udf6: '', udf8: '', udf9: '', udf10: '' },
  billing_address: ADDRESS,
  shipping_address: { ...ADDRESS, line2: '' },
  additional_charges: 0,
  mdr: '1.75',
  tpv: [],
  created_at: '2024-03-05 14:22:10',
  updated_at: '2024-03-05 14:23:01',
};
const ORDER_FETCH_A = { status: true, order: ORDER_A };

const ORDER_FETCH_B = {
  status: true,
  order: {
    order_id: 'ord_8f3kq2',
    amount: 150050,
    currency: 'INR',
    status: 'success',
    card_last_4: '4242',
    card_issuer: 'HDFC Bank',
  },
};

const ATTEMPTS_A = {
  status: true,
  message: 'Refund attempts fetched successfully',
  data: [
    {
      refund_id: 'rfnd_001',
      amount: 150050,
      type: 'Full',
      status: 'success',
      rrn: '412345678901',
      attempted_at: '2024-03-06T09:15:30.123456Z',
    },
  ],
  request_id: 'req_7c1f',
};

const ATTEMPTS_B = {
  status: true,
  refund_attempts: [
    { attempt_id: 'rfnd_001', status: 'processed', amount: 100000 },
    { attempt_id: 'rfnd_002', status: 'failed', amount: 50050 },
  ],
};

const PROCESS_A = {
  status: true,
  payment_id: 'pay_91HxQe',
  data: {
    type: 'intent',
    token: 'tok_5f2a9c',
    url: 'upi%3A%2F%2Fpay%3Fpa%3Dmerchant%40okicici%26am%3D1500.50%26cu%3DINR',
    param: [],
  },
  request_id: 'req_p1',
};

const PROCESS_B = { status: true, message: 'Transaction initiated', transaction_id: 'pay_91HxQe' };

// ---- order.fetch --------------------------------------------------------------------------------------

describe('order.fetch response', () => {
  it('normalizes a full Variant A body exactly (amount is already paise, additional_charges 0 -> 0)', () => {
    expect(parse('order.fetch', ORDER_FETCH_A)).toStrictEqual({
      order: {
        order_id: 'ord_8f3kq2',
        receipt_id: 'rcpt_2024_0042',
        pg_transaction_id: 'pay_N1x2Y3z4',
        amount: 150050,
        currency: 'INR',
        pg: 'razorpay',
        method: 'card',
        order_status: 'success',
        unmapped_status: 'captured',
        card_last_4: '4242',
        card_issuer: 'HDFC Bank',
        customer: { name: 'Asha Verma', email: 'asha@example.com', phone: '9876543210' },
        notes: { udf1: 'invoice-77', udf2: '', udf3: '', udf4: '', udf5: '', udf6: '', udf8: '', udf9: '', udf10: '' },
        billing_address: ADDRESS,
        shipping_address: { ...ADDRESS, line2: '' },
        additional_charges: 0,
        mdr: '1.75',
        tpv: [],
        created_at: '2024-03-05 14:22:10',
        updated_at: '2024-03-05 14:23:01',
      },
      request_id: undefined,
    });
  });

  it('reads additional_charges (a JSON number, major units) as exact paise', () => {
    expect(parse('order.fetch', edit(ORDER_FETCH_A, 'order.additional_charges', 2.5)).order.additional_charges).toBe(
      250,
    );
    expect(parse('order.fetch', edit(ORDER_FETCH_A, 'order.additional_charges', 17.7)).order.additional_charges).toBe(
      1770,
    );
  });

  it('keeps a request_id when the body carries one', () => {
    expect(parse('order.fetch', { ...ORDER_FETCH_A, request_id: 'req_1' }).request_id).toBe('req_1');
  });

  it('normalizes Variant B (status -> order_status) to the same domain fields as Variant A', () => {
    const b = parse('order.fetch', ORDER_FETCH_B);
    expect(b).toStrictEqual({
      order: {
        order_id: 'ord_8f3kq2',
        amount: 150050,
        currency: 'INR',
        order_status: 'success',
        card_last_4: '4242',
        card_issuer: 'HDFC Bank',
      },
      request_id: undefined,
    });
    expect(b.order).not.toHaveProperty('status');
    const a = parse('order.fetch', ORDER_FETCH_A).order as Record<string, unknown>;
    for (const [key, value] of Object.entries(b.order)) expect(a[key], key).toStrictEqual(value);
  });

  it('keeps unknown fields on the order (A and B) and ignores unknown top-level fields', () => {
    const a = parse('order.fetch', { ...edit(ORDER_FETCH_A, 'order.gateway_ref', 'GW-99812'), trace: { hop: 3 } });
    expect(a.order).toMatchObject({ gateway_ref: 'GW-99812', amount: 150050 });
    const b = parse('order.fetch', { ...edit(ORDER_FETCH_B, 'order.gateway_ref', 'GW-99812'), trace: 'x' });
    expect(b.order).toMatchObject({ gateway_ref: 'GW-99812', order_status: 'success' });
  });

  it('accepts null card fields (a UPI order has no card)', () => {
    const o = parse(
      'order.fetch',
      edit(edit(ORDER_FETCH_A, 'order.card_last_4', null), 'order.card_issuer', null),
    ).order;
    expect(o.card_last_4).toBeNull();
    expect(o.card_issuer).toBeNull();
  });

  it('refuses a missing or mistyped order amount, a float amount, a bad timestamp and a missing status', () => {
    refuse('order.fetch', edit(ORDER_FETCH_A, 'order.amount', DROP));
    refuse('order.fetch', edit(ORDER_FETCH_A, 'order.amount', '1500.50'));
    refuse('order.fetch', edit(ORDER_FETCH_A, 'order.amount', 1500.5));
    refuse('order.fetch', edit(ORDER_FETCH_B, 'order.amount', DROP));
    refuse('order.fetch', edit(ORDER_FETCH_A, 'order.created_at', '2024-03-05T14:22:10Z'));
    refuse('order.fetch', edit(ORDER_FETCH_A, 'order.order_status', DROP));
    refuse('order.fetch', { status: true });
  });

  it('refuses a success schema for an error body and names `status`', () => {
    expect(refuse('order.fetch', { ...ORDER_FETCH_A, status: false })).toMatch(/^status: /);
    expect(refuse('order.fetch', { status: false, error: { message: 'Order not found', code: 202 } })).toContain(
      'status',
    );
  });
});

// ---- capture / refund ------------------------------------------------------------------------------------

describe('order.capture response', () => {
  it('Variant A: {status, message}', () => {
    expect(parse('order.capture', { status: true, message: 'Order captured successfully' })).toStrictEqual({
      message: 'Order captured successfully',
      id: undefined,
      request_id: undefined,
    });
  });

  it('Variant B adds id; message matches A', () => {
    const b = parse('order.capture', { status: true, message: 'Order captured successfully', id: 'ord_8f3kq2' });
    expect(b).toStrictEqual({ message: 'Order captured successfully', id: 'ord_8f3kq2', request_id: undefined });
  });

  it('gives an empty message when none is sent and ignores unknown fields', () => {
    expect(parse('order.capture', { status: true, captured_at: 'now' })).toStrictEqual({
      message: '',
      id: undefined,
      request_id: undefined,
    });
  });

  it('refuses status false and a mistyped message', () => {
    expect(refuse('order.capture', { status: false, message: 'x' })).toMatch(/^status: /);
    expect(refuse('order.capture', { status: true, message: 42 })).toMatch(/^message: /);
  });
});

describe('order.refund response', () => {
  it('Variant A: {status, message, id}', () => {
    expect(
      parse('order.refund', { status: true, message: 'Refund initiated successfully', id: 'rfnd_001' }),
    ).toStrictEqual({ message: 'Refund initiated successfully', id: 'rfnd_001', request_id: undefined });
  });

  it('reads a numeric id as text', () => {
    expect(parse('order.refund', { status: true, message: 'ok', id: 98765 }).id).toBe('98765');
  });

  it('refuses an id that is neither text nor number', () => {
    expect(refuse('order.refund', { status: true, message: 'ok', id: { v: 1 } })).toMatch(/^id: /);
  });
});

describe('order.refundPartial response', () => {
  const A = { status: true, message: 'ORDER_PARTIALLY_REFUNDED_SUCCESSFULLY', id: 'rfnd_077' };

  it('Variant A: {status, message, id}', () => {
    expect(parse('order.refundPartial', A)).toStrictEqual({
      message: 'ORDER_PARTIALLY_REFUNDED_SUCCESSFULLY',
      id: 'rfnd_077',
      request_id: undefined,
    });
  });

  it('Variant B: refund_id -> id, same domain shape', () => {
    const b = parse('order.refundPartial', {
      status: true,
      message: 'ORDER_PARTIALLY_REFUNDED_SUCCESSFULLY',
      refund_id: 'rfnd_077',
    });
    expect(b).toStrictEqual(parse('order.refundPartial', A));
  });

  it('refuses a body without id or refund_id and names `id`', () => {
    expect(refuse('order.refundPartial', { status: true, message: 'ORDER_PARTIALLY_REFUNDED_SUCCESSFULLY' })).toBe(
      'id: id (or refund_id) is required',
    );
  });
});

// ---- refund attempts -------------------------------------------------------------------------------------

describe('order.refundAttempts response', () => {
  it('Variant A: data array of attempts, ISO microsecond times kept as text', () => {
    expect(parse('order.refundAttempts', ATTEMPTS_A)).toStrictEqual({
      message: 'Refund attempts fetched successfully',
      data: [
        {
          refund_id: 'rfnd_001',
          amount: 150050,
          type: 'Full',
          status: 'success',
          rrn: '412345678901',
          attempted_at: '2024-03-06T09:15:30.123456Z',
        },
      ],
      request_id: 'req_7c1f',
    });
  });

  it('Variant B: refund_attempts with attempt_id -> data with refund_id', () => {
    expect(parse('order.refundAttempts', ATTEMPTS_B)).toStrictEqual({
      message: '',
      data: [
        { refund_id: 'rfnd_001', status: 'processed', amount: 100000 },
        { refund_id: 'rfnd_002', status: 'failed', amount: 50050 },
      ],
      request_id: undefined,
    });
  });

  it('Variant B attempts carry the same overlapping fields as Variant A attempts', () => {
    const a = parse('order.refundAttempts', ATTEMPTS_A).data[0]!;
    const b = parse('order.refundAttempts', {
      status: true,
      refund_attempts: [{ attempt_id: 'rfnd_001', status: 'success', amount: 150050 }],
    }).data[0]!;
    expect(b).not.toHaveProperty('attempt_id');
    expect(b).toStrictEqual({ refund_id: a.refund_id, status: a.status, amount: a.amount });
  });

  it('accepts an empty list', () => {
    expect(parse('order.refundAttempts', { status: true, message: 'No refunds', data: [] }).data).toEqual([]);
  });

  it('keeps unknown fields on an attempt', () => {
    const out = parse('order.refundAttempts', edit(ATTEMPTS_A, 'data.0.gateway_ref', 'GW-1'));
    expect(out.data[0]).toMatchObject({ gateway_ref: 'GW-1', refund_id: 'rfnd_001' });
    const outB = parse('order.refundAttempts', edit(ATTEMPTS_B, 'refund_attempts.0.arn', 'ARN9'));
    expect(outB.data[0]).toMatchObject({ arn: 'ARN9', refund_id: 'rfnd_001' });
  });

  it('refuses a float amount, a non-UTC time, a missing refund_id and a body with neither list', () => {
    refuse('order.refundAttempts', edit(ATTEMPTS_A, 'data.0.amount', 1.5));
    refuse('order.refundAttempts', edit(ATTEMPTS_A, 'data.0.attempted_at', '2024-03-06 09:15:30'));
    refuse('order.refundAttempts', edit(ATTEMPTS_A, 'data.0.refund_id', DROP));
    refuse('order.refundAttempts', edit(ATTEMPTS_B, 'refund_attempts.0.attempt_id', DROP));
    refuse('order.refundAttempts', { status: true, message: 'x' });
  });
});

// ---- process order -----------------------------------------------------------------------------------------

describe('order.process response', () => {
  it('Variant A: payment_id and data {type, token, url, param}', () => {
    expect(parse('order.process', PROCESS_A)).toStrictEqual({
      payment_id: 'pay_91HxQe',
      data: PROCESS_A.data,
      message: undefined,
      request_id: 'req_p1',
    });
  });

  it('Variant B: transaction_id -> payment_id, message kept, no data', () => {
    const b = parse('order.process', PROCESS_B);
    expect(b).toStrictEqual({
      payment_id: 'pay_91HxQe',
      data: undefined,
      message: 'Transaction initiated',
      request_id: undefined,
    });
    expect(b.payment_id).toBe(parse('order.process', PROCESS_A).payment_id);
  });

  it('keeps unknown fields inside data', () => {
    expect(parse('order.process', edit(PROCESS_A, 'data.expires_in', 300)).data).toMatchObject({
      expires_in: 300,
      type: 'intent',
    });
  });

  it('refuses a body with neither payment_id nor transaction_id, or data without type', () => {
    refuse('order.process', { status: true, data: PROCESS_A.data });
    refuse('order.process', edit(PROCESS_A, 'data.type', DROP));
  });
});

// ---- requests --------------------------------------------------------------------------------------------

describe('order requests', () => {
  it('order id requests need a non-empty id', () => {
    expect(request('order.fetch', { id: 'ord_8f3kq2' }).success).toBe(true);
    expect(requestIssues('order.capture', { id: '' })).toBe('id: must not be empty');
    expect(requestIssues('order.refund', { id: '   ' })).toBe('id: must not be empty');
    expect(requestIssues('order.fetch', {})).toMatch(/^id: /);
  });

  it('refund attempts need order_id', () => {
    expect(request('order.refundAttempts', { order_id: 'ord_1' }).success).toBe(true);
    expect(requestIssues('order.refundAttempts', { id: 'ord_1' })).toMatch(/^order_id: /);
  });

  it('partial refund amount is a positive integer of minor units', () => {
    expect(request('order.refundPartial', { id: 'ord_1', amount: 5000 }).success).toBe(true);
    expect(requestIssues('order.refundPartial', { id: 'ord_1', amount: 0 })).toBe('amount: must be positive');
    expect(requestIssues('order.refundPartial', { id: 'ord_1', amount: -100 })).toBe('amount: must be positive');
    expect(requestIssues('order.refundPartial', { id: 'ord_1', amount: 10.5 })).toBe(
      'amount: must be a whole number of minor units',
    );
    expect(requestIssues('order.refundPartial', { id: 'ord_1', amount: '5000' })).toMatch(/^amount: /);
    expect(requestIssues('order.refundPartial', { id: 'ord_1' })).toMatch(/^amount: /);
  });
});

describe('order.process request rules', () => {
  const base = { order_id: 'ord_8f3kq2' };
  const ok = (input: object) =>
    expect(request('order.process', { ...base, ...input }).success, JSON.stringify(input)).toBe(true);
  const issues = (input: object) => requestIssues('order.process', { ...base, ...input });

  it('accepts each documented method with a fitting code', () => {
    ok({ method: 'upi', code: 'collect', vpa: 'asha.verma@okhdfcbank' });
    ok({ method: 'upi', code: 'qr' });
    ok({ method: 'upi', code: 'intent', device: 'android' });
    ok({ method: 'upi', code: 'intent', device: 'ios' });
    ok({ method: 'nb', code: 'HDFC' });
    ok({ method: 'wallet', code: 'paytm' });
    ok({ method: 'emi', code: 'hdfc_cc_emi' });
    ok({ method: 'card', code: 'card', card: { number: '4111111111111111', expiry_month: '12', expiry_year: '2030' } });
  });

  it('upi collect needs a vpa, and the vpa must look like a UPI address', () => {
    expect(issues({ method: 'upi', code: 'collect' })).toBe('vpa: is required for a upi collect');
    expect(issues({ method: 'upi', code: 'collect', vpa: 'not-a-vpa' })).toMatch(/^vpa: /);
  });

  it('upi intent needs device android or ios', () => {
    expect(issues({ method: 'upi', code: 'intent' })).toBe('device: is required for a upi intent (android or ios)');
    expect(issues({ method: 'upi', code: 'intent', device: 'windows' })).toMatch(/^device: /);
  });

  it('upi code must be collect, qr or intent', () => {
    expect(issues({ method: 'upi', code: 'push' })).toBe('code: for upi must be collect, qr or intent');
  });

  it('card needs code "card" and a card object', () => {
    expect(issues({ method: 'card', code: 'visa', card: { number: '4111' } })).toBe('code: for card must be "card"');
    expect(issues({ method: 'card', code: 'card' })).toBe('card: is required when method is card');
    expect(issues({ method: 'card', code: 'card', card: 'x' })).toMatch(/^card: /);
  });

  it('method is one of upi, nb, card, wallet, emi; code and order_id are required', () => {
    expect(issues({ method: 'cash', code: 'x' })).toMatch(/^method: /);
    expect(issues({ method: 'nb', code: '' })).toBe('code: must not be empty');
    expect(requestIssues('order.process', { method: 'nb', code: 'HDFC' })).toMatch(/^order_id: /);
  });
});

// ---- known contract bugs ---------------------------------------------------------------------------------

/**
 * describeIssues (shared/api/operations.ts) prints each zod issue's own path. Responses that accept Variant A
 * or B are `z.union`s, and a failed union is ONE issue (`invalid_union`) at the union's path with message
 * "Invalid input"; the field that actually failed is only inside `issue.errors`. So the client's
 * "unexpected response: ..." reads `order: Invalid input` instead of naming `order.amount`.
 */
describe('known contract bugs: describeIssues does not name the field inside a Variant A|B union', () => {
  it('order.fetch without order.amount names order.amount', () => {
    expect(refuse('order.fetch', edit(ORDER_FETCH_A, 'order.amount', DROP))).toMatch(/^order\.amount: /);
  });

  it('order.fetch (Variant B) with a text amount names order.amount', () => {
    expect(refuse('order.fetch', edit(ORDER_FETCH_B, 'order.amount', '1500.50'))).toMatch(/^order\.amount: /);
  });

  it('order.refundAttempts with a float amount names data.0.amount and says why', () => {
    expect(refuse('order.refundAttempts', edit(ATTEMPTS_A, 'data.0.amount', 1.5))).toBe(
      'data.0.amount: 1.5 is not a whole number of minor units',
    );
  });

  it('order.refundAttempts (Variant B) without attempt_id names refund_attempts.0.attempt_id', () => {
    expect(refuse('order.refundAttempts', edit(ATTEMPTS_B, 'refund_attempts.0.attempt_id', DROP))).toMatch(
      /^refund_attempts\.0\.attempt_id: /,
    );
  });

  it('order.process without data.type names data.type', () => {
    expect(refuse('order.process', edit(PROCESS_A, 'data.type', DROP))).toMatch(/^data\.type: /);
  });
});
