/**
 * The treasury channels over the real router against the real sandbox: accounts with a failing gateway, payout
 * lookups recorded with their history (and nothing recorded when the service never answered), beneficiary
 * creation that a repeated key cannot duplicate, and clearing a cache, refused while a sync uses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../shared/api/operations';
import type { Sandbox } from '../../electron/sandbox/server';
import { addDays } from '../../shared/time';
import { memoryStore } from '../support/memory-store';
import { hook } from '../support/sandbox-http';
import type { Core } from '../../electron/core';
import { EMBEDDED_SECRET, call, coreOnSandbox, nextEvent, ok, sentOk } from '../support/core';
import { startTestSandbox } from '../support/sandbox';
import { TEST_TODAY } from '../support/clock';

let sandbox: Sandbox;
let core: Core;
let dataDir: string;

const arm = (operation: keyof typeof OPERATIONS, kind: string, count = 1) =>
  hook(sandbox.url, 'POST', 'faults', { path: OPERATIONS[operation].path, kind, count });
const sandboxBeneficiaries = () => sandbox.fixtures().beneficiaries.length;

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 20_000 });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-ipc-treasury-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore() });
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('accounts', () => {
  it('keeps every answering gateway and the failing one with its error, offline-readable, with history', async () => {
    expect(await ok(core, 'accounts.overview', undefined)).toEqual({ accounts: [], gatewayErrors: [], asOf: null });
    const first = await ok(core, 'accounts.refresh', {});
    expect(first.gatewayErrors).toEqual([
      expect.objectContaining({ code: 'INTERNAL_SERVER_ERROR', message: expect.stringMatching(/did not answer/) }),
    ]);
    const failing = first.gatewayErrors[0]!.pg;
    const answering = new Set(first.accounts.map((a) => a.pg));
    expect(answering.has(failing)).toBe(false);
    expect(answering.size).toBeGreaterThan(0);
    for (const a of first.accounts) {
      expect(a.latest).toMatchObject({ pg: a.pg, accountNumber: a.accountNumber, source: 'accounts' });
      expect(Number.isSafeInteger(a.latest!.availableBalance)).toBe(true);
    }
    expect(first.asOf).not.toBeNull();
    expect(await ok(core, 'accounts.overview', undefined)).toEqual(first);

    await ok(core, 'accounts.refresh', {});
    const one = first.accounts[0]!;
    const history = await ok(core, 'accounts.history', { pg: one.pg, accountNumber: one.accountNumber });
    expect(history.map((s) => s.source)).toEqual(['accounts', 'accounts']);
    const checked = await ok(core, 'accounts.checkBalance', { pg: one.pg });
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.every((s) => s.pg === one.pg && s.source === 'balance')).toBe(true);

    // A check carries the available balance only: the full answer stays `latest`, the check rides beside it
    // until the next full answer.
    const after = (await ok(core, 'accounts.overview', undefined)).accounts.find(
      (a) => a.pg === one.pg && a.accountNumber === checked[0]!.accountNumber,
    )!;
    expect(after.latest?.source).toBe('accounts');
    expect(after.latest?.minimumBalance).toEqual(one.latest?.minimumBalance);
    expect(after.checked).toEqual(checked[0]);
    const refreshed = await ok(core, 'accounts.refresh', {});
    expect(refreshed.accounts.every((a) => a.checked === null)).toBe(true);
  });
});

describe('payouts', () => {
  it('records each lookup with the gateway error, and a refused one with its reason', async () => {
    const failed = sandbox.fixtures().payouts.find((p) => p.status === 'failed')!;
    const lookup = await ok(core, 'payouts.lookup', { payoutId: failed.id, mode: 'normal' });
    expect(lookup).toMatchObject({ payoutId: failed.id, transferStatus: 'failed', error: null });
    expect(lookup.gatewayErrorCode).not.toBeNull();
    expect(lookup.gatewayErrorMessage).toBeTruthy();
    await ok(core, 'payouts.lookup', { payoutId: failed.id, mode: 'advance' });
    expect((await ok(core, 'payouts.history', { payoutId: failed.id })).map((l) => l.mode)).toEqual([
      'normal',
      'advance',
    ]);

    const missing = await ok(core, 'payouts.lookup', { payoutId: 'po_not_there', mode: 'normal' });
    expect(missing).toMatchObject({ payout: null, transferStatus: null, error: expect.stringMatching(/not found/) });
    const recent = await ok(core, 'payouts.recent', {});
    expect(recent.map((l) => l.payoutId)).toEqual(['po_not_there', failed.id]);
  });

  it('records nothing when the service never answered, and says why', async () => {
    const pending = sandbox.fixtures().payouts.find((p) => p.status === 'pending')!;
    await arm('payout.fetch', '503', 10);
    const r = await call(core, 'payouts.lookup', { payoutId: pending.id, mode: 'normal' });
    await hook(sandbox.url, 'DELETE', 'faults');
    expect(r).toMatchObject({ ok: false, error: { code: 'API_UNAVAILABLE' } });
    expect(await ok(core, 'payouts.history', { payoutId: pending.id })).toEqual([]);
  });
});

describe('beneficiaries', () => {
  const vendor = { name: 'Asha Traders', account_number: '000123456789', ifsc: 'HDFC0001234' };

  it('creates once per key, however often the key is sent, and finds the twin by account', async () => {
    const before = sandboxBeneficiaries();
    const [a, b] = await Promise.all([
      sentOk(core, 'beneficiaries.create', { requestKey: 'key-asha-0001', beneficiary: vendor }),
      sentOk(core, 'beneficiaries.create', { requestKey: 'key-asha-0001', beneficiary: vendor }),
    ]);
    expect(b).toEqual(a);
    expect(await sentOk(core, 'beneficiaries.create', { requestKey: 'key-asha-0001', beneficiary: vendor })).toEqual(a);
    expect(sandboxBeneficiaries()).toBe(before + 1);
    // Leading zeros of the account number are kept as sent.
    expect(a.beneficiary).toMatchObject({ ...vendor, vpa: null });

    const twins = await ok(core, 'beneficiaries.matches', {
      account_number: vendor.account_number,
      ifsc: 'hdfc0001234',
    });
    expect(twins.map((t) => t.beneficiary_id)).toEqual([a.beneficiary.beneficiary_id]);
    expect(await ok(core, 'beneficiaries.matches', { account_number: vendor.account_number })).toEqual([]);
    const listed = await ok(core, 'beneficiaries.list', { search: 'asha' });
    expect(listed.rows.map((r) => r.beneficiary_id)).toEqual([a.beneficiary.beneficiary_id]);
  });

  it('after a lost answer repeats the error for the same key instead of sending again; a new key sends', async () => {
    const form = { name: 'Lost Answer Ltd', vpa: 'lost.answer@okaxis' };
    const before = sandboxBeneficiaries();
    await arm('beneficiary.create', 'malformed');
    const first = await call(core, 'beneficiaries.create', { requestKey: 'key-lost-0001', beneficiary: form });
    expect(first).toMatchObject({ ok: false, error: { code: 'API_OUTCOME_UNKNOWN' } });
    expect(sandboxBeneficiaries()).toBe(before + 1); // the service did create it
    expect(await call(core, 'beneficiaries.create', { requestKey: 'key-lost-0001', beneficiary: form })).toEqual(first);
    expect(sandboxBeneficiaries()).toBe(before + 1);
    expect(await call(core, 'beneficiaries.create', { requestKey: 'key-lost-0002', beneficiary: form })).toMatchObject({
      ok: true,
    });
    expect(sandboxBeneficiaries()).toBe(before + 2);
  });

  it('frees the key when nothing was created, so the same submission can be tried again', async () => {
    const form = { name: 'Busy Service Pvt', vpa: 'busy.service@okaxis' };
    const before = sandboxBeneficiaries();
    await arm('beneficiary.create', '503');
    expect(await call(core, 'beneficiaries.create', { requestKey: 'key-busy-0001', beneficiary: form })).toMatchObject({
      ok: false,
      error: { code: 'API_UNAVAILABLE' },
    });
    expect(sandboxBeneficiaries()).toBe(before);
    await sentOk(core, 'beneficiaries.create', { requestKey: 'key-busy-0001', beneficiary: form });
    expect(sandboxBeneficiaries()).toBe(before + 1);
  });

  it('refuses a bad IFSC before anything is sent, naming the field', async () => {
    const before = sandboxBeneficiaries();
    const r = await call(core, 'beneficiaries.create', {
      requestKey: 'key-bad-ifsc-1',
      beneficiary: { name: 'X', account_number: '123456789', ifsc: 'HDFC1234' },
    });
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(!r.ok && r.error.details?.map((d) => d.path)).toEqual(['beneficiary.ifsc']);
    expect(sandboxBeneficiaries()).toBe(before);
  });

  it('fetches a seeded beneficiary into the cache, and checks a UPI address', async () => {
    const id = sandbox.fixtures().beneficiaries[0]!.id;
    const fetched = await ok(core, 'beneficiaries.fetch', { id });
    expect(fetched.beneficiary_id).toBe(id);
    expect(core.cacheFor('sandbox').beneficiaries.get(id)).toEqual(fetched);
    const check = await ok(core, 'beneficiaries.verifyVpa', { vpa: 'meera.iyer@ybl' });
    expect(check).toEqual({ vpa: 'meera.iyer@ybl', valid: true, accountName: 'MEERA IYER' });
  });
});

describe('cache', () => {
  it('reports sizes and last-synced times, refuses to clear under a sync, then clears', async () => {
    const today = TEST_TODAY;
    const { jobId } = await ok(core, 'sync.start', { from: addDays(today, -3), to: addDays(today, -1) });
    const finished = nextEvent(core, 'syncFinished', (p) => p.jobId === jobId);
    expect(await call(core, 'cache.clear', { profileId: 'sandbox' })).toMatchObject({
      ok: false,
      error: { code: 'CACHE_BUSY', message: expect.stringMatching(/settlement sync is running/) },
    });
    await finished;

    const status = await ok(core, 'cache.status', undefined);
    expect(status.profileId).toBe('sandbox');
    expect(status.settlementsSyncedAt).not.toBeNull();
    expect(status.balancesAt).not.toBeNull();
    const listed = await ok(core, 'cache.list', undefined);
    expect(listed.dataDir).toBe(dataDir);
    const entry = listed.caches.find((c) => c.profileId === 'sandbox')!;
    expect(entry.sizeBytes).toBeGreaterThan(0);

    const cleared = await ok(core, 'cache.clear', { profileId: 'sandbox' });
    expect(cleared.cleared).toBe(true);
    // The data goes; the audit journal stays (electron/journal/), copied into the fresh file with its entry.
    expect(cleared.freedBytes).toBeGreaterThan(0);
    expect(cleared.freedBytes).toBeLessThanOrEqual(entry.sizeBytes);
    const fresh = new Database(entry.file, { readonly: true });
    expect(fresh.prepare('SELECT count(*) AS n FROM settlements').get()).toEqual({ n: 0 });
    expect(fresh.prepare('SELECT event FROM journal ORDER BY seq DESC LIMIT 1').get()).toEqual({
      event: 'cache.cleared',
    });
    fresh.close();
    // The next read finds an empty cache.
    expect(await ok(core, 'cache.status', undefined)).toEqual({
      profileId: 'sandbox',
      settlementsSyncedAt: null,
      balancesAt: null,
    });
  });
});
