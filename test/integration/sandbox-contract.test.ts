/**
 * Every one of the 24 operations answers a success that the shared response schema accepts, in
 * Variant A and, where the document has one, in Variant B (armed through the fault hook). Wire formats
 * the schemas normalize away are checked on the raw bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../shared/api/operations';
import type { Fixtures, Sandbox } from '../../electron/sandbox/server';
import { hook, operationUrl, rawCall } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
let f: Fixtures;
const ids = (list: { id: string; status: string }[], status: string) =>
  list.filter((x) => x.status === status).map((x) => x.id);

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 7 });
  f = sandbox.fixtures();
});
afterAll(() => sandbox.close());

type Case = { name: OperationName; input: () => Record<string, unknown> };

/** One success per operation (B: a second, separate success for Variant B where a state changes). */
function cases(): { a: Case[]; b: Case[] } {
  const authorized = ids(f.orders, 'authorized');
  const success = ids(f.orders, 'success');
  const created = ids(f.orders, 'created');
  const active = ids(f.subscriptions, 'active');
  const today = f.settlementDates.at(-1)!;
  const classify = {
    state: { ticket: 'Customer says the parcel arrived damaged and wants a refund' },
    questions: {
      intent: {
        type: 'choice',
        instructions: 'What does the customer want?',
        criteria: { refund: 'money back', track: 'where is my parcel' },
      },
      severity: {
        type: 'score',
        instructions: 'How bad is it?',
        criteria: ['all fine', 'parcel damaged', 'fraud suspected'],
      },
      refund: { type: 'noul', instructions: 'The customer wants a refund' },
    },
  };
  const plan = (ref: string) => ({
    title: 'Gold',
    description: 'Gold plan',
    amount: '99900',
    frequency: 30,
    cycle: 12,
    currency: 'INR',
    mer_reference_id: ref,
    notes: { udf1: 'x' },
  });
  const a: Case[] = [
    { name: 'order.fetch', input: () => ({ id: success[0] }) },
    { name: 'order.capture', input: () => ({ id: authorized[0] }) },
    { name: 'order.refund', input: () => ({ id: success[0] }) },
    { name: 'order.refundPartial', input: () => ({ id: success[1], amount: 100 }) },
    { name: 'order.refundAttempts', input: () => ({ order_id: success[1] }) },
    {
      name: 'order.process',
      input: () => ({ order_id: created[0], method: 'upi', code: 'intent', device: 'android' }),
    },
    { name: 'info.paymentMethods', input: () => ({ amount: '500000', currency: 'INR' }) },
    { name: 'info.vpa', input: () => ({ vpa: 'aarav.sharma@ybl' }) },
    { name: 'info.currency', input: () => ({ from: 'USD', to: 'INR' }) },
    { name: 'plan.create', input: () => plan('contract-a') },
    { name: 'plan.fetch', input: () => ({ id: f.plans[0]!.id }) },
    { name: 'subscription.fetch', input: () => ({ id: active[0] }) },
    { name: 'subscription.fetchByReceipt', input: () => ({ id: receipts.get(active[0]!) }) },
    { name: 'subscription.cancel', input: () => ({ id: active[2] }) },
    { name: 'subscription.adhoc', input: () => ({ id: active[0], amount: '10000', currency: 'INR' }) },
    {
      name: 'beneficiary.create',
      input: () => ({
        name: 'Asha Rao',
        account_number: '001234567890',
        ifsc: 'HDFC0001234',
        phone: '9876543210',
        email: 'asha@example.in',
      }),
    },
    { name: 'beneficiary.fetch', input: () => ({ id: f.beneficiaries[0]!.id }) },
    { name: 'payout.fetch', input: () => ({ id: ids(f.payouts, 'failed')[0], fetch_type: 'normal' }) },
    { name: 'payout.accounts', input: () => ({}) },
    { name: 'payout.balance', input: () => ({}) },
    { name: 'settlement.fetch', input: () => ({ date: today, limit: '50' }) },
    { name: 'webhook.list', input: () => ({}) },
    { name: 'webhook.update', input: () => ({ id: f.webhooks[0]!.id, url: 'https://merchant.example.in/hooks/v2' }) },
    { name: 'classify', input: () => classify },
  ];
  const b: Case[] = [
    { name: 'order.fetch', input: () => ({ id: success[2] }) },
    { name: 'order.capture', input: () => ({ id: authorized[1] }) },
    { name: 'order.refundPartial', input: () => ({ id: success[2], amount: 250 }) },
    { name: 'order.refundAttempts', input: () => ({ order_id: success[2] }) },
    { name: 'order.process', input: () => ({ order_id: created[1], method: 'nb', code: 'HDFC' }) },
    { name: 'info.paymentMethods', input: () => ({}) },
    { name: 'info.vpa', input: () => ({ vpa: 'diya99@okicici' }) },
    { name: 'info.currency', input: () => ({ from: 'EUR', to: 'USD' }) },
    { name: 'plan.create', input: () => plan('contract-b') },
    { name: 'plan.fetch', input: () => ({ id: f.plans[1]!.id }) },
    { name: 'subscription.fetch', input: () => ({ id: active[0] }) },
    { name: 'subscription.fetchByReceipt', input: () => ({ id: receipts.get(active[0]!) }) },
    { name: 'subscription.cancel', input: () => ({ id: active[1] }) },
    { name: 'beneficiary.fetch', input: () => ({ id: f.beneficiaries[1]!.id }) },
    { name: 'payout.accounts', input: () => ({}) },
    { name: 'payout.balance', input: () => ({}) },
  ];
  return { a, b };
}

