/**
 * Statements as banks send them, each written by a writer independent of the console and imported into a real
 * cache: HDFC's and ICICI's netbanking "XLS" (BIFF8, saved by LibreOffice from an openpyxl workbook), SBI's tab text
 * under `.xls`, `.txt` and `.csv` names (written here), Axis's CSV with its OPENING BALANCE / TRANSACTION TOTAL /
 * CLOSING BALANCE rows, Kotak's one "Withdrawal (Dr)/ Deposit (Cr)" column and RBL's "Withdrawl Amt" (openpyxl),
 * an MT940 (written here), and a PDF e-statement printed by LibreOffice, with and without a password, plus an
 * image-only PDF. Each is scored line by line against the statement it was written from: every line read with its
 * date, exact amount and UTR, every summary row recognised, and the completeness proof holding (or naming the gap).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { createJournal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { writeReconciliation } from '../../electron/export/reconciliation-sheets';
import { PDF_MAX_INFLATED_MB, PDF_MAX_TEXT_CHARS, PDF_WORKER_HEAP_MB } from '../../electron/import/pdf-text';
import { SHEET_MAX_BYTES } from '../../electron/import/sheet-reader';
import { importStatement, report } from '../../electron/reconciliation/reconcile';
import { formatMinor } from '../../shared/money';
import { cliRunner } from '../support/cli';
import { TEST_NOW } from '../support/clock';
import {
  libreofficeConvert,
  libreofficeProblem,
  openpyxlCells,
  openpyxlProblem,
  openpyxlWrite,
  type SheetInput,
} from '../support/export-files';
import { contentBombPdf, pdfOf } from '../support/pdf-files';
import { csvCell, dMonY, ddmmyy, indian, num } from '../support/statement-text';
import { requireSystem } from '../support/system';

/** The statement every file is written from: opening balance, then lines (paise, credit +), with the UTR in each. */
const OPENING = 250_000_000;
const LINES = [
  {
    date: '2026-11-24',
    narration: 'NEFT CR-UTIB0000100-RAZORPAY SOFTWARE PVT LTD-427779231028',
    amount: 12_483_583,
    utr: '427779231028',
  },
  { date: '2026-11-24', narration: 'ACH D- TP ACH HDFCERGO-1234567', amount: -150_000, utr: null },
  {
    date: '2026-11-25',
    narration: 'RTGS-UTIBR52026112500001234-CASHFREE PAYMENTS',
    amount: 50_834_569,
    utr: 'UTIBR52026112500001234',
  },
  { date: '2026-11-26', narration: 'IMPS-612345678901-PAYU SETTLEMENT', amount: 32_814_138, utr: '612345678901' },
  { date: '2026-11-27', narration: 'TO TRANSFER-SALARY NOV', amount: -20_000_000, utr: null },
] as const;
type Line = (typeof LINES)[number];
const balances = LINES.map((_, i) => OPENING + LINES.slice(0, i + 1).reduce((s, l) => s + l.amount, 0));
const CLOSING = balances.at(-1)!;
const credits = LINES.filter((l) => l.amount > 0);
const debits = LINES.filter((l) => l.amount < 0);
const sum = (ls: readonly Line[]) => ls.reduce((s, l) => s + Math.abs(l.amount), 0);

