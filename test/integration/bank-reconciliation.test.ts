/**
 * Bank reconciliation end to end: the sandbox's settlements synced over loopback HTTP into a real SQLite cache roll
 * up into batches that tie to the settlement totals; the sandbox's own bank statement (with known discrepancies)
 * imported as CSV and as XLSX; every batch and credit ends in the state the discrepancy means; re-import adds
 * nothing; manual match and unmatch survive a re-sync, and a UTR filled in later moves the match to it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import {
  buildStatement,
  statementXlsx,
  type BatchTruth,
  type Statement,
} from '../../electron/sandbox/data/bank-statement';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import {
  PREVIEW_ROWS,
  ReconInputError,
  importStatement,
  matchByHand,
  matchPeriod,
  previewStatement,
  saveMatchSettings,
  report,
  unmatch,
} from '../../electron/reconciliation/reconcile';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import { BATCH_STATE_LABELS, type ReconReport } from '../../shared/bank-matching';
import { runExport, type ExportJob } from '../../electron/export/run-export';
import { formatMinor, formatMoney, majorNumberToMinor, parseDecimalToMinor, sumMinor } from '../../shared/money';
import { formatCalendarDate, formatDateRange, formatIstWallClock } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_NOW, TEST_TODAY } from '../support/clock';
import { openpyxlCells, pythonCsvFields } from '../support/export-files';
import { reconciliationCsvFiles, writeReconciliation } from '../../electron/export/reconciliation-sheets';
import type { ExportContext } from '../../electron/export/provenance';
import { createJournal, type Journal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { hook } from '../support/sandbox-http';
import { openSandbox, type OpenSandbox } from '../support/sandbox';

const PER_DAY = 800;
/** What the exports below say about their making (their Audit sheet, their sidecar). */
const CONTEXT: ExportContext = {
  profileName: 'Desk',
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:4010',
  generatedAtIst: `${TEST_TODAY} 12:00:00`,
  appVersion: '0.0.0',
  journalHead: 'ab'.repeat(32),
};
let sb: OpenSandbox;
let dir: string;
let cache: Cache;
let journal: Journal;
const codes = GATEWAYS.map((g) => g.code);
/**
 * Ends on the latest date at least two days ago (so, with T+1, a batch without a credit is overdue) that has a
 * UTR-pending batch, found from the sandbox's own generator: whatever day the suite runs as, the range holds one.
 */
const to = (() => {
  const source = new SettlementSource(1, PER_DAY, codes);
  for (let d = addDays(TEST_TODAY, -2); ; d = addDays(d, -1)) {
    const day = Date.parse(`${d}T00:00:00Z`) / 86_400_000;
    if (
      codes.some((_, gi) =>
        Array.from({ length: source.cycles(day, gi) }, (_, c) => c).some((c) => source.batchArrivesPending(day, gi, c)),
      )
    )
      return d;
  }
})();
const from = addDays(to, -4);
const ACCOUNT = 'HDFC current';
let truth: Statement['truth'];
let csv: string;

