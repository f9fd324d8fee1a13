/**
 * `accounts headroom`, `accounts threshold` and `accounts balance` against a loopback sandbox: payable now per account, gateway and in
 * total checked by direct arithmetic in paise on what the sandbox's accounts call answers; the pending payouts the
 * console looked up, summed from the sandbox's own payouts; the low-headroom alert exactly at its threshold; a
 * gateway whose last answer was an error keeps its last good figures, marked stale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/cache/database';
import type { HeadroomReport } from '../../shared/headroom';
import { isPendingTransfer } from '../../shared/payouts';
import { formatMinor, formatMoney } from '../../shared/money';
import { epochMsToIst } from '../../shared/time';
import { cliRunner } from '../support/cli';
import { TEST_NOW } from '../support/clock';
import { openSandbox, sandboxProfile, type OpenSandbox } from '../support/sandbox';
import { hook } from '../support/sandbox-http';

let sb: OpenSandbox;
let dir: string;
let profileId: string;
let run: ReturnType<typeof cliRunner>['run'];

const cli = (...argv: string[]) => run('--profile', 'Desk', '--secret-env', 'DESK_SECRET', ...argv);
const json = (out: { stdout: string }) => JSON.parse(out.stdout) as HeadroomReport;

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: 1 });
  dir = mkdtempSync(join(tmpdir(), 'headroom-'));
  profileId = sandboxProfile(sb, dir);
  run = cliRunner(dir, { DESK_SECRET: sb.secret }).run;
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('payable now', () => {
  it('is available − minimum (and + overdraft) of what the sandbox answers, per account, gateway and total', async () => {
    const out = await cli('--json', 'accounts', 'headroom');
    expect(out.code, out.stderr).toBe(0);
    const r = json(out);

    const { accounts } = await sb.api().payouts.accounts();
    let total = 0;
    let totalOd = 0;
    let counted = 0;
    let held = 0;
    for (const [pg, answer] of Object.entries(accounts)) {
      if (!answer.status) {
        // No figure was ever reported: none is shown, not a zero, and the total names it.
        expect(r.gateways.find((g) => g.pg === pg)).toMatchObject({
          payable: null,
          payableWithOverdraft: null,
          afterPending: null,
          stale: { message: answer.error.message },
        });
        expect(r.unreported).toContain(pg);
        continue;
      }
      let gw = 0;
      let gwOd = 0;
      for (const a of answer.data) {
        // The sandbox's available balance already leaves the hold out; payable now does not take it out again.
        expect(a.available_balance).toBe((a.account_balance ?? Number.NaN) - (a.hold_fund ?? 0));
        if (a.hold_fund) held++;
        const payable = a.available_balance - (a.minimum_balance ?? 0);
        const withOd = payable + (a.overdraft ?? 0);
        expect(r.accounts.find((x) => x.pg === pg && x.accountNumber === a.account_number)).toMatchObject({
          payable,
          payableWithOverdraft: withOd,
        });
        gw += payable;
        gwOd += withOd;
        counted++;
      }
      expect(r.gateways.find((g) => g.pg === pg)).toMatchObject({ payable: gw, payableWithOverdraft: gwOd });
      total += gw;
      totalOd += gwOd;
    }
    expect(counted).toBeGreaterThan(1);
    expect(held, 'the sandbox seeds at least one account with a hold').toBeGreaterThan(0);
    expect(r.accounts).toHaveLength(counted);
    expect(r.total).toMatchObject({ payable: total, payableWithOverdraft: totalOd, pending: 0, pendingCount: 0 });
    expect(Number.isSafeInteger(r.total.payable)).toBe(true);
  });

  it('asks the balance operation for one gateway and prints its answer exactly, in paise', async () => {
    const { balances } = await sb.api().payouts.balance({});
    const pg = balances[0]!.pg;
    const out = await cli('--json', 'accounts', 'balance', '--pg', pg);
    expect(out.code, out.stderr).toBe(0);
    const snapshots = JSON.parse(out.stdout) as { pg: string; availableBalance: number; source: string }[];
    const expected = balances.filter((b) => b.pg === pg);
    expect(snapshots.map((s) => [s.pg, s.availableBalance, s.source])).toEqual(
      expected.map((b) => [b.pg, b.balance, 'balance']),
    );
    const text = await cli('accounts', 'balance', '--pg', pg);
    expect(text.stdout).toMatch(/^GATEWAY +ACCOUNT +AVAILABLE/);
  });

  it('sets beside it the pending payouts the console looked up, by the gateway they draw on', async () => {
    const fx = await hook<{ payouts: { id: string; status: string }[] }>(sb.sandbox.url, 'GET', 'fixtures');
    const pending = fx.body.payouts.filter((p) => isPendingTransfer(p.status)).slice(0, 4);
    const settled = fx.body.payouts.find((p) => p.status === 'success')!;
    expect(pending.length).toBeGreaterThan(1);
    for (const p of [...pending, settled]) expect((await cli('payouts', 'get', p.id)).code).toBe(0);

    const api = sb.api();
    const want = new Map<string, { sum: number; n: number }>();
    for (const p of pending) {
      const { payout: data } = await api.payouts.fetchPayout(p.id);
      const pg = data.fund_source!;
      const w = want.get(pg) ?? { sum: 0, n: 0 };
      want.set(pg, { sum: w.sum + data.amount, n: w.n + 1 });
    }
    const r = json(await cli('--json', 'accounts', 'headroom', '--offline'));
    for (const [pg, w] of want) {
      const g = r.gateways.find((x) => x.pg === pg)!;
      const afterPending = g.payable === null ? null : g.payable - w.sum;
      expect(g).toMatchObject({ pending: w.sum, pendingCount: w.n, afterPending });
    }
    const sum = [...want.values()].reduce((t, w) => t + w.sum, 0);
    expect(r.total).toMatchObject({ pending: sum, pendingCount: pending.length, afterPending: r.total.payable - sum });
  });

  it('alerts a gateway whose headroom after pending is below its threshold, exact to the paisa', async () => {
    const before = json(await cli('--json', 'accounts', 'headroom', '--offline'));
    const g = before.gateways.find((x) => x.stale === null && (x.afterPending ?? 0) > 0)!;
    const after = g.afterPending!;
    const at = await cli('--json', 'accounts', 'threshold', g.pg, formatMinor(after));
    expect(at.code, at.stderr).toBe(0);
    expect(json(at).gateways.find((x) => x.pg === g.pg)).toMatchObject({ threshold: after, low: false });
    const above = json(await cli('--json', 'accounts', 'threshold', g.pg, formatMinor(after + 1)));
    expect(above.gateways.find((x) => x.pg === g.pg)).toMatchObject({ threshold: after + 1, low: true });
    expect(above.gateways.filter((x) => x.low).map((x) => x.pg)).toEqual([g.pg]);
    expect((await cli('accounts', 'threshold', g.pg, '-5')).code).toBe(2);
    expect((await cli('accounts', 'threshold', g.pg, '1.001')).code).toBe(2);
    const cleared = json(await cli('--json', 'accounts', 'threshold', g.pg, '--clear'));
    expect(cleared.gateways.find((x) => x.pg === g.pg)).toMatchObject({ threshold: null, low: false });
  });

  it("keeps a failing gateway's last good figures, marked stale with their time", async () => {
    const before = json(await cli('--json', 'accounts', 'headroom', '--offline'));
    const g = before.gateways.find((x) => x.stale === null && x.asOf !== null)!;
    // An hour after the tests' instant, held still so the error's time is known exactly.
    const later = new Date(TEST_NOW + 3_600_000);
    const cache = openCache(join(dir, 'cache', `${profileId}.sqlite`), { now: () => later });
    cache.accounts.recordAccounts({ [g.pg]: { status: false, error: { message: 'Gateway timed out', code: '504' } } });
    cache.close();
    const after = json(await cli('--json', 'accounts', 'headroom', '--offline'));
    expect(after.gateways.find((x) => x.pg === g.pg)).toMatchObject({
      payable: g.payable,
      asOf: g.asOf,
      stale: { message: 'Gateway timed out', code: '504', at: later.toISOString() },
    });
    expect(after.total.payable).toBe(before.total.payable);
  });

  it('cannot reach the service: prints the cached figures with their date, and exits 1 saying they are not fresh', async () => {
    const cached = await cli('--json', 'accounts', 'headroom', '--offline');
    expect(cached.code, cached.stderr).toBe(0);
    const was = JSON.parse(cached.stdout) as HeadroomReport & { refreshed: boolean; refreshError: string | null };
    expect(was).toMatchObject({ refreshed: false, refreshError: null });
    // The total is as old as its oldest account figure.
    expect(was.asOf).toBe(
      was.accounts
        .filter((a) => a.currency === 'INR')
        .map((a) => a.takenAt)
        .sort()[0],
    );

    // Every attempt of the refresh is reset before an answer: the machine is, as far as it can tell, offline.
    await hook(sb.sandbox.url, 'POST', 'faults', { path: '/api/v2/payout/accounts', kind: 'drop', count: 40 });
    try {
      const out = await cli('--json', 'accounts', 'headroom');
      expect(out.code).toBe(1);
      const r = JSON.parse(out.stdout) as typeof was;
      expect(r).toEqual({
        ...was,
        refreshed: false,
        refreshError: expect.stringMatching(/^the refresh failed \(.+\)$/),
      });
      expect(out.stderr).toContain(
        `Payable now from the cache, figures as of ${epochMsToIst(Date.parse(was.asOf!))} IST: the refresh failed`,
      );
      const text = await cli('accounts', 'headroom');
      expect(text.code).toBe(1);
      expect(text.stdout.split('\n')[0]).toMatch(
        /^Payable now from the cache, figures as of .+ IST: the refresh failed/,
      );
      expect(text.stdout).toContain(formatMoney(was.total.payable));
    } finally {
      await hook(sb.sandbox.url, 'DELETE', 'faults');
    }
    const back = await cli('--json', 'accounts', 'headroom');
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ refreshed: true, refreshError: null });
  });
});
