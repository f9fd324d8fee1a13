/**
 * The reconciliation commands on the CLI's built-in sandbox profile: sync, `settlements batches` tying to
 * `settlements summary`, `recon statement import` (and again: nothing added; bad rows named), `recon match` and
 * `recon report` with --json in integer paise, `recon settings`, and the exit codes for bad input.
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
import { TEST_TODAY } from '../support/clock';
import { cliRunner } from '../support/cli';
import { openpyxlCells, pythonCsvFields } from '../support/export-files';
import { formatMoney, majorNumberToMinor } from '../../shared/money';
import { lineKind } from '../../shared/reconciliation';

let dir: string;
let cli: ReturnType<typeof cliRunner>['run'];
const to = addDays(TEST_TODAY, -3);
const from = addDays(to, -2);
const period = ['--from', from, '--to', to];
const hdfc = ['--account', 'HDFC 5678'];
let statementFile: string;
let built: ReturnType<typeof buildStatement>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recon-cli-'));
  cli = cliRunner(join(dir, 'data')).run;
  const sync = await cli('sync', 'settlements', ...period);
  expect(sync.code, sync.stderr).toBe(0);
  const source = new SettlementSource(
    SANDBOX_DEFAULTS.seed,
    SANDBOX_DEFAULTS.settlementsPerDay,
    GATEWAYS.map((g) => g.code),
  );
  built = buildStatement(source, from, to, { missing: 1, short: 1, split: 0, orphan: 1 });
  statementFile = join(dir, 'statement.csv');
  writeFileSync(statementFile, statementCsv(built));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recon on the command line', () => {
  it('settlements batches: totals in integer paise that tie to settlements summary', async () => {
    const batches = await cli('settlements', 'batches', ...period, '--json');
    expect(batches.code, batches.stderr).toBe(0);
    const b = JSON.parse(batches.stdout) as { batches: { records: number; settled: number; utr: string }[] };
    const summary = JSON.parse((await cli('settlements', 'summary', ...period, '--json')).stdout) as {
      total: { count: number; settled: number };
    };
    expect(b.batches.reduce((s, x) => s + x.records, 0)).toBe(summary.total.count);
    expect(b.batches.reduce((s, x) => s + x.settled, 0)).toBe(summary.total.settled);
    expect(b.batches.every((x) => Number.isInteger(x.settled))).toBe(true);
    const human = await cli('settlements', 'batches', ...period);
    expect(human.stdout).toMatch(/^TOTAL/m);
  });

  it('settlements batches --json: a batch netting refunds or chargebacks out gives signed integer paise', async () => {
    const source = new SettlementSource(
      SANDBOX_DEFAULTS.seed,
      SANDBOX_DEFAULTS.settlementsPerDay,
      GATEWAYS.map((g) => g.code),
    );
    // Summed here from the sandbox's own records, per batch (date, gateway, settlement time).
    const expected = new Map<string, { amount: number; settled: number; debits: number }>();
    for (let d = from; d <= to; d = addDays(d, 1)) {
      for (const r of source.page(d, undefined, 0, SANDBOX_DEFAULTS.settlementsPerDay).data) {
        const key = `${d}|${r.pg}|${r.settlement_date}`;
        const e = expected.get(key) ?? { amount: 0, settled: 0, debits: 0 };
        expected.set(key, {
          amount: e.amount + r.amount,
          settled: e.settled + r.settled_amount,
          debits: e.debits + (r.amount < 0 ? 1 : 0),
        });
      }
    }
    const out = await cli('settlements', 'batches', ...period, '--json');
    const { batches } = JSON.parse(out.stdout) as {
      batches: { date: string; pg: string; settlementDate: string; amount: number; settled: number }[];
    };
    const netted = batches.filter((b) => expected.get(`${b.date}|${b.pg}|${b.settlementDate}`)!.debits > 0);
    expect(netted.length).toBeGreaterThan(0);
    for (const b of netted) {
      const e = expected.get(`${b.date}|${b.pg}|${b.settlementDate}`)!;
      expect([b.amount, b.settled]).toEqual([e.amount, e.settled]);
    }
  });

  it('settlements summary --json: sales, refunds and chargebacks apart, signed integer paise adding up to the amount', async () => {
    const source = new SettlementSource(
      SANDBOX_DEFAULTS.seed,
      SANDBOX_DEFAULTS.settlementsPerDay,
      GATEWAYS.map((g) => g.code),
    );
    // Summed here from the sandbox's own records by the rule of `lineKind`.
    const expected = { amount: 0, sales: 0, refunds: 0, chargebacks: 0 };
    const figure = { sale: 'sales', refund: 'refunds', chargeback: 'chargebacks' } as const;
    for (let d = from; d <= to; d = addDays(d, 1)) {
      for (const r of source.page(d, undefined, 0, SANDBOX_DEFAULTS.settlementsPerDay).data) {
        expected.amount += r.amount;
        expected[figure[lineKind(r)]] += r.amount;
      }
    }
    expect(expected.refunds).toBeLessThan(0);
    const out = await cli('settlements', 'summary', ...period, '--json');
    expect(out.code, out.stderr).toBe(0);
    type Split = { amount: number; sales: number; refunds: number; chargebacks: number };
    const { total, byDate } = JSON.parse(out.stdout) as { total: Split; byDate: Split[] };
    expect({
      amount: total.amount,
      sales: total.sales,
      refunds: total.refunds,
      chargebacks: total.chargebacks,
    }).toEqual(expected);
    for (const g of byDate) expect(g.sales + g.refunds + g.chargebacks).toBe(g.amount);
  });

  it('statement import: lines added once, the layout named', async () => {
    const first = await cli('recon', 'statement', 'import', statementFile, '--account', 'HDFC 5678', '--json');
    expect(first.code, first.stderr).toBe(0);
    const r = JSON.parse(first.stdout) as { added: number; lines: number; layout: string; bad: unknown[] };
    expect([r.layout, r.added, r.lines, r.bad]).toEqual(['HDFC Bank', built.lines.length, built.lines.length, []]);
    const again = await cli('recon', 'statement', 'import', statementFile, '--account', 'HDFC 5678');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`0 added, ${built.lines.length} already imported`);
  });

  it('match and report: each discrepancy in its state, amounts in paise', async () => {
    const match = await cli('recon', 'match', ...period, '--json');
    expect(match.code, match.stderr).toBe(0);
    const r = JSON.parse(match.stdout) as ReconReport;
    const count = (state: string) => r.batchTotals.find((t) => t.state === state)!.count;
    expect([count('overdue'), count('differs')]).toEqual([1, 1]);
    const short = built.truth.batches.find((t) => t.kind === 'short')!;
    expect(r.batchTotals.find((t) => t.state === 'differs')!.difference).toBe(short.difference);
    expect(count('matched')).toBe(built.truth.batches.length - 2);
    const loose = r.creditTotals.find((t) => t.state === 'unmatched')!;
    expect(loose.count).toBe(built.truth.orphanCredits.length + built.truth.unrelatedCredits.length);
    const report = await cli('recon', 'report', ...period);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('Amount differs');
    expect(report.stdout).toContain('Credits without a batch:');
  });

  it('refuses bad input with exit 2 and a reason', async () => {
    const unknown = await cli('recon', 'report', ...period, '--account', 'Nope');
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('No bank account "Nope"')]);
    const junk = join(dir, 'junk.csv');
    writeFileSync(junk, 'a,b,c\n1,2,3\n');
    const notStatement = await cli('recon', 'statement', 'import', junk, '--account', 'HDFC 5678');
    expect([notStatement.code, notStatement.stderr]).toEqual([2, expect.stringContaining('no header row')]);
    const badMap = await cli('recon', 'statement', 'import', junk, '--map', 'colour=Red');
    expect(badMap.code).toBe(2);
    const settings = await cli('recon', 'settings', '--window-days', '99');
    expect(settings.code).toBe(2);
  });

  it('a file with a bad row keeps the good ones and names the row', async () => {
    const file = join(dir, 'bad-row.csv');
    writeFileSync(
      file,
      [
        'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
        `${to.slice(8)}/${to.slice(5, 7)}/${to.slice(2, 4)},NEFT CR-UTIB0000100-X-123456789012,1,,,"1,000.00",5000.00`,
        '31/02/26,NEFT CR-UTIB0000100-X-123456789013,2,,,10.00,5010.00',
        `${to.slice(8)}/${to.slice(5, 7)}/${to.slice(2, 4)},CASH,3,,,12.3.4,5010.00`,
      ].join('\n'),
    );
    const r = await cli('recon', 'statement', 'import', file, '--account', 'Other', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { added: number; bad: { rowNumber: number; reason: string }[] };
    expect(out.added).toBe(1);
    expect(out.bad.map((b) => b.rowNumber)).toEqual([3, 4]);
    expect(out.bad[0]!.reason).toContain('31/02/26');
    expect(out.bad[1]!.reason).toContain('12.3.4');
    const settings = await cli('recon', 'settings', '--overdue-days', '3', '--json');
    expect(JSON.parse(settings.stdout)).toEqual({ windowDays: 2, overdueDays: 3, triageThreshold: 0.5 });
    // The triage threshold is a setting of the profile too; changing one setting keeps the others.
    const threshold = await cli('recon', 'settings', '--triage-threshold', '0.75', '--json');
    expect(JSON.parse(threshold.stdout)).toEqual({ windowDays: 2, overdueDays: 3, triageThreshold: 0.75 });
    expect((await cli('recon', 'settings')).stdout).toMatch(/overdue after T\+3\. Triage tags .* reaches 75%\./);
    for (const bad of ['1.5', 'high', '-0.1']) {
      expect((await cli('recon', 'settings', '--triage-threshold', bad)).code).toBe(2);
    }
  });

  it('export reconciliation: the workbook with its Audit sheet, or the CSV pair, with a --json summary in paise', async () => {
    const report = JSON.parse((await cli('recon', 'report', ...period, ...hdfc, '--json')).stdout) as ReconReport;
    const settled = report.batches.reduce((t, b) => t + b.settled, 0);
    const xlsx = join(dir, 'recon.xlsx');
    const book = await cli('export', 'reconciliation', ...period, ...hdfc, '--out', xlsx, '--json');
    expect(book.code, book.stderr).toBe(0);
    expect(JSON.parse(book.stdout)).toMatchObject({
      account: 'HDFC 5678',
      format: 'xlsx',
      files: [xlsx],
      batches: report.batches.length,
      credits: report.credits.length,
      settled,
    });
    const cells = openpyxlCells(xlsx);
    expect(Object.keys(cells)).toEqual(['Summary', 'Batches', 'Credits', 'Statements', 'Audit']);
    expect(cells['Batches']!.slice(1).map((row) => majorNumberToMinor(row[5]![1] as number))).toEqual(
      report.batches.map((b) => b.settled),
    );

    // --format csv whatever the name says; identifiers as ="…" for Excel.
    const named = join(dir, 'recon-for-excel.txt');
    const csv = await cli(
      'export',
      'reconciliation',
      ...period,
      ...hdfc,
      '--out',
      named,
      '--format',
      'csv',
      '--csv-ids',
      'formula',
    );
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toContain(`${report.batches.length} batches`);
    const [head, ...rows] = pythonCsvFields(join(dir, 'recon-for-excel-batches.csv'), ',');
    expect(rows.map((r) => r[head!.indexOf('UTR')])).toEqual(report.batches.map((b) => `="${b.utr || 'UTR pending'}"`));
    const refused = await cli('export', 'reconciliation', ...period, ...hdfc, '--out', xlsx, '--csv-ids', 'tab');
    expect([refused.code, refused.stderr.split('\n')[0]]).toEqual([
      2,
      expect.stringMatching(/apply to a CSV \(--out FILE\.csv\) only/),
    ]);
  });

  it('match-by-hand: a difference is refused (exit 2) without --reason, and matched with one', async () => {
    const report = JSON.parse((await cli('recon', 'report', ...period, ...hdfc, '--json')).stdout) as ReconReport;
    const differs = report.batches.find((b) => b.state === 'differs')!;
    const args = [...period, ...hdfc, '--utr', differs.utr, '--pg', differs.pg, '--lines', differs.lineIds.join(',')];
    const refused = await cli('recon', 'match-by-hand', ...args, '--note', 'short by the bank');
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      `payout-console: The credits are ${formatMoney(Math.abs(differs.difference!))} ${differs.difference! > 0 ? 'more' : 'less'} than the batch; give the reason for the difference before matching them.`,
    );
    const done = await cli(
      'recon',
      'match-by-hand',
      ...args,
      '--note',
      'short by the bank',
      '--reason',
      'bank charge',
      '--json',
    );
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ lineIds: differs.lineIds, difference: differs.difference });
    const after = JSON.parse((await cli('recon', 'report', ...period, ...hdfc, '--json')).stdout) as ReconReport;
    expect(after.batches.find((b) => b.utr === differs.utr && b.pg === differs.pg)).toMatchObject({
      how: 'manual',
      reason: 'bank charge',
    });
  });
});