async function sync() {
  const summary = await syncSettlements({ api: sb.api(), cache, from, to });
  expect(summary.status).toBe('completed');
}

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  dir = mkdtempSync(join(tmpdir(), 'bank-recon-'));
  cache = openCache(join(dir, 'cache.sqlite'));
  const now = () => new Date(TEST_NOW);
  journal = createJournal({
    db: cache.db,
    profileId: 'recon-desk',
    heads: createProfileStore({ dataDir: dir, sandbox: null, now }),
    appVersion: '0.0.0',
    osUser: 'asha',
    now,
  });
  await sync();
  const answer = await hook(sb.sandbox.url, 'POST', 'statement', {
    from,
    to,
    discrepancies: { missing: 1, short: 1, split: 1, orphan: 1 },
  });
  expect(answer.http).toBe(200);
  const body = answer.body as { csv: string; truth: Statement['truth'] };
  csv = body.csv;
  truth = body.truth;
});
afterAll(async () => {
  cache.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const today = TEST_TODAY;
const find = (r: ReconReport, t: BatchTruth) => {
  const b = r.batches.find((x) => x.pg === t.pg && x.settlementDate === t.settlement_date);
  if (!b) throw new Error(`no batch ${t.pg} ${t.settlement_date}`);
  return b;
};

describe('batches', () => {
  it('roll the synced records up by gateway, UTR and settlement time, tying to the settlement totals', () => {
    const batches = cache.reconciliation.batches(from, to);
    const agg = cache.settlements.aggregate({ from, to });
    expect(batches.reduce((s, b) => s + b.records, 0)).toBe(agg.total.count);
    expect(batches.reduce((s, b) => s + b.settled, 0)).toBe(agg.total.settled);
    expect(batches.reduce((s, b) => s + b.amount, 0)).toBe(agg.total.amount);
    expect(batches).toHaveLength(truth.batches.length);
    const pending = batches.filter((b) => b.utr === '');
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.length).toBe(truth.batches.filter((t) => t.pending).length);
    // The kept batches are exactly the records rolled up in SQL now.
    const direct = cache.db
      .prepare(
        `SELECT count(*) AS n, sum(settled_amount) AS settled FROM settlements
         WHERE date BETWEEN ? AND ? AND vanished_at IS NULL GROUP BY date, pg, coalesce(utr, ''), settlement_date
         ORDER BY date, settlement_date, pg, coalesce(utr, '')`,
      )
      .all(from, to);
    expect(batches.map((b) => ({ n: b.records, settled: b.settled }))).toEqual(direct);
  });
});

describe('a sandbox statement with known discrepancies', () => {
  let r: ReconReport;
  it('imports from CSV with every line kept, and again adds nothing', async () => {
    const first = await importStatement(cache, journal, {
      fileName: 'hdfc.csv',
      bytes: Buffer.from(csv),
      accountName: ACCOUNT,
    });
    expect(first.layout).toBe('HDFC Bank');
    expect(first.bad).toEqual([]);
    expect(first.added).toBe(first.lines);
    // What the mapping step shows for the next file of this account: its first rows and the columns it will use.
    const preview = await previewStatement(cache, {
      fileName: 'hdfc.csv',
      bytes: Buffer.from(csv),
      accountName: ACCOUNT,
    });
    expect(preview.rows).toHaveLength(PREVIEW_ROWS);
    expect(preview.rows[0]!.cells[5]).toBe('Deposit Amt.');
    expect(preview.header).toEqual({ index: 0, layout: 'HDFC Bank', mapping: first.mapping });
    const again = await importStatement(cache, journal, {
      fileName: 'hdfc.csv',
      bytes: Buffer.from(csv),
      accountName: ACCOUNT,
    });
    expect(again.added).toBe(0);
    expect(again.duplicates).toBe(first.lines);
    // Each import is journaled with its file's digest and counts, in the transaction that stored it.
    const imports = journal.list({ kind: 'reconciliation' }).filter((e) => e.event === 'statement.imported');
    expect(imports.map((e) => e.data)).toEqual([
      expect.objectContaining({ fileName: 'hdfc.csv', added: 0, duplicates: first.lines }),
      expect.objectContaining({ fileName: 'hdfc.csv', added: first.lines, account: ACCOUNT }),
    ]);
    // Match settings changed are journaled with before and after; the same settings again are no entry.
    const settings = cache.reconciliation.settings();
    saveMatchSettings(cache, journal, { ...settings, windowDays: settings.windowDays + 1 });
    saveMatchSettings(cache, journal, { ...settings, windowDays: settings.windowDays + 1 });
    saveMatchSettings(cache, journal, settings);
    const changes = journal.list({ kind: 'reconciliation' }).filter((e) => e.event === 'recon.settings_changed');
    expect(changes).toHaveLength(2);
  });

  it('matches every batch and credit into exactly the expected state', () => {
    r = matchPeriod(cache, { account: ACCOUNT, from, to, today });
    for (const t of truth.batches) {
      const b = find(r, t);
      const expected = { credited: 'matched', split: 'matched', short: 'differs', missing: 'overdue' }[t.kind];
      expect({ batch: `${t.pg} ${t.settlement_date}`, state: b.state }).toEqual({
        batch: `${t.pg} ${t.settlement_date}`,
        state: expected,
      });
      if (t.kind === 'short') expect(b.difference).toBe(t.difference);
      if (t.kind === 'split') expect([b.how, b.lineIds.length]).toEqual(['split', 2]);
      if (t.kind === 'credited') expect(b.how).toBe(t.pending ? 'amount' : 'utr');
    }
    const unmatched = r.credits.filter((c) => c.state === 'unmatched').map((c) => c.reference);
    expect(unmatched.sort()).toEqual([...truth.orphanCredits, ...truth.unrelatedCredits].sort());
    // Each credit in one match, each match one batch.
    const lineIds = r.batches.flatMap((b) => b.lineIds);
    expect(new Set(lineIds).size).toBe(lineIds.length);
    const totals = Object.fromEntries(r.batchTotals.map((t) => [t.state, t.count]));
    // The sandbox's statement credits every batch that nets to more than nothing; one that nets to a debit is due none.
    const netDebits = cache.reconciliation.batches(from, to).filter((b) => b.settled <= 0).length;
    expect(totals).toEqual({
      matched: truth.batches.length - 2,
      differs: 1,
      manual: 0,
      overdue: 1,
      awaiting: 0,
      net_debit: netDebits,
    });
  });

  it('keeps a match taken apart apart, and a match by hand, across a re-sync that fills pending UTRs', async () => {
    const short = find(
      r,
      truth.batches.find((t) => t.kind === 'short')!,
    );
    unmatch(cache, journal, {
      account: ACCOUNT,
      matchId: short.matchId!,
      note: 'bank says the short credit is another batch',
    });
    let again = matchPeriod(cache, { account: ACCOUNT, from, to, today });
    expect(
      find(
        again,
        truth.batches.find((t) => t.kind === 'short')!,
      ).state,
    ).toBe('overdue');
    const creditId = short.lineIds[0]!;
    expect(again.credits.find((c) => c.id === creditId)!.state).toBe('unmatched');

    const asked = {
      account: ACCOUNT,
      batch: short,
      lineIds: [creditId],
      note: 'gateway confirmed a Rs short deduction',
    };
    // The core refuses the short credit without a word on the difference, and nothing is matched or journaled.
    expect(() => matchByHand(cache, journal, asked)).toThrow(
      new ReconInputError(
        `The credits are ${formatMoney(Math.abs(short.difference!))} ${short.difference! > 0 ? 'more' : 'less'} than the batch; give the reason for the difference before matching them.`,
      ),
    );
    expect(journal.list({ kind: 'action' }).map((e) => e.event)).toEqual(['recon.unmatch']);
    expect(report(cache, { account: ACCOUNT, from, to, today }).credits.find((c) => c.id === creditId)!.state).toBe(
      'unmatched',
    );
    const byHand = matchByHand(cache, journal, { ...asked, reason: 'gateway deducted a fee' });
    // Both are in the audit journal with their notes, batch, credits and amounts, and the chain holds.
    const [matched, apart] = journal.list({ kind: 'action' });
    expect([apart!.event, apart!.outcome, apart!.data]).toEqual([
      'recon.unmatch',
      'done',
      {
        account: ACCOUNT,
        matchId: short.matchId,
        how: 'utr',
        batch: { date: short.date, pg: short.pg, utr: short.utr, settlementDate: short.settlementDate },
        lineIds: short.lineIds,
        credited: short.settled + short.difference!,
        note: 'bank says the short credit is another batch',
      },
    ]);
    expect(apart!.summary).toContain('bank says the short credit is another batch');
    expect([matched!.event, matched!.data['matchId'], matched!.data['lineIds'], matched!.data['note']]).toEqual([
      'recon.match_by_hand',
      byHand,
      [creditId],
      'gateway confirmed a Rs short deduction',
    ]);
    expect(matched!.data['difference']).toBe(short.difference);
    expect(matched!.data['reason']).toBe('gateway deducted a fee');
    // The journal's sentence in the screens' formats: the settlement time in IST, dates dd/mm/yyyy, ₹ en-IN.
    expect(matched!.summary).toBe(
      `Matched batch ${short.pg} ${short.utr} settled ${formatIstWallClock(short.settlementDate)} ` +
        `(${formatCalendarDate(short.date)}) by hand to 1 credit in "${ACCOUNT}" ` +
        `(difference ${formatMoney(short.difference!)}): gateway confirmed a Rs short deduction ` +
        'The difference, because: gateway deducted a fee',
    );
    expect(matched!.summary).toMatch(
      / settled \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2}:\d{2} [ap]m IST \(\d{2}\/\d{2}\/\d{4}\) /,
    );
    expect(apart!.summary).toContain(`settled ${formatIstWallClock(short.settlementDate)}`);
    expect((await journal.verify()).ok).toBe(true);
    for (const date of new Set(truth.batches.filter((t) => t.pending).map((t) => t.date))) {
      expect((await hook(sb.sandbox.url, 'POST', 'settlements/fill-utrs', { date })).http).toBe(200);
    }
    await sync();
    again = matchPeriod(cache, { account: ACCOUNT, from, to, today });
    const b = find(
      again,
      truth.batches.find((t) => t.kind === 'short')!,
    );
    expect([b.state, b.note]).toEqual(['manual', 'gateway confirmed a Rs short deduction']);
    for (const t of truth.batches.filter((x) => x.pending)) {
      const p = find(again, t);
      expect([p.utr, p.state, p.how]).toEqual([t.utr, 'matched', 'utr']);
    }
    // The report alone (no matching run) reads the same stored state.
    expect(report(cache, { account: ACCOUNT, from, to, today }).batchTotals).toEqual(again.batchTotals);
  });
});

