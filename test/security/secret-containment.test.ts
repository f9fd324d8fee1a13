/**
 * Secret containment: a unique merchant secret, stored in the real OS keychain for a profile that points at a real
 * sandbox started with that secret, goes through every IPC channel (valid, fuzzed and foreign-sender calls), "test
 * connection" with a wrong and the right secret, replacement, deletion, a restart of the core, and API errors whose
 * text echoes what was sent. Every reply, event, error text and every file in the data folder (settings, logs) is
 * then searched for the secret and its encodings: zero hits. The test also proves the secret was really used (the
 * sandbox accepted it), so "never stored" cannot pass for "never leaked".
 */
import { DEFAULT_POLICY } from '../../shared/approvals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from '../../electron/api/transport';
import { createCore, type Core } from '../../electron/core';
import { createLogger, createRedactor, openLogFile, type Redactor } from '../../electron/log';
import type { Sandbox } from '../../electron/sandbox/server';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import { IPC_CHANNELS, type IpcChannel } from '../../shared/ipc/channels';
import { ipcContract } from '../../shared/ipc/contract';
import { nextEvent } from '../support/core';
import { hook } from '../support/sandbox-http';
import { requireSystem } from '../support/system';
import { hostilePayload } from './fuzz';
import { addDays } from '../../shared/time';
import {
  APP_ORIGIN,
  MAIN_FRAME,
  type Haystack,
  filesUnder,
  hitsIn,
  prng,
  recordingTransport,
  seedFor,
  validInputs,
} from './support';
import { startTestSandbox } from '../support/sandbox';
import { zipParts } from '../support/export-files';
import { TEST_TODAY, testClock } from '../support/clock';

const service = `payout-console-containment-${randomBytes(4).toString('hex')}`;
const keychain = createKeytarStore(service);
const probe = await keychain.probe();
const available = requireSystem('the OS keychain', probe.available ? null : probe.reason);

const SECRET = 'sk_live_' + randomBytes(16).toString('hex');
const WRONG_SECRET = 'sk_live_' + randomBytes(16).toString('hex');
const KEY = 'merchant_' + randomBytes(4).toString('hex');
const EMBEDDED_KEY = 'test_key';
const EMBEDDED_SECRET = randomBytes(24).toString('base64url');
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** What must never appear: each secret, its base64, and the Basic credentials made from it. */
const NEEDLES: [string, string][] = [
  ['secret', SECRET],
  ['base64(secret)', b64(SECRET)],
  ['base64(key:secret)', b64(`${KEY}:${SECRET}`)],
  ['wrong secret', WRONG_SECRET],
  ['base64(wrong secret)', b64(WRONG_SECRET)],
  ['base64(key:wrong secret)', b64(`${KEY}:${WRONG_SECRET}`)],
  ['embedded sandbox secret', EMBEDDED_SECRET],
  ['base64(embedded sandbox secret)', b64(EMBEDDED_SECRET)],
  ['base64(sandbox key:secret)', b64(`${EMBEDDED_KEY}:${EMBEDDED_SECRET}`)],
];

/** Everything that came back or went out, as text, labelled for the failure message. */
const replies: Haystack[] = [];
const events: Haystack[] = [];
const errorTexts: Haystack[] = [];

let dataDir: string;
let exportFile = '';
let embedded: Sandbox;
let merchant: Sandbox;
const http = createNodeTransport();
const network = recordingTransport(http);

async function startCore(redactor: Redactor): Promise<Core> {
  // As main.ts: the embedded sandbox's secret is known to the redactor from the start, the log is a file in the
  // data folder, and the vault is the OS keychain.
  redactor.add(EMBEDDED_SECRET);
  // Synchronous, so the file holds every line when it is searched; both cores append to the same file.
  const log = await openLogFile(join(dataDir, 'logs', 'main.log'), { sync: true });
  const core = createCore({
    now: testClock(),
    appVersion: '0.0.0-containment',
    dataDir,
    vault: keychain,
    sandbox: { url: embedded.url, key: EMBEDDED_KEY, secret: EMBEDDED_SECRET },
    log: createLogger('main', log.stream, redactor),
    redactor,
    transport: network.transport,
  });
  core.events.subscribe((event, payload) => events.push({ label: `event ${event}`, text: JSON.stringify(payload) }));
  return core;
}

