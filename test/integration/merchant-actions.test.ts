/**
 * Orders and subscriptions over the real router against the real sandbox, with faults injected: every money-moving
 * action ends as done, refused or outcome unknown, is journaled (attempt, then outcome), and is never sent twice —
 * checked against the sandbox's own state (its refund attempts, its subscriptions' charges), not the console's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Core } from '../../electron/core';
import { createNodeTransport } from '../../electron/api/transport';
import type { Sandbox } from '../../electron/sandbox/server';
import { OPERATIONS } from '../../shared/api/operations';
import { ALREADY_CANCELLED_WORDS } from '../../shared/subscriptions';
import { EMBEDDED_SECRET, call, coreOnSandbox, ok, sentOk } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { hook, rawCall } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
let core: Core;
let dataDir: string;
let seeded: { id: string; status: string }[];
let keys = 0;
const key = () => `integration-key-${++keys}`;
const orderWith = (status: string, n = 0) => seeded.filter((o) => o.status === status)[n]!.id;

const arm = (operation: keyof typeof OPERATIONS, kind: string, count = 1) =>
  hook(sandbox.url, 'POST', 'faults', { path: OPERATIONS[operation].path, kind, count });
const attempts = async (orderId: string) =>
  (
    (await rawCall(sandbox.url, 'order.refundAttempts', { order_id: orderId }, { secret: EMBEDDED_SECRET })).body as {
      data: { refund_id: string; amount: number; status: string }[];
    }
  ).data;
const charges = (id: string) => sandbox.fixtures().subscriptions.find((s) => s.id === id)!.charges;
const journal = () => core.journals.for(core.profiles.active().id).journal;
/** The action entries of one event, oldest first, as [outcome, refersTo]. */
const entries = (event: string, subjectKey: string, subject: string) =>
  journal()
    .list({ kind: 'action', limit: 1000 })
    .filter((e) => e.event === event && e.data[subjectKey] === subject)
    .reverse()
    .map((e) => e.outcome);

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 0 });
  seeded = sandbox.fixtures().orders;
  dataDir = mkdtempSync(join(tmpdir(), 'pc-merchant-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore() });
});
afterEach(() => hook(sandbox.url, 'DELETE', 'faults'));
afterAll(async () => {
  await core.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('order lookups', () => {
  it('keeps the order and its attempts in the cache, with the balance in paise; Variant B gaps are named', async () => {
    const id = orderWith('partially_refunded');
    const view = await ok(core, 'orders.fetch', { id });
    const wire = await attempts(id);
    expect(view.refunds).toHaveLength(wire.length);
    const refunded = wire.filter((a) => a.status === 'success').reduce((s, a) => s + a.amount, 0);
    expect(view.balance).toEqual({
      amount: view.order.amount,
      refunded,
      pending: 0,
      refundable: view.order.amount - refunded,
    });
    expect(view.missing).toEqual([]);
    expect(Number.isSafeInteger(view.order.additional_charges)).toBe(true);
    const cached = await ok(core, 'orders.cached', { id });
    expect(cached).toEqual({ ...view, fromCache: true });
    expect((await ok(core, 'orders.recent', undefined)).map((o) => o.order_id)).toContain(id);

    await arm('order.fetch', 'variant-b');
    const short = await ok(core, 'orders.fetch', { id });
    expect(short.missing).toEqual(
      expect.arrayContaining(['receipt_id', 'customer', 'billing_address', 'mdr', 'created_at']),
    );
    expect(short.missing).not.toContain('card_last_4');
  });
});

describe('refunds', () => {
  it('a partial refund sent twice with one key is made once, and journaled as attempt then success', async () => {
    const id = orderWith('success', 0);
    const before = await attempts(id);
    const k = key();
    const [a, b] = await Promise.all([
      sentOk(core, 'orders.refund', { requestKey: k, orderId: id, amount: 12_345 }),
      sentOk(core, 'orders.refund', { requestKey: k, orderId: id, amount: 12_345 }),
    ]);
    expect(a).toEqual(b);
    const after = await attempts(id);
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)!.amount).toBe(12_345);
    expect(entries('order.refund', 'orderId', id)).toEqual(['attempted', 'succeeded']);
    expect(a.view!.balance!.refundable).toBe(a.view!.order.amount - 12_345);
  });

  it('refuses more than the refundable balance before sending anything', async () => {
    const id = orderWith('partially_refunded');
    const view = await ok(core, 'orders.fetch', { id });
    const before = await attempts(id);
    const r = await call(core, 'orders.refund', {
      requestKey: key(),
      orderId: id,
      amount: view.balance!.refundable + 1,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('REFUND_NOT_ALLOWED');
      expect(r.error.message).toMatch(/is more than the refundable balance .* Nothing was sent\./);
    }
    expect(await attempts(id)).toEqual(before);
    expect(entries('order.refund', 'orderId', id)).toEqual([]);
  });

  it('a reset after sending is outcome unknown: the same key is not resent, a new one is refused until checked', async () => {
    const id = orderWith('success', 1);
    const before = await attempts(id);
    const k = key();
    await arm('order.refundPartial', 'drop');
    const lost = await call(core, 'orders.refund', { requestKey: k, orderId: id, amount: 500 });
    expect(lost.ok || lost.error.code).toBe('API_OUTCOME_UNKNOWN');
    const again = await call(core, 'orders.refund', { requestKey: k, orderId: id, amount: 500 });
    expect(again).toEqual(lost);
    const fresh = await call(core, 'orders.refund', { requestKey: key(), orderId: id, amount: 500 });
    expect(fresh.ok || fresh.error.code).toBe('OUTCOME_UNKNOWN_UNSETTLED');
    // The sandbox drops before processing: nothing was made, and nothing was sent again.
    expect(await attempts(id)).toEqual(before);
    expect(entries('order.refund', 'orderId', id)).toEqual(['attempted', 'unknown']);

    const { attempt } = (await ok(core, 'journal.unresolved', undefined)).find(
      (u) => u.attempt.data['orderId'] === id,
    )!;
    const checked = await ok(core, 'orders.checkStatus', { attemptSeq: attempt.seq });
    expect(checked.check).toMatchObject({ outcome: 'refused', refersTo: attempt.seq });
    expect(checked.check.summary).toMatch(/none is this refund, so it was not made/);
    // Settled: a new submission may go, once.
    await sentOk(core, 'orders.refund', { requestKey: key(), orderId: id, amount: 500 });
    expect((await attempts(id)).length).toBe(before.length + 1);
  });

  it('a timeout after sending is outcome unknown; the refund the service went on to make is found once', async () => {
    // A client that gives up after 300 ms (the app's waits 30 s), and a sandbox that answers this refund after 1.5 s.
    const node = createNodeTransport();
    const dir = mkdtempSync(join(tmpdir(), 'pc-merchant-timeout-'));
    const impatient = coreOnSandbox(sandbox, {
      dataDir: dir,
      vault: memoryStore(),
      transport: (req) => node({ ...req, totalTimeoutMs: 300 }),
    });
    try {
      const id = orderWith('success', 3);
      const before = await attempts(id);
      await hook(sandbox.url, 'POST', 'faults', {
        path: OPERATIONS['order.refundPartial'].path,
        kind: 'delay',
        delayMs: 1500,
        count: 1,
      });
      const k = key();
      const lost = await call(impatient, 'orders.refund', { requestKey: k, orderId: id, amount: 700 });
      expect(lost.ok || lost.error.code).toBe('API_OUTCOME_UNKNOWN');
      expect(await call(impatient, 'orders.refund', { requestKey: k, orderId: id, amount: 700 })).toEqual(lost);
      // The service goes on with it after the client gave up: one refund appears (waited for, bounded).
      for (let i = 0; i < 50 && (await attempts(id)).length === before.length; i++) await sleep(100);
      expect((await attempts(id)).length).toBe(before.length + 1);
      const { attempt } = (await ok(impatient, 'journal.unresolved', undefined)).find(
        (u) => u.attempt.data['orderId'] === id,
      )!;
      const checked = await ok(impatient, 'orders.checkStatus', { attemptSeq: attempt.seq });
      expect(checked.check).toMatchObject({ outcome: 'succeeded', refersTo: attempt.seq });
      expect((await attempts(id)).length).toBe(before.length + 1);
    } finally {
      await impatient.close();
      node.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unreadable answer after the refund was made: Check status finds it in the attempts', async () => {
    const id = orderWith('success', 2);
    const before = await attempts(id);
    await arm('order.refund', 'malformed');
    const lost = await call(core, 'orders.refund', { requestKey: key(), orderId: id, amount: null });
    expect(lost.ok).toBe(false);
    const after = await attempts(id);
    expect(after.length).toBe(before.length + 1);
    const attempt = journal()
      .list({ kind: 'action', outcome: 'attempted', limit: 10 })
      .find((e) => e.data['orderId'] === id)!;
    const checked = await ok(core, 'orders.checkStatus', { attemptSeq: attempt.seq });
    expect(checked.check.outcome).toBe('succeeded');
    expect(checked.check.data['refundId']).toBe(after.at(-1)!.refund_id);
    expect(checked.view!.balance!.refundable).toBe(0);
  });

  it('429 and 503 say nothing was done and free the key; a 500 on a refund is outcome unknown', async () => {
    const id = orderWith('success', 3);
    const before = await attempts(id);
    const k = key();
    await arm('order.refundPartial', '429');
    const limited = await call(core, 'orders.refund', { requestKey: k, orderId: id, amount: 100 });
    expect(limited.ok || limited.error.code).toBe('API_RATE_LIMITED');
    await arm('order.refundPartial', '503');
    const down = await call(core, 'orders.refund', { requestKey: k, orderId: id, amount: 100 });
    expect(down.ok || down.error.code).toBe('API_UNAVAILABLE');
    expect(await attempts(id)).toEqual(before);
    await sentOk(core, 'orders.refund', { requestKey: k, orderId: id, amount: 100 });
    expect((await attempts(id)).length).toBe(before.length + 1);
    expect(entries('order.refund', 'orderId', id)).toEqual([
      'attempted',
      'refused',
      'attempted',
      'refused',
      'attempted',
      'succeeded',
    ]);

    await arm('order.refundPartial', '500');
    const failed = await call(core, 'orders.refund', { requestKey: key(), orderId: id, amount: 100 });
    expect(failed.ok || failed.error.code).toBe('API_OUTCOME_UNKNOWN');
  });
});

describe('capture', () => {
  it('captures once; a lost answer is settled by refetching the order', async () => {
    const id = orderWith('authorized', 0);
    await arm('order.capture', 'malformed');
    const lost = await call(core, 'orders.capture', { requestKey: key(), orderId: id });
    expect(lost.ok).toBe(false);
    expect(sandbox.fixtures().orders.find((o) => o.id === id)!.status).toBe('captured');
    const attempt = journal()
      .list({ kind: 'action', outcome: 'attempted', limit: 10 })
      .find((e) => e.data['orderId'] === id)!;
    const checked = await ok(core, 'orders.checkStatus', { attemptSeq: attempt.seq });
    expect(checked.check.outcome).toBe('succeeded');
    expect(checked.check.summary).toMatch(/its status is captured, so the capture took effect/);

    const other = orderWith('authorized', 1);
    const r = await sentOk(core, 'orders.capture', { requestKey: key(), orderId: other });
    expect(r.view!.order.order_status).toBe('captured');
    expect(entries('order.capture', 'orderId', other)).toEqual(['attempted', 'succeeded']);
  });
});

describe('subscriptions', () => {
  it('fetches by receipt id, cancels once, and says 1035 in plain words', async () => {
    const subs = sandbox.fixtures().subscriptions;
    const active = subs.find((s) => s.status === 'active')!;
    const byReceipt = await ok(core, 'subscriptions.fetch', { id: active.receipt, by: 'receipt' });
    expect(byReceipt.subscription.subscription_id).toBe(active.id);
    expect(await ok(core, 'subscriptions.cached', { id: active.receipt, by: 'receipt' })).toMatchObject({
      subscription: byReceipt.subscription,
      fromCache: true,
    });

    const cancelled = subs.find((s) => s.status === 'canceled')!;
    const again = await call(core, 'subscriptions.cancel', { requestKey: key(), id: cancelled.id });
    expect(again.ok || again.error).toEqual({ code: 'ALREADY_CANCELLED', message: ALREADY_CANCELLED_WORDS });
    expect(entries('subscription.cancel', 'subscriptionId', cancelled.id)).toEqual(['attempted', 'refused']);
  });

  it('a charge whose connection is reset is unknown, never resent, and the check keeps it unknown', async () => {
    const active = sandbox.fixtures().subscriptions.filter((s) => s.status === 'active')[1]!;
    const k = key();
    await arm('subscription.adhoc', 'drop');
    const lost = await call(core, 'subscriptions.charge', {
      requestKey: k,
      id: active.id,
      amount: 4_999,
      currency: 'INR',
    });
    expect(lost.ok || lost.error.code).toBe('API_OUTCOME_UNKNOWN');
    expect(
      await call(core, 'subscriptions.charge', { requestKey: k, id: active.id, amount: 4_999, currency: 'INR' }),
    ).toEqual(lost);
    expect(charges(active.id)).toEqual([]);
    const attempt = journal()
      .list({ kind: 'action', outcome: 'attempted', limit: 10 })
      .find((e) => e.data['subscriptionId'] === active.id)!;
    const checked = await ok(core, 'subscriptions.checkStatus', { attemptSeq: attempt.seq });
    expect(checked.check.outcome).toBe('unknown');
    const fresh = await call(core, 'subscriptions.charge', {
      requestKey: key(),
      id: active.id,
      amount: 4_999,
      currency: 'INR',
    });
    expect(fresh.ok || fresh.error.code).toBe('OUTCOME_UNKNOWN_UNSETTLED');
    expect(charges(active.id)).toEqual([]);

    // The desk asks the gateway, which shows no charge: recorded, and the next charge goes, once.
    const recorded = await ok(core, 'subscriptions.recordCharge', { attemptSeq: attempt.seq, charged: false });
    expect(recorded).toMatchObject({ outcome: 'refused', refersTo: attempt.seq, data: { recordedBy: 'desk' } });
    const twice = await call(core, 'subscriptions.recordCharge', { attemptSeq: attempt.seq, charged: true });
    expect(twice.ok || twice.error.code).toBe('STATUS_CHECK_INVALID');
    await sentOk(core, 'subscriptions.charge', { requestKey: key(), id: active.id, amount: 4_999, currency: 'INR' });
    expect(charges(active.id).map((c) => c.amount)).toEqual([4_999]);
  });
});
