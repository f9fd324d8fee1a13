/**
 * Every bank layout the console recognises, scored against a real synced cache (issue 31): the sandbox's settlements
 * synced over loopback HTTP roll up into batches, a statement is made from those batches with the seven planted
 * discrepancies (a missing credit, a credit short by ₹1, a batch paid as two credits, a late credit, a truncated
 * UTR, a UTR at the front of the narration, an unknown credit) and one debit a day, and each layout's writer writes
 * it: openpyxl XLSX, LibreOffice's BIFF8 XLS from an openpyxl workbook where the bank sends XLS, CSV or tab text
 * written here, an MT940 written here, and a PDF printed by LibreOffice. Each file is imported into its own copy
 * of the one synced cache and matched; the score is every line read with its exact amount (against the list the
 * writer was given), each planted discrepancy in its state, and no false match (every other credit paying its own
 * batch). A table of the scores is printed; every score must be perfect.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import type { BatchRow } from '../../electron/cache/reconciliation';
import { createJournal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { importStatement, matchPeriod } from '../../electron/reconciliation/reconcile';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import {
  BATCH_STATE_LABELS,
  batchKeyText,
  stateLabel,
  type BatchKey,
  type BatchState,
  type MatchHow,
  type ReconReport,
} from '../../shared/bank-matching';
import { formatMinor } from '../../shared/money';
import { addDays } from '../../shared/time';
import { TEST_NOW, TEST_TODAY } from '../support/clock';
import {
  libreofficeConvert,
  libreofficeProblem,
  openpyxlProblem,
  openpyxlWrite,
  type SheetInput,
} from '../support/export-files';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { csvCell, dMonY, ddMonYyyy, ddmmyy, indian, num } from '../support/statement-text';
import { requireSystem } from '../support/system';

const PER_DAY = 300;
/** Ends three days ago: a batch with no credit is overdue (T+1), and a credit three days after its batch is read. */
const to = addDays(TEST_TODAY, -3);
const from = addDays(to, -4);
/** The late credit comes this many days after its batch; with T+1 it is LATE_BY - 1 days late. */
const LATE_BY = 3;
const OPENING = 75_00_000_00;

const PLANTED = ['missing', 'short', 'split', 'late', 'truncated', 'front', 'unknown'] as const;
type Planted = (typeof PLANTED)[number];

/** A statement line as every writer is given it; `pays` is the batch it was written for (none: a debit, the unknown credit). */
interface Line {
  date: string;
  narration: string;
  reference: string;
  amount: number;
  balance: number;
  pays: BatchKey | null;
  planted: Planted | null;
}

/** What a batch's row of the report must say. */
interface Expected {
  state: BatchState;
  how: MatchHow | null;
  difference: number | null;
  lateDays: number | null;
  planted: Planted | null;
}

/**
 * The statement of the synced batches: each batch with a UTR credited under it on its date, the planted ones as
 * planted, a batch still UTR-pending credited with no UTR (matched by amount), a batch that nets to a debit due none.
 */
