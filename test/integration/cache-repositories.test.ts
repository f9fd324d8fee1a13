/**
 * The small repositories over a real file, filled with the sandbox's real answers: beneficiaries (list,
 * search, pages), payout lookups with their status history, payout accounts with balance snapshots and
 * per-gateway errors, and sync runs (claim, resume, one writer at a time).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { SyncBusyError } from '../../electron/cache/sync-runs';
import { openSandbox, type OpenSandbox } from '../support/sandbox';

let sb: OpenSandbox;
let api: ReturnType<OpenSandbox['api']>;
let dir: string;
let cache: Cache;
let clock = new Date('2025-03-12T04:00:00.000Z');
const tick = () => (clock = new Date(clock.getTime() + 60_000));

beforeAll(async () => {
  sb = await openSandbox();
  api = sb.api();
  dir = mkdtempSync(join(tmpdir(), 'cache-repos-'));
  cache = openCache(join(dir, 'cache.sqlite'), { now: () => clock });
});
afterAll(async () => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
  await sb.close();
});

describe('beneficiaries', () => {
  it('are upserted from the API and listed by name, searched and paged offline', async () => {
    const ids = sb.sandbox.fixtures().beneficiaries.map((b) => b.id);
    for (const id of ids) cache.beneficiaries.upsert((await api.payouts.fetchBeneficiary(id)).data as never);
    const all = cache.beneficiaries.list({ limit: 1000 }).rows;
    expect(all.map((b) => b.beneficiary_id).sort()).toEqual([...ids].sort());
    const names = all.map((b) => b.name.toLowerCase());
    expect(names).toEqual([...names].sort());

    const paged: string[] = [];
    let after: string | undefined;
    do {
      const page = cache.beneficiaries.list({ limit: 3, after });
      paged.push(...page.rows.map((b) => b.beneficiary_id));
      after = page.nextCursor ?? undefined;
    } while (after);
    expect(paged).toEqual(all.map((b) => b.beneficiary_id));

    const someone = all[1]!;
    expect(cache.beneficiaries.list({ search: someone.name.slice(0, 4).toUpperCase() }).rows).toContainEqual(someone);
    expect(cache.beneficiaries.get(someone.beneficiary_id)).toEqual(someone);
    expect(cache.beneficiaries.get('nope')).toBeNull();
  });

  it('keep the latest answer, and fields the contract does not name', () => {
    cache.beneficiaries.upsert({ beneficiary_id: 'ben_x', name: 'Old Name', vpa: 'old@upi' });
    tick();
    const b = cache.beneficiaries.upsert({
      beneficiary_id: 'ben_x',
      name: 'New Name',
      vpa: null,
      kyc: 'done',
    } as never);
    expect(b).toMatchObject({ name: 'New Name', vpa: null, extra: { kyc: 'done' }, fetchedAt: clock.toISOString() });
  });
});

describe('payout lookups', () => {
  it('record every check, so a pending payout shows when it became a success', async () => {
    const pending = sb.sandbox.fixtures().payouts.find((p) => p.status === 'pending')!.id;
    for (const mode of ['normal', 'advance', 'advance'] as const) {
      tick();
      const answer = await api.payouts.fetchPayout(pending, mode);
      cache.payouts.recordLookup({ payoutId: pending, mode, payout: answer.payout });
    }
    tick();
    cache.payouts.recordLookup({ payoutId: pending, mode: 'normal', error: 'The gateway did not answer.' });
    const history = cache.payouts.history(pending);
    expect(history.map((h) => [h.mode, h.transferStatus, h.error])).toEqual([
      ['normal', 'pending', null],
      ['advance', 'pending', null],
      ['advance', 'success', null],
      ['normal', null, 'The gateway did not answer.'],
    ]);
    expect(history[2]!.payout?.transfer_id).toBe(pending);
    expect(Number.isSafeInteger(history[2]!.amount)).toBe(true);
    expect(cache.payouts.latest(pending)).toEqual(history[3]);
    expect(cache.payouts.latest('nope')).toBeNull();
  });

  it('list the latest check of each payout, most recent first', async () => {
    const done = sb.sandbox.fixtures().payouts.find((p) => p.status === 'success')!.id;
    tick();
    cache.payouts.recordLookup({
      payoutId: done,
      mode: 'normal',
      payout: (await api.payouts.fetchPayout(done)).payout,
    });
    expect(
      cache.payouts
        .recent()
        .map((l) => l.payoutId)
        .slice(0, 2),
    ).toEqual([done, expect.any(String)]);
    expect(new Set(cache.payouts.recent().map((l) => l.payoutId)).size).toBe(cache.payouts.recent().length);
  });
});

describe('payout accounts and balances', () => {
  it('keep every snapshot for trends, and each gateway error until it answers again', async () => {
    tick();
    const first = clock.toISOString();
    const answer = await api.payouts.accounts();
    cache.accounts.recordAccounts(answer.accounts);
    const failing = Object.entries(answer.accounts)
      .filter(([, a]) => !a.status)
      .map(([pg]) => pg);
    expect(failing).toHaveLength(1);
    expect(cache.accounts.gatewayErrors().map((e) => e.pg)).toEqual(failing);
    const accounts = cache.accounts.list();
    expect(accounts.length).toBeGreaterThan(0);
    expect(accounts.every((a) => !failing.includes(a.pg))).toBe(true);

    tick();
    cache.accounts.recordAccounts(answer.accounts);
    tick();
    cache.accounts.recordAccounts({ [failing[0]!]: { status: true, data: [] } });
    expect(cache.accounts.gatewayErrors()).toEqual([]);

    const { pg, accountNumber } = accounts[0]!;
    const history = cache.accounts.snapshots(pg, accountNumber);
    expect(history.map((s) => s.takenAt)).toEqual([first, new Date(Date.parse(first) + 60_000).toISOString()]);
    expect(Number.isSafeInteger(history[0]!.availableBalance)).toBe(true);
    expect(cache.accounts.snapshots(pg, accountNumber, history[1]!.takenAt)).toEqual([history[1]]);

    tick();
    const balances = await api.payouts.balance();
    cache.accounts.recordBalances(balances.balances);
    const latest = cache.accounts.latest();
    expect(latest.filter((s) => s.source === 'balance')).toHaveLength(
      new Set(balances.balances.map((b) => `${b.pg}|${b.account_no ?? ''}`)).size,
    );
  });
});

describe('sync runs', () => {
  const range = { from: '2025-02-01', to: '2025-02-02', pg: null };
  const days = ['2025-02-01', '2025-02-02'];

  it('an unfinished run of the same range is resumed; a finished one is not', () => {
    const first = cache.syncRuns.claim('settlements', range, days);
    expect(first).toMatchObject({ resumed: false, run: { status: 'running', attempts: 1 } });
    expect(first.dates.map((d) => [d.date, d.status, d.nextOffset])).toEqual([
      ['2025-02-01', 'pending', 0],
      ['2025-02-02', 'pending', 0],
    ]);
    cache.syncRuns.failDate(first.run.id, '2025-02-01', 'The gateway did not answer.');
    cache.syncRuns.finish(first.run.id, 'partial');
    expect(cache.syncRuns.get(first.run.id)).toMatchObject({ status: 'partial', finishedAt: clock.toISOString() });

    const again = cache.syncRuns.claim('settlements', range, days);
    expect(again).toMatchObject({ resumed: true, run: { id: first.run.id, attempts: 2, status: 'running' } });
    expect(again.dates[0]).toMatchObject({ status: 'pending', error: null });
    cache.syncRuns.finish(again.run.id, 'completed');

    const fresh = cache.syncRuns.claim('settlements', range, days);
    expect(fresh.resumed).toBe(false);
    expect(fresh.run.id).not.toBe(first.run.id);
    cache.syncRuns.finish(fresh.run.id, 'completed');
    expect(cache.syncRuns.recent(2).map((r) => r.id)).toEqual([fresh.run.id, first.run.id]);
  });

  it('one settlement sync writes at a time: refused while another holds the lock, resumed once the holder is gone', () => {
    // A second connection to the same file is what a second process (the CLI beside the app) has.
    const other = openCache(cache.file, { now: () => clock });
    try {
      const { run } = other.syncRuns.claim('settlements', range, days);
      expect(() =>
        cache.syncRuns.claim('settlements', { ...range, from: '2025-02-05', to: '2025-02-05' }, ['2025-02-05']),
      ).toThrow(
        new SyncBusyError(
          `Another settlement sync (run ${run.id}) is writing to this cache. Wait for it to finish or cancel it, then sync again.`,
        ),
      );
      // The holder dies without finishing (closing its connection is what the OS does to a killed process's files).
      other.close();
      const next = cache.syncRuns.claim('settlements', range, days);
      expect(next).toMatchObject({ resumed: true, run: { id: run.id, status: 'running', attempts: 2 } });
      const third = openCache(cache.file, { now: () => clock });
      try {
        expect(() => third.syncRuns.claim('settlements', range, days)).toThrow(SyncBusyError);
      } finally {
        third.close();
      }
      cache.syncRuns.finish(next.run.id, 'completed');
      expect(cache.syncRuns.get(run.id)).toMatchObject({ status: 'completed' });
    } finally {
      other.close();
    }
  });

  it('marks a run left running by a dead holder as interrupted when another range is synced next', () => {
    const other = openCache(cache.file, { now: () => clock });
    const { run } = other.syncRuns.claim('settlements', { ...range, from: '2025-02-06', to: '2025-02-06' }, [
      '2025-02-06',
    ]);
    other.close();
    const next = cache.syncRuns.claim('settlements', { ...range, from: '2025-02-07', to: '2025-02-07' }, [
      '2025-02-07',
    ]);
    expect(cache.syncRuns.get(run.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/stopped without finishing/),
    });
    cache.syncRuns.finish(next.run.id, 'completed');
  });
});
