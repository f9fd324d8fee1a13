/**
 * Payment tools, plans, webhooks and classification over the real router against the real sandbox: the listing
 * grouped as the service sent it, process order with the fields each method needs (and once per key, even when its
 * answer is lost), plan create exact to the paisa and never twice, webhook edits with the endpoint answered, and
 * classification checked against the limits before sending, with the service's error statuses in plain words.
 * Each action's journal entries are checked too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { CLASSIFY_LIMITS } from '../../shared/api/classification';
import { OPERATIONS } from '../../shared/api/operations';
import { EMBEDDED_SECRET, call, coreOnSandbox, ok, sentOk } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { hook } from '../support/sandbox-http';

let sandbox: Sandbox;
let core: Core;
let dataDir: string;

const arm = (operation: keyof typeof OPERATIONS, kind: string, count = 1) =>
  hook(sandbox.url, 'POST', 'faults', {
    path: (OPERATIONS[operation].host === 'ai' ? '/ai' : '') + OPERATIONS[operation].path,
    kind,
    count,
  });
const disarm = () => hook(sandbox.url, 'DELETE', 'faults');
/** The attempts whose entry mentions `text`, each followed by the entries that refer to it, oldest first. */
async function journal(text: string) {
  const all = (await ok(core, 'journal.list', { limit: 1000 })).entries.reverse();
  const attempts = new Set(
    all.filter((e) => e.outcome === 'attempted' && JSON.stringify(e).includes(text)).map((e) => e.seq),
  );
  return all.filter((e) => attempts.has(e.seq) || (e.refersTo !== null && attempts.has(e.refersTo)));
}
const processable = () => sandbox.fixtures().orders.filter((o) => o.status === 'created' && o.payments === 0);
const payments = (id: string) => sandbox.fixtures().orders.find((o) => o.id === id)!.payments;
const plans = () => sandbox.fixtures().plans;
const webhook = (id: string) => sandbox.fixtures().webhooks.find((w) => w.id === id);

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 20 });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-merchant-tools-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore() });
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('payment methods', () => {
  it('groups the listing as the service sent it: banks with health and favourites first, cards, UPI apps, flags', async () => {
    const { listing, groups } = await ok(core, 'tools.methods', { amount: '2,999.99', currency: 'INR' });
    const banks = listing.netbanking!.data;
    expect(groups.netbanking.map((b) => b.code).sort()).toEqual(banks.map((b) => b.code).sort());
    const firstPlain = groups.netbanking.findIndex((b) => !b.favourite);
    expect(groups.netbanking.slice(firstPlain).some((b) => b.favourite)).toBe(false);
    for (const b of banks) {
      expect(groups.netbanking.find((g) => g.code === b.code)).toMatchObject({
        healthy: b.health,
        favourite: b.favorite,
      });
    }
    expect(groups.upi.map((u) => u.code)).toEqual(Object.keys(listing.upi!.data));
    expect(groups.creditcard).toEqual(listing.creditcard!.data.map(({ code, title }) => ({ code, title })));
    // The order is the listing's own priorities.
    const priorities = groups.order.map((s) => listing[s]!.priority!);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    // Rs 2,999.99 is sent as 299999 paise: below the sandbox's Rs 3,000 EMI line.
    expect(groups.flags.find((f) => f.key === 'emi')).toMatchObject({ on: false });
    const more = await ok(core, 'tools.methods', { amount: '3000' });
    expect(more.groups.flags.find((f) => f.key === 'emi')).toMatchObject({ on: true });
  });

  it('refuses an amount with more than two decimals, negative or zero, and an unknown gateway by the service', async () => {
    for (const amount of ['12.345', '-5', '0']) {
      const r = await call(core, 'tools.methods', { amount });
      expect(r.ok, amount).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_INPUT');
    }
    const r = await call(core, 'tools.methods', { pg: 'nosuchpg' });
    expect(r.ok).toBe(false);
  });
});

