/**
 * `today` on the CLI's built-in sandbox profile: the same summary as the screen's channel in --json (integer paise),
 * the human panels, and `--fail-on` for a scheduled job: exit 0 while the named figures are zero, 1 once one is not,
 * 2 for a name it does not know.
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
import type { TodaySummary } from '../../shared/today';
import { TEST_TODAY } from '../support/clock';
import { cliRunner } from '../support/cli';

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
