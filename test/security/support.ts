/**
 * Shared pieces of the security suite: a seeded PRNG, the app's main frame and hostile senders, a valid input for
 * every channel, recording wrappers around the vault and the transport, a snapshot of everything a call could
 * change (profiles, the data folder's bytes, keychain accounts, connectivity), and the search for secrets in texts.
 */
import { DEFAULT_POLICY } from '../../shared/approvals';
import { countOutcomes } from '../../shared/beneficiary-import';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Transport } from '../../electron/api/transport';
import type { Core } from '../../electron/core';
import type { IpcSender } from '../../electron/ipc/router';
import type { SecretStore } from '../../electron/vault/secret-store';
import type { IpcChannel } from '../../shared/ipc/channels';
import type { IpcInput } from '../../shared/ipc/contract';
import { DEFAULT_TURNAROUND } from '../../shared/payout-ageing';

/** A packaged build's renderer folder, with a space in it as on Windows and macOS installs. */
export const APP_ORIGIN = 'app://console';
export const MAIN_FRAME: IpcSender = { frameUrl: `${APP_ORIGIN}/index.html`, isMainFrame: true };

/** mulberry32: tiny, fast, and the same sequence for the same seed on every machine. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
  };
}
export type Rng = ReturnType<typeof prng>;

/** The run's seed (PAYOUT_FUZZ_SEED reproduces a run) mixed with a label, so each channel has its own sequence. */
export const FUZZ_SEED = Number(process.env['PAYOUT_FUZZ_SEED'] ?? 0x5eed2026);
export function seedFor(label: string, seed = FUZZ_SEED): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** An import file with its header and no rows: a valid input that sends nothing. */
const HEADER_ONLY_CSV = Buffer.from('Name,UPI address\r\n').toString('base64');

/** One valid input per channel, aimed at `profileId` where a channel takes one. The mapped type makes a new
 * channel in the contract a compile error here until it has an input. */