describe('process order', () => {
  it('asks for the VPA of a collect and the device of an intent, and refuses card (its fields are not shown)', async () => {
    const id = processable()[0]!.id;
    const cases = [
      [{ order_id: id, method: 'upi', code: 'collect' }, 'order.vpa'],
      [{ order_id: id, method: 'upi', code: 'intent' }, 'order.device'],
      [{ order_id: id, method: 'upi', code: 'wire' }, 'order.code'],
      [{ order_id: id, method: 'card', code: 'card' }, 'order.method'],
    ] as const;
    for (const [order, path] of cases) {
      const r = await call(core, 'tools.process', { requestKey: 'key-' + path, order });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.details?.map((d) => d.path)).toContain(path);
    }
    expect(payments(id)).toBe(0);
  });

  it('answers the link, token and type, journals attempt and outcome, and a repeated key starts one payment', async () => {
    const order = processable()[0]!;
    const input = {
      requestKey: 'process-once-1',
      order: { order_id: order.id, method: 'upi' as const, code: 'intent', device: 'android' as const },
    };
    const [a, b] = await Promise.all([sentOk(core, 'tools.process', input), sentOk(core, 'tools.process', input)]);
    expect(a).toEqual(b);
    expect(payments(order.id)).toBe(1);
    expect(a).toMatchObject({ type: 'intent', url: expect.stringMatching(/^upi:\/\/pay\?/) });
    expect(new URL(a.url!).searchParams.get('tr')).toBe(a.paymentId);
    expect(a.token).toBeTruthy();
    const entries = await journal(order.id);
    expect(entries.map((e) => [e.event, e.outcome])).toEqual([
      ['order.process', 'attempted'],
      ['order.process', 'succeeded'],
    ]);
    expect(entries[0]!.seq).toBe(a.attemptSeq);
    expect(entries[1]!.refersTo).toBe(a.attemptSeq);
  });

  it('a lost answer is outcome unknown, journaled, and the same key never sends again', async () => {
    const order = processable()[0]!;
    await arm('order.process', 'malformed');
    const input = {
      requestKey: 'process-lost-1',
      order: { order_id: order.id, method: 'upi' as const, code: 'collect', vpa: 'asha@okhdfcbank' },
    };
    const first = await call(core, 'tools.process', input);
    const again = await call(core, 'tools.process', input);
    await disarm();
    for (const r of [first, again]) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toMatch(/^API_(OUTCOME_UNKNOWN|INVALID_RESPONSE)$/);
    }
    // The service did process it once (its answer was what broke); the retry sent nothing.
    expect(payments(order.id)).toBe(1);
    const outcomes = (await journal(order.id)).map((e) => e.outcome);
    expect(outcomes).toEqual(['attempted', 'unknown']);
  });
});

describe('currency', () => {
  it('keeps the rate as the exact decimal text the service sent', async () => {
    const c = await ok(core, 'tools.currency', { from: 'USD', to: 'INR' });
    expect(c.rate).toMatch(/^\d+(\.\d+)?$/);
    expect(c).toMatchObject({ from: 'USD', to: 'INR' });
    const r = await call(core, 'tools.currency', { from: 'usd', to: 'INR' });
    expect(r.ok).toBe(false);
  });
});

describe('plans', () => {
  const form = (reference: string, amount = '1,499.50') => ({
    title: 'Gold monthly',
    description: 'Gold tier, billed monthly',
    amount,
    frequency: '30',
    cycle: 12,
    currency: 'inr',
    mer_reference_id: reference,
    notes: { udf1: 'desk', udf3: 'tier-gold' },
  });

  it('creates with every documented field, the amount exact in paise, and fetches it back', async () => {
    const created = await sentOk(core, 'plans.create', { requestKey: 'plan-create-1', plan: form('GOLD-M-1') });
    expect(plans().find((p) => p.id === created.planId)).toEqual({
      id: created.planId,
      reference: 'GOLD-M-1',
      amount: 149950,
    });
    const fetched = await ok(core, 'plans.fetch', { id: created.planId });
    expect(fetched).toMatchObject({
      id: created.planId,
      title: 'Gold monthly',
      description: 'Gold tier, billed monthly',
      amount: 149950,
      frequency: 30,
      cycle: 12,
      mer_reference_id: 'GOLD-M-1',
      notes: { udf1: 'desk', udf3: 'tier-gold' },
    });
  });

  it('refuses amounts the desk cannot mean before sending', async () => {
    const before = plans().length;
    for (const amount of ['9.999', '-1', '0', 'ten']) {
      const r = await call(core, 'plans.create', {
        requestKey: `plan-bad-${amount}`,
        plan: form('BAD-' + amount, amount),
      });
      expect(r.ok, amount).toBe(false);
    }
    expect(plans().length).toBe(before);
  });

  it('a lost answer stays unknown, is never resent, and its check finds the plan by its reference', async () => {
    const before = plans().length;
    await arm('plan.create', 'malformed');
    const input = { requestKey: 'plan-lost-1', plan: form('GOLD-LOST') };
    const first = await call(core, 'plans.create', input);
    const again = await call(core, 'plans.create', input);
    await disarm();
    expect(first.ok || again.ok).toBe(false);
    expect(plans().filter((p) => p.reference === 'GOLD-LOST')).toHaveLength(1);
    expect(plans().length).toBe(before + 1);
    const [attempt, outcome] = await journal('GOLD-LOST');
    expect([attempt!.outcome, outcome!.outcome]).toEqual(['attempted', 'unknown']);
    const { check, plan } = await ok(core, 'plans.checkCreate', { attemptSeq: attempt!.seq });
    expect(check).toMatchObject({ outcome: 'succeeded', refersTo: attempt!.seq, event: 'plan.create.check' });
    expect(plan).toMatchObject({ mer_reference_id: 'GOLD-LOST', amount: 149950 });
  });
});

