/**
 * Four eyes on money, on a real PostgreSQL desk and the real sandbox: a maker's console proposes, an approver's
 * console approves and sends once, and the maker sees the outcome. What the database enforces is checked with raw
 * SQL (the maker cannot approve their own proposal, nor an operator anyone's); what is sent is checked against the
 * sandbox's own records (its refund attempts, its subscriptions' charges), never the console's word for it.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { withActionContext } from '../../electron/journal/action-context';
import type { Sandbox } from '../../electron/sandbox/server';
import { OPERATIONS } from '../../shared/api/operations';
import { DEFAULT_POLICY, DEFAULT_RULE, type Proposal } from '../../shared/approvals';
import { EMBEDDED_SECRET, call, coreOnSandbox, ok } from '../support/core';
import { createTestDesk, type TestDesk, deskConsole } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { hook, refundAttempts } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

describe.runIf(postgresAvailable())('approvals on a desk', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  const dirs: string[] = [];
  const cores: Core[] = [];
  /** Olga makes; Arun and Bela approve; Ada sets the policy. */
  let olga: Core;
  let arun: Core;
  let bela: Core;
  let ada: Core;
  let keys = 0;
  const key = () => `approval-key-${++keys}`;

  const vaults = new Map<string, ReturnType<typeof memoryStore>>();
  const dirOf = new Map<string, string>();
  const joined = async (name: string) => {
    vaults.set(name, memoryStore());
    const core = await deskConsole(sandbox, cluster, desk, name, dirs, vaults.get(name));
    dirOf.set(name, dirs.at(-1)!);
    cores.push(core);
    return core;
  };
  const refunds = (orderId: string) => refundAttempts(sandbox.url, orderId, { secret: EMBEDDED_SECRET });
  /** The seeded orders that could be refunded at the start: few, so each test takes its own or sends nothing. */
  let refundable: { id: string }[];
  const successOrders = () => refundable;
  /** Refunds `amount` of an order through the maker's console: the proposal it became. */
  const proposeRefund = async (orderId: string, amount: number | null): Promise<Proposal> => {
    const r = await ok(olga, 'orders.refund', { requestKey: key(), orderId, amount });
    if (!('pendingApproval' in r)) throw new Error('The refund was sent without approval.');
    return r.pendingApproval;
  };
  const journalOf = async (proposalId: string) => {
    const su = await desk.superuser();
    try {
      const { rows } = await su.query<{ person: string; event: string; outcome: string }>(
        "SELECT person, event, outcome FROM desk.journal WHERE kind = 'approval' AND data::jsonb ->> 'proposalId' = $1 ORDER BY seq",
        [proposalId],
      );
      return rows;
    } finally {
      await su.end();
    }
  };

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', arun: 'approver', bela: 'approver', ada: 'admin' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 0 });
    refundable = sandbox.fixtures().orders.filter((o) => o.status === 'success');
    // One at a time: each console's folder is known by the order it was made in.
    olga = await joined('olga');
    arun = await joined('arun');
    bela = await joined('bela');
    ada = await joined('ada');
  });
  afterEach(() => hook(sandbox.url, 'DELETE', 'faults'));
  afterAll(async () => {
    await Promise.all(cores.map((c) => c.close()));
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('proposes a refund instead of sending it, and the approver sends it once; the maker sees the outcome', async () => {
    const order = successOrders()[0]!.id;
    const before = await refunds(order);
    const proposal = await proposeRefund(order, 12_345);
    expect(proposal).toMatchObject({ action: 'order.refund', amount: 12_345, needed: 1, state: 'pending' });
    expect(proposal.maker).toBe(desk.who('olga'));
    expect(await refunds(order)).toHaveLength(before.length);

    const waiting = await ok(arun, 'approvals.list', { scope: 'waiting' });
    expect(waiting.map((p) => p.id)).toContain(proposal.id);
    expect((await ok(arun, 'approvals.counts', {}))!.waiting).toBeGreaterThanOrEqual(1);
    const review = await ok(arun, 'approvals.review', { id: proposal.id });
    expect(review).toMatchObject({ canApprove: true, blocked: null });
    expect(review.facts.map((f) => f.label)).toEqual(expect.arrayContaining(['Amount', 'Refundable now']));
    expect(review.facts.find((f) => f.label === 'Amount')!.value).toBe(
      '₹123.45 (Rupees one hundred twenty-three and paise forty-five)',
    );

    const done = await ok(arun, 'approvals.approve', { id: proposal.id });
    expect(done).toMatchObject({ state: 'succeeded', sender: desk.who('arun') });
    const after = await refunds(order);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.amount).toBe(12_345);

    const seen = (await ok(olga, 'approvals.list', { scope: 'all' })).find((p) => p.id === proposal.id)!;
    expect(seen).toMatchObject({ state: 'succeeded', outcomeSummary: expect.stringContaining('Refunded') });
    expect(await journalOf(proposal.id)).toEqual([
      { person: desk.who('olga'), event: 'approval.propose', outcome: 'done' },
      { person: desk.who('arun'), event: 'approval.approve', outcome: 'done' },
      { person: desk.who('arun'), event: 'approval.outcome', outcome: 'succeeded' },
    ]);
    // The approving console's own journal holds the send, tagged with the proposal.
    const sentEntries = arun.journals
      .for('sandbox')
      .journal.list({ kind: 'action', text: proposal.id })
      .map((e) => [e.event, e.outcome]);
    expect(sentEntries).toEqual([
      ['order.refund', 'succeeded'],
      ['order.refund', 'attempted'],
    ]);
  });

  it('refuses the maker approving their own proposal, even through raw SQL, and an operator approving at all', async () => {
    const proposal = await proposeRefund(successOrders()[0]!.id, 1_000);
    const own = await call(olga, 'approvals.approve', { id: proposal.id });
    expect(own).toMatchObject({ ok: false, error: { code: 'DESK_ROLE' } });

    // An approver who proposes cannot approve their own either: the database checks the session's login.
    const raw = await desk.rawAs('arun');
    try {
      const { rows } = await raw.query<{ r: { id: string } }>(
        "SELECT desk.propose('order.capture', '{}'::jsonb, 100, 'INR', 'raw', '{}'::jsonb, 'psql') AS r",
      );
      await expect(raw.query("SELECT desk.approve_proposal($1, '{}'::jsonb, 'psql')", [rows[0]!.r.id])).rejects.toThrow(
        /another person must approve it/,
      );
      await expect(raw.query("UPDATE desk.proposals SET state = 'sending'")).rejects.toThrow(/permission denied/);
      await expect(
        raw.query('INSERT INTO desk.proposal_approvals (proposal_id) VALUES ($1)', [proposal.id]),
      ).rejects.toThrow(/permission denied/);
    } finally {
      await raw.end();
    }
    const operator = await desk.rawAs('olga');
    try {
      await expect(
        operator.query("SELECT desk.approve_proposal($1, '{}'::jsonb, 'psql')", [proposal.id]),
      ).rejects.toThrow(/permission denied for function approve_proposal/);
    } finally {
      await operator.end();
    }
    expect(await ok(olga, 'approvals.withdraw', { id: proposal.id })).toMatchObject({ state: 'withdrawn' });
  });

  it('sends once when two approvers approve the same proposal at the same moment', async () => {
    const order = successOrders()[1]!.id;
    const before = await refunds(order);
    const proposal = await proposeRefund(order, 2_000);
    const [a, b] = await Promise.all([
      call(arun, 'approvals.approve', { id: proposal.id }),
      call(bela, 'approvals.approve', { id: proposal.id }),
    ]);
    const won = [a, b].filter((r) => r.ok);
    const lost = [a, b].filter((r) => !r.ok);
    expect(won).toHaveLength(1);
    expect(lost).toEqual([{ ok: false, error: { code: 'DESK_CONFLICT', message: expect.stringMatching(/already/) } }]);
    expect(await refunds(order)).toHaveLength(before.length + 1);
  });

  it('asks a second approver above the threshold the admin set, and the first approval sends nothing', async () => {
    const policy = {
      ...DEFAULT_POLICY,
      rules: {
        ...DEFAULT_POLICY.rules,
        'order.refund': { ...DEFAULT_RULE, aboveMinor: 1_000, secondApproverAboveMinor: 5_000 },
      },
    };
    expect(await call(arun, 'approvals.setPolicy', { policy })).toMatchObject({
      ok: false,
      error: { code: 'DESK_ROLE' },
    });
    await ok(ada, 'approvals.setPolicy', { policy });

    const order = successOrders()[2]!.id;
    const before = await refunds(order);
    // At or below the threshold the refund is sent at once.
    const small = await ok(olga, 'orders.refund', { requestKey: key(), orderId: order, amount: 1_000 });
    expect('outcome' in small && small.outcome.outcome).toBe('succeeded');
    const big = await proposeRefund(order, 6_000);
    expect(big.needed).toBe(2);
    expect(await ok(arun, 'approvals.approve', { id: big.id })).toMatchObject({ state: 'pending' });
    expect(await refunds(order)).toHaveLength(before.length + 1);
    const again = await call(arun, 'approvals.approve', { id: big.id });
    expect(again).toMatchObject({ ok: false, error: { code: 'DESK_CONFLICT' } });
    expect(await ok(bela, 'approvals.approve', { id: big.id })).toMatchObject({ state: 'succeeded' });
    expect(await refunds(order)).toHaveLength(before.length + 2);
    await ok(ada, 'approvals.setPolicy', { policy: DEFAULT_POLICY });
  });

  it('cannot approve an expired proposal; the expiry is journaled', async () => {
    const proposal = await proposeRefund(successOrders()[0]!.id, 1_500);
    const su = await desk.superuser();
    try {
      await su.query("UPDATE desk.proposals SET expires_at = now() - interval '1 minute' WHERE id = $1", [proposal.id]);
    } finally {
      await su.end();
    }
    const refused = await call(arun, 'approvals.approve', { id: proposal.id });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'DESK_REFUSED', message: expect.stringMatching(/expired/) },
    });
    expect((await ok(olga, 'approvals.list', { scope: 'all' })).find((p) => p.id === proposal.id)).toMatchObject({
      state: 'expired',
    });
    expect((await journalOf(proposal.id)).map((e) => e.event)).toEqual(['approval.propose', 'approval.expire']);
  });

  it('rejects with a reason the maker reads, and refuses a rejection without one', async () => {
    const proposal = await proposeRefund(successOrders()[0]!.id, 1_700);
    expect(await call(arun, 'approvals.reject', { id: proposal.id, reason: '' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    await ok(arun, 'approvals.reject', { id: proposal.id, reason: 'Customer withdrew the complaint' });
    expect((await ok(olga, 'approvals.list', { scope: 'all' })).find((p) => p.id === proposal.id)).toMatchObject({
      state: 'rejected',
      decidedBy: desk.who('arun'),
      reason: 'Customer withdrew the complaint',
    });
  });

  it('refuses at approval time a refund that is more than the order has left to refund', async () => {
    const order = successOrders()[2]!.id;
    const whole = (await ok(olga, 'orders.fetch', { id: order })).balance!.refundable;
    const first = await proposeRefund(order, whole);
    const second = await proposeRefund(order, whole);
    await ok(arun, 'approvals.approve', { id: first.id });
    const before = await refunds(order);
    const review = await ok(bela, 'approvals.review', { id: second.id });
    expect(review.blocked).toMatch(/more than the ₹0\.00 refundable now/);
    const refused = await call(bela, 'approvals.approve', { id: second.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'APPROVAL_BLOCKED' } });
    expect(await refunds(order)).toEqual(before);
  });

  it('says "outcome unknown" when the answer is lost, and check status on the sending console settles it', async () => {
    const order = successOrders()[1]!.id;
    const before = await refunds(order);
    const proposal = await proposeRefund(order, 2_500);
    await hook(sandbox.url, 'POST', 'faults', { path: OPERATIONS['order.refundPartial'].path, kind: 'malformed' });
    const sent = await ok(arun, 'approvals.approve', { id: proposal.id });
    expect(sent).toMatchObject({
      state: 'unknown',
      outcomeSummary: expect.stringMatching(/^Outcome unknown — check status/),
    });
    expect(await refunds(order)).toHaveLength(before.length + 1);
    // Another console cannot settle it from its journal: it did not send it.
    expect(await call(bela, 'approvals.checkStatus', { id: proposal.id })).toMatchObject({
      ok: false,
      error: { code: 'DESK_REFUSED' },
    });
    const settled = await ok(arun, 'approvals.checkStatus', { id: proposal.id });
    expect(settled).toMatchObject({ state: 'succeeded' });
    // Approving again sends nothing: it is no longer pending.
    expect(await call(bela, 'approvals.approve', { id: proposal.id })).toMatchObject({
      ok: false,
      error: { code: 'DESK_CONFLICT' },
    });
    expect(await refunds(order)).toHaveLength(before.length + 1);
  });

  it('guards an ad hoc charge far above its subscription: a reason is needed before it is proposed', async () => {
    const sub = sandbox.fixtures().subscriptions.find((s) => s.status === 'active')!;
    const view = await ok(olga, 'subscriptions.fetch', { id: sub.id, by: 'id' });
    const tooMuch = view.subscription.amount * 300;
    const refused = await call(olga, 'subscriptions.charge', {
      requestKey: key(),
      id: sub.id,
      amount: tooMuch,
      currency: view.subscription.currency,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CHARGE_NEEDS_REASON' } });
    // A harmless fault counts the subscription's fetches: proposing fetches it once, for the summary and the guard.
    const fetches = 10;
    await hook(sandbox.url, 'POST', 'faults', {
      path: OPERATIONS['subscription.fetch'].path,
      kind: 'delay',
      delayMs: 0,
      count: fetches,
    });
    const withReason = await ok(olga, 'subscriptions.charge', {
      requestKey: key(),
      id: sub.id,
      amount: tooMuch,
      currency: view.subscription.currency,
      reason: 'Annual plan upgrade agreed by phone',
    });
    expect(withReason).toMatchObject({ pendingApproval: { action: 'subscription.charge', needed: 1 } });
    const left = (await hook<{ faults: { remaining: number }[] }>(sandbox.url, 'GET', 'faults')).body.faults;
    expect(fetches - left[0]!.remaining).toBe(1);
    const review = await ok(arun, 'approvals.review', {
      id: (withReason as { pendingApproval: Proposal }).pendingApproval.id,
    });
    expect(review.facts).toEqual(
      expect.arrayContaining([{ label: 'Reason for the charge', value: 'Annual plan upgrade agreed by phone' }]),
    );
    expect(sandbox.fixtures().subscriptions.find((s) => s.id === sub.id)!.charges).toEqual(sub.charges);
  });

  it('proposes a new payee; the approver sends it', async () => {
    const before = sandbox.fixtures().beneficiaries.length;
    const added = await ok(olga, 'beneficiaries.create', {
      requestKey: key(),
      beneficiary: { name: 'Priya Sharma', account_number: '000123456789', ifsc: 'HDFC0000001' },
    });
    expect(added).toMatchObject({
      pendingApproval: { action: 'beneficiary.add', summary: expect.stringContaining('ending 6789') },
    });
    expect(sandbox.fixtures().beneficiaries).toHaveLength(before);
    const id = (added as { pendingApproval: Proposal }).pendingApproval.id;
    expect(await ok(bela, 'approvals.approve', { id })).toMatchObject({ state: 'succeeded' });
    expect(sandbox.fixtures().beneficiaries).toHaveLength(before + 1);
  });

  it('proposes an import as one batch; the approver sends each row once, a lost answer kept apart', async () => {
    const csv = [
      'Name,Account number,IFSC,UPI address',
      'Meera Iyer,001122334455,HDFC0000001,',
      'Not A Payee,12,XXXX,',
      'Ravi Kumar,,,ravi.kumar@okaxis',
      'Sita Devi,009988776655,ICIC0000001,',
    ].join('\r\n');
    const before = sandbox.fixtures().beneficiaries.length;
    const run = await ok(olga, 'beneficiaries.importRun', {
      fileName: 'payees.csv',
      content: Buffer.from(csv).toString('base64'),
    });
    if (!('pendingApproval' in run)) throw new Error('The import was sent without approval.');
    const proposal = run.pendingApproval;
    const valid = [2, 4, 5];
    expect(proposal).toMatchObject({
      action: 'beneficiary.import',
      needed: 1,
      summary: 'Import 3 payees from payees.csv: Meera Iyer, Ravi Kumar, Sita Devi.',
    });
    expect((proposal.request['rows'] as { row: number }[]).map((r) => r.row)).toEqual(valid);
    expect(sandbox.fixtures().beneficiaries).toHaveLength(before);

    // The review shows each payee whole: the full account number, its IFSC with the bank's name.
    const review = await ok(arun, 'approvals.review', { id: proposal.id });
    expect(review).toMatchObject({ canApprove: true, blocked: null });
    expect(review.facts).toEqual(
      expect.arrayContaining([
        { label: 'Payees', value: '3 from payees.csv' },
        { label: 'Row 2', value: 'Meera Iyer: A/c 001122334455, IFSC HDFC0000001 (HDFC Bank)' },
        { label: 'Row 4', value: 'Ravi Kumar: UPI ravi.kumar@okaxis' },
      ]),
    );

    // The first row's answer is lost; the other rows are sent all the same.
    await hook(sandbox.url, 'POST', 'faults', { path: OPERATIONS['beneficiary.create'].path, kind: 'malformed' });
    const sent = await ok(arun, 'approvals.approve', { id: proposal.id });
    expect(sent).toMatchObject({ state: 'unknown', sender: desk.who('arun') });
    expect(sent.outcomeSummary).toBe('Imported payees.csv: 2 created, 1 outcome unknown — check status.');
    expect(sandbox.fixtures().beneficiaries).toHaveLength(before + valid.length);
    const su = await desk.superuser();
    try {
      const { rows } = await su.query<{ outcome: { rows: { row: number; outcome: string }[] } }>(
        'SELECT outcome FROM desk.proposals WHERE id = $1',
        [proposal.id],
      );
      expect(rows[0]!.outcome.rows.map((r) => [r.row, r.outcome])).toEqual([
        [2, 'unknown'],
        [4, 'created'],
        [5, 'created'],
      ]);
    } finally {
      await su.end();
    }
    const attempts = arun.journals
      .for('sandbox')
      .journal.list({ kind: 'action', text: proposal.id })
      .filter((e) => e.event === 'beneficiary.create' && e.outcome === 'attempted');
    expect(attempts).toHaveLength(valid.length);

    // Sending the batch again (a retry), or checking its status, creates no payee twice.
    const again = await arun.treasury.beneficiaryImport.sendBatch(
      'sandbox',
      proposal.request as Parameters<Core['treasury']['beneficiaryImport']['sendBatch']>[1],
    );
    expect(again.rows.map((r) => r.outcome)).toEqual(['unknown', 'already_created', 'already_created']);
    expect(await ok(arun, 'approvals.checkStatus', { id: proposal.id })).toMatchObject({ state: 'unknown' });
    expect(sandbox.fixtures().beneficiaries).toHaveLength(before + valid.length);
  });

  it('leaves "outcome unknown" when the approving console stops after sending, and its check status settles it', async () => {
    const order = successOrders()[1]!.id;
    const before = await refunds(order);
    const proposal = await proposeRefund(order, 3_100);
    // What `approve` does, up to the point where the console stops: the desk's permit, then the send, whose answer
    // is lost — and nothing recorded on the desk.
    const arunDesk = (await arun.desks.for('sandbox'))!;
    expect(await arunDesk.approvals.approve(proposal.id, {})).toMatchObject({ send: true });
    await hook(sandbox.url, 'POST', 'faults', { path: OPERATIONS['order.refundPartial'].path, kind: 'malformed' });
    await withActionContext({ proposalId: proposal.id }, () =>
      arun.merchant.orders.refund('sandbox', `proposal:${proposal.id}`, order, 3_100),
    ).catch(() => undefined);
    expect((await ok(olga, 'approvals.list', { scope: 'all' })).find((p) => p.id === proposal.id)!.state).toBe(
      'sending',
    );
    // The console stops, and starts again on its own data folder.
    await arun.close();
    arun = coreOnSandbox(sandbox, {
      dataDir: dirOf.get('arun')!,
      vault: vaults.get('arun')!,
      consoleName: 'arun-laptop',
    });
    cores.push(arun);
    const listed = (await ok(arun, 'approvals.list', { scope: 'all' })).find((p) => p.id === proposal.id)!;
    expect(listed).toMatchObject({ state: 'unknown', outcomeSummary: expect.stringMatching(/^Outcome unknown/) });
    expect(await ok(arun, 'approvals.checkStatus', { id: proposal.id })).toMatchObject({ state: 'succeeded' });
    expect(await refunds(order)).toHaveLength(before.length + 1);
  });
});