describe('the reconciliation workbook', () => {
  it('reads back in openpyxl: counts per state, every batch with its UTR as text, money to the paisa', async () => {
    const r = report(cache, { account: ACCOUNT, from, to, today });
    const file = join(dir, 'recon.xlsx');
    expect(await writeReconciliation(file, new Date(TEST_NOW), r, { format: 'xlsx', context: CONTEXT })).toEqual([
      file,
    ]);
    const cells = openpyxlCells(file);
    expect(Object.keys(cells)).toEqual(['Summary', 'Batches', 'Credits', 'Statements', 'Audit']);
    // The Audit sheet, like every workbook's: where the data came from, what was asked, how many rows and money.
    const audit = new Map(cells['Audit']!.slice(1).map((row) => [row[0]![1], row[1]![1]]));
    expect(audit.get('Export')).toBe('Reconciliation');
    expect(audit.get('Profile')).toBe(CONTEXT.profileName);
    expect(audit.get('Bank account')).toBe(ACCOUNT);
    expect(audit.get('Period')).toBe(`${formatDateRange(from, to)} (batch dates, IST)`);
    expect(audit.get('Rows')).toBe(r.batches.length + r.credits.length);
    expect(majorNumberToMinor(audit.get('Total credits (INR)') as number)).toBe(
      sumMinor(r.credits.map((c) => c.amount)),
    );
    expect(majorNumberToMinor(audit.get('Total net settled of the batches (INR)') as number)).toBe(
      sumMinor(r.batches.map((b) => b.settled)),
    );
    expect(audit.get('Journal head hash')).toBe(CONTEXT.journalHead);
    expect(cells['Summary']!.slice(1).map((row) => [row[1]![1], row[2]![1]])).toEqual([
      ...r.batchTotals.map((t) => [t.label, t.count]),
      [`Of those matched, credited after T+${r.settings.overdueDays}`, r.late.count],
      ...r.creditTotals.map((t) => [t.label, t.count]),
    ]);
    const rows = cells['Batches']!.slice(1);
    expect(rows).toHaveLength(r.batches.length);
    expect(rows.map((row) => row[2])).toEqual(r.batches.map((b) => ['s', b.utr || 'UTR pending']));
    const paise = rows.map((row) => majorNumberToMinor(row[5]![1] as number));
    expect(paise).toEqual(r.batches.map((b) => b.settled));
  });
});