describe('webhooks', () => {
  it('lists with the active filter', async () => {
    const all = (await ok(core, 'webhooks.list', {})).endpoints;
    const active = (await ok(core, 'webhooks.list', { active: true })).endpoints;
    const inactive = (await ok(core, 'webhooks.list', { active: false })).endpoints;
    expect(active.every((w) => w.status === 'active')).toBe(true);
    expect(inactive.every((w) => w.status === 'inactive')).toBe(true);
    expect(active.length + inactive.length).toBe(all.length);
    expect(inactive.length).toBeGreaterThan(0);
  });

  it('edits URL (https only), topics (any event type) and deactivates; the answer is the endpoint now', async () => {
    const hookId = (await ok(core, 'webhooks.list', { active: true })).endpoints[0]!.id;
    const http = await call(core, 'webhooks.update', {
      requestKey: 'wh-http-1',
      change: { id: hookId, url: 'http://merchant.example.in/hooks' },
    });
    expect(http.ok).toBe(false);
    if (!http.ok) expect(http.error.details?.[0]?.message).toMatch(/https/);
    const changed = await sentOk(core, 'webhooks.update', {
      requestKey: 'wh-edit-1',
      change: { id: hookId, url: 'https://merchant.example.in/hooks/v2', topics: ['order.paid', 'refund.processed'] },
    });
    expect(changed.endpoint).toMatchObject({
      id: hookId,
      url: 'https://merchant.example.in/hooks/v2',
      topics: ['order.paid', 'refund.processed'],
      status: 'active',
    });
    const off = await sentOk(core, 'webhooks.update', {
      requestKey: 'wh-off-1',
      change: { id: hookId, active: false },
    });
    expect(off.endpoint?.status).toBe('inactive');
    expect(webhook(hookId)).toMatchObject({
      status: 'inactive',
      url: 'https://merchant.example.in/hooks/v2',
    });
    const events = (await journal(hookId)).map((e) => `${e.event} ${e.outcome}`);
    expect(events).toEqual([
      'webhook.update attempted',
      'webhook.update succeeded',
      'webhook.update attempted',
      'webhook.update succeeded',
    ]);
  });

  it('an unknown webhook is the service refusing, journaled as refused', async () => {
    const r = await call(core, 'webhooks.update', {
      requestKey: 'wh-missing-1',
      change: { id: 'wh_missing', active: false },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('API_API');
    expect((await journal('wh_missing')).map((e) => e.outcome)).toEqual(['attempted', 'refused']);
  });
});

describe('classification', () => {
  const questions = {
    topic: {
      type: 'choice',
      instructions: 'What is it about?',
      criteria: { refund: 'money back', payout: 'a transfer' },
    },
    severity: { type: 'score', instructions: 'How upset?', criteria: ['calm', 'annoyed', 'angry'] },
    urgent: { type: 'noul', instructions: 'Is it urgent?' },
  };

  it('answers every question with probabilities, confidence and usage, for text and JSON states', async () => {
    const text = await ok(core, 'classification.classify', { state: 'my refund money back is late', questions });
    expect(Object.keys(text.result.answers).sort()).toEqual(['severity', 'topic', 'urgent']);
    const topic = text.result.answers['topic']!;
    expect(topic.type === 'choice' && topic.choice).toBe('refund');
    expect(text.result.usage.input_tokens).toBeGreaterThan(0);
    const json = await ok(core, 'classification.classify', {
      state: [{ role: 'user', text: 'a transfer' }],
      questions,
    });
    expect(json.result.answers['topic']).toBeDefined();
  });

  it('checks the limits before sending: 5 questions, 21 options, a body over 32 KiB', async () => {
    const five = Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`q${i}`, questions.urgent]));
    const options = Array.from({ length: CLASSIFY_LIMITS.maxChoiceOptions + 1 }, (_, i) => `o${i}`);
    const cases = [
      { state: 'x', questions: five },
      { state: 'x', questions: { q: { type: 'choice', instructions: 'i', criteria: options } } },
      { state: 'x'.repeat(CLASSIFY_LIMITS.maxBodyBytes), questions },
      { state: 'x', questions: { q: { type: 'vote', instructions: 'i' } } },
    ];
    for (const request of cases) {
      const r = await call(core, 'classification.classify', request);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('CLASSIFY_INVALID');
        expect(r.error.message).toMatch(/^Not sent: /);
      }
    }
  });

  it.each([
    ['429', 'CLASSIFY_429', /too many requests/],
    ['503', 'CLASSIFY_503', /Asking again is safe/],
  ])('says a %s in plain words', async (kind, code, words) => {
    // Enough faults to outlast the client's retries of this safe call.
    await arm('classify', kind, 4);
    const r = await call(core, 'classification.classify', { state: 'hello', questions: { urgent: questions.urgent } });
    await disarm();
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.message).toMatch(words);
    }
  });
});