async function call(core: Core, channel: IpcChannel, input: unknown, label = 'valid', sender = MAIN_FRAME) {
  const reply = await core.router.handle(channel, input, sender, APP_ORIGIN);
  replies.push({ label: `${channel} (${label})`, text: JSON.stringify(reply) });
  return reply;
}

/** The approvals' steps, which only a desk takes: called alone, each is refused, never answered. */
const DESK_STEPS: [IpcChannel, unknown][] = [
  ['approvals.setPolicy', { policy: DEFAULT_POLICY }],
  ['approvals.list', { scope: 'all' }],
  ['approvals.review', { id: 'proposal-1' }],
  ['approvals.approve', { id: 'proposal-1' }],
  ['approvals.reject', { id: 'proposal-1', reason: 'Wrong payee' }],
  ['approvals.withdraw', { id: 'proposal-1' }],
  ['approvals.checkStatus', { id: 'proposal-1' }],
  ['approvals.settle', { id: 'proposal-1', succeeded: true, note: 'Seen at the gateway' }],
];

async function ok<T>(core: Core, channel: IpcChannel, input: unknown): Promise<T> {
  const reply = await call(core, channel, input);
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.code} ${reply.error.message}`);
  return reply.value as T;
}

/** Runs an API call through the core's own client and keeps every text of the error it throws. */
async function apiError(label: string, run: () => Promise<unknown>): Promise<{ kind?: string; userMessage?: string }> {
  try {
    await run();
  } catch (e) {
    const error = e as Error & { kind?: string; userMessage?: string };
    errorTexts.push(
      { label: `${label}: String()`, text: String(error) },
      { label: `${label}: stack`, text: error.stack ?? '' },
      { label: `${label}: fields`, text: JSON.stringify({ ...error, message: error.message }) },
      { label: `${label}: userMessage`, text: error.userMessage ?? '' },
    );
    return error;
  }
  throw new Error(`${label}: expected an error`);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pc-containment-'));
  embedded = await startTestSandbox({ key: EMBEDDED_KEY, secret: EMBEDDED_SECRET, settlementsPerDay: 5 });
  merchant = await startTestSandbox({ key: KEY, secret: SECRET, settlementsPerDay: 5 });
});

afterAll(async () => {
  await Promise.all([embedded?.close(), merchant?.close()]);
  http.destroy();
  rmSync(dataDir, { recursive: true, force: true });
  if (available) for (const account of await keychain.accounts()) await keychain.delete(account);
});

describe.runIf(available)('secret containment', () => {
  it('keeps the secret out of every reply, event, error, setting and log line', async () => {
    const redactor = createRedactor();
    const core = await startCore(redactor);
    const succeeded = new Set<IpcChannel>();
    const okCall = async <T>(channel: IpcChannel, input: unknown) => {
      const value = await ok<T>(core, channel, input);
      succeeded.add(channel);
      return value;
    };
    const fields = {
      name: 'Containment',
      environment: 'custom',
      baseUrl: merchant.url,
      aiUrl: `${merchant.url}/ai`,
      key: KEY,
    };

    // The whole surface with valid inputs.
    await okCall('app.info', undefined);
    await okCall('app.connectivity', undefined);
    await okCall('profiles.list', undefined);
    const { id } = await okCall<{ id: string }>('profiles.create', fields);
    const spare = await okCall<{ id: string }>('profiles.create', { ...fields, name: 'Spare' });
    expect(await okCall('credentials.status', { profileId: id })).toMatchObject({ hasSecret: false });

    // Wrong secret first, then replaced by the right one.
    await okCall('credentials.set', { profileId: id, secret: WRONG_SECRET });
    expect(await okCall('credentials.test', { profileId: id })).toMatchObject({ ok: false, reason: 'wrong_secret' });
    const wrongAuth = await apiError('payout accounts with the wrong secret', () =>
      core.credentials.api(id).payouts.accounts(),
    );
    expect(wrongAuth.kind).toBe('auth');
    await okCall('credentials.set', { profileId: id, secret: SECRET });
    const status = await okCall('credentials.status', { profileId: id });
    expect(status).toEqual({ hasSecret: true, keychainAvailable: true });
    const tested = await okCall('credentials.test', { profileId: id });
    expect(tested).toMatchObject({ ok: true });
    expect(await okCall('credentials.test', { profileId: 'sandbox' })).toMatchObject({ ok: true });

    await okCall('profiles.update', { id, fields: { ...fields, name: 'Containment (renamed)' } });
    await okCall('profiles.activate', { id });
    expect(await okCall('app.info', undefined)).toMatchObject({ profile: { id } });
    // A profile no request has reached yet is not contacted yet; its first request below decides.
    expect(await okCall('app.connectivity', undefined)).toMatchObject({ state: 'unknown' });

    // A settlement sync with the secret: the cache file, its WAL and SHM join the data folder searched below.
    const finished = nextEvent(core, 'syncFinished');
    const today = TEST_TODAY;
    const { jobId } = await okCall<{ jobId: string }>('sync.start', {
      from: addDays(today, -3),
      to: addDays(today, -1),
    });
    expect(await finished).toMatchObject({ jobId, summary: { status: 'completed', records: 15 } });
    expect(await okCall('app.connectivity', undefined)).toMatchObject({ state: 'online' });
    expect(await okCall('sync.cancel', { jobId })).toEqual({ cancelled: false });

    // The treasury screens' channels on this profile, whose every request is signed with the secret.
    const range = { from: addDays(today, -3), to: addDays(today, -1) };
    await okCall('settlements.query', { ...range, limit: 10 });
    await okCall('settlements.totals', range);
    await okCall('settlements.aggregate', range);
    await okCall('settlements.facets', range);
    await okCall('accounts.refresh', {});
    await okCall('accounts.overview', undefined);
    await okCall('accounts.checkBalance', {});
    await okCall('accounts.history', {});
    const created = await okCall<{ beneficiary: { beneficiary_id: string } }>('beneficiaries.create', {
      requestKey: 'containment-0001',
      beneficiary: { name: 'Containment Vendor', vpa: 'vendor@okaxis' },
    });
    await okCall('beneficiaries.fetch', { id: created.beneficiary.beneficiary_id });

    // The journal of this profile: its entries, a verification, and a period closed, changed by the service,
    // acknowledged and reopened; an action whose answer was lost, settled by a status check.
    await okCall('journal.list', {});
    expect(await okCall('journal.verify', undefined)).toMatchObject({ ok: true });
    expect(await okCall('journal.lastVerification', undefined)).toMatchObject({ ok: true });
    const period = await okCall<{ id: number }>('journal.closePeriod', range);
    await hook(merchant.url, 'POST', 'settlements/mutate', { date: range.to, count: 1, remove: 0 });
    const resynced = nextEvent(core, 'syncFinished');
    await okCall('sync.start', range);
    await resynced;
    expect(await okCall('journal.periods', range)).toMatchObject([{ id: period.id, state: 'changed' }]);
    await okCall('journal.periodDiff', { id: period.id });
    await okCall('journal.acknowledgePeriod', { id: period.id });
    await okCall('journal.reopenPeriod', { id: period.id });
    await hook(merchant.url, 'POST', 'faults', { path: '/api/v2/payout/beneficiary/create', kind: 'drop' });
    const lost = await call(core, 'beneficiaries.create', {
      requestKey: 'containment-0002',
      beneficiary: { name: 'Containment Vendor Two', vpa: 'vendor2@okaxis' },
    });
    expect(lost.ok).toBe(false);
    const [unresolved] = await okCall<{ attempt: { seq: number } }[]>('journal.unresolved', undefined);
    await okCall('journal.checkStatus', {
      attemptSeq: unresolved!.attempt.seq,
      beneficiaryId: created.beneficiary.beneficiary_id,
    });
    await okCall('beneficiaries.list', {});
    await okCall('beneficiaries.matches', { vpa: 'vendor@okaxis' });
    await okCall('beneficiaries.verifyVpa', { vpa: 'vendor@okaxis' });
    await okCall('beneficiaries.ifsc', { ifsc: 'HDFC0000001' });
    const payoutId = merchant.fixtures().payouts[0]!.id;
    await okCall('payouts.lookup', { payoutId, mode: 'advance' });
    await okCall('payouts.history', { payoutId });
    await okCall('payouts.recent', {});
    await okCall('payouts.check', { ids: [payoutId, 'TRF-NOT-THERE'], mode: 'normal' });
    await okCall('payouts.checkRun', {});
    await okCall('payouts.saveSettings', await okCall('payouts.settings', {}));
    await okCall('payouts.watch', {});
    await okCall('payouts.watchNow', {});
    const headroom = await okCall<{ gateways: { pg: string }[] }>('accounts.headroom', undefined);
    const pg = headroom.gateways[0]!.pg;
    await okCall('accounts.setHeadroomThreshold', { pg, threshold: 1_00_000_00 });
    await okCall('accounts.setHeadroomThreshold', { pg, threshold: null });
    await okCall('beneficiaries.changes', { id: created.beneficiary.beneficiary_id });
    // The Merchant tools' channels, each request signed with the secret: a listing, a payment started, the rate,
    // a plan made, fetched and checked, webhooks listed and changed, a classification.
    await okCall('tools.methods', { amount: '500' });
    const order = merchant.fixtures().orders.find((o) => o.status === 'created' && o.payments === 0)!;
    await okCall('tools.process', {
      requestKey: 'containment-process-1',
      order: { order_id: order.id, method: 'upi', code: 'collect', vpa: 'vendor@okaxis' },
    });
    await okCall('tools.currency', { from: 'USD', to: 'INR' });
    const plan = await okCall<{ planId: string; attemptSeq: number }>('plans.create', {
      requestKey: 'containment-plan-1',
      plan: {
        title: 'Containment',
        amount: '10',
        frequency: 30,
        cycle: 1,
        currency: 'INR',
        mer_reference_id: 'CONT-1',
      },
    });
    await okCall('plans.fetch', { id: plan.planId });
    await okCall('plans.checkCreate', { attemptSeq: plan.attemptSeq });
    const hooks = await okCall<{ endpoints: { id: string }[] }>('webhooks.list', {});
    await okCall('webhooks.update', {
      requestKey: 'containment-hook-1',
      change: { id: hooks.endpoints[0]!.id, topics: ['order.paid'] },
    });
    await okCall('classification.classify', {
      state: { note: 'containment' },
      questions: { q: { type: 'noul', instructions: 'Is it?' } },
    });
    // Orders: a refund and a capture, each signed with the secret, their journal and a status check.
    const fixtures = merchant.fixtures();
    const paidOrder = fixtures.orders.find((o) => o.status === 'success')!.id;
    await okCall('orders.fetch', { id: paidOrder });
    await okCall('orders.cached', { id: paidOrder });
    await okCall('orders.recent', undefined);
    await okCall('orders.refund', { requestKey: 'containment-refund-1', orderId: paidOrder, amount: 100 });
    await okCall('orders.capture', {
      requestKey: 'containment-capture-1',
      orderId: fixtures.orders.find((o) => o.status === 'authorized')!.id,
    });
    const orderEntries = await okCall<{ seq: number; outcome: string }[]>('orders.actions', { id: paidOrder });
    await okCall('orders.checkStatus', { attemptSeq: orderEntries.find((e) => e.outcome === 'attempted')!.seq });
    // Subscriptions: a charge whose answer is lost, settled by what the desk records; a charge; a cancel, checked.
    const active = fixtures.subscriptions.find((s) => s.status === 'active')!;
    await okCall('subscriptions.fetch', { id: active.receipt, by: 'receipt' });
    await okCall('subscriptions.cached', { id: active.id });
    await okCall('subscriptions.recent', undefined);
    await hook(merchant.url, 'POST', 'faults', { path: '/api/v2/subscription/adhoc', kind: 'drop' });
    const lostCharge = await call(core, 'subscriptions.charge', {
      requestKey: 'containment-charge-1',
      id: active.id,
      amount: 100,
      currency: 'INR',
    });
    expect(lostCharge.ok).toBe(false);
    type Entry = { seq: number; outcome: string; event: string };
    const chargeSeq = (await okCall<Entry[]>('subscriptions.actions', { id: active.id })).find(
      (e) => e.event === 'subscription.charge' && e.outcome === 'attempted',
    )!.seq;
    await okCall('subscriptions.recordCharge', { attemptSeq: chargeSeq, charged: false });
    await okCall('subscriptions.charge', {
      requestKey: 'containment-charge-2',
      id: active.id,
      amount: 100,
      currency: 'INR',
    });
    await okCall('subscriptions.cancel', { requestKey: 'containment-cancel-1', id: active.id });
    const cancelSeq = (await okCall<Entry[]>('subscriptions.actions', { id: active.id })).find(
      (e) => e.event === 'subscription.cancel' && e.outcome === 'attempted',
    )!.seq;
    await okCall('subscriptions.checkStatus', { attemptSeq: cancelSeq });
    // Saved views, kept in the settings file searched below.
    const view = { name: 'Month end', state: { filters: {}, sort: null, hidden: [] } };
    await okCall('views.save', { table: 'settlements', view });
    await okCall('views.setDefault', { table: 'settlements', name: 'Month end' });
    await okCall('views.list', { table: 'settlements' });
    await okCall('views.remove', { table: 'settlements', name: 'Month end' });
    // What the syncs changed, each date's completeness, one exception's workflow and its triage.
    await okCall('settlements.changes', { ...range, kind: 'changed', limit: 5 });
    await okCall('settlements.changesSummary', range);
    await okCall('settlements.completeness', range);
    const broken = await okCall<{ rows: { id: number }[] }>('settlements.query', {
      ...range,
      exceptionsOnly: true,
      limit: 1,
    });
    const recordId = broken.rows[0]!.id;
    await okCall('settlements.exception', { recordId });
    await okCall('settlements.exceptionAction', { recordId, action: 'note', text: 'containment' });
    // The exception queue, a bulk action over it, and which desk (none: local mode) the profile is on.
    await okCall('exceptions.queue', { filter: { state: 'open' }, offset: 0, limit: 50 });
    await okCall('exceptions.bulk', { action: 'acknowledge', filter: { state: 'open' }, text: 'containment' });
    await okCall('desk.status', {});
    await okCall('settlements.triage', { date: range.to, threshold: 0.5 });
    // The bank reconciliation on the sandbox's own statement: import, match, one pair taken apart and put back by
    // hand, the report and its workbook.
    const statement = await hook<{ csv: string }>(merchant.url, 'POST', 'statement', range);
    const bank = 'Containment bank';
    await okCall('recon.previewStatement', {
      fileName: 'statement.csv',
      content: Buffer.from(statement.body.csv).toString('base64'),
      account: bank,
    });
    await okCall('recon.importStatement', {
      fileName: 'statement.csv',
      content: Buffer.from(statement.body.csv).toString('base64'),
      account: bank,
    });
    await okCall('recon.accounts', undefined);
    type Batch = { date: string; pg: string; utr: string; settlementDate: string };
    const [firstBatch] = (await okCall<{ batches: Batch[] }>('recon.batches', range)).batches;
    const batchKey = (b: Batch) => ({ date: b.date, pg: b.pg, utr: b.utr, settlementDate: b.settlementDate });
    await okCall('recon.batchRecords', { batch: batchKey(firstBatch!), offset: 0, limit: 5 });
    const matched = await okCall<{ batches: (Batch & { matchId: number | null; lineIds: number[] })[] }>(
      'recon.match',
      { account: bank, ...range },
    );
    const pair = matched.batches.find((b) => b.matchId !== null && b.lineIds.length > 0)!;
    await okCall('recon.unmatch', { account: bank, matchId: pair.matchId, note: 'containment' });
    await okCall('recon.matchByHand', {
      account: bank,
      batch: batchKey(pair),
      lineIds: pair.lineIds,
      note: 'containment',
      // The pair may differ from its batch: the core asks for a reason then.
      reason: 'containment',
    });
    await okCall('recon.report', { account: bank, ...range });
    await okCall('recon.saveSettings', { windowDays: 2, overdueDays: 1 });
    const reconFile = (await okCall<{ file: string }>('recon.export', { account: bank, ...range })).file;
    await okCall('recon.saveTallyLedgers', {
      bank: 'Containment bank',
      receivable: 'Containment receivable',
      fees: 'Containment fees',
      cgst: 'CGST',
      sgst: 'SGST',
      igst: 'IGST',
      subvention: 'Subvention',
    });
    const tallyFile = (await okCall<{ file: string }>('recon.exportTally', { account: bank, ...range })).file;
    // A vendor file of two payees, previewed, created, and its results and the template written out.
    const vendorFile = {
      fileName: 'vendors.csv',
      content: Buffer.from(
        'Name,Account number,IFSC\r\nContainment Import One,000123450001,HDFC0001234\r\nContainment Import Two,000123450002,HDFC0001234\r\n',
      ).toString('base64'),
    };
    const preview = await okCall('beneficiaries.importPreview', vendorFile);
    await okCall('beneficiaries.importRun', vendorFile);
    await okCall('beneficiaries.importCancel', undefined);
    await okCall('beneficiaries.importResults', { report: preview });
    await okCall('beneficiaries.importTemplate', undefined);
    const exported = nextEvent(core, 'exportFinished');
    const exportJob = await okCall<{ jobId: string }>('exports.start', { kind: 'payouts', format: 'csv' });
    const exportEnd = (await exported) as { file: string };
    expect(exportEnd).toMatchObject({ jobId: exportJob.jobId, status: 'completed' });
    exportFile = relative(dataDir, exportEnd.file);
    await okCall('exports.reveal', { jobId: exportJob.jobId });
    expect(await okCall('exports.cancel', { jobId: exportJob.jobId })).toEqual({ cancelled: false });
    expect(await okCall('notices.list', undefined)).toEqual([]);
    expect(await okCall('notices.reveal', { id: 'no-such-notice' })).toEqual({ revealed: false });
    expect(await okCall('notices.dismiss', { id: 'no-such-notice' })).toEqual({ dismissed: false });
    await okCall('cache.list', undefined);
    await okCall('cache.status', undefined);
    await okCall('cache.integrity', undefined);
    // Approvals: alone, the policy says so and there are no counts; every step needs a desk and is refused in words
    // (each reply is searched for the secret with the rest).
    expect(await okCall('approvals.policy', {})).toEqual({ mode: 'local' });
    expect(await okCall('approvals.counts', {})).toBeNull();
    for (const [channel, input] of DESK_STEPS) {
      expect(await call(core, channel, input)).toMatchObject({ ok: false, error: { code: 'DESK_REFUSED' } });
    }
    // Today: the summary (every panel's text is searched with the rest), its setting, a refresh started and stopped.
    const refresh = await okCall<{ jobId: string }>('today.refresh', {});
    await okCall('today.cancelRefresh', { jobId: refresh.jobId });
    await okCall('today.setRefreshDays', { days: 2 });
    await okCall('today.summary', {});
    expect(await okCall('cache.clear', { profileId: spare.id })).toEqual({ cleared: true, freedBytes: 0 });

    // The spare profile: the same secret set, deleted, set again, then removed with its profile.
    await okCall('credentials.set', { profileId: spare.id, secret: SECRET });
    expect(await okCall('credentials.delete', { profileId: spare.id })).toEqual({ deleted: true });
    await okCall('credentials.set', { profileId: spare.id, secret: WRONG_SECRET });
    await okCall('profiles.remove', { id: spare.id });
    expect(await keychain.accounts()).toEqual([id]);
    expect(succeeded).toEqual(new Set(IPC_CHANNELS.filter((c) => !DESK_STEPS.some(([step]) => step === c))));

    // API errors whose text echoes what was sent: the secret and the Basic credentials as an order or payout id.
    const api = core.credentials.api(id);
    for (const [name, echoed] of [
      ['secret', SECRET],
      ['base64(key:secret)', b64(`${KEY}:${SECRET}`)],
    ] as const) {
      const order = await apiError(`order ${name}`, () => api.orders.fetch(`${echoed}`));
      // The secret's part is cut wherever it sits; in base64(key:secret) the characters that encode only the key
      // (not secret: it is in the settings file) may stay beside the cut.
      expect(order.userMessage).toMatch(/Order [A-Za-z0-9+/]*\[redacted\][A-Za-z0-9+/=]* not found/);
      await apiError(`payout ${name}`, () => api.payouts.fetchPayout(`x-${echoed}-y`));
      await apiError(`refund attempts ${name}`, () => api.orders.refundAttempts(echoed));
    }
    api.close();

    // Fuzzed and secret-bearing invalid inputs on every channel, and valid ones from a foreign page.
    for (const channel of IPC_CHANNELS) {
      const rng = prng(seedFor(`containment ${channel}`));
      const base = validInputs(id, merchant.url)[channel];
      for (let n = 0; n < 40;) {
        const payload = hostilePayload(rng, base);
        if (ipcContract[channel].input.safeParse(payload.value).success) continue;
        n++;
        const reply = await call(core, channel, payload.value, `fuzz: ${payload.kind.slice(0, 60)}`);
        expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      }
      const foreign = { frameUrl: 'https://evil.example/', isMainFrame: true };
      const reply = await call(core, channel, base, 'foreign sender', foreign);
      expect(reply).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    }
    const secretBearing: [IpcChannel, unknown][] = [
      ['credentials.set', { profileId: id, secret: SECRET + 'x'.repeat(600) }],
      ['credentials.set', { profileId: '', secret: SECRET }],
      ['credentials.set', { profileId: id, secret: [SECRET] }],
      ['credentials.set', { profileId: id, secret: { value: SECRET } }],
      ['credentials.set', { profileId: id, secret: SECRET, note: SECRET }],
      ['credentials.set', JSON.parse(`{"__proto__":{"secret":"${SECRET}"},"profileId":"${id}"}`)],
      ['credentials.test', { profileId: id, secret: SECRET }],
      ['profiles.create', { ...fields, key: SECRET.repeat(10) }],
      ['profiles.create', { ...fields, secret: SECRET }],
      ['profiles.update', { id, fields: { ...fields, baseUrl: `https://${KEY}:${SECRET}@evil.example` } }],
    ];
    for (const [channel, input] of secretBearing) {
      expect(await call(core, channel, input, 'secret-bearing invalid')).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT' },
      });
    }
    await call(core, 'credentials.set', { profileId: id, secret: SECRET }, 'foreign sender', {
      frameUrl: 'https://evil.example/',
      isMainFrame: true,
    });

    // A restart: a new core and a new redactor over the same data folder and keychain, which learns the secret only
    // by reading it from the keychain for a request.
    const restartRedactor = createRedactor();
    const restarted = await startCore(restartRedactor);
    expect(await ok(restarted, 'credentials.status', { profileId: id })).toEqual({
      hasSecret: true,
      keychainAvailable: true,
    });
    expect(await ok(restarted, 'credentials.test', { profileId: id })).toMatchObject({ ok: true });
    expect(restartRedactor.apply(`<${SECRET}>`)).toBe('<[redacted]>');
    const restartedApi = restarted.credentials.api(id);
    await apiError('order after restart', () => restartedApi.orders.fetch(SECRET));
    restartedApi.close();
    expect(await ok(restarted, 'credentials.delete', { profileId: id })).toEqual({ deleted: true });
    expect(await ok(restarted, 'credentials.status', { profileId: id })).toMatchObject({ hasSecret: false });

    // The secret really went over the wire and was accepted: authenticated answers came from the merchant sandbox.
    const merchantAnswers = network.requests.filter((r) => r.url.startsWith(merchant.url));
    expect(merchantAnswers.filter((r) => r.status === 200).length).toBeGreaterThan(3);
    expect(merchantAnswers.some((r) => r.status === 401)).toBe(true); // the wrong secret, refused

    // Search everything.
    const files = filesUnder(dataDir).map((f) => ({
      label: relative(dataDir, f.path),
      text: f.bytes.toString('utf8'),
    }));
    // The CSV export is plain text and searched as it is; workbooks are searched unzipped in export-containment.
    expect(exportFile).toMatch(/^exports\/containment-renamed-payouts-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(files.map((f) => f.label).sort()).toEqual(
      [
        `cache/${id}.sqlite`,
        `cache/${id}.sqlite-shm`,
        `cache/${id}.sqlite-wal`,
        // The sync lock's file: empty, a lock and nothing else (electron/cache/sync-lock.ts).
        `cache/${id}.sqlite.sync-lock`,
        // The built-in profile's and the spare's caches: their journals of the secret tests and events above.
        `cache/${spare.id}.sqlite`,
        `cache/${spare.id}.sqlite-shm`,
        `cache/${spare.id}.sqlite-wal`,
        'cache/sandbox.sqlite',
        'cache/sandbox.sqlite-shm',
        'cache/sandbox.sqlite-wal',
        exportFile,
        exportFile.replace(/\.csv$/, '.about.txt'),
        // Written by the import's "Download template" and "Save results": searched unzipped below as well.
        `exports/containment-renamed-beneficiary-import-results-${TEST_TODAY}.xlsx`,
        'exports/containment-renamed-beneficiary-import-template.xlsx',
        relative(dataDir, reconFile),
        relative(dataDir, tallyFile),
        'logs/main.1.log',
        'settings.json',
      ].sort(),
    );
    const log = files.find((f) => f.label === 'logs/main.1.log')!.text;
    expect(log).toMatch(/"message":"request"/); // the logger saw the requests…
    expect(log).toContain('[redacted]'); // …and the echoed secret reached it only cut
    const workbookParts: Haystack[] = [];
    for (const f of files.filter((f) => f.label.endsWith('.xlsx')))
      for (const [part, text] of await zipParts(join(dataDir, f.label)))
        workbookParts.push({ label: `${f.label}:${part}`, text });
    const haystacks = [...replies, ...events, ...errorTexts, ...files, ...workbookParts];
    // The search finds every needle when one is planted, so zero hits below is a real result.
    const planted = NEEDLES.map(([name, needle]) => ({ label: `planted ${name}`, text: `{"x":"..${needle}.."}` }));
    expect(hitsIn(NEEDLES, planted)).toEqual(
      expect.arrayContaining(NEEDLES.map(([name]) => `${name} in planted ${name}`)),
    );
    expect(hitsIn(NEEDLES, haystacks)).toEqual([]);

    const bytes = haystacks.reduce((n, h) => n + Buffer.byteLength(h.text), 0);
    console.log(
      `secret containment: ${replies.length} replies, ${events.length} events, ${errorTexts.length} error texts, ` +
        `${files.length} files (${files.map((f) => f.label).join(', ')}); ${bytes} bytes searched for ` +
        `${NEEDLES.length} needles; ${merchantAnswers.length} requests to the merchant sandbox ` +
        `(${merchantAnswers.filter((r) => r.status === 200).length} accepted); 0 hits`,
    );
    expect(events.length).toBeGreaterThan(0);
  });
});