describe('the reconciliation CSV', () => {
  it.each(['plain', 'tab', 'formula'] as const)(
    'reads back in Python csv with identifiers %s: batches and credits tie to the report, the sidecar says how',
    async (ids) => {
      const r = report(cache, { account: ACCOUNT, from, to, today });
      const file = join(dir, `recon-${ids}.csv`);
      const files = await writeReconciliation(file, new Date(TEST_NOW), r, { format: 'csv', context: CONTEXT, ids });
      const { batches, credits } = reconciliationCsvFiles(file);
      expect(files).toEqual([batches, credits, join(dir, `recon-${ids}.about.txt`)]);
      /** The identifier as the CSV wrote it in this form. */
      const written = (id: string) => (id === '' || ids === 'plain' ? id : ids === 'tab' ? `\t${id}` : `="${id}"`);
      const [bHead, ...bRows] = pythonCsvFields(batches, ',');
      const col = (head: string[], h: string) => head.indexOf(h);
      expect(bRows).toHaveLength(r.batches.length);
      expect(bRows.map((row) => row[col(bHead!, 'UTR')])).toEqual(
        r.batches.map((b) => written(b.utr || 'UTR pending')),
      );
      expect(bRows.map((row) => parseDecimalToMinor(row[col(bHead!, 'Net settled (INR)')]!))).toEqual(
        r.batches.map((b) => b.settled),
      );
      const [cHead, ...cRows] = pythonCsvFields(credits, ',');
      expect(cRows).toHaveLength(r.credits.length);
      expect(cRows.map((row) => row[col(cHead!, 'UTR')])).toEqual(r.credits.map((c) => written(c.utr ?? '')));
      expect(sumMinor(cRows.map((row) => parseDecimalToMinor(row[col(cHead!, 'Amount (INR)')]!)))).toBe(
        sumMinor(r.credits.map((c) => c.amount)),
      );
      const about = readFileSync(join(dir, `recon-${ids}.about.txt`), 'utf8');
      expect(about).toContain(`Bank account: ${ACCOUNT}\r\n`);
      expect(about).toContain(`Rows: ${r.batches.length + r.credits.length}\r\n`);
      expect(about).toContain(`Batches file: ${basename(batches)} (${r.batches.length.toLocaleString('en-IN')} rows)`);
      // A tab kept in the cell breaks a VLOOKUP unless it is cleaned: the file says so where it does that.
      expect(about.includes('needs CLEAN()')).toBe(ids === 'tab');
    },
  );
});