const HDFC_HEADER = [
  'Date',
  'Narration',
  'Chq./Ref.No.',
  'Value Dt',
  'Withdrawal Amt.',
  'Deposit Amt.',
  'Closing Balance',
];
const hdfcRows = (lines: readonly Line[]): SheetInput[][] => [
  ['HDFC BANK Ltd.'],
  ['Account No : 50200012345678'],
  HDFC_HEADER,
  HDFC_HEADER.map(() => '********'),
  ...lines.map((l): SheetInput[] => [
    ddmmyy(l.date),
    l.narration,
    '0000000000127978',
    ddmmyy(l.date),
    l.amount < 0 ? num(-l.amount) : null,
    l.amount > 0 ? num(l.amount) : null,
    num(balances[LINES.indexOf(l)]!),
  ]),
  HDFC_HEADER.map(() => '********'),
  ['STATEMENT SUMMARY :-'],
  ['Opening Balance', 'Dr Count', 'Cr Count', 'Debits', 'Credits', 'Closing Bal'],
  [
    indian(OPENING),
    String(debits.length),
    String(credits.length),
    indian(sum(debits)),
    indian(sum(credits)),
    indian(CLOSING),
  ],
  ['Generated On: 29-Nov-2026 10:15:02'],
  ['This is a computer generated statement and does not require signature.'],
];

const ICICI_HEADER = [
  'S No.',
  'Value Date',
  'Transaction Date',
  'Cheque Number',
  'Transaction Remarks',
  'Withdrawal Amount (INR )',
  'Deposit Amount (INR )',
  'Balance (INR )',
];
const iciciRows = (): SheetInput[][] => [
  ['DETAILED STATEMENT'],
  ICICI_HEADER,
  ...LINES.map((l, i): SheetInput[] => [
    { n: i + 1 },
    ddmmyy(l.date),
    ddmmyy(l.date),
    null,
    l.narration,
    num(Math.max(0, -l.amount)),
    num(Math.max(0, l.amount)),
    num(balances[i]!),
  ]),
  [],
  ['Legends Used in Account Statement'],
  ['INF - Internet Fund Transfer'],
  ['IMPS - Immediate Payment Service'],
];

/** SBI's "Excel" download: tab-separated text, a preamble, d MMM yyyy dates, text amounts with Indian grouping. */
const sbiText = () =>
  [
    'Account Name       :\tACME RETAIL PVT LTD',
    'Account Number     :\t00000031234567890',
    '',
    'Txn Date\tValue Date\tDescription\tRef No./Cheque No.\t        Debit\tCredit\tBalance',
    ...LINES.map((l, i) =>
      [
        dMonY(l.date),
        dMonY(l.date),
        l.narration,
        '',
        l.amount < 0 ? indian(-l.amount) : ' ',
        l.amount > 0 ? indian(l.amount) : ' ',
        indian(balances[i]!),
      ].join('\t'),
    ),
    '**This is a computer generated statement and does not require a signature',
  ].join('\r\n');

/** Axis's CSV, with its balance and total rows around the lines; `drop` leaves a line out (a file cut short). */
const axisCsv = (drop: number | null) =>
  [
    ['Statement of Account No - 917020012345678 for the period 24-11-2026 to 27-11-2026'],
    ['Tran Date', 'CHQNO', 'PARTICULARS', 'DR', 'CR', 'BAL', 'SOL'],
    ['', '', 'OPENING BALANCE', '', '', indian(OPENING), ''],
    ...LINES.filter((_, i) => i !== drop).map((l) => [
      `${l.date.slice(8, 10)}-${l.date.slice(5, 7)}-${l.date.slice(0, 4)}`,
      '',
      l.narration,
      l.amount < 0 ? indian(-l.amount) : '',
      l.amount > 0 ? indian(l.amount) : '',
      indian(balances[LINES.indexOf(l)]!),
      '1234',
    ]),
    ['', '', 'TRANSACTION TOTAL', indian(sum(debits)), indian(sum(credits)), '', ''],
    ['', '', 'CLOSING BALANCE', '', '', indian(CLOSING), ''],
  ]
    .map((r) => r.map(csvCell).join(','))
    .join('\n');

const kotakRows = (): SheetInput[][] => [
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
  ...LINES.map((l, i): SheetInput[] => [
    { n: i + 1 },
    `${l.date.slice(8, 10)}-${l.date.slice(5, 7)}-${l.date.slice(0, 4)}`,
    `${l.date.slice(8, 10)}-${l.date.slice(5, 7)}-${l.date.slice(0, 4)}`,
    l.narration,
    null,
    `${indian(l.amount)}(${l.amount < 0 ? 'Dr' : 'Cr'})`,
    `${indian(balances[i]!)}(Cr)`,
  ]),
];

