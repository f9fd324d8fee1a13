/**
 * `today` on the CLI's built-in sandbox profile: the same summary as the screen's channel in --json (integer paise),
 * the human panels, and `--fail-on` for a scheduled job: exit 0 while the named figures are zero, 1 once one is not,
 * 2 for a name it does not know. `today --refresh` on a profile of its own sandbox: every part done and exit 0 while
 * the service answers, the refreshed figures in the summary; with the service gone, each part's failure in its words,
 * the cached panels kept, and exit 1 (never 3: nothing it runs moves money).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStatement, statementCsv } from '../../electron/sandbox/data/bank-statement';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { SANDBOX_DEFAULTS } from '../../electron/sandbox/server';
import type { ReconReport } from '../../shared/bank-matching';
import { addDays } from '../../shared/time';
import { DEFAULT_REFRESH_DAYS, type TodaySummary } from '../../shared/today';
import { TEST_TODAY } from '../support/clock';
import { addLocalProfile, cliRunner } from '../support/cli';
import { openSandbox } from '../support/sandbox';

let dir: string;
let cli: ReturnType<typeof cliRunner>['run'];
const to = addDays(TEST_TODAY, -3);
const from = addDays(to, -2);

type TodayJson = TodaySummary & { failOn: { named: string[]; counts: Record<string, number>; failing: string[] } };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'today-cli-'));
  cli = cliRunner(join(dir, 'data')).run;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('today on the command line', () => {
  it('says a profile never synced should sync first, and exits 0', async () => {
    const first = await cli('today');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Never synced');
  });

  it('gives the panels in --json with integer paise, the figures of the sources', async () => {
    expect((await cli('sync', 'settlements', '--from', from, '--to', to)).code).toBe(0);
    const r = await cli('today', '--json');
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as TodayJson;
    expect(s).toMatchObject({ firstRun: false, mode: 'local', notArrived: { data: { accounts: [] } } });
    const summary = JSON.parse((await cli('exceptions', 'queue', '--state', 'open', '--json')).stdout) as {
      total: number;
      amountAtRisk: number;
    };
    expect(s.exceptions.data!.open).toEqual({ count: summary.total, amount: summary.amountAtRisk });
    expect(Number.isInteger(s.exceptions.data!.open.amount)).toBe(true);
    const human = await cli('today');
    expect(human.stdout).toMatch(/^Exceptions \(as of /m);
  });

  it('exits 1 with --fail-on when a named figure is not zero, 0 while it is', async () => {
    expect((await cli('today', '--fail-on', 'differs,approvals')).code).toBe(0);
    const source = new SettlementSource(
      SANDBOX_DEFAULTS.seed,
      SANDBOX_DEFAULTS.settlementsPerDay,
      GATEWAYS.map((g) => g.code),
    );
    const file = join(dir, 'statement.csv');
    writeFileSync(file, statementCsv(buildStatement(source, from, to, { missing: 0, short: 1, split: 0, orphan: 0 })));
    expect((await cli('recon', 'statement', 'import', file, '--account', 'HDFC 5678')).code).toBe(0);
    const period = ['--from', addDays(TEST_TODAY, -7), '--to', addDays(TEST_TODAY, -1)];
    const report = JSON.parse((await cli('recon', 'match', ...period, '--json')).stdout) as ReconReport;
    const differs = report.creditTotals.find((t) => t.state === 'differs')!;

    const failed = await cli('today', '--fail-on', 'differs', '--json');
    expect(failed.code).toBe(1);
    const s = JSON.parse(failed.stdout) as TodayJson;
    expect(s.failOn).toMatchObject({ named: ['differs'], counts: { differs: differs.count }, failing: ['differs'] });
    expect(s.notArrived.data!.total.differs).toMatchObject({ count: differs.count, amount: differs.amount });
    expect(failed.stderr).toContain(`differs ${differs.count}`);
    expect((await cli('today', '--fail-on', 'approvals')).code).toBe(0);
  });

  it('refuses a --fail-on name it does not know, with exit 2', async () => {
    const r = await cli('today', '--fail-on', 'overdue,late');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not late');
  });
});

describe('today --refresh', () => {
  let sb: Awaited<ReturnType<typeof openSandbox>>;
  let run: ReturnType<typeof cliRunner>['run'];
  let refreshDir: string;
  beforeAll(async () => {
    refreshDir = mkdtempSync(join(tmpdir(), 'today-refresh-cli-'));
    sb = await openSandbox({ settlementsPerDay: 30 });
    const own = cliRunner(refreshDir, { PC_TEST_SECRET: sb.secret });
    const add = await addLocalProfile(own.run, sb);
    expect(add.code, add.stderr).toBe(0);
    run = (...argv) => own.run('--profile', 'Local', '--secret-env', 'PC_TEST_SECRET', ...argv);
  });
  afterAll(async () => {
    await sb?.close();
    rmSync(refreshDir, { recursive: true, force: true });
  });

  it('runs balances, the last N days’ sync and a watch round, each done, and exits 0', async () => {
    const r = await run('--json', 'today', '--refresh');
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as TodayJson;
    const to = addDays(TEST_TODAY, -1);
    expect(s.refresh).toMatchObject({ running: false, from: addDays(to, -(DEFAULT_REFRESH_DAYS - 1)), to });
    expect(s.refresh!.parts).toEqual([
      { part: 'balances', state: 'done', error: null },
      { part: 'sync', state: 'done', error: null },
      { part: 'watch', state: 'done', error: null },
    ]);
    // The refreshed figures are the summary's: the synced dates are the cache's, the balances dated.
    const synced = JSON.parse(
      (await run('--json', 'settlements', 'summary', '--from', s.refresh!.from, '--to', s.refresh!.to)).stdout,
    ) as { byDate: { date: string; count: number }[] };
    expect([...new Set(synced.byDate.map((d) => d.date))].sort()).toEqual(
      Array.from({ length: DEFAULT_REFRESH_DAYS }, (_, i) => addDays(s.refresh!.from, i)),
    );
    expect(s.freshness.data!.incomplete.map((d) => d.date)).not.toContain(s.refresh!.to);
    expect(s.freshness.data!.balancesAt).not.toBeNull();
    expect(s.payable).toMatchObject({ error: null, asOf: s.freshness.data!.balancesAt });
    const human = await run('today', '--refresh');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`Settlement sync, ${s.refresh!.from} to ${s.refresh!.to}: done`);
  });

  it('with the service gone, says which parts failed and why, keeps the cached panels, and exits 1', async () => {
    const before = JSON.parse((await run('--json', 'today')).stdout) as TodayJson;
    await sb.close();
    const r = await run('--json', 'today', '--refresh');
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout) as TodayJson;
    const part = (name: string) => s.refresh!.parts.find((p) => p.part === name)!;
    for (const name of ['balances', 'sync']) {
      expect(part(name).state).toBe('failed');
      expect(part(name).error).toMatch(/Nothing is answering at the profile address/);
    }
    expect(r.stderr).toMatch(/^Refresh all: balances failed, sync failed/m);
    // What the cache held before still shows, with its age.
    expect(s.payable).toEqual(before.payable);
    expect(s.freshness.data!.settlementsSyncedAt).toBe(before.freshness.data!.settlementsSyncedAt);
    const human = await run('today', '--refresh');
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^ {2}Balances: failed \(Nothing is answering/m);
  });
});