describe('the settlement workbook', () => {
  it('has a Bank credits sheet, read back by openpyxl: one line per batch, tying to the records, with its credit and state', async () => {
    const r = report(cache, { account: ACCOUNT, from, to, today });
    const file = join(dir, 'settlements.xlsx');
    const request = { kind: 'settlements', format: 'xlsx', filter: { from, to } } as ExportJob['request'];
    const context = {
      profileName: 'Desk',
      environment: 'sandbox' as const,
      baseUrl: sb.sandbox.url,
      generatedAtIst: `${today} 12:00:00`,
      appVersion: '0.0.0',
    };
    expect((await runExport({ request, cacheFile: cache.file, file, context })).status).toBe('completed');
    const book = openpyxlCells(file);
    expect(Object.keys(book)).toContain('Bank credits');
    const [head, ...body] = book['Bank credits']!;
    const headers = head!.map(([, h]) => String(h));
    const rows = body.map((row) => Object.fromEntries(headers.map((h, i) => [h, row[i] ?? ['n', null]])));
    const value = (row: (typeof rows)[number], h: string) => row[h]![1];
    const paise = (h: string) => rows.reduce((t, row) => t + majorNumberToMinor((value(row, h) as number) ?? 0), 0);
    // One line per batch, totals equal to the records' (the grid's) totals for the same range.
    const agg = cache.settlements.aggregate({ from, to });
    expect(rows).toHaveLength(r.batches.length);
    expect(rows.reduce((t, row) => t + (value(row, 'Records') as number), 0)).toBe(agg.total.count);
    expect(paise('Gross (INR)')).toBe(agg.total.amount);
    expect(paise('Net settled (INR)')).toBe(agg.total.settled);
    // UTRs are text, a pending one says so; every batch's state is the Reconciliation screen's.
    expect(rows.every((row) => row['UTR']![0] === 's')).toBe(true);
    const byKey = new Map(r.batches.map((b) => [`${b.pg} ${b.utr || 'UTR pending'} ${b.settlementDate}`, b]));
    for (const row of rows) {
      const key = `${String(value(row, 'Gateway'))} ${String(value(row, 'UTR'))} ${String(value(row, 'Settled at (IST)')).replace('T', ' ')}`;
      const b = byKey.get(key);
      expect(b, key).toBeDefined();
      expect([
        value(row, 'Reconciliation'),
        row['Difference (INR)']![1] === null ? null : majorNumberToMinor(value(row, 'Difference (INR)') as number),
      ]).toEqual([BATCH_STATE_LABELS[b!.state], b!.difference]);
      if (b!.how) expect(value(row, 'Bank account')).toBe(ACCOUNT);
    }
    const states = new Set(rows.map((row) => value(row, 'Reconciliation')));
    // The earlier steps left a batch matched by hand, one without a credit, and the rest matched.
    expect([...states].sort()).toEqual(
      [BATCH_STATE_LABELS.matched, BATCH_STATE_LABELS.manual, BATCH_STATE_LABELS.overdue].sort(),
    );
    expect(body.flat().some(([type]) => type === 'f')).toBe(false);
  });
});

