/**
 * Refunds and chargebacks signed through the books: a gateway's day settled as one batch that nets refunds and a
 * chargeback out of its sales, synced from the sandbox over loopback HTTP, ties to the paisa in the cache's batches
 * and rollup, in reconciliation (the bank credit is the batch's net), in the settlement workbook's Summary read by
 * openpyxl and in the CSV read by Python's csv module. Every expectation is summed here from the records the API
 * served, never from the cache or the export under test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { importStatement, matchPeriod } from '../../electron/reconciliation/reconcile';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import { runExport, type ExportJob } from '../../electron/export/run-export';
import { createJournal, type Journal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import type { SettlementRecord } from '../../shared/api/settlements';
import { formatMinor, majorNumberToMinor, parseDecimalToMinor } from '../../shared/money';
import { addDays } from '../../shared/time';
import { TEST_NOW, TEST_TODAY } from '../support/clock';
import { openpyxlCells, openpyxlProblem, pythonCsvFields } from '../support/export-files';
import { hook } from '../support/sandbox-http';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { requireSystem } from '../support/system';

const PER_DAY = 2000;
const ADJUSTMENTS = 'Adjustments';
const codes = GATEWAYS.map((g) => g.code);

/**
 * The latest date at least two days back (its credit is due) on which a gateway settles in one cycle, with its UTR,
 * at least two refunds and a chargeback: found from the sandbox's own generator, whatever day the suite runs as.
 * The gateway's day is then exactly one batch and one bank credit.
 */
const { date, pg } = (() => {
  const source = new SettlementSource(1, PER_DAY, codes);
  for (let d = addDays(TEST_TODAY, -2); d > addDays(TEST_TODAY, -80); d = addDays(d, -1)) {
    const day = Date.parse(`${d}T00:00:00Z`) / 86_400_000;
    for (const [gi, code] of codes.entries()) {
      if (source.cycles(day, gi) !== 1 || source.batchArrivesPending(day, gi, 0)) continue;
      const lines = source.page(d, code, 0, PER_DAY).data;
      const debits = lines.filter((r) => r.amount < 0);
      if (debits.filter((r) => r.dispute_id === null).length >= 2 && debits.some((r) => r.dispute_id !== null))
        return { date: d, pg: code };
    }
  }
  throw new Error('no batch with refunds and a chargeback in the sandbox window');
})();

let sb: OpenSandbox;
let dir: string;
let cache: Cache;
let journal: Journal;
/** The gateway's day as the API served it. */
let served: SettlementRecord[];

/** Sales, refunds, chargebacks, fees, taxes, subvention and net, summed from records here. */
function books(records: readonly SettlementRecord[]) {
  const sum = (pick: (r: SettlementRecord) => number, keep: (r: SettlementRecord) => boolean = () => true) =>
    records.filter(keep).reduce((n, r) => n + pick(r), 0);
  return {
    sales: sum(
      (r) => r.amount,
      (r) => r.amount >= 0,
    ),
    refunds: sum(
      (r) => r.amount,
      (r) => r.amount < 0 && r.dispute_id === null,
    ),
    chargebacks: sum(
      (r) => r.amount,
      (r) => r.amount < 0 && r.dispute_id !== null,
    ),
    fees: sum((r) => r.mer_service_fee),
    taxes: sum((r) => r.mer_service_tax),
    subvention: sum((r) => r.merchant_subvention_amount),
    net: sum((r) => r.settled_amount),
  };
}

function job(file: string, format: 'xlsx' | 'csv'): ExportJob {
  return {
    request: { kind: 'settlements', format, filter: { from: date, to: date, pg } },
    cacheFile: cache.file,
    file,
    context: {
      profileName: 'Treasury desk',
      environment: 'sandbox',
      baseUrl: sb.sandbox.url,
      generatedAtIst: `${TEST_TODAY} 12:00:00`,
      appVersion: '0.0.0',
    },
  };
}

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  dir = mkdtempSync(join(tmpdir(), 'refunds-'));
  cache = openCache(join(dir, 'cache.sqlite'));
  const now = () => new Date(TEST_NOW);
  journal = createJournal({
    db: cache.db,
    profileId: 'books',
    heads: createProfileStore({ dataDir: dir, sandbox: null, now }),
    appVersion: '0.0.0',
    osUser: 'asha',
    now,
  });
  served = [];
  for await (const page of sb.api().settlements.pages({ date, pg })) served.push(...page.data);
  const summary = await syncSettlements({ api: sb.api(), cache, from: date, to: date });
  expect(summary.status).toBe('completed');
});
afterAll(async () => {
  cache?.close();
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a batch with refunds and a chargeback', () => {
  it('is served as negative lines netted out of the sales', () => {
    const b = books(served);
    expect(served.filter((r) => r.amount < 0 && r.dispute_id === null).length).toBeGreaterThanOrEqual(2);
    expect(b.refunds).toBeLessThan(0);
    expect(b.chargebacks).toBeLessThan(0);
    expect(new Set(served.map((r) => `${r.utr}|${r.settlement_date}`)).size).toBe(1);
    expect(b.net).toBeGreaterThan(0);
  });

  it('ties in the cache: its batch, the rollup and the rows each hold the signed sums', () => {
    const b = books(served);
    const batches = cache.reconciliation.batches(date, date, pg);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({
      records: served.length,
      amount: b.sales + b.refunds + b.chargebacks,
      settled: b.net,
    });
    const total = cache.settlements.aggregate({ from: date, to: date, pg }).total;
    expect({ count: total.count, amount: total.amount, settled: total.settled }).toEqual({
      count: served.length,
      amount: b.sales + b.refunds + b.chargebacks,
      settled: b.net,
    });
  });

  it('ties again after a re-sync, which recomputes the batch and rollup from the rows, not from kept sums', async () => {
    // Sums kept by deltas carry an edit forward; the re-sync of the date must make them again from its rows.
    cache.db
      .prepare('UPDATE settlement_batches SET settled = settled + 1, amount = -amount WHERE date = ? AND pg = ?')
      .run(date, pg);
    cache.db.prepare('UPDATE settlement_rollup SET settled = settled + 1 WHERE date = ? AND pg = ?').run(date, pg);
    const summary = await syncSettlements({ api: sb.api(), cache, from: date, to: date });
    expect(summary.status).toBe('completed');
    const b = books(served);
    expect(cache.reconciliation.batches(date, date, pg)[0]).toMatchObject({
      amount: b.sales + b.refunds + b.chargebacks,
      settled: b.net,
    });
    expect(cache.settlements.aggregate({ from: date, to: date, pg }).total.settled).toBe(b.net);
  });

  it('is matched in reconciliation by a bank credit of its net, to the paisa', async () => {
    const answer = await hook(sb.sandbox.url, 'POST', 'statement', {
      from: date,
      to: date,
      discrepancies: { missing: 0, short: 0, split: 0, orphan: 0 },
    });
    expect(answer.http).toBe(200);
    const { csv } = answer.body as { csv: string };
    await importStatement(cache, journal, { fileName: 'hdfc.csv', bytes: Buffer.from(csv), accountName: 'HDFC' });
    const r = matchPeriod(cache, { account: 'HDFC', from: date, to: date, today: TEST_TODAY });
    const batch = r.batches.find((x) => x.pg === pg);
    expect(batch).toMatchObject({ state: 'matched', settled: books(served).net, difference: 0 });
    const credits = r.credits.filter((c) => batch!.lineIds.includes(c.id));
    expect(credits.map((c) => c.amount)).toEqual([books(served).net]);
  });
});