function statementOf(batches: readonly BatchRow[], overdueDays: number) {
  const eligible = batches.filter((b) => b.utr !== '' && b.settled > 100);
  const pick = (test: (b: BatchRow) => boolean) => {
    const b = eligible.find(test);
    if (!b) throw new Error('the synced batches have too few with a UTR to plant every discrepancy');
    eligible.splice(eligible.indexOf(b), 1);
    return b;
  };
  // The late credit comes LATE_BY days on, still within the lines a match of the period reads.
  const planted = new Map<string, Planted>([[batchKeyText(pick((b) => b.date === from)), 'late']]);
  for (const kind of ['missing', 'short', 'split', 'truncated', 'front'] as const) {
    planted.set(batchKeyText(pick(() => true)), kind);
  }
  const remitter = (pg: string) => `${pg.toUpperCase()} PAYMENTS PVT LTD`;
  let serial = 0;
  const bankRef = () => `0000${String(++serial).padStart(12, '0')}`;
  const entries: Omit<Line, 'balance'>[] = [];
  const expected = new Map<string, Expected>();
  batches.forEach((b, i) => {
    const key = batchKeyText(b);
    const kind = planted.get(key) ?? null;
    const pays = { date: b.date, pg: b.pg, utr: b.utr, settlementDate: b.settlementDate };
    const credit = (narration: string, amount = b.settled, date = b.date) =>
      entries.push({ date, narration, reference: bankRef(), amount, pays, planted: kind });
    const neft = (utr: string) => `NEFT CR-HDFC0000240-${remitter(b.pg)}-${utr}`;
    const matched = (how: MatchHow, extra: Partial<Expected> = {}): Expected => ({
      state: 'matched',
      how,
      difference: 0,
      lateDays: null,
      planted: kind,
      ...extra,
    });
    if (b.settled <= 0) {
      expected.set(key, { state: 'net_debit', how: null, difference: null, lateDays: null, planted: null });
    } else if (b.utr === '') {
      credit(`NEFT CR-HDFC0000240-${remitter(b.pg)}-SETTLEMENT`);
      expected.set(key, matched('amount'));
    } else if (kind === null) {
      credit(i % 2 === 0 ? neft(b.utr) : `IMPS-${b.utr}-${remitter(b.pg)}-SETTLEMENT`);
      expected.set(key, matched('utr'));
    } else if (kind === 'missing') {
      expected.set(key, { state: 'overdue', how: null, difference: null, lateDays: null, planted: kind });
    } else if (kind === 'short') {
      credit(neft(b.utr), b.settled - 100);
      expected.set(key, matched('utr', { state: 'differs', difference: -100 }));
    } else if (kind === 'split') {
      const first = Math.floor(b.settled / 3);
      credit(`NEFT CR-HDFC0000240-${remitter(b.pg)}-SETTLEMENT PART 1 OF 2`, first);
      credit(`NEFT CR-HDFC0000240-${remitter(b.pg)}-SETTLEMENT PART 2 OF 2`, b.settled - first);
      expected.set(key, matched('split'));
    } else if (kind === 'late') {
      credit(neft(b.utr), b.settled, addDays(b.date, LATE_BY));
      expected.set(key, matched('utr', { lateDays: LATE_BY - overdueDays }));
    } else if (kind === 'truncated') {
      // The bank cut the narration short, mid-UTR: no UTR to read, so the credit is matched by its exact amount.
      credit(neft(b.utr.slice(0, 8)));
      expected.set(key, matched('amount'));
    } else {
      credit(`${b.utr}-NEFT CR-HDFC0000240-${remitter(b.pg)}`);
      expected.set(key, matched('utr'));
    }
  });
  // A UTR and an amount (ending in 37 paise) that no batch has.
  const utrs = new Set(batches.map((b) => b.utr));
  const unknownUtr = ['518200000001', '518200000002'].find((u) => !utrs.has(u))!;
  entries.push({
    date: addDays(from, 2),
    narration: `NEFT CR-SBIN0001234-ACME TRADERS-${unknownUtr}`,
    reference: bankRef(),
    amount: 4_321_037,
    pays: null,
    planted: 'unknown',
  });
  for (let d = from; d <= addDays(to, LATE_BY); d = addDays(d, 1)) {
    entries.push({
      date: d,
      narration: `ACH D- TP ACH VENDOR PAYMENTS-${d.replace(/-/g, '')}`,
      reference: bankRef(),
      amount: -(1_50_000_00 + Number(d.slice(8)) * 1_001),
      pays: null,
      planted: null,
    });
  }
  entries.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let balance = OPENING;
  const lines: Line[] = entries.map((e) => ({ ...e, balance: (balance += e.amount) }));
  return { lines, expected };
}

const ddmmyyyy = (iso: string, sep: string) => `${iso.slice(8, 10)}${sep}${iso.slice(5, 7)}${sep}${iso.slice(0, 4)}`;
/** A number cell, or an empty one for no amount. */
const amountCell = (paise: number | null): SheetInput => (paise === null ? null : num(paise));
const debit = (l: Line) => (l.amount < 0 ? -l.amount : null);
const credit = (l: Line) => (l.amount > 0 ? l.amount : null);
const csv = (rows: string[][]) => rows.map((r) => r.map(csvCell).join(',')).join('\r\n');
const text = (paise: number | null) => (paise === null ? '' : indian(paise));