export function validInputs(profileId: string, serviceUrl = 'https://payouts.example.com') {
  const fields = {
    name: 'Treasury (security suite)',
    environment: 'custom',
    baseUrl: serviceUrl,
    aiUrl: `${serviceUrl}/ai`,
    key: 'merchant_security_suite',
  } as const;
  const inputs: { [C in IpcChannel]: IpcInput<C> } = {
    'app.info': undefined,
    'app.connectivity': undefined,
    'profiles.list': undefined,
    'profiles.create': { ...fields },
    'profiles.update': { id: profileId, fields: { ...fields, name: 'Treasury (renamed)' } },
    'profiles.remove': { id: profileId },
    'profiles.activate': { id: profileId },
    'credentials.status': { profileId },
    'credentials.set': { profileId, secret: 'sk_test_replacement_value' },
    'credentials.delete': { profileId },
    'credentials.test': { profileId },
    'sync.start': { from: '2026-11-01', to: '2026-11-02' },
    'sync.cancel': { jobId: 'job-that-is-not-running' },
    'settlements.query': { from: '2026-11-01', to: '2026-11-02', limit: 50 },
    'settlements.totals': { from: '2026-11-01', to: '2026-11-02' },
    'settlements.aggregate': { from: '2026-11-01', to: '2026-11-02' },
    'settlements.facets': { from: '2026-11-01', to: '2026-11-02', pg: 'payu' },
    'recon.batches': { from: '2026-11-01', to: '2026-11-02' },
    'recon.batchRecords': {
      batch: { date: '2026-11-01', pg: 'payu', utr: '', settlementDate: '2026-11-01 10:00:00' },
      offset: 0,
      limit: 50,
    },
    'recon.accounts': undefined,
    'recon.previewStatement': {
      fileName: 'statement.csv',
      content: Buffer.from('Date,Narration,Deposit Amt.\n01/11/26,NEFT CR-X-123456789012,10.00\n').toString('base64'),
      account: 'Security suite bank',
    },
    'recon.importStatement': {
      fileName: 'statement.csv',
      content: Buffer.from('Date,Narration,Deposit Amt.\n01/11/26,NEFT CR-X-123456789012,10.00\n').toString('base64'),
      account: 'Security suite bank',
    },
    'recon.match': { account: 'Security suite bank', from: '2026-11-01', to: '2026-11-02' },
    'recon.report': { account: 'Security suite bank', from: '2026-11-01', to: '2026-11-02' },
    'recon.matchByHand': {
      account: 'Security suite bank',
      batch: { date: '2026-11-01', pg: 'payu', utr: '', settlementDate: '2026-11-01 10:00:00' },
      lineIds: [1],
      note: 'security suite',
    },
    'recon.unmatch': { account: 'Security suite bank', matchId: 1, note: 'security suite' },
    'recon.saveSettings': { windowDays: 2, overdueDays: 1 },
    'recon.export': { account: 'Security suite bank', from: '2026-11-01', to: '2026-11-02' },
    'recon.saveTallyLedgers': { bank: 'HDFC Bank A/c', receivable: 'PayU receivable' },
    'recon.exportTally': { account: 'Security suite bank', from: '2026-11-01', to: '2026-11-02' },
    'settlements.changes': { from: '2026-11-01', to: '2026-11-02', kind: 'changed', limit: 50 },
    'settlements.changesSummary': { from: '2026-11-01', to: '2026-11-02' },
    'settlements.completeness': { from: '2026-11-01', to: '2026-11-02', pg: 'payu' },
    'settlements.exception': { recordId: 1 },
    'settlements.exceptionAction': { recordId: 1, action: 'note', text: 'Called the gateway' },
    'settlements.triage': { date: '2026-11-01', threshold: 0.6 },
    'beneficiaries.list': { search: 'treasury' },
    'beneficiaries.create': {
      requestKey: 'security-suite-0001',
      beneficiary: { name: 'Security Suite Vendor', account_number: '000123456789', ifsc: 'HDFC0001234' },
    },
    'beneficiaries.fetch': { id: 'BEN-0001' },
    'beneficiaries.matches': { vpa: 'vendor@okbank' },
    'beneficiaries.verifyVpa': { vpa: 'vendor@okbank' },
    'beneficiaries.ifsc': { ifsc: 'HDFC0000001' },
    'beneficiaries.changes': { id: 'BEN-0001' },
    'beneficiaries.importPreview': { fileName: 'vendors.csv', content: HEADER_ONLY_CSV },
    'beneficiaries.importRun': { fileName: 'vendors.csv', content: HEADER_ONLY_CSV },
    'beneficiaries.importCancel': undefined,
    'beneficiaries.importTemplate': undefined,
    'beneficiaries.importResults': {
      report: {
        fileName: 'vendors.csv',
        digest: '0'.repeat(64),
        headers: ['Name', 'UPI address'],
        columns: ['name', 'vpa'],
        unknownHeaders: [],
        problems: [],
        rows: [],
        counts: countOutcomes([]),
      },
    },
    'payouts.lookup': { payoutId: 'PO-0001', mode: 'normal' },
    'payouts.history': { payoutId: 'PO-0001' },
    'payouts.recent': {},
    'payouts.check': { ids: ['PO-0001'], mode: 'normal' },
    'payouts.checkRun': {},
    'payouts.settings': {},
    'payouts.saveSettings': { turnaround: DEFAULT_TURNAROUND, watchAdvance: false },
    'payouts.watch': {},
    'payouts.watchNow': {},
    'accounts.overview': undefined,
    'accounts.refresh': {},
    'accounts.checkBalance': {},
    'accounts.history': {},
    'accounts.headroom': undefined,
    'accounts.setHeadroomThreshold': { pg: 'PG_A', threshold: 5_000_000 },
    'cache.list': undefined,
    'cache.status': undefined,
    'cache.clear': { profileId },
    'cache.integrity': undefined,
    'exports.start': { kind: 'beneficiaries', format: 'csv' },
    'exports.cancel': { jobId: 'job-that-is-not-running' },
    'exports.reveal': { jobId: 'job-that-is-not-running' },
    'notices.list': undefined,
    'notices.reveal': { id: 'notice-that-does-not-exist' },
    'notices.dismiss': { id: 'notice-that-does-not-exist' },
    'journal.list': { kind: 'action', text: 'beneficiary' },
    'journal.verify': undefined,
    'journal.lastVerification': undefined,
    'journal.unresolved': undefined,
    'journal.checkStatus': { attemptSeq: 1, beneficiaryId: 'BEN-0001' },
    'journal.periods': { from: '2026-11-01', to: '2026-11-02' },
    'journal.closePeriod': { from: '2026-11-01', to: '2026-11-02' },
    'journal.reopenPeriod': { id: 1 },
    'journal.acknowledgePeriod': { id: 1 },
    'journal.periodDiff': { id: 1 },
    'orders.fetch': { id: 'ORD-0001' },
    'orders.cached': { id: 'ORD-0001' },
    'orders.recent': undefined,
    'orders.actions': { id: 'ORD-0001' },
    'orders.capture': { requestKey: 'security-suite-0002', orderId: 'ORD-0001' },
    'orders.refund': { requestKey: 'security-suite-0003', orderId: 'ORD-0001', amount: 100 },
    'orders.checkStatus': { attemptSeq: 1 },
    'subscriptions.fetch': { id: 'SUB-0001' },
    'subscriptions.cached': { id: 'SUB-0001', by: 'receipt' },
    'subscriptions.recent': undefined,
    'subscriptions.actions': { id: 'SUB-0001' },
    'subscriptions.cancel': { requestKey: 'security-suite-0004', id: 'SUB-0001' },
    'subscriptions.charge': { requestKey: 'security-suite-0005', id: 'SUB-0001', amount: 100, currency: 'INR' },
    'subscriptions.checkStatus': { attemptSeq: 1 },
    'subscriptions.recordCharge': { attemptSeq: 1, charged: false },
    'tools.methods': { amount: '499.50', currency: 'INR' },
    'tools.process': {
      requestKey: 'security-suite-key-1',
      order: { order_id: 'order_that_does_not_exist', method: 'upi', code: 'collect', vpa: 'someone@okicici' },
    },
    'tools.currency': { from: 'USD', to: 'INR' },
    'plans.create': {
      requestKey: 'security-suite-key-2',
      plan: {
        title: 'Security suite plan',
        amount: '1.00',
        frequency: 30,
        cycle: 12,
        currency: 'INR',
        mer_reference_id: 'security-suite-plan',
      },
    },
    'plans.fetch': { id: 'plan_that_does_not_exist' },
    'plans.checkCreate': { attemptSeq: 1 },
    'webhooks.list': {},
    'webhooks.update': { requestKey: 'security-suite-key-3', change: { id: 'wh_missing', active: false } },
    'classification.classify': {
      state: 'The refund has not reached my account.',
      questions: { topic: { type: 'choice', instructions: 'What is it about?', criteria: ['refund', 'payout'] } },
    },
    'views.list': { table: 'settlements' },
    'views.save': { table: 'settlements', view: { name: 'Month end', state: { filters: {}, sort: null, hidden: [] } } },
    'views.remove': { table: 'settlements', name: 'Month end' },
    'views.setDefault': { table: 'settlements', name: null },
    'exceptions.queue': { filter: { state: 'open' }, offset: 0, limit: 50 },
    'exceptions.bulk': { action: 'acknowledge', filter: { state: 'open' }, text: 'security suite' },
    'desk.status': {},
    'approvals.policy': {},
    'approvals.setPolicy': { policy: DEFAULT_POLICY },
    'approvals.list': { scope: 'waiting' },
    'approvals.counts': {},
    'approvals.review': { id: 'proposal-1' },
    'approvals.approve': { id: 'proposal-1' },
    'approvals.reject': { id: 'proposal-1', reason: 'Wrong payee' },
    'approvals.withdraw': { id: 'proposal-1' },
    'approvals.checkStatus': { id: 'proposal-1' },
    'approvals.settle': { id: 'proposal-1', succeeded: true, note: 'Seen at the gateway' },
    'today.summary': {},
    'today.refresh': {},
    'today.cancelRefresh': { jobId: 'refresh-1' },
    'today.setRefreshDays': { days: 5 },
  };
  return inputs;
}