describe.runIf(requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem()))(
  'the exports of a batch with refunds and a chargeback',
  () => {
    it("workbook: the Summary's sales, refunds, chargebacks, fees, taxes and subvention tie to the net settled", async () => {
      const file = join(dir, 'books.xlsx');
      await runExport(job(file, 'xlsx'));
      const rows = openpyxlCells(file)['Summary']!;
      const line = (label: string) => {
        const row = rows.find((r) => r[0]?.[1] === label);
        expect(row, label).toBeDefined();
        return majorNumberToMinor(row![1]![1] as number);
      };
      const b = books(served);
      expect({
        sales: line('Sales'),
        refunds: line('Refunds'),
        chargebacks: line('Chargebacks'),
        fees: line('Fees'),
        taxes: line('Taxes (GST)'),
        subvention: line('Subvention'),
        adjustments: line(ADJUSTMENTS),
        net: line('Net settled'),
      }).toEqual({
        sales: b.sales,
        refunds: b.refunds,
        chargebacks: b.chargebacks,
        fees: -b.fees,
        taxes: -b.taxes,
        subvention: b.subvention,
        adjustments: b.net - (b.sales + b.refunds + b.chargebacks - b.fees - b.taxes + b.subvention),
        net: b.net,
      });
      // The lines above "Net settled" add up to it.
      const lines = ['Sales', 'Refunds', 'Chargebacks', 'Fees', 'Taxes (GST)', 'Subvention', ADJUSTMENTS];
      expect(lines.map(line).reduce((n, v) => n + v, 0)).toBe(b.net);
    });

    it('CSV: Python reads signed amounts that add up by kind to the batch and its net', async () => {
      const file = join(dir, 'books.csv');
      await runExport(job(file, 'csv'));
      const [header, ...rows] = pythonCsvFields(file, ',');
      const col = (name: string) => header!.indexOf(name);
      const [amount, settled, dispute] = [col('Amount (INR)'), col('Settled amount (INR)'), col('Dispute id')];
      expect(rows).toHaveLength(served.length);
      const paise = (text: string) => parseDecimalToMinor(text);
      const sum = (at: number, keep: (r: string[]) => boolean) =>
        rows.filter(keep).reduce((n, r) => n + paise(r[at]!), 0);
      const b = books(served);
      expect({
        sales: sum(amount, (r) => paise(r[amount]!) >= 0),
        refunds: sum(amount, (r) => paise(r[amount]!) < 0 && r[dispute] === ''),
        chargebacks: sum(amount, (r) => paise(r[amount]!) < 0 && r[dispute] !== ''),
        net: sum(settled, () => true),
      }).toEqual({ sales: b.sales, refunds: b.refunds, chargebacks: b.chargebacks, net: b.net });
      // A negative amount is a number to the reader, never text behind an apostrophe.
      expect(rows.filter((r) => r[amount]!.startsWith('-')).length).toBe(served.filter((r) => r.amount < 0).length);
      expect(readFileSync(file, 'utf8')).not.toContain("'-");
      // The sidecar gives the three kinds beside the other totals.
      const about = readFileSync(file.replace(/\.csv$/, '.about.txt'), 'utf8').split('\r\n');
      expect(about).toEqual(
        expect.arrayContaining([
          `Total sales (amounts of 0 and more) (INR): ${formatMinor(b.sales)}`,
          `Total refunds (INR): ${formatMinor(b.refunds)}`,
          `Total chargebacks (INR): ${formatMinor(b.chargebacks)}`,
          `Total settled amount (INR): ${formatMinor(b.net)}`,
        ]),
      );
    });
  },
);
