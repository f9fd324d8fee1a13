/**
 * A contract test per operation: the real client against the real sandbox over loopback. Success for all
 * 24 operations, Variant B normalized to the same domain values as Variant A, the documented errors, and
 * the state transitions the document names.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type MerchantApi } from '../../electron/api';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../shared/api/operations';
import { openSandbox, type OpenSandbox } from '../support/sandbox';

let sb: OpenSandbox;
let api: MerchantApi;
type Fixtures = ReturnType<OpenSandbox['sandbox']['fixtures']>;
let fx: Fixtures;

beforeAll(async () => {
  sb = await openSandbox({ seed: 7 });
  api = sb.api();
  fx = sb.sandbox.fixtures();
});
afterAll(() => sb.close());
afterEach(() => sb.clearFaults());

const first = <T>(list: T[], what: string): T => {
  if (!list[0]) throw new Error(`the sandbox has no ${what}`);
  return list[0];
};
const order = (status: string) =>
  first(
    fx.orders.filter((o) => o.status === status),
    `${status} order`,
  ).id;
const subscription = (status: string) =>
  first(
    fx.subscriptions.filter((s) => s.status === status),
    `${status} subscription`,
  ).id;

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

const classifyRequest = {
  state: 'Payout to vendor failed because the beneficiary account is closed',
  questions: {
    category: {
      type: 'choice' as const,
      instructions: 'What happened?',
      criteria: { failure: 'a payout failed', success: 'a payout went through' },
    },
    urgency: {
      type: 'score' as const,
      instructions: 'How urgent?',
      criteria: ['not urgent', 'somewhat urgent', 'very urgent failed closed'],
    },
    refund: { type: 'noul' as const, instructions: 'Is a refund mentioned?' },
  },
};

/** One successful call per operation; `check` asserts the domain shape. */
const SUCCESS: Record<OperationName, { run: () => Promise<unknown>; check: (r: never) => void }> = {
  'order.fetch': {
    run: () => api.orders.fetch(order('success')),
    check: (r: { order: { order_status: string; amount: number } }) => {
      expect(r.order.order_status).toBe('success');
      expect(Number.isSafeInteger(r.order.amount)).toBe(true);
    },
  },
  'order.capture': {
    run: () => api.orders.capture(order('authorized')),
    check: (r: { message: string }) => expect(r.message).not.toBe(''),
  },
  'order.refund': {
    run: () => api.orders.refund(fx.orders.filter((o) => o.status === 'success')[1]!.id),
    check: (r: { id?: string }) => expect(r.id).toBeTruthy(),
  },
  'order.refundPartial': {
    run: () => api.orders.refundPartial(fx.orders.filter((o) => o.status === 'success')[2]!.id, 100),
    check: (r: { id: string }) => expect(r.id).toBeTruthy(),
  },
  'order.refundAttempts': {
    run: () => api.orders.refundAttempts(order('success')),
    check: (r: { data: unknown[] }) => expect(Array.isArray(r.data)).toBe(true),
  },
  'order.process': {
    run: () =>
      api.orders.process({ order_id: order('created'), method: 'upi', code: 'collect', vpa: 'asha@okhdfcbank' }),
    check: (r: { payment_id: string; data?: { type: string } }) => {
      expect(r.payment_id).toBeTruthy();
      expect(r.data?.type).toBeTruthy();
    },
  },
  'info.paymentMethods': {
    run: () => api.paymentInfo.methods({ amount: '10000', currency: 'INR' }),
    check: (r: { data: { netbanking?: { data: unknown[] } } }) =>
      expect(r.data.netbanking?.data.length).toBeGreaterThan(0),
  },
  'info.vpa': {
    run: () => api.paymentInfo.validateVpa('asha@okhdfcbank'),
    check: (r: { isVPAValid: boolean }) => expect(typeof r.isVPAValid).toBe('boolean'),
  },
  'info.currency': {
    run: () => api.paymentInfo.currency('USD', 'INR'),
    check: (r: { conversion_rate: string }) => expect(r.conversion_rate).toMatch(/^\d+(\.\d+)?$/),
  },
  'plan.create': {
    run: () =>
      api.subscriptions.createPlan({
        title: 'Gold',
        description: 'Monthly gold plan',
        amount: '49900',
        frequency: 30,
        cycle: 12,
        currency: 'INR',
        mer_reference_id: 'plan-ref-contract',
      }),
    check: (r: { plan_id: string }) => expect(r.plan_id).toBeTruthy(),
  },
  'plan.fetch': {
    run: () => api.subscriptions.fetchPlan(first(fx.plans, 'plan').id),
    check: (r: { plan: { amount: number } }) => expect(Number.isSafeInteger(r.plan.amount)).toBe(true),
  },
  'subscription.fetch': {
    run: () => api.subscriptions.fetch(subscription('active')),
    check: (r: { subscription: { subscription_status: string } }) =>
      expect(r.subscription.subscription_status).toBe('active'),
  },
  'subscription.fetchByReceipt': {
    run: async () => {
      const s = await api.subscriptions.fetch(subscription('active'));
      return api.subscriptions.fetchByReceipt(s.subscription.mer_reference_id!);
    },
    check: (r: { subscription: { subscription_id: string } }) =>
      expect(r.subscription.subscription_id).toBe(subscription('active')),
  },
  'subscription.cancel': {
    run: () => api.subscriptions.cancel(fx.subscriptions.filter((s) => s.status === 'active').at(-1)!.id),
    check: (r: { subscription: { subscription_status: string } }) =>
      expect(r.subscription.subscription_status).toBe('canceled'),
  },
  'subscription.adhoc': {
    run: () => api.subscriptions.adhoc(subscription('active'), 2500, 'INR'),
    check: (r: { transaction: { amount: number } }) => expect(r.transaction.amount).toBe(2500),
  },
  'beneficiary.create': {
    run: () =>
      api.payouts.createBeneficiary({
        name: 'Ravi Kumar',
        phone: '9876543210',
        email: 'ravi@example.in',
        address: 'Pune',
        account_number: '001234567890',
        ifsc: 'HDFC0001234',
      }),
    check: (r: { beneficiary_id: string }) => expect(r.beneficiary_id).toBeTruthy(),
  },
  'beneficiary.fetch': {
    run: () => api.payouts.fetchBeneficiary(first(fx.beneficiaries, 'beneficiary').id),
    check: (r: { data: { name: string } }) => expect(r.data.name).toBeTruthy(),
  },
  'payout.fetch': {
    run: () => api.payouts.fetchPayout(first(fx.payouts, 'payout').id),
    check: (r: { payout: { transfer_status: string; amount: number } }) => {
      expect(['success', 'failed', 'pending']).toContain(r.payout.transfer_status);
      expect(Number.isSafeInteger(r.payout.amount)).toBe(true);
    },
  },
  'payout.accounts': {
    run: () => api.payouts.accounts(),
    check: (r: { accounts: Record<string, { status: boolean }> }) =>
      expect(Object.keys(r.accounts).length).toBeGreaterThan(1),
  },
  'payout.balance': {
    run: () => api.payouts.balance(),
    check: (r: { balances: { balance: number }[] }) => expect(r.balances.length).toBeGreaterThan(0),
  },
  'settlement.fetch': {
    run: () => api.settlements.page({ date: fx.settlementDates.at(-2)!, limit: 10 }),
    check: (r: { data: unknown[]; is_last_page: boolean }) => {
      expect(r.data).toHaveLength(10);
      expect(r.is_last_page).toBe(false);
    },
  },
  'webhook.list': {
    run: () => api.webhooks.list(),
    check: (r: { data: { topics: string[] }[] }) => expect(r.data.flatMap((w) => w.topics)).toContain('order.paid'),
  },
  'webhook.update': {
    run: () => api.webhooks.update({ id: first(fx.webhooks, 'webhook').id, topics: ['order.paid'] }),
    check: (r: { data?: { topics: string[] } }) => expect(r.data?.topics).toEqual(['order.paid']),
  },
  classify: {
    run: () => api.classification.classify(classifyRequest),
    check: (r: { answers: Record<string, unknown> }) =>
      expect(Object.keys(r.answers).sort()).toEqual(['category', 'refund', 'urgency']),
  },
};

