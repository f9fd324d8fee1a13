/**
 * A desk that keeps the API secret on approvers' consoles only, on a real PostgreSQL desk and the real sandbox:
 * an operator's console whose profile holds no secret proposes from what was typed, reviews the queue and cannot
 * approve or send; the approver's console, which holds it, checks the request with the service and sends it once.
 * What was sent is read from the sandbox's own records, and what the desk holds with raw SQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { DEFAULT_POLICY, DEFAULT_RULE, type Proposal } from '../../shared/approvals';
import { EMBEDDED_SECRET, call, coreOnSandbox, ok } from '../support/core';
import { createTestDesk, deskConsole, joinWithoutSecret, type TestDesk } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { refundAttempts } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

describe.runIf(postgresAvailable())('a console without the API secret on a desk', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  const dirs: string[] = [];
  const cores: Core[] = [];
  /** Olga (operator) and Bela (approver) hold no secret; Arun (approver) and Ada (admin) do. */
  let olga: Core;
  let bela: Core;
  let arun: Core;
  let ada: Core;
  let keys = 0;
  const key = () => `secretless-key-${++keys}`;

  /** A console whose profile points at the service with no secret stored, joined to the desk as `name`. */
  async function secretless(name: string): Promise<Core> {
    const dir = mkdtempSync(join(tmpdir(), `pc-secretless-${name}-`));
    dirs.push(dir);
    const core = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), consoleName: `${name}-laptop` });
    cores.push(core);
    await joinWithoutSecret(core, cluster, desk, name, { url: sandbox.url, key: 'test_key' });
    return core;
  }
  const refunds = (orderId: string) => refundAttempts(sandbox.url, orderId, { secret: EMBEDDED_SECRET });
  const proposals = async () => {
    const su = await desk.superuser();
    try {
      return Number((await su.query<{ n: string }>('SELECT count(*) AS n FROM desk.proposals')).rows[0]!.n);
    } finally {
      await su.end();
    }
  };
  const successOrders = () => sandbox.fixtures().orders.filter((o) => o.status === 'success');

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', bela: 'approver', arun: 'approver', ada: 'admin' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 0 });
    olga = await secretless('olga');
    bela = await secretless('bela');
    arun = await deskConsole(sandbox, cluster, desk, 'arun', dirs);
    ada = await deskConsole(sandbox, cluster, desk, 'ada', dirs);
    cores.push(arun, ada);
  });
  afterAll(async () => {
    await Promise.all(cores.map((c) => c.close()));
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('says on the policy which console holds the secret', async () => {
    expect(await ok(olga, 'approvals.policy', {})).toMatchObject({ mode: 'desk', holdsSecret: false });
    expect(await ok(arun, 'approvals.policy', {})).toMatchObject({ mode: 'desk', holdsSecret: true });
  });

  it('proposes a refund of a typed amount; a console without the secret cannot approve it, one with it sends it once', async () => {
    const order = successOrders()[0]!.id;
    const before = await refunds(order);
    const made = await ok(olga, 'orders.refund', { requestKey: key(), orderId: order, amount: 2_500 });
    if (!('pendingApproval' in made)) throw new Error('The refund was sent without approval.');
    const proposal: Proposal = made.pendingApproval;
    expect(proposal).toMatchObject({ action: 'order.refund', amount: 2_500, state: 'pending' });
    expect(proposal.context).toMatchObject({ withoutSecret: true });

    // Bela may approve by role, but her console cannot check the request with the service nor send it.
    const hers = await ok(bela, 'approvals.review', { id: proposal.id });
    expect(hers).toMatchObject({
      canApprove: false,
      cannotApproveReason: expect.stringMatching(/holds the API secret/),
    });
    expect(hers.facts.map((f) => f.label)).toEqual(['Amount', 'Checked with the service']);
    const refused = await call(bela, 'approvals.approve', { id: proposal.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'SECRET_NOT_HELD' } });

    // Arun's review reads the order again and says the proposal was not checked when it was made.
    const his = await ok(arun, 'approvals.review', { id: proposal.id });
    expect(his).toMatchObject({ proposal: { approvals: [] }, canApprove: true });
    expect(his.facts.map((f) => f.label)).toEqual(
      expect.arrayContaining(['Proposed from', 'Order amount', 'Refundable now']),
    );
    expect(await ok(arun, 'approvals.approve', { id: proposal.id })).toMatchObject({ state: 'succeeded' });
    const after = await refunds(order);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.amount).toBe(2_500);
    // The maker's console sees the outcome from the desk, with no secret of its own.
    const seen = (await ok(olga, 'approvals.list', { scope: 'all' })).find((p) => p.id === proposal.id);
    expect(seen).toMatchObject({ state: 'succeeded' });
  });

  it('refuses what needs the service to propose, proposing nothing', async () => {
    const order = successOrders()[1]!.id;
    const count = await proposals();
    const full = await call(olga, 'orders.refund', { requestKey: key(), orderId: order, amount: null });
    expect(full).toMatchObject({ ok: false, error: { code: 'SECRET_NOT_HELD' } });
    expect(!full.ok && full.error.message).toMatch(/type the amount to refund instead/);
    const capture = await call(olga, 'orders.capture', { requestKey: key(), orderId: order });
    expect(capture).toMatchObject({ ok: false, error: { code: 'SECRET_NOT_HELD' } });
    expect(!capture.ok && capture.error.message).toMatch(
      /Capturing order .* needs a console that holds the API secret/,
    );
    expect(await proposals()).toBe(count);
  });

  it('asks for a reason for every charge, since it cannot read the subscription; the approver sees its own amount', async () => {
    const sub = sandbox.fixtures().subscriptions.find((s) => s.status === 'active')!;
    const view = await ok(arun, 'subscriptions.fetch', { id: sub.id, by: 'id' });
    const { amount, currency } = view.subscription;
    const bare = await call(olga, 'subscriptions.charge', { requestKey: key(), id: sub.id, amount, currency });
    expect(bare).toMatchObject({ ok: false, error: { code: 'CHARGE_NEEDS_REASON' } });
    expect(!bare.ok && bare.error.message).toMatch(/cannot read subscription .* own amount/);
    const withReason = await ok(olga, 'subscriptions.charge', {
      requestKey: key(),
      id: sub.id,
      amount,
      currency,
      reason: 'Missed cycle agreed by email',
    });
    if (!('pendingApproval' in withReason)) throw new Error('The charge was sent without approval.');
    const review = await ok(arun, 'approvals.review', { id: withReason.pendingApproval.id });
    expect(review.facts).toEqual(
      expect.arrayContaining([{ label: "Subscription's own amount", value: expect.stringContaining('(') }]),
    );
    await ok(olga, 'approvals.withdraw', { id: withReason.pendingApproval.id });
    expect(sandbox.fixtures().subscriptions.find((s) => s.id === sub.id)!.charges).toEqual(sub.charges);
  });

  it('proposes a payee, which needs no lookup; the approver with the secret adds it', async () => {
    const before = sandbox.fixtures().beneficiaries.length;
    const added = await ok(olga, 'beneficiaries.create', {
      requestKey: key(),
      beneficiary: { name: 'Kavya Rao', account_number: '000555666777', ifsc: 'HDFC0000001' },
    });
    if (!('pendingApproval' in added)) throw new Error('The payee was added without approval.');
    expect(added.pendingApproval.context).not.toHaveProperty('withoutSecret');
    expect(await ok(arun, 'approvals.approve', { id: added.pendingApproval.id })).toMatchObject({ state: 'succeeded' });
    expect(sandbox.fixtures().beneficiaries).toHaveLength(before + 1);
  });

  it('will not send what the policy lets through: sending needs the secret', async () => {
    const policy = {
      ...DEFAULT_POLICY,
      rules: { ...DEFAULT_POLICY.rules, 'order.refund': { ...DEFAULT_RULE, aboveMinor: 10_000 } },
    };
    await ok(ada, 'approvals.setPolicy', { policy });
    try {
      const order = successOrders()[2]!.id;
      const before = await refunds(order);
      const small = await call(olga, 'orders.refund', { requestKey: key(), orderId: order, amount: 1_000 });
      expect(small).toMatchObject({ ok: false, error: { code: 'SECRET_NOT_HELD' } });
      expect(!small.ok && small.error.message).toMatch(/sends order refund \(full or partial\) without approval/);
      expect(await refunds(order)).toHaveLength(before.length);
      // The same refund from a console that holds the secret is sent at once.
      const sent = await ok(arun, 'orders.refund', { requestKey: key(), orderId: order, amount: 1_000 });
      expect('outcome' in sent && sent.outcome.outcome).toBe('succeeded');
    } finally {
      await ok(ada, 'approvals.setPolicy', { policy: DEFAULT_POLICY });
    }
  });
});
