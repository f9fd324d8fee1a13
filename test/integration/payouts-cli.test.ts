/**
 * The payout export's "Beneficiary account or UPI" and the CLI's beneficiary line show the route each payout
 * actually used, checked on every payout of the built-in sandbox against the sandbox's own records: IMPS to a
 * bank account (the service sends `vpa: ""`), NEFT to a payee with both an account and a UPI address, and UPI.
 * Also `payout check`, the bulk check from the command line, online and against a service that cannot be reached:
 * normal checks end "not checked", advance ones are queued in the cache and run, each once (counted on the
 * sandbox's own record of fetches), by `payouts check --queued` or by the next check that reaches the service.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS } from '../../electron/sandbox/server';
import { seedState } from '../../electron/sandbox/seed';
import { maskAccount } from '../../shared/accounts';
import { cliRunner } from '../support/cli';
import { TEST_TODAY, testClock } from '../support/clock';
import { DEFAULT_TURNAROUND, expectedBy, type PayoutAge } from '../../shared/payout-ageing';
import type { PayoutLookup } from '../../shared/payouts';
import { readCsv } from '../support/export-files';
import { openSandbox, sandboxProfile } from '../support/sandbox';
import { hook } from '../support/sandbox-http';

let dir: string;
let cli: ReturnType<typeof cliRunner>;
// The built-in profile's sandbox, seeded as the CLI seeds it: what each payout was sent to.
const state = seedState(SANDBOX_DEFAULTS.seed, TEST_TODAY);
const payouts = [...state.payouts.values()].map((p) => ({ ...p, to: state.beneficiaries.get(p.beneficiary_id)! }));
const expected = (p: (typeof payouts)[number]) =>
  p.method === 'upi' ? p.to.vpa : `${maskAccount(p.to.account_number)} (${p.to.ifsc})`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-payout-dest-'));
  cli = cliRunner(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the route a payout used', () => {
  it('the seed holds the three cases this test is about', () => {
    expect(payouts.some((p) => p.method === 'imps' && p.to.vpa === '' && p.to.account_number !== '')).toBe(true);
    expect(payouts.some((p) => p.method === 'neft' && p.to.vpa !== '' && p.to.account_number !== '')).toBe(true);
    expect(payouts.some((p) => p.method === 'upi' && p.to.vpa !== '')).toBe(true);
  });

  it('the CLI names it for each payout, and the export has it in its column', async () => {
    for (const p of payouts) {
      const r = await cli.run('payout', 'get', p.transfer_id);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`beneficiary  ${p.to.name}, ${expected(p)}`);
    }
    const file = join(dir, 'payouts.csv');
    expect((await cli.run('export', 'payouts', '--out', file)).code).toBe(0);
    const [header, ...rows] = (await readCsv(file)).records;
    const idAt = header!.indexOf('Payout id');
    const toAt = header!.indexOf('Beneficiary account or UPI');
    expect(rows).toHaveLength(payouts.length);
    for (const p of payouts) {
      const row = rows.find((r) => r[idAt] === p.transfer_id)!;
      expect(row[toAt], `${p.transfer_id} (${p.method})`).toBe(expected(p));
    }
  });
});

describe('payout check (CLI)', () => {
  it('checks a pasted list once per id and exits 2 naming what was not an id', async () => {
    const [a, b] = payouts;
    const r = await cli.run(
      '--json',
      'payout',
      'check',
      `${a!.transfer_id} ${b!.transfer_id},${a!.transfer_id};bad#id`,
    );
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { items: { payoutId: string; outcome: string; amount: number }[] };
    expect(out).toMatchObject({
      counts: { checked: 2, refused: 0, failed: 0, queued: 0 },
      duplicates: [a!.transfer_id],
      invalid: [{ text: 'bad#id', reason: 'has characters a payout id does not: #' }],
    });
    expect(out.items.map((i) => [i.payoutId, i.outcome, i.amount])).toEqual([
      [a!.transfer_id, 'checked', a!.amount],
      [b!.transfer_id, 'checked', b!.amount],
    ]);
    expect(r.stderr).toMatch(/1 of the ids given were not payout ids/);
  });

  it('sends nothing that does not look like a payout id unless asked, and then sends it deliberately', async () => {
    const [a] = payouts;
    const junk = ['hello', 'world', 'TRF-1234', '12345678901234567890123', 'x'.repeat(41) + '1'];
    const held = await cli.run('--json', 'payout', 'check', a!.transfer_id, ...junk);
    expect(held.code).toBe(2);
    const out = JSON.parse(held.stdout) as { items: { payoutId: string }[]; questionable: { text: string }[] };
    expect(out.items.map((i) => i.payoutId)).toEqual([a!.transfer_id]);
    expect(out.questionable.map((q) => q.text)).toEqual(junk);
    expect(held.stderr).toMatch(/5 of the ids given were not payout ids/);
    const human = await cli.run('payout', 'check', a!.transfer_id, 'hello');
    expect(human.stdout).toContain(
      'not a payout id: "hello" has no digits: a word, not a payout id (--send-questionable sends it anyway)',
    );

    const sent = await cli.run('--json', 'payout', 'check', '--send-questionable', a!.transfer_id, 'hello');
    expect(sent.code).toBe(1);
    const items = (JSON.parse(sent.stdout) as { items: { payoutId: string; outcome: string }[] }).items;
    expect(items.map((i) => [i.payoutId, i.outcome])).toEqual([
      [a!.transfer_id, 'checked'],
      ['hello', 'refused'],
    ]);
  });

  it('reads --file, exits 1 when a payout is not found, and 2 with no ids at all', async () => {
    const file = join(dir, 'ids.txt');
    writeFileSync(file, `${payouts[0]!.transfer_id}\r\nTRF000000000404\r\n`);
    const r = await cli.run('payout', 'check', '--file', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/1 checked, 1 refused, 0 not checked, 0 queued/);
    expect(r.stderr).toMatch(/1 of 2 payouts were not found or not checked/);
    expect((await cli.run('payout', 'check')).code).toBe(2);
    expect((await cli.run('payout', 'check', '--file', join(dir, 'missing.txt'))).stderr).toMatch(/cannot be read/);
  });
});

/** A sandbox of the test's own (faults, fixtures) and a profile "Desk" on it: the CLI with --json, and without. */
async function desk(now?: () => number) {
  const sb = await openSandbox({ settlementsPerDay: 1 });
  const deskDir = mkdtempSync(join(tmpdir(), 'pc-payout-desk-'));
  sandboxProfile(sb, deskDir);
  const runner = cliRunner(deskDir, { DESK_SECRET: sb.secret }, now);
  const runText = (...argv: string[]) => runner.run('--profile', 'Desk', '--secret-env', 'DESK_SECRET', ...argv);
  return { sb, deskDir, run: (...argv: string[]) => runText('--json', ...argv), runText };
}