describe('every operation succeeds through the client', () => {
  it('covers all 24 operations', () => {
    expect(Object.keys(SUCCESS).sort()).toEqual([...OPERATION_NAMES].sort());
    expect(OPERATION_NAMES).toHaveLength(24);
  });
  it.each(OPERATION_NAMES)('%s', async (name) => {
    const { run, check } = SUCCESS[name];
    check((await run()) as never);
  });
});

/** Operations with a Variant B: call once normally, once with the sandbox answering B; compare. */
const VARIANT_B: { op: OperationName; run: () => Promise<unknown>; pick: (r: never) => unknown }[] = [
  {
    op: 'order.fetch',
    run: () => api.orders.fetch(order('success')),
    pick: (r: { order: { order_id: string; amount: number; currency: string; order_status: string } }) => [
      r.order.order_id,
      r.order.amount,
      r.order.currency,
      r.order.order_status,
    ],
  },
  {
    op: 'order.refundAttempts',
    run: () => api.orders.refundAttempts(fx.orders.filter((o) => o.status === 'success')[2]!.id),
    pick: (r: { data: { refund_id: string; amount: number; status: string }[] }) =>
      r.data.map((a) => [a.refund_id, a.amount]),
  },
  {
    op: 'info.paymentMethods',
    run: () => api.paymentInfo.methods(),
    pick: (r: { data: { netbanking?: { data: { code: string }[] } } }) =>
      r.data.netbanking?.data.map((b) => b.code).sort(),
  },
  {
    op: 'plan.fetch',
    run: () => api.subscriptions.fetchPlan(first(fx.plans, 'plan').id),
    pick: (r: { plan: { id: string; title: string; amount: number; currency: string } }) => [
      r.plan.id,
      r.plan.title,
      r.plan.amount,
      r.plan.currency,
    ],
  },
  {
    op: 'subscription.fetch',
    run: () => api.subscriptions.fetch(subscription('active')),
    pick: (r: {
      subscription: { subscription_id: string; subscription_status: string; amount: number; currency: string };
    }) => [
      r.subscription.subscription_id,
      r.subscription.subscription_status,
      r.subscription.amount,
      r.subscription.currency,
    ],
  },
  {
    op: 'beneficiary.fetch',
    run: () => api.payouts.fetchBeneficiary(first(fx.beneficiaries, 'beneficiary').id),
    pick: (r: {
      data: {
        beneficiary_id: string;
        name: string;
        account_number?: string | null;
        ifsc?: string | null;
        vpa?: string | null;
      };
    }) => [r.data.beneficiary_id, r.data.name, r.data.account_number ?? null, r.data.ifsc ?? null, r.data.vpa ?? null],
  },
  {
    op: 'payout.accounts',
    run: () => api.payouts.accounts(),
    pick: (r: {
      accounts: Record<string, { status: boolean; data?: { account_number: string; available_balance: number }[] }>;
    }) =>
      Object.entries(r.accounts)
        .filter(([, g]) => g.status)
        .map(([pg, g]) => [pg, g.data!.map((a) => [a.account_number, a.available_balance])])
        .sort(),
  },
  {
    op: 'payout.balance',
    run: () => api.payouts.balance(),
    pick: (r: { balances: { pg: string; balance: number }[] }) => r.balances.map((b) => [b.pg, b.balance]).sort(),
  },
];