const rblRows = (): SheetInput[][] => [
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
  ...LINES.map((l, i): SheetInput[] => [
    dMonY(l.date),
    l.narration,
    null,
    dMonY(l.date),
    l.amount < 0 ? num(-l.amount) : null,
    l.amount > 0 ? num(l.amount) : null,
    num(balances[i]!),
  ]),
];

/** An MT940 as corporate banking sends it: SWIFT blocks, :61: with a comma decimal, the narration in :86:. */
const mt940 = () => {
  const yymmdd = (iso: string) => iso.slice(2).replace(/-/g, '');
  const amt = (p: number) => formatMinor(Math.abs(p)).replace('.', ',');
  return [
    '{1:F01HDFCINBBAXXX0000000000}{2:O9401200261127HDFCINBBAXXX00000000002611271200N}{4:',
    ':20:STMT261127',
    ':25:HDFC0000001/50200012345678',
    ':28C:00123/001',
    `:60F:C${yymmdd(LINES[0].date)}INR${amt(OPENING)}`,
    ...LINES.flatMap((l) => [
      `:61:${yymmdd(l.date)}${l.date.slice(5, 7)}${l.date.slice(8, 10)}${l.amount < 0 ? 'D' : 'C'}${amt(l.amount)}NTRFNONREF`,
      // :86: lines wrap at 65 characters and continue without a tag.
      `:86:${l.narration.slice(0, 40)}`,
      ...(l.narration.length > 40 ? [l.narration.slice(40)] : []),
    ]),
    `:62F:C${yymmdd(LINES.at(-1)!.date)}INR${amt(CLOSING)}`,
    '-}',
  ].join('\r\n');
};