describe('payout check (CLI) while the service cannot be reached', () => {
  type Out = {
    counts: Record<'pending' | 'checked' | 'refused' | 'failed' | 'queued', number>;
    items: { payoutId: string; outcome: string; error: string | null }[];
    queue: { ran: number; stillQueued: number | null };
  };
  const FETCH = '/api/v2/payout/fetch';

  it('ends normal checks "not checked", queues advance ones, and runs the queue once when it answers', async () => {
    const { sb, deskDir, run } = await desk();
    try {
      const fetches = async () =>
        (
          await hook<{ payoutFetches: Record<string, { normal: number; advance: number }> }>(
            sb.sandbox.url,
            'GET',
            'fixtures',
          )
        ).body.payoutFetches;
      const fx = await hook<{ payouts: { id: string; status: string }[] }>(sb.sandbox.url, 'GET', 'fixtures');
      const ids = fx.body.payouts.slice(0, 3).map((p) => p.id);
      const later = fx.body.payouts[3]!.id;

      // Every attempt is reset before an answer.
      await hook(sb.sandbox.url, 'POST', 'faults', { path: FETCH, kind: 'drop', count: 1_000 });
      const normal = await run('payouts', 'check', ...ids);
      expect(normal.code).toBe(1);
      const n = JSON.parse(normal.stdout) as Out;
      expect(n.counts).toEqual({ pending: 0, checked: 0, refused: 0, failed: 3, queued: 0 });
      for (const i of n.items) expect(i.error).toMatch(/could not be reached|could not reach/i);
      expect(n.queue).toEqual({ ran: 0, stillQueued: null });

      const advance = await run('payouts', 'check', '--advance', ...ids);
      expect(advance.code).toBe(1);
      const a = JSON.parse(advance.stdout) as Out;
      expect(a.counts).toEqual({ pending: 0, checked: 0, refused: 0, failed: 0, queued: 3 });
      expect(a.items.every((i) => i.outcome === 'queued' && /runs when it can be reached again/.test(i.error!))).toBe(
        true,
      );
      // Still unreachable: the queue stays as it is, and says so.
      const still = await run('payouts', 'check', '--queued');
      expect(still.code).toBe(1);
      expect(JSON.parse(still.stdout)).toEqual({ ran: 0, stillQueued: 3 });

      await hook(sb.sandbox.url, 'DELETE', 'faults');
      const before = await fetches();
      const drained = await run('payouts', 'check', '--queued');
      expect(drained.code, drained.stderr).toBe(0);
      expect(JSON.parse(drained.stdout)).toEqual({ ran: 3, stillQueued: 0 });
      const after = await fetches();
      for (const id of ids) expect((after[id]?.advance ?? 0) - (before[id]?.advance ?? 0), id).toBe(1);

      // Queued again offline, then a normal check of another payout reaches the service: the queue runs with it.
      await hook(sb.sandbox.url, 'POST', 'faults', { path: FETCH, kind: 'drop', count: 1_000 });
      expect((await run('payouts', 'check', '--advance', ids[0]!)).code).toBe(1);
      await hook(sb.sandbox.url, 'DELETE', 'faults');
      const withIt = await run('payouts', 'check', later);
      expect(withIt.code, withIt.stderr).toBe(0);
      expect((JSON.parse(withIt.stdout) as Out).queue).toEqual({ ran: 1, stillQueued: 0 });
      expect((await fetches())[ids[0]!]!.advance - after[ids[0]!]!.advance).toBe(1);
    } finally {
      await sb.close();
      rmSync(deskDir, { recursive: true, force: true });
    }
  });
});

