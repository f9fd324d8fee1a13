/**
 * Every export kind opened the way an accountant's tools open it, by readers that share no code with the app:
 * LibreOffice Calc (headless) opening each XLSX and CSV (with the common separators, formulas evaluated) and saving
 * it as XLSX or PDF, openpyxl reading what Calc made and the original workbooks' print setup, and Python's csv
 * module splitting each CSV on every common separator. The data: one sandbox day and a day of crafted records
 * (identifiers with leading zeros and 16 digits, formula-looking text in every text column, also after a
 * separator or a line break, control characters, a 40,000-character description), and lists with the same traps. Checked: rows,
 * money totals against SQL, identifiers as text, no cell a spreadsheet would run, print setup, provenance, and a
 * PDF of a workbook: the detail and the exceptions in column sets a page wide each, their type at least as tall as
 * 8 pt, the header on every page.
 *
 * Needs LibreOffice (`libreoffice-calc-nogui`), poppler's `pdftotext` and openpyxl (and for the PDF, the Carlito
 * font): skipped loudly without them,
 * failed in CI. Bounded: a few hundred rows, seven LibreOffice runs, one PDF.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import type { ExportContext } from '../../electron/export/provenance';
import { runExport, type ExportJob } from '../../electron/export/run-export';
import {
  DETAIL_COLUMNS,
  DETAIL_PRINT,
  EXCEPTION_COLUMNS,
  EXCEPTION_PRINT,
} from '../../electron/export/settlement-sheets';
import { MIN_PRINT_POINTS, ONE_PAGE_ROWS, type ColumnSpec, type PrintLayout } from '../../electron/export/xlsx-writer';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import type { SettlementRecord } from '../../shared/api/settlements';
import type { CsvExportOptions, ExportFormat, ExportKind } from '../../shared/exports';
import { addDays } from '../../shared/time';
import {
  libreofficeConvert,
  libreofficeProblem,
  openpyxlCells,
  openpyxlPrintSetup,
  openpyxlProblem,
  carlitoProblem,
  openpyxlWrite,
  pdftotextProblem,
  pdfWords,
  pythonCsvFields,
  type TypedValue,
} from '../support/export-files';
import { craftedRecord } from '../support/crafted-records';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { syncRunInto } from '../support/settlement-run';
import { requireSystem } from '../support/system';

const PER_DAY = 300;
const LEADING_ZEROS = '000123456789012';
const SIXTEEN_DIGITS = '9876543210123456';
const HOSTILE = [
  '=HYPERLINK("http://evil.example","x")',
  'x;=HYPERLINK("http://evil.example")',
  'a|@SUM(1)',
  'b\t-1+1',
];
/** Formulas after a line break: a reader whose separator leaves our quotes mid-field starts a row after each. */
const AFTER_LINE_BREAK = ['Acme\n=1+1;', 'Acme Road\r\n+1+1|x', 'Narration\r@SUM(1,1)\t-2+2', 'Floor 2,\n -3+3'];

const CONTEXT: ExportContext = {
  profileName: 'Treasury desk',
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:4010',
  generatedAtIst: '2026-01-15 12:00:00',
  appVersion: '9.8.7',
  journalHead: 'c0ffee' + '0'.repeat(58),
};

const ready =
  requireSystem('LibreOffice (soffice, from libreoffice-calc-nogui)', libreofficeProblem()) &&
  requireSystem('pdftotext (poppler-utils)', pdftotextProblem()) &&
  requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem());
/** The PDF's widths are Excel's only in Calibri's metrics (`carlitoProblem`). */
const carlito = ready && requireSystem('the Carlito font (fonts-crosextra-carlito)', carlitoProblem());

/** What a person ties a settlement row with, printed on the first page width: the row's ids and its sum. */
const RECONCILE_HEADERS = [
  'Date',
  'Order id',
  'PG transaction id',
  'UTR',
  'Amount (INR)',
  'Service fee (INR)',
  'Service tax (INR)',
  'Subvention (INR)',
  'Settled amount (INR)',
];

/** What an exception reviewer works the queue by, printed on the first page width of the Exceptions sheet. */
const REVIEW_HEADERS = [
  'Date',
  'Gateway',
  'Order id',
  'PG transaction id',
  'UTR',
  'Rule',
  'Amount at risk (INR)',
  'Workflow state',
  'Assigned to',
];

/** The sheets printed in column sets (the rest print one page wide): the sheet, its columns and its sets. */
const COLUMN_SET_SHEETS = [
  { sheet: 'Settlements', columns: DETAIL_COLUMNS, print: DETAIL_PRINT, first: RECONCILE_HEADERS },
  { sheet: 'Exceptions', columns: EXCEPTION_COLUMNS, print: EXCEPTION_PRINT, first: REVIEW_HEADERS },
];