describe('the same statement as XLSX (header below the account lines)', () => {
  it('imports into another account and reconciles the same way', async () => {
    const source = new SettlementSource(1, PER_DAY, codes);
    const built = buildStatement(source, from, to, { missing: 0, short: 0, split: 0, orphan: 0 });
    const bytes = await statementXlsx(built);
    const result = await importStatement(cache, journal, { fileName: 'hdfc.xlsx', bytes, accountName: 'HDFC xlsx' });
    expect([result.layout, result.bad, result.added]).toEqual(['HDFC Bank', [], built.lines.length]);
    const credits = await importStatement(cache, journal, { fileName: 'hdfc.xlsx', bytes, accountName: 'HDFC xlsx' });
    expect(credits.added).toBe(0);
  });
});

describe('a late credit', () => {
  it('is "Matched, N days late" and counted, in the report and the workbook', async () => {
    // The batch the statement never credited is credited after T+n, in a second statement.
    const missing = truth.batches.find((t) => t.kind === 'missing')!;
    const n = cache.reconciliation.settings().overdueDays;
    const date = addDays(missing.date, n + 1);
    const ddmmyy = `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(2, 4)}`;
    const late = [
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
      `${ddmmyy},NEFT CR-UTIB0000100-${missing.pg} SETTLEMENT-${missing.utr},,${ddmmyy},,${formatMinor(missing.amount)},`,
    ].join('\n');
    await importStatement(cache, journal, { fileName: 'late.csv', bytes: Buffer.from(late), accountName: ACCOUNT });
    const r = matchPeriod(cache, { account: ACCOUNT, from, to, today });
    const b = find(r, missing);
    expect([b.state, b.lateDays]).toEqual(['matched', 1]);
    expect(r.late).toEqual({ count: 1, amount: missing.amount });
    const credit = r.credits.find((c) => c.matchId === b.matchId)!;
    expect([credit.date, credit.lateDays]).toEqual([date, 1]);
    const file = join(dir, 'recon-late.xlsx');
    await writeReconciliation(file, new Date(TEST_NOW), r, { format: 'xlsx', context: CONTEXT });
    const cells = openpyxlCells(file);
    const row = cells['Batches']!.slice(1).find((x) => x[2]![1] === (b.utr || 'UTR pending') && x[1]![1] === b.pg)!;
    expect(row[7]![1]).toBe('Matched, 1 day late');
    expect(cells['Summary']!.find((x) => x[1]![1] === `Of those matched, credited after T+${n}`)![2]![1]).toBe(1);
  });
});