describe('ageing (CLI)', () => {
  it('gives each payout its first-seen time, expected time and whether it is overdue, on the clock', async () => {
    const base = testClock();
    let moved = 0;
    const { sb, deskDir, run, runText } = await desk(() => base() + moved);
    try {
      const fx = await hook<{ payouts: { id: string; status: string }[] }>(sb.sandbox.url, 'GET', 'fixtures');
      const id = fx.body.payouts.find((p) => p.status === 'pending')!.id;
      const first = await run('payouts', 'get', id);
      expect(first.code, first.stderr).toBe(0);
      const seen = JSON.parse(first.stdout) as PayoutLookup & { age: PayoutAge };
      expect(seen.firstSeenAt).toBe(seen.lookedUpAt);
      const due = expectedBy(seen.payout!.method, seen.firstSeenAt!, DEFAULT_TURNAROUND)!;
      expect(seen.age).toMatchObject({ firstSeenAt: seen.lookedUpAt, expectedBy: due, overdue: false });

      // Past its expected time, still pending: overdue, in the JSON and the table; first seen stays the first.
      moved = Date.parse(due) - base() + 60_000;
      const late = await run('payouts', 'check', id);
      expect(late.code, late.stderr).toBe(0);
      const item = (JSON.parse(late.stdout) as { items: Record<string, unknown>[] }).items[0]!;
      expect(item).toMatchObject({ status: 'pending', firstSeenAt: seen.firstSeenAt, expectedBy: due, overdue: true });
      const human = await runText('payouts', 'get', id);
      expect(human.stdout).toMatch(/first seen +.+ IST \(\d+ (min|h \d+ min) ago\); expected by .+ IST; OVERDUE/);
    } finally {
      await sb.close();
      rmSync(deskDir, { recursive: true, force: true });
    }
  });
});
