/**
 * Subscriptions: plan create / fetch, subscription fetch (by id and by receipt), cancel, ad hoc charge.
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, request, requestIssues, edit, DROP } from './contract-helpers';

// ---- fixtures ---------------------------------------------------------------------------------------------

const ADDRESS = {
  firstname: 'Rohan',
  lastname: 'Mehta',
  phone: '9123456780',
  line1: '4th Floor, Orchid Towers',
  line2: 'Andheri East',
  city: 'Mumbai',
  state: 'Maharashtra',
  country: 'IN',
  zipcode: '400069',
};

const SUBSCRIPTION_A = {
  subscription_id: 'sub_Q81xk',
  mer_reference_id: 'rcpt_sub_0001',
  amount: 49900,
  initial_amount: null,
  currency: 'INR',
  subscription_status: 'active',
  pg: 'razorpay',
  customer: { name: 'Rohan Mehta', email: 'rohan@example.com', phone: '9123456780' },
  notes: { udf1: 'gold', udf2: '', udf3: '', udf4: '', udf5: '', udf6: '', udf8: '', udf9: '', udf10: '' },
  billing_address: ADDRESS,
  shipping_address: ADDRESS,
};
const SUB_FETCH_A = { status: true, subscription: SUBSCRIPTION_A, request_id: 'req_s1' };

const PLAN_B = { id: 'plan_Gx12', name: 'Gold monthly', amount: 49900, currency: 'INR', interval: 'monthly' };
const SUB_FETCH_B = {
  status: true,
  subscription: { id: 'sub_Q81xk', status: 'active', plan: PLAN_B },
  request_id: 'req_s1',
};

const SUB_EXPECTED_B = {
  subscription_id: 'sub_Q81xk',
  subscription_status: 'active',
  amount: 49900,
  currency: 'INR',
  plan: { id: 'plan_Gx12', title: 'Gold monthly', amount: 49900, currency: 'INR', interval: 'monthly' },
};

const PLAN_A = {
  id: 'plan_Gx12',
  title: 'Gold monthly',
  description: 'Gold tier, charged every 30 days',
  amount: '49900',
  currency: 'INR',
  frequency: 30,
  cycle: 12,
  mer_reference_id: 'plan_ref_001',
  notes: { udf1: 'gold', udf2: '', udf3: '', udf4: '', udf5: '' },
};

// ---- plan create ----------------------------------------------------------------------------------------

describe('plan.create response', () => {
  // Variant A is not shown; the contract (and Variant B) is {status, plan_id, message}.
  it('Variant B {status, plan_id, message}', () => {
    expect(
      parse('plan.create', { status: true, plan_id: 'plan_Gx12', message: 'Plan created successfully' }),
    ).toStrictEqual({
      plan_id: 'plan_Gx12',
      message: 'Plan created successfully',
      request_id: undefined,
    });
  });

  it('numeric plan_id becomes text, missing message becomes empty, extras are ignored', () => {
    expect(parse('plan.create', { status: true, plan_id: 7781, request_id: 'req_1', plan: { x: 1 } })).toStrictEqual({
      plan_id: '7781',
      message: '',
      request_id: 'req_1',
    });
  });

  it('refuses a missing plan_id and names it', () => {
    expect(refuse('plan.create', { status: true, message: 'Plan created successfully' })).toMatch(/^plan_id: /);
  });
});

describe('plan.create request', () => {
  const valid = {
    title: 'Gold monthly',
    description: 'Gold tier, charged every 30 days',
    amount: '49900',
    frequency: 30,
    cycle: 12,
    currency: 'INR',
    mer_reference_id: 'plan_ref_001',
    notes: { udf1: 'gold', udf2: 'tier-2' },
  };

  it('accepts the documented fields (amount as text of whole paise)', () => {
    expect(request('plan.create', valid).success).toBe(true);
    expect(request('plan.create', { ...valid, notes: undefined }).success).toBe(true);
  });

  it('refuses a decimal, zero or numeric amount', () => {
    for (const amount of ['499.00', '0', '-100', '049900']) {
      expect(requestIssues('plan.create', { ...valid, amount })).toBe(
        'amount: must be a positive whole number of minor units, as text',
      );
    }
    expect(requestIssues('plan.create', { ...valid, amount: 49900 })).toMatch(/^amount: /);
  });

  it('frequency and cycle are positive integers; title, currency and mer_reference_id are required', () => {
    expect(requestIssues('plan.create', { ...valid, frequency: 0 })).toBe(
      'frequency: must be a positive number of days',
    );
    expect(requestIssues('plan.create', { ...valid, cycle: 1.5 })).toMatch(/^cycle: /);
    expect(requestIssues('plan.create', { ...valid, cycle: '12' })).toMatch(/^cycle: /);
    expect(requestIssues('plan.create', { ...valid, title: ' ' })).toBe('title: must not be empty');
    expect(requestIssues('plan.create', { ...valid, currency: 'Rs' })).toBe(
      'currency: must be a 3-letter currency code',
    );
    expect(requestIssues('plan.create', { ...valid, mer_reference_id: undefined })).toMatch(/^mer_reference_id: /);
    expect(requestIssues('plan.create', { ...valid, notes: { udf1: 'x'.repeat(256) } })).toMatch(/^notes\.udf1: /);
  });
});

// ---- plan fetch -----------------------------------------------------------------------------------------

describe('plan.fetch response', () => {
  it('the contract Variant A plan (create fields plus id): amount text -> paise', () => {
    expect(parse('plan.fetch', { status: true, plan: PLAN_A, request_id: 'req_p2' })).toStrictEqual({
      plan: { ...PLAN_A, amount: 49900 },
      message: undefined,
      request_id: 'req_p2',
    });
  });

  it('Variant B plan {id, name, amount, currency, interval}: name -> title; overlap equals A', () => {
    const b = parse('plan.fetch', { status: true, plan: PLAN_B, message: 'Plan fetched successfully' });
    expect(b).toStrictEqual({
      plan: { id: 'plan_Gx12', title: 'Gold monthly', amount: 49900, currency: 'INR', interval: 'monthly' },
      message: 'Plan fetched successfully',
      request_id: undefined,
    });
    expect(b.plan).not.toHaveProperty('name');
    const a = parse('plan.fetch', { status: true, plan: PLAN_A }).plan as Record<string, unknown>;
    for (const key of ['id', 'title', 'amount', 'currency'] as const) expect(b.plan[key], key).toStrictEqual(a[key]);
  });

  it('keeps unknown plan fields', () => {
    expect(parse('plan.fetch', { status: true, plan: { ...PLAN_A, trial_days: 7 } }).plan).toMatchObject({
      trial_days: 7,
    });
    expect(parse('plan.fetch', { status: true, plan: { ...PLAN_B, trial_days: 7 } }).plan).toMatchObject({
      trial_days: 7,
    });
  });

  it('refuses a decimal amount text, a missing title/name and a missing plan', () => {
    refuse('plan.fetch', edit({ status: true, plan: PLAN_A }, 'plan.amount', '499.00'));
    refuse('plan.fetch', edit({ status: true, plan: PLAN_B }, 'plan.name', DROP));
    refuse('plan.fetch', { status: true, message: 'ok' });
  });
});

// ---- subscription fetch / by receipt / cancel --------------------------------------------------------

describe.each(['subscription.fetch', 'subscription.fetchByReceipt'] as const)('%s response', (name) => {
  it('Variant A: exact subscription (initial_amount null kept)', () => {
    expect(parse(name, SUB_FETCH_A)).toStrictEqual({ subscription: SUBSCRIPTION_A, request_id: 'req_s1' });
  });

  it('Variant A: an integer initial_amount stays paise', () => {
    expect(parse(name, edit(SUB_FETCH_A, 'subscription.initial_amount', 100)).subscription.initial_amount).toBe(100);
  });

  it('Variant B: id/status/plan -> subscription_id/subscription_status, amount and currency from the plan', () => {
    const b = parse(name, SUB_FETCH_B);
    expect(b).toStrictEqual({ subscription: SUB_EXPECTED_B, request_id: 'req_s1' });
    expect(b.subscription).not.toHaveProperty('id');
    expect(b.subscription).not.toHaveProperty('status');
    const a = parse(name, SUB_FETCH_A).subscription as Record<string, unknown>;
    for (const key of ['subscription_id', 'subscription_status', 'amount', 'currency'] as const) {
      expect(b.subscription[key], key).toStrictEqual(a[key]);
    }
  });

  it('keeps unknown fields on the subscription (A and B)', () => {
    expect(parse(name, edit(SUB_FETCH_A, 'subscription.gateway_ref', 'si_99')).subscription).toMatchObject({
      gateway_ref: 'si_99',
    });
    expect(parse(name, edit(SUB_FETCH_B, 'subscription.gateway_ref', 'si_99')).subscription).toMatchObject({
      gateway_ref: 'si_99',
      subscription_id: 'sub_Q81xk',
    });
  });

  it('refuses a missing amount, a float initial_amount and a missing subscription', () => {
    refuse(name, edit(SUB_FETCH_A, 'subscription.amount', DROP));
    refuse(name, edit(SUB_FETCH_A, 'subscription.initial_amount', 10.5));
    refuse(name, edit(SUB_FETCH_B, 'subscription.plan.amount', DROP));
    refuse(name, { status: true, request_id: 'r' });
  });
});

describe('subscription.cancel response', () => {
  it('Variant A: the subscription comes back canceled', () => {
    const body = edit(SUB_FETCH_A, 'subscription.subscription_status', 'canceled');
    expect(parse('subscription.cancel', body)).toStrictEqual({
      subscription: { ...SUBSCRIPTION_A, subscription_status: 'canceled' },
      request_id: 'req_s1',
    });
  });

  it('Variant B: status canceled -> subscription_status canceled', () => {
    const out = parse('subscription.cancel', edit(SUB_FETCH_B, 'subscription.status', 'canceled'));
    expect(out.subscription).toStrictEqual({ ...SUB_EXPECTED_B, subscription_status: 'canceled' });
  });

  it('the "already cancelled" error envelope is not a success', () => {
    refuse('subscription.cancel', { status: false, error: { message: 'Subscription already cancelled.', code: 1035 } });
  });
});

describe('subscription id requests', () => {
  it.each(['plan.fetch', 'subscription.fetch', 'subscription.fetchByReceipt', 'subscription.cancel'] as const)(
    '%s needs a non-empty id',
    (name) => {
      expect(request(name, { id: 'sub_Q81xk' }).success).toBe(true);
      expect(requestIssues(name, { id: '' })).toBe('id: must not be empty');
      expect(requestIssues(name, {})).toMatch(/^id: /);
    },
  );
});

// ---- adhoc -------------------------------------------------------------------------------------------------

describe('subscription.adhoc response', () => {
  const A = {
    status: true,
    transaction: {
      id: 'txn_5521',
      amount: 10000,
      currency: 'INR',
      status: 'success',
      payment_attempt_at: '2024-03-07T06:30:00.123456Z',
    },
    request_id: 'req_a1',
  };

  it('Variant A: the transaction exactly (amount already paise)', () => {
    expect(parse('subscription.adhoc', A)).toStrictEqual({ transaction: A.transaction, request_id: 'req_a1' });
  });

  it('keeps unknown transaction fields', () => {
    expect(parse('subscription.adhoc', edit(A, 'transaction.rrn', '4123')).transaction).toMatchObject({ rrn: '4123' });
  });

  it('refuses a text or float amount and an IST time, naming the field', () => {
    expect(refuse('subscription.adhoc', edit(A, 'transaction.amount', '100.00'))).toMatch(/^transaction\.amount: /);
    expect(refuse('subscription.adhoc', edit(A, 'transaction.amount', 100.5))).toBe(
      'transaction.amount: 100.5 is not a whole number of minor units',
    );
    expect(refuse('subscription.adhoc', edit(A, 'transaction.payment_attempt_at', '2024-03-07 12:00:00'))).toBe(
      'transaction.payment_attempt_at: expected an ISO 8601 UTC time',
    );
    expect(refuse('subscription.adhoc', edit(A, 'transaction.status', DROP))).toMatch(/^transaction\.status: /);
  });
});

describe('subscription.adhoc request', () => {
  it('amount is positive whole minor units as text; currency a 3-letter code', () => {
    expect(request('subscription.adhoc', { id: 'sub_Q81xk', amount: '10000', currency: 'INR' }).success).toBe(true);
    for (const amount of ['0', '100.50', '-5', '', '1e4', '010']) {
      expect(requestIssues('subscription.adhoc', { id: 'sub_Q81xk', amount, currency: 'INR' })).toBe(
        'amount: must be a positive whole number of minor units, as text',
      );
    }
    expect(requestIssues('subscription.adhoc', { id: 'sub_Q81xk', amount: 10000, currency: 'INR' })).toMatch(
      /^amount: /,
    );
    expect(requestIssues('subscription.adhoc', { id: 'sub_Q81xk', amount: '10000', currency: 'inr' })).toBe(
      'currency: must be a 3-letter currency code',
    );
  });
});

// ---- known contract bugs ---------------------------------------------------------------------------------

/** See orders.test.ts: describeIssues prints `<path>: Invalid input` for a failed Variant A|B union. */
describe('known contract bugs: describeIssues does not name the field inside a Variant A|B union', () => {
  it('subscription.fetch without subscription.amount names subscription.amount', () => {
    expect(refuse('subscription.fetch', edit(SUB_FETCH_A, 'subscription.amount', DROP))).toMatch(
      /^subscription\.amount: /,
    );
  });

  it('plan.fetch with a decimal amount text names plan.amount', () => {
    expect(refuse('plan.fetch', edit({ status: true, plan: PLAN_A }, 'plan.amount', '499.00'))).toMatch(
      /^plan\.amount: /,
    );
  });
});