describe('Variant B answers normalize to the same domain values', () => {
  it.each(VARIANT_B.map((v) => [v.op, v] as const))('%s', async (op, { run, pick }) => {
    const a = pick((await run()) as never);
    await sb.fault({ path: OPERATIONS[op].path, kind: 'variant-b', count: 1 });
    const b = pick((await run()) as never);
    expect(b).toEqual(a);
  });

  it.each([
    'order.capture',
    'order.refundPartial',
    'order.process',
    'info.vpa',
    'info.currency',
    'plan.create',
    'subscription.cancel',
  ] as const)('%s parses its Variant B', async (op) => {
    await sb.fault({ path: OPERATIONS[op].path, kind: 'variant-b', count: 1 });
    const runs: Partial<Record<OperationName, () => Promise<unknown>>> = {
      'order.capture': () => api.orders.capture(fx.orders.filter((o) => o.status === 'authorized')[1]!.id),
      'order.refundPartial': () => api.orders.refundPartial(fx.orders.filter((o) => o.status === 'success')[3]!.id, 50),
      'order.process': () =>
        api.orders.process({
          order_id: fx.orders.filter((o) => o.status === 'created')[1]!.id,
          method: 'nb',
          code: 'HDFC',
        }),
      'info.vpa': () => api.paymentInfo.validateVpa('asha@okhdfcbank'),
      'info.currency': () => api.paymentInfo.currency('USD', 'INR'),
      'plan.create': () =>
        api.subscriptions.createPlan({
          title: 'B',
          description: '',
          amount: '100',
          frequency: 7,
          cycle: 4,
          currency: 'INR',
          mer_reference_id: 'plan-ref-b',
        }),
      'subscription.cancel': () =>
        api.subscriptions.cancel(fx.subscriptions.filter((s) => s.status === 'active').at(-2)!.id),
    };
    await expect(runs[op]!()).resolves.toBeTruthy();
  });
});