const receipts = new Map<string, string>();

describe('sandbox contract: every operation parses with the shared response schema', () => {
  beforeAll(async () => {
    for (const id of ids(f.subscriptions, 'active')) {
      const r = await rawCall(sandbox.url, 'subscription.fetch', { id });
      receipts.set(id, (r.body as { subscription: { mer_reference_id: string } }).subscription.mer_reference_id);
    }
  });

  it('covers all 24 operations', () => {
    expect(OPERATION_NAMES).toHaveLength(24);
    expect(new Set(cases().a.map((c) => c.name))).toEqual(new Set(OPERATION_NAMES));
  });

  it('answers Variant A successes that parse', async () => {
    for (const c of cases().a) {
      const r = await rawCall(sandbox.url, c.name, c.input());
      expect({ op: c.name, http: r.http }).toEqual({ op: c.name, http: 200 });
      const parsed = OPERATIONS[c.name].response.safeParse(r.body);
      expect({ op: c.name, ok: parsed.success, error: parsed.error?.message }).toEqual({
        op: c.name,
        ok: true,
        error: undefined,
      });
    }
  });

  it('answers Variant B successes that parse, for every operation the document gives a Variant B', async () => {
    for (const c of cases().b) {
      const input = c.input();
      const path = new URL(operationUrl(sandbox.url, c.name, input).url).pathname;
      await hook(sandbox.url, 'POST', 'faults', { path, kind: 'variant-b' });
      const r = await rawCall(sandbox.url, c.name, input);
      expect({ op: c.name, http: r.http }).toEqual({ op: c.name, http: 200 });
      const parsed = OPERATIONS[c.name].response.safeParse(r.body);
      expect({ op: c.name, ok: parsed.success, error: parsed.error?.message }).toEqual({
        op: c.name,
        ok: true,
        error: undefined,
      });
    }
    expect((await hook<{ faults: unknown[] }>(sandbox.url, 'GET', 'faults')).body.faults).toEqual([]);
  });
});