/** Wraps a store and records every call the core makes on it. */
export function recordingStore(inner: SecretStore) {
  const calls: string[] = [];
  const store: SecretStore = {
    probe: () => (calls.push('probe'), inner.probe()),
    get: (a) => (calls.push(`get ${a}`), inner.get(a)),
    set: (a, s) => (calls.push(`set ${a}`), inner.set(a, s)),
    delete: (a) => (calls.push(`delete ${a}`), inner.delete(a)),
    accounts: () => (calls.push('accounts'), inner.accounts()),
  };
  return { store, calls };
}

/** Wraps a transport (or a refusing one) and records every request the core sends and every status it gets. */
export function recordingTransport(inner?: Transport) {
  const requests: { url: string; status: number | null }[] = [];
  const transport: Transport = async (request) => {
    const entry = { url: request.url, status: null as number | null };
    requests.push(entry);
    if (!inner) throw new Error(`unexpected request to ${request.url}`);
    const response = await inner(request);
    entry.status = response.status;
    return response;
  };
  return { transport, requests };
}

/** Every file under `dir`, recursively, with its bytes. */
export function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  if (!existsSync(dir)) return [];
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

/** A text searched for secrets, labelled for the failure message. */
export interface Haystack {
  label: string;
  text: string;
}

/** Every needle found in every haystack, as "<needle's name> in <haystack's label>"; needles are [name, text]. */
export function hitsIn(needles: readonly (readonly [string, string])[], haystacks: readonly Haystack[]): string[] {
  return haystacks.flatMap(({ label, text }) =>
    needles.filter(([, needle]) => text.includes(needle)).map(([name]) => `${name} in ${label}`),
  );
}

/** Everything an IPC call could change, as one comparable string. */
export async function stateOf(core: Core, keychain: SecretStore, dataDir: string): Promise<string> {
  return JSON.stringify({
    profiles: core.profiles.list(),
    active: core.profiles.active().id,
    // A -shm file is SQLite's shared-memory index of the WAL, not state: any reader (the cache's check after open,
    // in a worker) rewrites it without a record changing. The database and its WAL are compared in full.
    files: filesUnder(dataDir)
      .filter((f) => !f.path.endsWith('-shm'))
      .map((f) => [relative(dataDir, f.path), f.bytes.length, createHash('sha256').update(f.bytes).digest('hex')]),
    keychainAccounts: (await keychain.accounts()).sort(),
    connectivity: core.connectivity.current(),
  });
}

/** The own property names of the built-in prototypes, to prove nothing was added to them. */
export function prototypeFingerprint(): string {
  const protos = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };
  return JSON.stringify(Object.entries(protos).map(([name, p]) => [name, Object.getOwnPropertyNames(p).sort()]));
}