describe('documented errors', () => {
  it('order fetch of an unknown order -> code 202', async () => {
    const e = await apiError(api.orders.fetch('ord_does_not_exist'));
    expect([e.kind, e.code]).toEqual(['api', 202]);
  });

  it('capture twice -> the second is code 202', async () => {
    const id = fx.orders.filter((o) => o.status === 'authorized')[2]!.id;
    await api.orders.capture(id);
    expect((await apiError(api.orders.capture(id))).code).toBe(202);
    expect((await api.orders.fetch(id)).order.order_status).not.toBe('authorized');
  });

  it('cancelling a cancelled subscription -> 1035', async () => {
    const e = await apiError(api.subscriptions.cancel(subscription('canceled')));
    expect(e.code).toBe(1035);
    expect(e.message).toMatch(/already cancelled/i);
  });

  it('payout fetch of an unknown payout -> the payout error body', async () => {
    const e = await apiError(api.payouts.fetchPayout('po_does_not_exist'));
    expect(e.kind).toBe('api');
    expect(e.code).not.toBeNull();
  });

  it('payout accounts keep the per-gateway error while the others answer', async () => {
    const { accounts } = await api.payouts.accounts();
    const failed = Object.values(accounts).filter((g) => !g.status);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ status: false, error: { code: 'INTERNAL_SERVER_ERROR' } });
  });

  it('classification over 32 KiB -> 413', async () => {
    const e = await apiError(api.classification.classify({ ...classifyRequest, state: 'x'.repeat(33 * 1024) }));
    expect(e.httpStatus).toBe(413);
  });

  it('an invalid request the client would refuse is refused by the sandbox too (400 names the field)', async () => {
    const res = await fetch(`${sb.sandbox.url}/api/v2/settlement/fetch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Basic ' + Buffer.from(`${sb.key}:${sb.secret}`).toString('base64'),
      },
      body: JSON.stringify({ key: sb.key, date: '2024-02-30' }),
    });
    const body = (await res.json()) as { status: boolean; error: { message: string } };
    expect(body.status).toBe(false);
    expect(body.error.message).toMatch(/date/);
  });
});

describe('state transitions', () => {
  it('partial refunds reduce what is refundable and appear in refund attempts', async () => {
    const id = fx.orders.filter((o) => o.status === 'success')[4]!.id;
    const { order: o } = await api.orders.fetch(id);
    const before = (await api.orders.refundAttempts(id)).data.length;
    const r1 = await api.orders.refundPartial(id, 100);
    const attempts = (await api.orders.refundAttempts(id)).data;
    expect(attempts).toHaveLength(before + 1);
    expect(attempts.map((a) => a.refund_id)).toContain(r1.id);
    expect(attempts.at(-1)!.attempted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const refunded = attempts.reduce((s, a) => s + a.amount, 0);
    const e = await apiError(api.orders.refundPartial(id, o.amount - refunded + 1));
    // Refund errors reuse code 204 with their own message: not to be mistaken for a hash failure.
    expect([e.kind, e.code]).toEqual(['api', 204]);
    expect(e.message).not.toMatch(/hash/i);
    await expect(api.orders.refundPartial(id, o.amount - refunded)).resolves.toBeTruthy();
  });

  it('a created plan and beneficiary are fetchable', async () => {
    const p = await api.subscriptions.createPlan({
      title: 'Silver',
      description: 'Weekly',
      amount: '9900',
      frequency: 7,
      cycle: 52,
      currency: 'INR',
      mer_reference_id: 'ref-silver',
    });
    expect((await api.subscriptions.fetchPlan(p.plan_id)).plan).toMatchObject({
      title: 'Silver',
      amount: 9900,
      currency: 'INR',
    });
    const b = await api.payouts.createBeneficiary({ name: 'Meera Iyer', vpa: 'meera@okicici' });
    expect((await api.payouts.fetchBeneficiary(b.beneficiary_id)).data).toMatchObject({
      beneficiary_id: b.beneficiary_id,
      name: 'Meera Iyer',
      vpa: 'meera@okicici',
    });
  });

  it('ad hoc charges only on an active subscription', async () => {
    const e = await apiError(api.subscriptions.adhoc(subscription('canceled'), 100, 'INR'));
    expect(e.kind).toBe('api');
  });

  it('deactivating a webhook moves it to the inactive list', async () => {
    const id = fx.webhooks.filter((w) => w.status === 'active').at(-1)!.id;
    await api.webhooks.update({ id, active: false });
    expect((await api.webhooks.list(false)).data.map((w) => w.id)).toContain(id);
    expect((await api.webhooks.list(true)).data.map((w) => w.id)).not.toContain(id);
  });

  it('settlement pages walk a whole date without gaps or repeats', async () => {
    const date = fx.settlementDates.at(-3)!;
    const ids: string[] = [];
    let pages = 0;
    for await (const p of api.settlements.pages({ date, limit: 50 })) {
      pages++;
      ids.push(...p.data.map((r) => `${r.pg_transaction_id}|${r.settlement_date}|${ids.length}`));
    }
    expect(pages).toBeGreaterThan(1);
    const whole = await api.settlements.page({ date, limit: 1000 });
    expect(ids.length).toBe(whole.data.length);
  });
});
