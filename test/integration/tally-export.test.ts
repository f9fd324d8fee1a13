/**
 * `export tally` on the CLI's built-in sandbox profile, read back by an independent XML parser (Python's
 * xml.etree.ElementTree) against Tally's import format: the Import Data envelope for the Vouchers report, one Receipt
 * voucher per batch whose credit equals its net, dates as YYYYMMDD, debits negative with ISDEEMEDPOSITIVE Yes, every
 * voucher summing to zero and back to its batch's figures, ledger names with &, < and quotes intact, the UTR in the
 * narration, voucher numbers unique and the same on a second export; each batch without a matching credit left out
 * with its reason; a ledger without a name refused with exit 2 naming it.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStatement, statementCsv } from '../../electron/sandbox/data/bank-statement';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { voucherNumber } from '../../electron/export/tally';
import { TALLY_ROUNDING_LIMIT } from '../../shared/tally';
import { SANDBOX_DEFAULTS } from '../../electron/sandbox/server';
import { batchKeyText, type ReconReport } from '../../shared/bank-matching';
import { formatCalendarDate } from '../../shared/format';
import { parseDecimalToMinor } from '../../shared/money';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { cliRunner } from '../support/cli';

const PYTHON = '/usr/bin/python3';
const READER = `
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == 'ENVELOPE', root.tag
assert root.findtext('HEADER/TALLYREQUEST') == 'Import Data'
data = root.find('BODY/IMPORTDATA')
assert data.findtext('REQUESTDESC/REPORTNAME') == 'Vouchers'
out = []
for msg in data.findall('REQUESTDATA/TALLYMESSAGE'):
    for v in msg.findall('VOUCHER'):
        out.append({
            'vchtype': v.get('VCHTYPE'), 'action': v.get('ACTION'), 'type': v.findtext('VOUCHERTYPENAME'),
            'date': v.findtext('DATE'), 'number': v.findtext('VOUCHERNUMBER'), 'narration': v.findtext('NARRATION'),
            'party': v.findtext('PARTYLEDGERNAME'),
            'lines': [{'ledger': e.findtext('LEDGERNAME'), 'positive': e.findtext('ISDEEMEDPOSITIVE'),
                       'amount': e.findtext('AMOUNT')} for e in v.findall('ALLLEDGERENTRIES.LIST')],
        })
json.dump(out, sys.stdout)
`;

interface Figures {
  date: string;
  pg: string;
  utr: string;
  settlementDate: string;
  amount: number;
  fees: number;
  taxes: number;
  gst: number;
  subvention: number;
  settled: number;
}

interface Parsed {
  vchtype: string;
  action: string;
  type: string;
  date: string;
  number: string;
  narration: string;
  party: string;
  lines: { ledger: string; positive: string; amount: string }[];
}

const LEDGERS = {
  bank: 'HDFC Bank A/c <5678>',
  receivable: 'Razorpay & Co "receivable"',
  fees: "Gateway's charges",
  cgst: 'Input CGST',
  sgst: 'Input SGST',
  igst: 'Input IGST',
  subvention: 'Subvention income',
};
const flags = Object.entries(LEDGERS).flatMap(([role, name]) => [`--ledger-${role}`, name]);

let dir: string;
let cli: ReturnType<typeof cliRunner>['run'];
const to = addDays(TEST_TODAY, -3);
const from = addDays(to, -2);
const period = ['--from', from, '--to', to];
let report: ReconReport;

const read = (file: string) => JSON.parse(execFileSync(PYTHON, ['-c', READER, file], { encoding: 'utf8' })) as Parsed[];

/** Each batch's figures summed by SQL straight from the cache's records, by batchKeyText. */
function cacheSums(): Map<string, Figures> {
  const db = new Database(join(dir, 'data', 'cache', 'sandbox.sqlite'), { readonly: true });
  try {
    return new Map(
      (
        db
          .prepare(
            `SELECT date, pg, coalesce(utr, '') AS utr, settlement_date AS settlementDate, sum(amount) AS amount,
                    sum(mer_service_fee) AS fees, sum(mer_service_tax) AS taxes, sum(cgst) + sum(sgst) + sum(igst) AS gst,
                    sum(merchant_subvention_amount) AS subvention, sum(settled_amount) AS settled
             FROM settlements WHERE vanished_at IS NULL GROUP BY 1, 2, 3, 4`,
          )
          .all() as Figures[]
      ).map((f) => [batchKeyText(f), f]),
    );
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-'));
  cli = cliRunner(join(dir, 'data')).run;
  expect((await cli('sync', 'settlements', ...period)).code).toBe(0);
  const source = new SettlementSource(
    SANDBOX_DEFAULTS.seed,
    SANDBOX_DEFAULTS.settlementsPerDay,
    GATEWAYS.map((g) => g.code),
  );
  const built = buildStatement(source, from, to, { missing: 1, short: 1, split: 1, orphan: 1 });
  const statement = join(dir, 'statement.csv');
  writeFileSync(statement, statementCsv(built));
  expect((await cli('recon', 'statement', 'import', statement, '--account', 'HDFC 5678')).code).toBe(0);
  const match = await cli('recon', 'match', ...period, '--json');
  expect(match.code, match.stderr).toBe(0);
  report = JSON.parse(match.stdout) as ReconReport;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export tally', () => {
  it('writes one balanced Receipt voucher per credited batch, each back to its batch', async () => {
    const file = join(dir, 'tally.xml');
    const run = await cli('export', 'tally', ...period, '--out', file, ...flags, '--json');
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as { vouchers: number; leftOut: { batch: { utr: string } }[] };
    const vouchers = read(file);
    // Straight from the cache's records: a batch is posted when its credit equals its net and its figures tie.
    const sums = cacheSums();
    const ties = (f: Figures) => f.amount - f.fees - f.taxes + f.subvention === f.settled && f.gst === f.taxes;
    const posted = report.batches.filter(
      (b) => b.matchId !== null && b.difference === 0 && ties(sums.get(batchKeyText(b))!),
    );
    expect(posted.length).toBeGreaterThan(0);
    expect([vouchers.length, summary.vouchers]).toEqual([posted.length, posted.length]);
    expect(summary.leftOut.length).toBe(report.batches.length - posted.length);
    const creditDate = new Map(report.credits.map((c) => [c.id, c.date]));
    expect(new Set(vouchers.map((v) => v.number)).size).toBe(vouchers.length);
    const byNumber = new Map(vouchers.map((v) => [v.number, v]));
    for (const b of posted) {
      const v = byNumber.get(voucherNumber(b))!;
      expect(v, `a voucher for batch ${batchKeyText(b)}`).toBeDefined();
      expect(v.narration).toContain(`UTR ${b.utr === '' ? '(none given)' : b.utr},`);
      expect([v.vchtype, v.action, v.type, v.party]).toEqual(['Receipt', 'Create', 'Receipt', LEDGERS.receivable]);
      const credited = [...new Set(b.lineIds.map((id) => creditDate.get(id)!))].sort();
      const last = credited.at(-1)!;
      // The narration an accountant reads in Tally: dates dd/mm/yyyy, as the console shows them.
      expect(v.narration).toContain(`batch of ${formatCalendarDate(b.date)}, `);
      expect(v.narration).toMatch(new RegExp(`credited ${credited.map(formatCalendarDate).join(', ')}$`));
      expect(v.date).toBe(last.replaceAll('-', ''));
      const paise = v.lines.map((l) => ({ ...l, paise: parseDecimalToMinor(l.amount) }));
      for (const l of paise) {
        expect(l.amount).toMatch(/^-?\d+\.\d{2}$/);
        expect(l.positive).toBe(l.paise < 0 ? 'Yes' : 'No');
      }
      expect(paise.reduce((s, l) => s + l.paise, 0)).toBe(0);
      const of = (ledger: string) => -paise.filter((l) => l.ledger === ledger).reduce((s, l) => s + l.paise, 0);
      const f = sums.get(batchKeyText(b))!;
      expect(of(LEDGERS.bank)).toBe(f.settled);
      expect(of(LEDGERS.fees)).toBe(f.fees);
      expect(of(LEDGERS.cgst) + of(LEDGERS.sgst) + of(LEDGERS.igst)).toBe(f.taxes);
      expect(of(LEDGERS.subvention)).toBe(-f.subvention);
      expect(of(LEDGERS.receivable)).toBe(-f.amount);
    }

    const again = join(dir, 'again.xml');
    expect((await cli('export', 'tally', ...period, '--out', again, ...flags)).code).toBe(0);
    expect(read(again).map((v) => v.number)).toEqual(vouchers.map((v) => v.number));
    expect(readFileSync(file, 'utf8')).toContain('Razorpay &amp; Co &quot;receivable&quot;');
  });

  it('posts a batch whose figures are out by a few paise with the difference on the rounding-off ledger, once named', async () => {
    const sums = cacheSums();
    /** Debits over credits of the batch's lines without rounding: what the rounding-off line must take. */
    const outBy = (f: Figures) => f.settled + f.fees + f.gst - f.subvention - f.amount;
    const ties = (f: Figures) => f.amount - f.fees - f.taxes + f.subvention === f.settled && f.gst === f.taxes;
    const credited = report.batches.filter((b) => b.matchId !== null && b.difference === 0);
    const rounded = credited.filter((b) => {
      const f = sums.get(batchKeyText(b))!;
      return !ties(f) && Math.abs(outBy(f)) <= TALLY_ROUNDING_LIMIT;
    });
    expect(rounded.length, 'the period holds batches a few paise out').toBeGreaterThan(0);

    // Without the ledger they are left out, and the reason says how to post them.
    const without = await cli('export', 'tally', ...period, '--out', join(dir, 'plain.xml'), ...flags, '--json');
    const plain = JSON.parse(without.stdout) as { leftOut: { batch: { utr: string }; reason: string }[] };
    for (const b of rounded) {
      const left = plain.leftOut.find((l) => l.batch.utr === b.utr);
      expect(left?.reason).toContain('name a rounding-off ledger in Settings (--ledger-rounding)');
    }

    const file = join(dir, 'rounded.xml');
    const run = await cli(
      'export',
      'tally',
      ...period,
      '--out',
      file,
      ...flags,
      '--ledger-rounding',
      'Rounding Off',
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const byNumber = new Map(read(file).map((v) => [v.number, v]));
    const posted = credited.filter((b) => ties(sums.get(batchKeyText(b))!));
    expect(byNumber.size).toBe(posted.length + rounded.length);
    for (const b of rounded) {
      const v = byNumber.get(voucherNumber(b))!;
      expect(v, `a voucher for batch ${batchKeyText(b)}`).toBeDefined();
      const paise = v.lines.map((l) => ({ ledger: l.ledger, paise: parseDecimalToMinor(l.amount) }));
      expect(paise.reduce((t, l) => t + l.paise, 0)).toBe(0);
      // Tally's AMOUNT is a debit negated: the rounding line is the batch's lines' excess, taken back.
      expect(paise.filter((l) => l.ledger === 'Rounding Off')).toEqual([
        { ledger: 'Rounding Off', paise: outBy(sums.get(batchKeyText(b))!) },
      ]);
    }
    // A batch whose figures tie gets no rounding line.
    for (const b of posted)
      expect(byNumber.get(voucherNumber(b))!.lines.map((l) => l.ledger)).not.toContain('Rounding Off');
  });

  it('names a missing ledger and exits 2; saved ledgers serve the next export', async () => {
    const out = join(dir, 'missing.xml');
    const missing = await cli('export', 'tally', ...period, '--out', out, '--ledger-bank', 'HDFC');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Gateway's receivable (credited with the gross)");
    const save = await cli('export', 'tally', ...period, '--out', out, ...flags, '--save-ledgers');
    expect(save.code, save.stderr).toBe(0);
    const saved = await cli('export', 'tally', ...period, '--out', join(dir, 'saved.xml'));
    expect(saved.code, saved.stderr).toBe(0);
    const wrongOut = await cli('export', 'tally', ...period, '--out', join(dir, 'tally.xlsx'));
    expect(wrongOut.code).toBe(2);
  });
});