/** Each column set's headers. */
function setHeaders(columns: readonly ColumnSpec[], print: PrintLayout): string[][] {
  const { columnSets } = print as { columnSets: number[] };
  return columnSets.map((n, i) => {
    const first = columnSets.slice(0, i).reduce((a, m) => a + m, 0);
    return columns.slice(first, first + n).map((c) => c.header);
  });
}

let sb: OpenSandbox;
let dir: string;
let cache: Cache;
let sql: Database.Database;
let range: { from: string; to: string };

function craftedRecords(day: string): SettlementRecord[] {
  return [
    craftedRecord(1, day, { pg_transaction_id: LEADING_ZEROS, utr: '000000000001234567890', order_id: SIXTEEN_DIGITS }),
    craftedRecord(2, day, { description: 'control\u0000\u0007\u001b chars ' + 'y'.repeat(40_000) }),
    ...HOSTILE.map((h, i) =>
      craftedRecord(10 + i, day, {
        pg_transaction_id: `${h} ${i}`,
        order_id: h,
        utr: h,
        dispute_id: h,
        description: h,
        order_status: h,
      }),
    ),
    ...AFTER_LINE_BREAK.map((h, i) => craftedRecord(20 + i, day, { dispute_id: h, description: h, order_status: h })),
  ];
}

beforeAll(async () => {
  if (!ready) return;
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  const day = sb.sandbox.fixtures().settlementDates.at(-2)!;
  range = { from: addDays(day, -1), to: day };
  dir = mkdtempSync(join(tmpdir(), 'export-readers-'));
  cache = openCache(join(dir, 'cache.sqlite'), { now: () => new Date(sb.now()) });
  await syncSettlements({ api: sb.api(), cache, from: day, to: day });
  syncRunInto(cache, { [range.from]: craftedRecords(range.from) }, 100);
  cache.beneficiaries.upsert({
    beneficiary_id: '000917',
    name: HOSTILE[1]!,
    account_number: LEADING_ZEROS,
    ifsc: 'HDFC0000001',
    phone: '+919876543210',
  });
  cache.beneficiaries.upsert({ beneficiary_id: 'bene_2', name: HOSTILE[0]!, account_number: SIXTEEN_DIGITS });
  AFTER_LINE_BREAK.forEach((h, i) =>
    cache.beneficiaries.upsert({ beneficiary_id: `bene_lb_${i}`, name: h, address: h, account_number: '1234' }),
  );
  cache.payouts.recordLookup({
    payoutId: '000042',
    mode: 'normal',
    payout: { transfer_id: '000042', transfer_status: 'success', amount: 1_234_505, ut_no: '000987654321' },
  });
  cache.accounts.recordBalances([{ pg: 'razorpay', account_no: SIXTEEN_DIGITS, balance: 123_450 }]);
  sql = new Database(cache.file, { readonly: true });
}, 60_000);