/** A scanned page as a scanner writes it, hand-made: one page whose content draws one image and no text. */
function imageOnlyPdf(): Buffer {
  const pixels = Buffer.alloc(4 * 4 * 3, 0x80).toString('latin1');
  const content = 'q 400 0 0 400 100 200 cm /Im0 Do Q';
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>',
    `<< /Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

let dir: string;
let cache: Cache;
const journalOf = () =>
  createJournal({
    db: cache.db,
    profileId: 'statements',
    heads: createProfileStore({ dataDir: dir, sandbox: null }),
    appVersion: '0.0.0',
    osUser: 'asha',
    now: () => new Date(TEST_NOW),
  });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'statement-kinds-'));
  cache = openCache(join(dir, 'cache.sqlite'));
});
afterAll(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

function importFile(fileName: string, bytes: Buffer, account: string, password?: string) {
  return importStatement(cache, journalOf(), {
    fileName,
    bytes,
    accountName: account,
    ...(password === undefined ? {} : { password }),
  });
}

/** Every line of the account read with its date, exact amount and UTR, in the statement's order. */
function expectEveryLine(accountId: number, lines: readonly Line[] = LINES) {
  const read = cache.reconciliation.lines(accountId, '2026-11-01', '2026-11-30');
  expect(read.map((l) => [l.date, l.amount, l.utr])).toEqual(lines.map((l) => [l.date, l.amount, l.utr]));
}

const fullProof = {
  holds: true,
  problems: [],
  read: { credits: sum(credits), debits: sum(debits), creditCount: credits.length, debitCount: debits.length },
};

describe('text statements (written here)', () => {
  it('SBI tab text under .xls, .txt and .csv names: read as tab-separated by its content', async () => {
    for (const name of ['sbi.xls', 'sbi.txt', 'sbi.csv']) {
      const r = await importFile(name, Buffer.from(sbiText()), `SBI ${name}`);
      expect([r.kind, r.layout, r.bad]).toEqual(['tsv', 'State Bank of India', []]);
      expectEveryLine(r.account.id);
    }
  });

  it('Axis CSV: OPENING BALANCE, TRANSACTION TOTAL and CLOSING BALANCE are its summary and prove it complete', async () => {
    const r = await importFile('axis.csv', Buffer.from(axisCsv(null)), 'Axis');
    expect([r.kind, r.layout, r.bad, r.summaryRows]).toEqual(['csv', 'Axis Bank', [], [3, 9, 10]]);
    expectEveryLine(r.account.id);
    expect(r.proof).toMatchObject({
      ...fullProof,
      stated: { opening: OPENING, closing: CLOSING, debits: sum(debits), credits: sum(credits) },
    });
  });

  it('a statement missing a line fails its proof loudly, naming the amount missing', async () => {
    const r = await importFile('axis-cut.csv', Buffer.from(axisCsv(2)), 'Axis cut');
    expectEveryLine(
      r.account.id,
      LINES.filter((_, i) => i !== 2),
    );
    expect(r.proof.holds).toBe(false);
    expect(r.proof.sentence).toMatch(/^NOT COMPLETE: /);
    expect(r.proof.problems[0]).toContain(`₹${formatMinor(LINES[2].amount)} of credits is missing`);
    expect(r.proof.problems[1]).toBe(
      `The statement states credits of ₹${formatMinor(sum(credits))}; the lines read hold ₹${formatMinor(sum(credits) - LINES[2].amount)}.`,
    );
  });

  it('MT940: :61: lines with their :86: narration, proved by :60F: and :62F:', async () => {
    const r = await importFile('stmt.sta', Buffer.from(mt940()), 'MT940');
    expect([r.kind, r.layout, r.bad]).toEqual(['mt940', 'MT940', []]);
    expectEveryLine(r.account.id);
    expect(r.proof).toMatchObject({ ...fullProof, stated: { opening: OPENING, closing: CLOSING } });
  });
});

const office =
  requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem()) &&
  requireSystem('LibreOffice (soffice, from libreoffice-calc-nogui)', libreofficeProblem());

/** The HDFC statement as openpyxl writes it for print: the source of the PDFs LibreOffice prints. */
const hdfcPrintBook = () => join(dir, 'hdfc-print.xlsx');
let hdfcPrinted: string | undefined;
/** That statement printed to PDF by LibreOffice: once, for every test that imports it (each run takes seconds). */
function hdfcPdf(): string {
  if (hdfcPrinted === undefined) {
    const out = join(dir, 'pdf');
    mkdirSync(out, { recursive: true });
    openpyxlWrite(hdfcPrintBook(), hdfcRows(LINES), { widths: [18, 62, 20, 12, 18, 18, 18] });
    hdfcPrinted = libreofficeConvert([hdfcPrintBook()], 'pdf', out)[0]!;
  }
  return hdfcPrinted;
}

describe.skipIf(!office)('workbooks and PDFs (openpyxl, LibreOffice)', () => {
  it("the reconciliation report and its workbook show each statement's proof, the gap named", async () => {
    const r = report(cache, { account: 'Axis cut', from: '2026-11-01', to: '2026-11-30', today: '2026-11-30' });
    expect(r.statements).toEqual([
      expect.objectContaining({ fileName: 'axis-cut.csv', from: LINES[0].date, to: LINES.at(-1)!.date, holds: false }),
    ]);
    expect(r.statements[0]!.sentence).toContain(`₹${formatMinor(LINES[2].amount)} of credits is missing`);
    const file = join(dir, 'recon.xlsx');
    await writeReconciliation(file, new Date(TEST_NOW), r, {
      format: 'xlsx',
      context: { profileName: 'Desk', environment: 'sandbox', baseUrl: '', generatedAtIst: '', appVersion: '0.0.0' },
    });
    const rows = openpyxlCells(file)['Statements']!.slice(1);
    expect(rows.map((row) => [row[0]![1], row[4]![1], row[5]![1]])).toEqual([
      ['axis-cut.csv', 'NO', r.statements[0]!.sentence],
    ]);
  });

  it('Kotak: one Dr/Cr-suffixed column; RBL: "Withdrawl Amt" (openpyxl XLSX)', async () => {
    for (const [name, rows, layout] of [
      ['kotak.xlsx', kotakRows(), 'Kotak Mahindra Bank'],
      ['rbl.xlsx', rblRows(), 'RBL Bank'],
    ] as const) {
      openpyxlWrite(join(dir, name), rows);
      const r = await importFile(name, readFileSync(join(dir, name)), layout);
      expect([r.kind, r.layout, r.bad]).toEqual(['xlsx', layout, []]);
      expectEveryLine(r.account.id);
    }
  }, 60_000);

  it('HDFC and ICICI netbanking XLS (BIFF8 by LibreOffice): lines, STATEMENT SUMMARY and Legends', async () => {
    const out = join(dir, 'xls');
    mkdirSync(out, { recursive: true });
    openpyxlWrite(join(dir, 'hdfc.xlsx'), hdfcRows(LINES));
    openpyxlWrite(join(dir, 'icici.xlsx'), iciciRows());
    const [hdfc, icici] = libreofficeConvert([join(dir, 'hdfc.xlsx'), join(dir, 'icici.xlsx')], 'xls', out);
    // Named as the bank names it; read by its content (a compound file), not the name.
    const h = await importFile('Acct_Statement_XX5678.xls', readFileSync(hdfc!), 'HDFC xls');
    expect([h.kind, h.layout, h.bad]).toEqual(['xls', 'HDFC Bank', []]);
    expectEveryLine(h.account.id);
    expect(h.summaryRows).toHaveLength(5);
    expect(h.proof).toMatchObject({
      ...fullProof,
      stated: {
        opening: OPENING,
        closing: CLOSING,
        debits: sum(debits),
        credits: sum(credits),
        debitCount: debits.length,
        creditCount: credits.length,
      },
    });
    const i = await importFile('OpTransactionHistory.xls', readFileSync(icici!), 'ICICI xls');
    expect([i.kind, i.layout, i.bad]).toEqual(['xls', 'ICICI Bank', []]);
    expectEveryLine(i.account.id);
    expect(i.summaryRows).toHaveLength(3);
    expect([i.proof.holds, i.proof.sentence]).toEqual([
      null,
      'The statement states no opening and closing balance, so its completeness is not proved.',
    ]);
  }, 300_000);

  it('a PDF e-statement with a text layer, and one protected by a password: none, wrong, right', async () => {
    const r = await importFile('statement.pdf', readFileSync(hdfcPdf()), 'HDFC pdf');
    expect([r.kind, r.layout, r.bad]).toEqual(['pdf', 'HDFC Bank', []]);
    expectEveryLine(r.account.id);
    expect(r.proof).toMatchObject(fullProof);

    const password = 'ACME2611';
    const locked = join(dir, 'locked');
    mkdirSync(locked, { recursive: true });
    const options = JSON.stringify({
      EncryptFile: { type: 'boolean', value: 'true' },
      DocumentOpenPassword: { type: 'string', value: password },
    });
    const [enc] = libreofficeConvert([hdfcPrintBook()], `pdf:calc_pdf_Export:${options}`, locked);
    const bytes = readFileSync(enc!);
    expect(bytes.includes('/Encrypt')).toBe(true);
    await expect(importFile('estatement.pdf', bytes, 'HDFC locked')).rejects.toMatchObject({
      code: 'STATEMENT_PASSWORD',
      reason: 'needed',
      message: 'estatement.pdf is protected by a password; give its password to read it.',
    });
    await expect(importFile('estatement.pdf', bytes, 'HDFC locked', 'WRONG123')).rejects.toMatchObject({
      code: 'STATEMENT_PASSWORD',
      reason: 'wrong',
      message: expect.stringMatching(/^The password for estatement.pdf is wrong/),
    });
    const ok = await importFile('estatement.pdf', bytes, 'HDFC locked', password);
    expectEveryLine(ok.account.id);
    // The CLI: refused without a password when no one can be asked, refused as wrong, read with the right one.
    const cli = cliRunner(join(dir, 'cli-data'));
    const args = ['recon', 'statement', 'import', enc!, '--account', 'HDFC cli'];
    const none = await cli.run(...args);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('is protected by a password')]);
    const wrong = await cli.runWithInput('WRONG123\n', ...args, '--password-stdin');
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('is wrong')]);
    const right = await cli.runWithInput(`${password}\n`, ...args, '--password-stdin');
    expect([right.code, right.stdout]).toEqual([0, expect.stringContaining('Complete: opening ₹')]);
    expect(`${none.stderr}${wrong.stderr}${right.stdout}${right.stderr}`).not.toContain(password);
    // The password is in no journal entry and nowhere in the cache file.
    expect(JSON.stringify(journalOf().list({}))).not.toContain(password);
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(join(dir, 'cache.sqlite')).includes(password)).toBe(false);
  }, 300_000);

  it('a content-stream bomb is refused in one sentence, nothing imported, and a statement PDF imports after it', async () => {
    // 1 GB of text operators, a couple of megabytes on disk: refused by the count of what its streams inflate to.
    const bomb = await contentBombPdf('BT /F1 10 Tf 12 TL ', '(NEFT CR-RAZORPAY SETTLEMENT) Tj T* ', 1024 ** 3);
    expect(bomb.length).toBeLessThan(SHEET_MAX_BYTES);
    await expect(importFile('bomb.pdf', bomb, 'HDFC after bomb')).rejects.toThrow(
      `bomb.pdf expands to more than ${PDF_MAX_INFLATED_MB} MB when read; it is not a bank statement this console can read.`,
    );
    // A stream that inflates within the count but builds objects without end (an array of dictionaries): PDF.js's
    // thread dies of its heap limit and the app goes on.
    const heapBomb = await contentBombPdf('[', '<<>>', (PDF_MAX_INFLATED_MB / 2) * 1024 * 1024);
    await expect(importFile('heap.pdf', heapBomb, 'HDFC after bomb')).rejects.toThrow(
      `heap.pdf expands to more than ${PDF_WORKER_HEAP_MB} MB when read; it is not a bank statement this console can read.`,
    );
    // Text operators that inflate within the count, 200 characters each: the read stops at the text bound.
    const textBomb = await contentBombPdf('', `BT /F1 1 Tf 10 400 Td (${'x'.repeat(200)}) Tj ET\n`, 3 * 1024 * 1024);
    await expect(importFile('text.pdf', textBomb, 'HDFC after bomb')).rejects.toThrow(
      `text.pdf expands to more than ${PDF_MAX_TEXT_CHARS.toLocaleString('en-IN')} characters of text when read; it is not a bank statement this console can read.`,
    );
    expect(cache.reconciliation.account('HDFC after bomb')).toBeFalsy();

    const r = await importFile('statement.pdf', readFileSync(hdfcPdf()), 'HDFC after bomb');
    expect([r.kind, r.layout, r.bad]).toEqual(['pdf', 'HDFC Bank', []]);
    expectEveryLine(r.account.id);
  }, 300_000);

  it('an image-only (scanned) PDF is refused in one sentence saying it has no text', async () => {
    await expect(importFile('scan.pdf', imageOnlyPdf(), 'Scanned')).rejects.toThrow(
      'scan.pdf is a scanned image with no text to read; download the statement from netbanking as a spreadsheet, CSV or text PDF.',
    );
  });
});