describe('sandbox wire formats (Variant A)', () => {
  it('payout amounts are rupee numbers; failed payouts carry error_code and error_message beside the payout', async () => {
    const r = await rawCall(sandbox.url, 'payout.fetch', { id: ids(f.payouts, 'failed')[0] });
    const body = r.body as {
      status: boolean;
      payout: Record<string, unknown>;
      error_code: number;
      error_message: string;
    };
    expect(typeof body.payout.amount).toBe('number');
    expect(body.payout.transfer_status).toBe('failed');
    expect(typeof body.payout.error).toBe('string');
    expect(Number.isInteger(body.error_code)).toBe(true);
    expect(body.error_message).toBe(body.payout.error);
  });

  it('balance Variant A has status "true" and rupee strings keyed by gateway', async () => {
    const r = await rawCall(sandbox.url, 'payout.balance', {});
    const body = r.body as { status: unknown; account: Record<string, { account_no: unknown; balance: unknown }> };
    expect(body.status).toBe('true');
    expect(Object.keys(body.account)).toEqual(f.gateways);
    for (const a of Object.values(body.account)) {
      expect(typeof a.account_no).toBe('string');
      expect(a.balance).toMatch(/^\d+\.\d{2}$/);
    }
  });

  it('payout accounts: one gateway answers INTERNAL_SERVER_ERROR while the overall status is true', async () => {
    const r = await rawCall(sandbox.url, 'payout.accounts', {});
    const body = r.body as {
      status: boolean;
      accounts: Record<
        string,
        { status: boolean; error?: { code: string }; data?: { available_balance: unknown; ifsc_code: string }[] }
      >;
    };
    expect(body.status).toBe(true);
    const failing = Object.values(body.accounts).filter((a) => !a.status);
    expect(failing).toHaveLength(1);
    expect(failing[0]!.error!.code).toBe('INTERNAL_SERVER_ERROR');
    for (const a of Object.values(body.accounts).filter((x) => x.status)) {
      for (const acc of a.data!) {
        expect(typeof acc.available_balance).toBe('number');
        expect(acc.ifsc_code).toMatch(/^[A-Z]{4}0[A-Z0-9]{6}$/);
      }
    }
  });

  it('settlement records: integer paise, decimal rupee strings for taxes, pg on every record, request_id', async () => {
    const r = await rawCall(sandbox.url, 'settlement.fetch', { date: f.settlementDates.at(-1), limit: '20' });
    const body = r.body as { request_id: string; data: Record<string, unknown>[] };
    expect(body.request_id).toMatch(/^req_/);
    for (const rec of body.data) {
      for (const k of ['amount', 'mer_service_fee', 'mer_service_tax', 'settled_amount'])
        expect(Number.isInteger(rec[k])).toBe(true);
      for (const k of ['cgst', 'sgst', 'igst', 'merchant_subvention_amount']) expect(rec[k]).toMatch(/^\d+\.\d{2}$/);
      expect(f.gateways).toContain(rec.pg);
      expect(typeof rec.order_id).toBe('string');
      expect(typeof rec.utr, 'utr is typed string in the interface').toBe('string');
    }
  });

  it('a missing UTR is "" on the wire, as the interface types it', async () => {
    // About 0.5% of records have no UTR: read days, newest first, until some have turned up; none may be null.
    const utrs: unknown[] = [];
    for (const date of [...f.settlementDates].reverse()) {
      for (let offset = 0, last = false; !last; offset += 1000) {
        const r = await rawCall(sandbox.url, 'settlement.fetch', { date, offset: String(offset), limit: '1000' });
        const body = r.body as { data: { utr: unknown }[]; is_last_page: boolean };
        utrs.push(...body.data.map((d) => d.utr));
        last = body.is_last_page;
      }
      if (utrs.includes('')) break;
    }
    expect(utrs.filter((u) => typeof u !== 'string')).toEqual([]);
    expect(utrs).toContain('');
  });

  it('request_id appears where the document shows it', async () => {
    const withId = await rawCall(sandbox.url, 'subscription.fetch', { id: ids(f.subscriptions, 'canceled')[0] });
    expect((withId.body as { request_id?: string }).request_id).toMatch(/^req_/);
    const without = await rawCall(sandbox.url, 'order.fetch', { id: ids(f.orders, 'authorized')[3] });
    expect(without.body).not.toHaveProperty('request_id');
  });

  it('Variant B answers normalize to the same domain values as Variant A', async () => {
    const id = ids(f.orders, 'authorized')[3]!;
    const a = OPERATIONS['order.fetch'].response.parse((await rawCall(sandbox.url, 'order.fetch', { id })).body);
    await hook(sandbox.url, 'POST', 'faults', { path: '/api/v2/order/fetch', kind: 'variant-b' });
    const raw = await rawCall(sandbox.url, 'order.fetch', { id });
    expect((raw.body as { order: Record<string, unknown> }).order).toHaveProperty('status', 'authorized');
    expect((raw.body as { order: Record<string, unknown> }).order).not.toHaveProperty('order_status');
    const b = OPERATIONS['order.fetch'].response.parse(raw.body);
    expect(b.order.order_status).toBe(a.order.order_status);
    expect(b.order.amount).toBe(a.order.amount);
  });
});