afterAll(async () => {
  sql?.close();
  cache?.close();
  await sb?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let outputs = 0;
const freshDir = () => mkdtempSync(join(dir, `out-${++outputs}-`));

async function exportTo(
  kind: ExportKind,
  format: ExportFormat,
  folder: string,
  csv?: CsvExportOptions,
  filter: { from: string; to: string } = range,
) {
  const file = join(folder, `${kind}${csv?.ids ? `-ids-${csv.ids}` : ''}.${format}`);
  const request = (
    kind === 'settlements' ? { kind, format, filter, ...(csv ? { csv } : {}) } : { kind, format }
  ) as ExportJob['request'];
  const result = await runExport({ request, cacheFile: cache.file, file, context: CONTEXT });
  expect(result.status).toBe('completed');
  return file;
}

const settlementCount = () =>
  sql.prepare('SELECT count(*) FROM settlements WHERE date BETWEEN @from AND @to').pluck().get(range) as number;
const settledSum = () =>
  sql
    .prepare('SELECT sum(settled_amount) FROM settlements WHERE date BETWEEN @from AND @to')
    .pluck()
    .get(range) as number;

/** A sheet's header and its rows as objects by header. */
function table(rows: TypedValue[][]): { header: string[]; records: Record<string, TypedValue>[] } {
  const header = rows[0]!.map(([, v]) => String(v));
  const empty: TypedValue = ['n', null];
  const records = rows
    .slice(1)
    .map((r) => Object.fromEntries(header.map((h, i): [string, TypedValue] => [h, r[i] ?? empty])));
  return { header, records };
}

/** Paise of money cells read as numbers: each holds at most two decimals, so rounding restores the exact value. */
const paise = (cells: TypedValue[]) =>
  cells.reduce((n, [, v]) => n + (typeof v === 'number' ? Math.round(v * 100) : 0), 0);

function formulaCells(book: Record<string, TypedValue[][]>): string[] {
  return Object.entries(book).flatMap(([name, rows]) =>
    rows.flatMap((r, i) => r.flatMap(([type, v], j) => (type === 'f' ? [`${name}!${i + 1}:${j + 1} ${v}`] : []))),
  );
}

const IDENTIFIERS = ['PG transaction id', 'Order id', 'UTR'];

// Each LibreOffice run takes seconds on a loaded machine; a test makes at most four.
const LIBREOFFICE_TEST_MS = 240_000;

describe.runIf(ready)('exports as LibreOffice, openpyxl and Python read them', () => {
  it(
    'LibreOffice opens every XLSX export: rows, exact totals, identifiers as text, nothing that runs, provenance',
    async () => {
      const folder = freshDir();
      const kinds = ['settlements', 'beneficiaries', 'payouts', 'balances'] as const;
      const files = [];
      for (const kind of kinds) files.push(await exportTo(kind, 'xlsx', folder));
      const opened = libreofficeConvert(files, 'xlsx', freshDir());
      const books = opened.map(openpyxlCells);
      for (const book of books) {
        expect(formulaCells(book)).toEqual([]);
        const audit = new Map(book['Audit']!.slice(1).map((row) => [row[0]![1], row[1]![1]]));
        expect(audit.get('Profile')).toBe('Treasury desk');
        expect(audit.get('Generated at (IST)')).toBe('2026-01-15 12:00:00');
        expect(audit.get('Journal head hash')).toBe(CONTEXT.journalHead);
      }

      const [settlements, beneficiaries, payouts, balances] = books as [
        Record<string, TypedValue[][]>,
        Record<string, TypedValue[][]>,
        Record<string, TypedValue[][]>,
        Record<string, TypedValue[][]>,
      ];
      expect(Object.keys(settlements)).toEqual([
        'Summary',
        'Settlements',
        'Exceptions',
        'Changes',
        'Manifest',
        'Bank credits',
        'Audit',
      ]);
      const detail = table(settlements['Settlements']!);
      expect(detail.records).toHaveLength(settlementCount());
      expect(paise(detail.records.map((r) => r['Settled amount (INR)']!))).toBe(settledSum());
      for (const h of IDENTIFIERS) {
        expect(new Set(detail.records.map((r) => r[h]![0]).filter((t) => t !== 'n')), h).toEqual(new Set(['s']));
      }
      const values = detail.records.flatMap((r) => IDENTIFIERS.map((h) => r[h]![1]));
      expect(values).toEqual(
        expect.arrayContaining([LEADING_ZEROS, SIXTEEN_DIGITS, '000000000001234567890', ...HOSTILE]),
      );
      // The long description is cut to a cell, with its marker, and the Summary counts it.
      const long = detail.records.map((r) => String(r['Description']![1])).find((d) => d.startsWith('control'))!;
      // openpyxl leaves the XML escapes of the control characters (_x0000_) as text; Calc holds one character each.
      const decoded = long.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      expect(decoded).toHaveLength(32_767);
      expect(long).toMatch(/ … \[cut: 40,017 characters in all; the CSV export has the whole text\]$/);
      expect(settlements['Summary']!.flat().map(([, v]) => v)).toEqual(
        expect.arrayContaining(['Text cells cut to fit (whole in the CSV export)', 1]),
      );
      const exceptions = table(settlements['Exceptions']!);
      for (const h of ['Expected (INR)', 'Actual (INR)', 'Difference (INR)', 'Amount at risk (INR)']) {
        expect(new Set(exceptions.records.map((r) => r[h]![0])), h).toEqual(new Set(['n']));
      }

      const bene = table(beneficiaries['Beneficiaries']!);
      expect(bene.records.map((r) => [r['Account number'], r['Name']])).toEqual(
        expect.arrayContaining([
          [
            ['s', LEADING_ZEROS],
            ['s', HOSTILE[1]],
          ],
          [
            ['s', SIXTEEN_DIGITS],
            ['s', HOSTILE[0]],
          ],
        ]),
      );
      const payout = table(payouts['Payout lookups']!).records[0]!;
      expect([payout['Payout id'], payout['UTR'], payout['Amount (INR)']]).toEqual([
        ['s', '000042'],
        ['s', '000987654321'],
        ['n', 12345.05],
      ]);
      const balance = table(balances['Balance snapshots']!).records[0]!;
      expect([balance['Account number'], balance['Available (INR)']]).toEqual([
        ['s', SIXTEEN_DIGITS],
        ['n', 1234.5],
      ]);
    },
    LIBREOFFICE_TEST_MS,
  );

  it(
    'sets every sheet up for print: landscape, one page wide or the detail and exceptions in column sets, the header on each page, a footer',
    async () => {
      const folder = freshDir();
      for (const kind of ['settlements', 'beneficiaries'] as const) {
        const setup = openpyxlPrintSetup(await exportTo(kind, 'xlsx', folder));
        expect(Object.keys(setup).length).toBeGreaterThan(1);
        let onePage = 0;
        const inSets = new Set<string>();
        for (const [sheet, { rows, ...s }] of Object.entries(setup)) {
          const common = { orientation: 'landscape', print_title_rows: '$1:$1', footer: ['&A', 'Page &P of &N'] };
          const sets = COLUMN_SET_SHEETS.find(
            (c) => kind === 'settlements' && new RegExp(`^${c.sheet}( |$)`).test(sheet),
          );
          if (sets) {
            inSets.add(sets.sheet);
            const headers = setHeaders(sets.columns, sets.print);
            const breaks = headers.slice(0, -1).map((_, i) => headers.slice(0, i + 1).flat().length);
            // A scale, not "fit to" (which leaves the size to the reader), and a break before each column set.
            expect(s, sheet).toMatchObject({ ...common, fit_to_page: false, column_breaks: breaks });
            // The cells are Calibri 11.
            expect((s.scale! * 11) / 100, sheet).toBeGreaterThanOrEqual(MIN_PRINT_POINTS);
            expect(headers[0], sheet).toEqual(sets.first);
            continue;
          }
          // An overview short enough to stay readable so prints one page tall as well.
          const overview =
            kind === 'settlements' && ['Summary', 'Bank credits'].includes(sheet) && rows <= ONE_PAGE_ROWS;
          if (overview) onePage++;
          expect(s, sheet).toEqual({
            ...common,
            fit_to_width: 1,
            fit_to_height: overview ? 1 : 0,
            fit_to_page: true,
            scale: null,
            column_breaks: [],
          });
        }
        // This data's Bank credits sheet is short: the one-page layout is exercised, not only skipped.
        if (kind === 'settlements') {
          expect([onePage > 0, [...inSets]]).toEqual([true, COLUMN_SET_SHEETS.map((c) => c.sheet)]);
        }
      }
    },
    LIBREOFFICE_TEST_MS,
  );

  it.runIf(carlito)(
    'a PDF of the workbook prints the detail and the exceptions in column sets a page wide each, at 8 pt or more, the header on every page',
    async () => {
      const folder = freshDir();
      // The sandbox's day alone: a few hundred ordinary rows, several pages down each column set.
      const day = { from: range.to, to: range.to };
      // The same font at 8 pt printed at 100%, written by openpyxl: what "8 pt" measures as in this PDF reader.
      const reference = join(folder, 'reference-8pt.xlsx');
      openpyxlWrite(reference, [['Reference 2026-06-14 1,234.56 order_0001']], { points: MIN_PRINT_POINTS });
      const [pdf, referencePdf] = libreofficeConvert(
        [await exportTo('settlements', 'xlsx', folder, undefined, day), reference],
        'pdf',
        freshDir(),
      );
      const eightPoints = Math.min(...pdfWords(referencePdf!)[0]!.map((w) => w.yMax - w.yMin));

      const pages = pdfWords(pdf!).map((words) => {
        // The header is the page's first line of words, the footer its last.
        const line = (y: number) =>
          words
            .filter((w) => w.yMin === y)
            .map((w) => w.text)
            .join(' ');
        const top = Math.min(...words.map((w) => w.yMin));
        const bottom = Math.max(...words.map((w) => w.yMin));
        return { header: line(top), footer: line(bottom), body: words.filter((w) => w.yMin < bottom) };
      });
      for (const { sheet, columns, print, first } of COLUMN_SET_SHEETS) {
        const printed = pages.filter((p) => new RegExp(`^${sheet} Page \\d+ of \\d+$`).test(p.footer));
        const sets = setHeaders(columns, print);
        expect(sets[0]).toEqual(first);
        // Pages run down the first set, then down the next. (LibreOffice leaves out a page whose cells are all
        // empty, as the last set's can be, so the sets need not take the same number of pages.)
        const setOf = printed.map(({ header }) => sets.findIndex((s) => header.startsWith(`${s[0]!} `)));
        expect(setOf, sheet).toEqual([...setOf].sort((a, b) => a - b));
        expect(setOf.filter((k) => k === 0).length, sheet).toBeGreaterThan(sheet === 'Settlements' ? 1 : 0);
        // Every set prints but the last, whose triage cells this day's open exceptions leave empty.
        const written = sheet === 'Settlements' ? sets.length : sets.length - 1;
        expect(new Set(setOf.filter((k) => k < written)), sheet).toEqual(new Set([...sets.keys()].slice(0, written)));
        printed.forEach(({ header, body }, i) => {
          const set = sets[setOf[i]!]!;
          // Every header of its set, and none of another set's.
          for (const h of set) expect(header, `${sheet} page ${i + 1}`).toContain(h);
          for (const h of sets.filter((s) => s !== set).flat()) {
            if (!set.some((s) => s.includes(h))) expect(header, `${sheet} page ${i + 1}`).not.toContain(h);
          }
          // Every word but the footer's prints at least as tall as 8 pt type.
          expect(body.length).toBeGreaterThan(set.length);
          expect(Math.min(...body.map((w) => w.yMax - w.yMin)), `${sheet} page ${i + 1}`).toBeGreaterThanOrEqual(
            eightPoints,
          );
        });
      }
      // The Summary fits one page wide: its last column is on its first page.
      const summary = pages.find((p) => /^Summary Page 1 of \d+$/.test(p.footer))!;
      expect(summary.header).toMatch(/Settled \(INR\)/);
    },
    LIBREOFFICE_TEST_MS,
  );

  it(
    'an Excel-safe CSV keeps identifiers as text in LibreOffice, with exact money and nothing that runs',
    async () => {
      const folder = freshDir();
      const file = await exportTo('settlements', 'csv', folder, { ids: 'tab' });
      // Comma separated, UTF-8, first line 1; formulas evaluated on import, as Excel does.
      const [opened] = libreofficeConvert(
        [file],
        'xlsx',
        freshDir(),
        '44,34,76,1,,1033,false,true,false,false,false,-1,true',
      );
      const book = openpyxlCells(opened!);
      expect(formulaCells(book)).toEqual([]);
      const { records } = table(Object.values(book)[0]!);
      expect(records).toHaveLength(settlementCount());
      expect(paise(records.map((r) => r['Settled amount (INR)']!))).toBe(settledSum());
      for (const h of IDENTIFIERS)
        expect(new Set(records.map((r) => r[h]![0]).filter((t) => t !== 'n')), h).toEqual(new Set(['s']));
      const ids = records.flatMap((r) => IDENTIFIERS.map((h) => String(r[h]![1]).trim()));
      expect(ids).toEqual(expect.arrayContaining([LEADING_ZEROS, SIXTEEN_DIGITS, '000000000001234567890']));
    },
    LIBREOFFICE_TEST_MS,
  );

  it(
    'no CSV field starts a formula whichever separator splits it: LibreOffice and Python csv',
    async () => {
      const folder = freshDir();
      const files = [
        await exportTo('settlements', 'csv', folder),
        await exportTo('settlements', 'csv', folder, { ids: 'tab' }),
        await exportTo('beneficiaries', 'csv', folder),
      ];
      const looksLikeFormula = (field: string) => /^[=+@]/.test(field) || /^-(?![\d.]+$)/.test(field);
      // Every reader and separator is tried before anything is asserted, so a failure shows all the formulas found.
      const formulas: Record<string, string[]> = {};
      for (const [delimiter, code] of [
        [',', 44],
        [';', 59],
        ['\t', 9],
        ['|', 124],
      ] as const) {
        for (const file of files) {
          const fields = pythonCsvFields(file, delimiter).flat();
          expect(fields.length).toBeGreaterThan(0);
          formulas[`python csv, ${basename(file)} split on ${JSON.stringify(delimiter)}`] = fields.filter((f) =>
            looksLikeFormula(f.trimStart()),
          );
        }
        const opened = libreofficeConvert(
          files,
          'xlsx',
          freshDir(),
          `${code},34,76,1,,1033,false,true,false,false,false,-1,true`,
        );
        opened.forEach((book, i) => {
          formulas[`LibreOffice, ${basename(files[i]!)} split on ${JSON.stringify(delimiter)}`] = formulaCells(
            openpyxlCells(book),
          );
        });
      }
      expect(Object.keys(formulas)).toHaveLength(4 * files.length * 2);
      expect(Object.entries(formulas).filter(([, found]) => found.length > 0)).toEqual([]);
    },
    LIBREOFFICE_TEST_MS,
  );
});
