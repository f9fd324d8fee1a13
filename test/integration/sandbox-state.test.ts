/** The state transitions the sandbox issue lists, over loopback HTTP with a fixed clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixtures, Sandbox } from '../../electron/sandbox/server';
import { rawCall } from '../support/sandbox-http';
import { isoUtcMicros } from '../../shared/time';
import { startTestSandbox } from '../support/sandbox';

const NOW = Date.parse('2025-03-14T09:26:53.589Z');
let sandbox: Sandbox;
let f: Fixtures;
const all = (list: { id: string; status: string }[], status: string) =>
  list.filter((x) => x.status === status).map((x) => x.id);
// Bodies are probed field by field, as the document describes them; their schemas are tested elsewhere.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
const call = async (name: Parameters<typeof rawCall>[1], input: Record<string, unknown>) =>
  (await rawCall(sandbox.url, name, input)).body as Body;
const errorOf = (code: number) => ({ status: false, error: expect.objectContaining({ code }) });

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, now: () => NOW });
  f = sandbox.fixtures();
});
afterAll(() => sandbox.close());

describe('orders', () => {
  it('capture: authorized -> captured; a second capture, a non-authorized or unknown order -> 202', async () => {
    const id = all(f.orders, 'authorized')[0]!;
    expect(await call('order.capture', { id })).toMatchObject({ status: true, message: expect.any(String) });
    expect((await call('order.fetch', { id })).order).toMatchObject({
      order_status: 'captured',
      updated_at: '2025-03-14 14:56:53',
    });
    expect(await call('order.capture', { id })).toMatchObject(errorOf(202));
    expect(await call('order.capture', { id: all(f.orders, 'success')[0] })).toMatchObject(errorOf(202));
    expect(await call('order.capture', { id: 'ord_nope' })).toMatchObject(errorOf(202));
    expect(await call('order.fetch', { id: 'ord_nope' })).toMatchObject(errorOf(202));
    expect(sandbox.fixtures().orders.find((o) => o.id === id)!.status).toBe('captured');
  });

  it('refunds reduce the refundable amount, over-refunds fail with 204, and every refund is an attempt', async () => {
    const id = all(f.orders, 'success')[0]!;
    const amount = (await call('order.fetch', { id })).order.amount as number;
    const partial = await call('order.refundPartial', { id, amount: 100 });
    expect(partial).toMatchObject({
      status: true,
      message: 'ORDER_PARTIALLY_REFUNDED_SUCCESSFULLY',
      id: expect.any(String),
    });
    expect((await call('order.fetch', { id })).order.order_status).toBe('partially_refunded');

    const over = await call('order.refundPartial', { id, amount });
    expect(over).toMatchObject(errorOf(204));
    expect(over.error.message).toMatch(/exceeds the refundable amount/);

    const full = await call('order.refund', { id });
    expect(full).toMatchObject({ status: true, id: expect.any(String) });
    expect((await call('order.fetch', { id })).order.order_status).toBe('refunded');
    expect(await call('order.refund', { id })).toMatchObject(errorOf(204));
    expect(await call('order.refundPartial', { id, amount: 1 })).toMatchObject(errorOf(204));

    const attempts = await call('order.refundAttempts', { order_id: id });
    expect(attempts.data).toEqual([
      {
        refund_id: partial.id,
        amount: 100,
        type: 'Partial',
        status: 'success',
        rrn: expect.stringMatching(/^\d{12}$/),
        attempted_at: isoUtcMicros(NOW),
      },
      {
        refund_id: full.id,
        amount: amount - 100,
        type: 'Full',
        status: 'success',
        rrn: expect.stringMatching(/^\d{12}$/),
        attempted_at: isoUtcMicros(NOW),
      },
    ]);
    expect(attempts.data[0].attempted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it('refunds of an uncaptured or unknown order fail with 204', async () => {
    expect(await call('order.refund', { id: all(f.orders, 'authorized')[1] })).toMatchObject(errorOf(204));
    expect(await call('order.refund', { id: 'ord_nope' })).toMatchObject(errorOf(204));
    expect(await call('order.refundAttempts', { order_id: 'ord_nope' })).toMatchObject(errorOf(202));
  });

  it('a captured order can be refunded; seeded partial refunds show a failed attempt that refunded nothing', async () => {
    const id = all(f.orders, 'authorized')[2]!;
    await call('order.capture', { id });
    expect(await call('order.refundPartial', { id, amount: 500 })).toMatchObject({ status: true });
    const seeded = all(f.orders, 'partially_refunded')[0]!;
    const attempts = (await call('order.refundAttempts', { order_id: seeded })).data as { status: string }[];
    expect(attempts.map((a) => a.status)).toEqual(['failed', 'success']);
  });

  it('process order answers {payment_id, data:{type, token, url, param}}; only created or failed orders', async () => {
    const [intent, collect] = all(f.orders, 'created');
    const r = await call('order.process', { order_id: intent, method: 'upi', code: 'intent', device: 'ios' });
    expect(r).toMatchObject({
      status: true,
      payment_id: expect.stringMatching(/^pay_/),
      request_id: expect.any(String),
    });
    expect(r.data).toEqual({
      type: 'intent',
      token: expect.any(String),
      url: expect.stringMatching(/^upi:\/\/pay\?/),
      param: [],
    });
    const c = await call('order.process', { order_id: collect, method: 'upi', code: 'collect', vpa: 'meera@oksbi' });
    expect(c.data.type).toBe('collect');
    const nb = await call('order.process', { order_id: all(f.orders, 'failed')[0], method: 'wallet', code: 'paytm' });
    expect(nb.data.type).toBe('redirect');
    expect(
      await call('order.process', { order_id: all(f.orders, 'success')[1], method: 'nb', code: 'HDFC' }),
    ).toMatchObject(errorOf(202));
  });
});

describe('subscriptions and plans', () => {
  it('cancel: active -> canceled; again -> 1035 "Subscription already cancelled."', async () => {
    const id = all(f.subscriptions, 'active')[0]!;
    const r = await call('subscription.cancel', { id });
    expect(r).toMatchObject({
      status: true,
      subscription: { subscription_id: id, subscription_status: 'canceled' },
      request_id: expect.any(String),
    });
    expect((await call('subscription.fetch', { id })).subscription.subscription_status).toBe('canceled');
    expect(await call('subscription.cancel', { id })).toMatchObject({
      status: false,
      error: { code: 1035, message: 'Subscription already cancelled.' },
    });
    expect(await call('subscription.cancel', { id: all(f.subscriptions, 'canceled')[0] })).toMatchObject(errorOf(1035));
  });

  it('ad hoc charges only an active subscription', async () => {
    const active = all(f.subscriptions, 'active')[1]!;
    const r = await call('subscription.adhoc', { id: active, amount: '25000', currency: 'INR' });
    expect(r.transaction).toEqual({
      id: expect.any(String),
      amount: 25000,
      currency: 'INR',
      status: 'success',
      payment_attempt_at: isoUtcMicros(NOW),
    });
    expect(
      await call('subscription.adhoc', { id: all(f.subscriptions, 'canceled')[0], amount: '100', currency: 'INR' }),
    ).toMatchObject(errorOf(202));
    expect(await call('subscription.adhoc', { id: 'sub_nope', amount: '100', currency: 'INR' })).toMatchObject(
      errorOf(404),
    );
  });

  it('fetch by receipt finds the same subscription', async () => {
    const id = all(f.subscriptions, 'active')[2]!;
    const byId = await call('subscription.fetch', { id });
    const byReceipt = await call('subscription.fetchByReceipt', { id: byId.subscription.mer_reference_id });
    expect(byReceipt.subscription).toEqual(byId.subscription);
    expect(await call('subscription.fetchByReceipt', { id: 'nope' })).toMatchObject(errorOf(404));
  });

  it('plan create -> fetchable by the returned id and by mer_reference_id; a reused reference is refused', async () => {
    const req = {
      title: 'Silver',
      description: 'Silver plan',
      amount: '29900',
      frequency: 7,
      cycle: 4,
      currency: 'INR',
      mer_reference_id: 'silver-1',
      notes: { udf1: 'a' },
    };
    const created = await call('plan.create', req);
    expect(created).toMatchObject({ status: true, plan_id: expect.stringMatching(/^plan_/) });
    const plan = (await call('plan.fetch', { id: created.plan_id })).plan;
    expect(plan).toMatchObject({
      id: created.plan_id,
      title: 'Silver',
      amount: '29900',
      frequency: 7,
      cycle: 4,
      mer_reference_id: 'silver-1',
      notes: { udf1: 'a' },
    });
    expect((await call('plan.fetch', { id: 'silver-1' })).plan.id).toBe(created.plan_id);
    const twin = await rawCall(sandbox.url, 'plan.create', req);
    expect(twin.http).toBe(400);
    expect((twin.body as Body).error.message).toMatch(/^mer_reference_id:/);
    expect(sandbox.fixtures().plans.map((p) => p.id)).toContain(created.plan_id);
  });
});

describe('payouts', () => {
  it('beneficiary create -> fetchable (flat, or Variant B nested account)', async () => {
    const req = {
      name: 'Kavya Menon',
      account_number: '0012345678901',
      ifsc: 'SBIN0004567',
      vpa: 'kavya@oksbi',
      phone: '9123456780',
      email: 'kavya@example.in',
      address: 'Kochi',
    };
    const created = await call('beneficiary.create', req);
    expect(created).toMatchObject({ status: true, beneficiary_id: expect.any(String) });
    expect((await call('beneficiary.fetch', { id: created.beneficiary_id })).data).toEqual({
      beneficiary_id: created.beneficiary_id,
      ...req,
    });
    const nested = await call('beneficiary.create', {
      name: 'B Form',
      account: { account_no: '123456789', ifsc: 'HDFC0001234' },
    });
    expect((await call('beneficiary.fetch', { id: nested.beneficiary_id })).data).toMatchObject({
      account_number: '123456789',
      ifsc: 'HDFC0001234',
    });
    expect(await call('beneficiary.fetch', { id: 'bene_nope' })).toMatchObject(errorOf(404));
    expect(sandbox.fixtures().beneficiaries.map((b) => b.id)).toContain(created.beneficiary_id);
  });

  it('an advance fetch is a hard pull: a pending payout resolves to success on its 2nd advance fetch', async () => {
    const id = all(f.payouts, 'pending')[0]!;
    for (let i = 0; i < 3; i++) expect((await call('payout.fetch', { id })).payout.transfer_status).toBe('pending');
    const first = await call('payout.fetch', { id, fetch_type: 'advance' });
    expect(first.payout).toMatchObject({ transfer_status: 'pending', ut_no: null, processed_at: null });
    const second = await call('payout.fetch', { id, fetch_type: 'advance' });
    expect(second.payout).toMatchObject({
      transfer_status: 'success',
      ut_no: expect.stringMatching(/^\d{12}$/),
      processed_at: '2025-03-14 14:56:53',
    });
    expect((await call('payout.fetch', { id, fetch_type: 'normal' })).payout.transfer_status).toBe('success');
    expect(sandbox.fixtures().payouts.find((p) => p.id === id)!.status).toBe('success');
  });

  it('an unknown payout answers {status:false, error_code, error_message} without the envelope', async () => {
    const r = await call('payout.fetch', { id: 'TRF000' });
    expect(r).toEqual({ status: false, error_code: 404, error_message: expect.stringContaining('TRF000') });
  });

  it('balance filters by gateway and by account number', async () => {
    const accounts = (await call('payout.accounts', { pg: 'razorpay' })).accounts;
    expect(Object.keys(accounts)).toEqual(['razorpay']);
    const second = accounts.razorpay.data[1];
    const bal = await call('payout.balance', { account_number: second.account_number });
    expect(bal.account).toEqual({
      razorpay: { account_no: second.account_number, balance: second.available_balance.toFixed(2) },
    });
    expect(await call('payout.balance', { account_number: '000' })).toMatchObject(errorOf(404));
  });
});

describe('webhooks and payment information', () => {
  it('update url/topics and active:false are reflected by the list and its active filter', async () => {
    const id = f.webhooks.find((w) => w.status === 'active')!.id;
    const upd = await call('webhook.update', {
      id,
      url: 'https://merchant.example.in/hooks/new',
      topics: ['order.paid'],
    });
    expect(upd.data).toMatchObject({
      id,
      url: 'https://merchant.example.in/hooks/new',
      topics: ['order.paid'],
      status: 'active',
    });
    await call('webhook.update', { id, active: false });
    const inactive = (await call('webhook.list', { active: false })).data as {
      id: string;
      status: string;
      url: string;
    }[];
    expect(inactive.find((w) => w.id === id)).toMatchObject({
      status: 'inactive',
      url: 'https://merchant.example.in/hooks/new',
    });
    expect(inactive.every((w) => w.status === 'inactive')).toBe(true);
    const active = (await call('webhook.list', { active: true })).data as { id: string; status: string }[];
    expect(active.some((w) => w.id === id)).toBe(false);
    expect(active.every((w) => w.status === 'active')).toBe(true);
    expect(((await call('webhook.list', {})).data as unknown[]).length).toBe(active.length + inactive.length);
    await call('webhook.update', { id, active: true });
    expect(((await call('webhook.list', { active: true })).data as { id: string }[]).some((w) => w.id === id)).toBe(
      true,
    );
  });

  it('VPA: a known handle is valid with a payer name, an unknown handle is not', async () => {
    expect(await call('info.vpa', { vpa: 'rohan.iyer@okhdfcbank' })).toEqual({
      status: true,
      isVPAValid: true,
      payerAccountName: 'ROHAN IYER',
    });
    expect(await call('info.vpa', { vpa: 'rohan@nowhere' })).toEqual({ status: true, isVPAValid: false });
  });

  it('currency conversion is exact decimal text', async () => {
    expect(await call('info.currency', { from: 'USD', to: 'INR' })).toEqual({
      status: true,
      from: 'USD',
      to: 'INR',
      conversion_rate: '83.25',
    });
    expect(await call('info.currency', { from: 'INR', to: 'USD' })).toMatchObject({ conversion_rate: '0.012012' });
  });
});