const hdfcRows = (lines: readonly Line[]): SheetInput[][] => {
  const header = [
    'Date',
    'Narration',
    'Chq./Ref.No.',
    'Value Dt',
    'Withdrawal Amt.',
    'Deposit Amt.',
    'Closing Balance',
  ];
  return [
    ['HDFC BANK Ltd.'],
    header,
    header.map(() => '********'),
    ...lines.map((l): SheetInput[] => [
      ddmmyy(l.date),
      l.narration,
      l.reference,
      ddmmyy(l.date),
      amountCell(debit(l)),
      amountCell(credit(l)),
      num(l.balance),
    ]),
  ];
};
const iciciRows = (lines: readonly Line[]): SheetInput[][] => [
  ['DETAILED STATEMENT'],
  [
    'S No.',
    'Value Date',
    'Transaction Date',
    'Cheque Number',
    'Transaction Remarks',
    'Withdrawal Amount (INR )',
    'Deposit Amount (INR )',
    'Balance (INR )',
  ],
  ...lines.map((l, i): SheetInput[] => [
    { n: i + 1 },
    ddmmyy(l.date),
    ddmmyy(l.date),
    null,
    l.narration,
    num(debit(l) ?? 0),
    num(credit(l) ?? 0),
    num(l.balance),
  ]),
];
const sbiText = (lines: readonly Line[]) =>
  [
    'Account Name       :\tACME RETAIL PVT LTD',
    '',
    'Txn Date\tValue Date\tDescription\tRef No./Cheque No.\t        Debit\tCredit\tBalance',
    ...lines.map((l) =>
      [
        dMonY(l.date),
        dMonY(l.date),
        l.narration,
        l.reference,
        text(debit(l)) || ' ',
        text(credit(l)) || ' ',
        indian(l.balance),
      ].join('\t'),
    ),
  ].join('\r\n');
const axisCsv = (lines: readonly Line[]) =>
  csv([
    ['Tran Date', 'CHQNO', 'PARTICULARS', 'DR', 'CR', 'BAL', 'SOL'],
    ...lines.map((l) => [
      ddmmyyyy(l.date, '-'),
      '',
      l.narration,
      text(debit(l)),
      text(credit(l)),
      indian(l.balance),
      '1234',
    ]),
  ]);
const kotakRows = (lines: readonly Line[]): SheetInput[][] => [
  ['Kotak Mahindra Bank', null, 'Account Statement'],
  [
    'Sl. No.',
    'Transaction Date',
    'Value Date',
    'Description',
    'Chq / Ref No.',
    'Withdrawal (Dr)/ Deposit (Cr)',
    'Balance',
  ],
  ...lines.map((l, i): SheetInput[] => [
    { n: i + 1 },
    ddmmyyyy(l.date, '-'),
    ddmmyyyy(l.date, '-'),
    l.narration,
    l.reference,
    `${indian(l.amount)}(${l.amount < 0 ? 'Dr' : 'Cr'})`,
    `${indian(l.balance)}(Cr)`,
  ]),
];
const rblRows = (lines: readonly Line[]): SheetInput[][] => [
  ['RBL Bank Account Statement'],
  [
    'Transaction Date',
    'Transaction Details',
    'Cheque ID',
    'Value Date',
    'Withdrawl Amt',
    'Deposit Amt',
    'Balance (INR)',
  ],
  ...lines.map((l): SheetInput[] => [
    dMonY(l.date),
    l.narration,
    null,
    dMonY(l.date),
    amountCell(debit(l)),
    amountCell(credit(l)),
    num(l.balance),
  ]),
];
const yesCsv = (lines: readonly Line[]) =>
  csv([
    [
      'Transaction Date',
      'Value Date',
      'Cheque No/Reference No',
      'Description',
      'Withdrawals',
      'Deposits',
      'Running Balance',
    ],
    ...lines.map((l) => [
      ddmmyyyy(l.date, '/'),
      ddmmyyyy(l.date, '/'),
      l.reference,
      l.narration,
      text(debit(l)),
      text(credit(l)),
      indian(l.balance),
    ]),
  ]);
const idfcRows = (lines: readonly Line[]): SheetInput[][] => [
  ['IDFC FIRST Bank', null, 'Account Statement'],
  ['Transaction Date', 'Value Date', 'Particulars', 'Cheque No.', 'Debit', 'Credit', 'Balance'],
  ...lines.map((l): SheetInput[] => [
    ddMonYyyy(l.date),
    ddMonYyyy(l.date),
    l.narration,
    null,
    amountCell(debit(l)),
    amountCell(credit(l)),
    num(l.balance),
  ]),
];
/** SWIFT blocks, :61: with a comma decimal, the narration in :86: wrapped at 40 characters with no tag. */
const mt940 = (lines: readonly Line[]) => {
  const yymmdd = (iso: string) => iso.slice(2).replace(/-/g, '');
  const amt = (p: number) => formatMinor(Math.abs(p)).replace('.', ',');
  const opening = lines[0]!.balance - lines[0]!.amount;
  return [
    '{1:F01HDFCINBBAXXX0000000000}{2:O9401200261127HDFCINBBAXXX00000000002611271200N}{4:',
    ':20:STMT',
    ':25:HDFC0000001/50200012345678',
    ':28C:00123/001',
    `:60F:C${yymmdd(lines[0]!.date)}INR${amt(opening)}`,
    ...lines.flatMap((l) => [
      `:61:${yymmdd(l.date)}${l.date.slice(5, 7)}${l.date.slice(8, 10)}${l.amount < 0 ? 'D' : 'C'}${amt(l.amount)}NTRFNONREF`,
      `:86:${l.narration.slice(0, 40)}`,
      ...(l.narration.length > 40 ? [l.narration.slice(40)] : []),
    ]),
    `:62F:C${yymmdd(lines.at(-1)!.date)}INR${amt(lines.at(-1)!.balance)}`,
    '-}',
  ].join('\r\n');
};

interface Score {
  file: string;
  layout: string;
  linesExact: string;
  discrepancies: string;
  falseMatches: number;
  wrong: string[];
}

let sb: OpenSandbox;
let dir: string;
let synced: string;
let batches: BatchRow[];
let statement: ReturnType<typeof statementOf>;
const scores: Score[] = [];

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  dir = mkdtempSync(join(tmpdir(), 'statement-layouts-'));
  synced = join(dir, 'synced.sqlite');
  const cache = openCache(synced);
  try {
    const summary = await syncSettlements({ api: sb.api(), cache, from, to });
    expect(summary.status).toBe('completed');
    batches = cache.reconciliation.batches(from, to);
    statement = statementOf(batches, cache.reconciliation.settings().overdueDays);
  } finally {
    cache.close();
  }
}, 120_000);
afterAll(async () => {
  if (scores.length > 0) console.log(`Statement layouts scored (${from} to ${to}):\n${table(scores)}`);
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

function table(rows: readonly Score[]): string {
  const head = ['file', 'layout', 'lines exact', 'discrepancies', 'false matches'];
  const cells = rows.map((s) => [s.file, s.layout, s.linesExact, s.discrepancies, String(s.falseMatches)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [head, ...cells].map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')).join('\n');
}

/** Imports the file into a copy of the synced cache, matches the period, and scores what it reads and finds. */
async function score(fileName: string, bytes: Buffer): Promise<Score> {
  const file = join(dir, `${fileName}.sqlite`);
  copyFileSync(synced, file);
  const cache: Cache = openCache(file);
  try {
    const now = () => new Date(TEST_NOW);
    const journal = createJournal({
      db: cache.db,
      profileId: 'layouts',
      heads: createProfileStore({ dataDir: join(dir, 'profiles', fileName), sandbox: null, now }),
      appVersion: '0.0.0',
      osUser: 'asha',
      now,
    });
    const imported = await importStatement(cache, journal, { fileName, bytes, accountName: 'Current' });
    const wrong: string[] = imported.bad.map((b) => `row ${b.rowNumber} unread: ${b.reason}`);
    const { lines } = statement;
    const read = cache.reconciliation.lines(imported.account.id, from, addDays(to, LATE_BY));
    const exact = lines.filter((l, i) => read[i]?.date === l.date && read[i]?.amount === l.amount).length;
    if (read.length !== lines.length) wrong.push(`${read.length} lines read of ${lines.length}`);
    lines.forEach((l, i) => {
      if (read[i]?.date !== l.date || read[i]?.amount !== l.amount) {
        wrong.push(`line ${i + 1} ${l.date} ${l.amount} read as ${read[i]?.date} ${read[i]?.amount}`);
      }
    });

    const r: ReconReport = matchPeriod(cache, { account: 'Current', from, to, today: TEST_TODAY });
    const lineOf = new Map(read.map((l, i) => [l.id, lines[i]]));
    let labelled = 0;
    let falseMatches = 0;
    for (const b of r.batches) {
      const want = statement.expected.get(batchKeyText(b))!;
      const got = { state: b.state, how: b.how, difference: b.difference, lateDays: b.lateDays };
      const same = JSON.stringify(got) === JSON.stringify({ ...want, planted: undefined });
      // Its credits are the ones written for it, each one.
      const written = lines.filter((l) => l.pays !== null && batchKeyText(l.pays) === batchKeyText(b));
      const own = b.lineIds.every(
        (id) => lineOf.get(id)?.pays && batchKeyText(lineOf.get(id)!.pays!) === batchKeyText(b),
      );
      const whole = b.lineIds.length === (b.state === 'overdue' || b.state === 'net_debit' ? 0 : written.length);
      if (!own) falseMatches++;
      if (same && own && whole && want.planted) labelled++;
      if (!same || !own || !whole) {
        wrong.push(
          `${want.planted ?? 'batch'} ${b.pg} ${b.utr || 'UTR pending'}: ${JSON.stringify(got)} ${b.lineIds.length} credits, want ${JSON.stringify(want)}`,
        );
      }
    }
    const unknown = r.credits.filter((c) => lineOf.get(c.id)?.planted === 'unknown');
    if (unknown.length === 1 && unknown[0]!.state === 'unmatched') labelled++;
    else wrong.push(`unknown credit: ${JSON.stringify(unknown.map((c) => c.state))}`);
    // A credit written for no batch in any match is a false match too.
    falseMatches += r.credits.filter((c) => c.state !== 'unmatched' && !lineOf.get(c.id)?.pays).length;
    return {
      file: fileName,
      layout: imported.layout,
      linesExact: `${exact}/${lines.length}`,
      discrepancies: `${labelled}/${PLANTED.length}`,
      falseMatches,
      wrong,
    };
  } finally {
    cache.close();
  }
}

function expectPerfect(s: Score, layout: string) {
  scores.push(s);
  expect(s).toEqual({
    file: s.file,
    layout,
    linesExact: `${statement.lines.length}/${statement.lines.length}`,
    discrepancies: `${PLANTED.length}/${PLANTED.length}`,
    falseMatches: 0,
    wrong: [],
  });
}

describe('the planted statement', () => {
  it('plants each discrepancy once, and the late one reads as late', () => {
    const planted = [...statement.expected.values()].map((e) => e.planted).filter((p) => p !== null);
    expect(planted.sort()).toEqual(PLANTED.filter((p) => p !== 'unknown').sort());
    const late = [...statement.expected.values()].find((e) => e.planted === 'late')!;
    expect(stateLabel(BATCH_STATE_LABELS[late.state], late.lateDays)).toBe(
      `Matched, ${late.lateDays} day${late.lateDays === 1 ? '' : 's'} late`,
    );
    expect(statement.lines.filter((l) => l.planted === 'unknown')).toHaveLength(1);
  });
});

describe('text statements (written here)', () => {
  it.each([
    ['sbi.xls', 'State Bank of India', () => sbiText(statement.lines)],
    ['axis.csv', 'Axis Bank', () => axisCsv(statement.lines)],
    ['yes.csv', 'Yes Bank', () => yesCsv(statement.lines)],
    ['stmt.sta', 'MT940', () => mt940(statement.lines)],
  ])('%s (%s): every line exact, every discrepancy labelled, no false match', async (name, layout, write) => {
    expectPerfect(await score(name, Buffer.from(write())), layout);
  });
});

const office =
  requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem()) &&
  requireSystem('LibreOffice (soffice, from libreoffice-calc-nogui)', libreofficeProblem());

describe.skipIf(!office)('workbooks and a PDF (openpyxl, LibreOffice)', () => {
  it('Kotak, RBL and IDFC FIRST as openpyxl XLSX', async () => {
    for (const [name, rows, layout] of [
      ['kotak.xlsx', kotakRows(statement.lines), 'Kotak Mahindra Bank'],
      ['rbl.xlsx', rblRows(statement.lines), 'RBL Bank'],
      ['idfc.xlsx', idfcRows(statement.lines), 'IDFC FIRST Bank'],
    ] as const) {
      openpyxlWrite(join(dir, name), rows);
      expectPerfect(await score(name, readFileSync(join(dir, name))), layout);
    }
  }, 120_000);

  it('HDFC and ICICI as BIFF8 XLS, and HDFC as a PDF, all by LibreOffice', async () => {
    const out = join(dir, 'office');
    mkdirSync(out, { recursive: true });
    openpyxlWrite(join(dir, 'hdfc.xlsx'), hdfcRows(statement.lines));
    openpyxlWrite(join(dir, 'icici.xlsx'), iciciRows(statement.lines));
    openpyxlWrite(join(dir, 'hdfc-print.xlsx'), hdfcRows(statement.lines), { widths: [12, 62, 20, 12, 18, 18, 18] });
    const [hdfc, icici] = libreofficeConvert([join(dir, 'hdfc.xlsx'), join(dir, 'icici.xlsx')], 'xls', out);
    const [pdf] = libreofficeConvert([join(dir, 'hdfc-print.xlsx')], 'pdf', out);
    expectPerfect(await score('hdfc.xls', readFileSync(hdfc!)), 'HDFC Bank');
    expectPerfect(await score('icici.xls', readFileSync(icici!)), 'ICICI Bank');
    expectPerfect(await score('hdfc.pdf', readFileSync(pdf!)), 'HDFC Bank');
  }, 300_000);
});
