/**
 * A spreadsheet a person gives the console as a header row and data rows of cells, with the file's SHA-256. The
 * kind is told by the content, never the name (SBI's "Excel" download is tab-separated text named `.xls`): XLSX
 * (a ZIP) is read with exceljs (number cells keep their display format, which carries leading zeros); BIFF8 `.xls`
 * (a compound file) by xls-biff.ts; CSV and tab-separated text with @fast-csv/parse (every cell text: nothing is
 * turned into a number on the way). A bank statement may also be MT940 (mt940.ts) or a PDF with a text layer
 * (pdf-text.ts). A file that cannot be read is refused as a whole with the reason; a row's own problems are the
 * importer's to report.
 */
import { parseString } from '@fast-csv/parse';
import type ExcelJS from 'exceljs';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { IMPORT_MAX_ROWS, type SheetCell } from '../../shared/beneficiary-import';
import { looksLikeMt940, readMt940, type Mt940Balances } from './mt940';
import { PdfPasswordError, readPdfRows } from './pdf-text';
import { readXlsRows } from './xls-biff';
import { xlsxInflatedSizeProblem } from './xlsx-zip';

export interface Sheet {
  fileName: string;
  digest: string;
  headers: string[];
  /** Data rows, blank rows left out; `rowNumbers[i]` is where row i stands in the file (the header is 1). */
  rows: SheetCell[][];
  rowNumbers: number[];
}

export class SheetReadError extends Error {
  override name = 'SheetReadError';
  readonly code: string = 'IMPORT_FILE_UNREADABLE';
}

/** A PDF statement that needs its password (`reason: 'needed'`) or was given a wrong one. */
export class StatementPasswordError extends SheetReadError {
  override name = 'StatementPasswordError';
  override readonly code = 'STATEMENT_PASSWORD';
  constructor(
    message: string,
    readonly reason: 'needed' | 'wrong',
  ) {
    super(message);
  }
}

/** Files larger than this are not a payee list; refused before parsing. */
export const SHEET_MAX_BYTES = 20 * 1024 * 1024;
/** A row with more cells than this is not a statement line or a payee; the file is refused at that row. */
export const SHEET_MAX_COLUMNS = 200;

/**
 * The bytes of a file the window sent as base64, refused by its length before it is decoded when it is over
 * SHEET_MAX_BYTES (the window checks the size too, before it reads the file).
 */
export function bytesOfContent(fileName: string, content: string): Buffer {
  if (Math.floor((content.length * 3) / 4) > SHEET_MAX_BYTES + 2) tooLarge(fileName);
  return Buffer.from(content, 'base64');
}

const tooLarge = (fileName: string): never => fail(`${fileName} is larger than 20 MB.`);

export async function readSheet(fileName: string, bytes: Buffer): Promise<Sheet> {
  const { digest, rows } = await readTable(fileName, bytes, {
    maxRows: IMPORT_MAX_ROWS + 1,
    rowsSentence: `${fileName} has more than ${IMPORT_MAX_ROWS} rows; import at most ${IMPORT_MAX_ROWS} at a time.`,
  });
  const [header, ...data] = rows;
  if (!header) throw new SheetReadError(`${fileName} has no rows.`);
  if (data.length > IMPORT_MAX_ROWS) {
    throw new SheetReadError(`${fileName} has ${data.length} rows; import at most ${IMPORT_MAX_ROWS} at a time.`);
  }
  return {
    fileName,
    digest,
    headers: header.cells.map((c) => (c === null ? '' : typeof c === 'string' ? c.trim() : String(c.number))),
    rows: data.map((r) => r.cells),
    rowNumbers: data.map((r) => r.n),
  };
}

/** How many non-blank rows a read keeps before it stops and refuses the file with `rowsSentence`. */
export interface RowLimit {
  maxRows: number;
  rowsSentence: string;
}

/**
 * A bank statement's reader: MT940 and PDF are read too. A PDF's password is used for this read only; `isHeader`
 * tells a PDF's header line, under which its later lines' cells are put in columns.
 */
export interface StatementRead {
  password?: string;
  isHeader: (cells: string[]) => boolean;
}

/** The most pages of a PDF statement read: 200,000 lines at 50 a page. */
export const PDF_MAX_PAGES = 4_000;

export type TableKind = 'xlsx' | 'xls' | 'csv' | 'tsv' | 'mt940' | 'pdf';

export interface Table {
  digest: string;
  kind: TableKind;
  rows: { cells: SheetCell[]; n: number }[];
  /** An MT940's own opening and closing balances; a table's summary rows are read with its lines instead. */
  balances?: Mt940Balances;
}

/** The read running now: files are read one at a time, so two large workbooks are never inflated side by side. */
let reading: Promise<unknown> = Promise.resolve();

/**
 * Every non-blank row of the file's first sheet with its row number, and the file's SHA-256: for files whose header
 * is not the first row (a bank statement starts with lines about the account). Reads wait for each other (one at
 * a time in the process); an XLSX is checked for its inflated size, rows and columns before and while it is read.
 */
export function readTable(fileName: string, bytes: Buffer, limit: RowLimit, statement?: StatementRead): Promise<Table> {
  const run = reading.then(() => readTableNow(fileName, bytes, limit, statement));
  reading = run.catch(() => undefined);
  return run;
}

const ZIP = Buffer.from('PK\x03\x04', 'latin1');
const COMPOUND_FILE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const PDF = Buffer.from('%PDF-', 'latin1');

async function readTableNow(
  fileName: string,
  bytes: Buffer,
  limit: RowLimit,
  statement?: StatementRead,
): Promise<Table> {
  if (bytes.length > SHEET_MAX_BYTES) tooLarge(fileName);
  const digest = createHash('sha256').update(bytes).digest('hex');
  const numbered = (table: SheetCell[][]) => table.map((cells, i) => ({ cells, n: i + 1 }));
  let kind: TableKind;
  let rows: { cells: SheetCell[]; n: number }[];
  let balances: Mt940Balances | undefined;
  if (bytes.subarray(0, 4).equals(ZIP)) {
    kind = 'xlsx';
    rows = numbered(await readXlsx(fileName, bytes, limit));
  } else if (bytes.subarray(0, 8).equals(COMPOUND_FILE)) {
    kind = 'xls';
    rows = numbered(readXls(fileName, bytes, limit));
  } else if (bytes.subarray(0, 1024).includes(PDF)) {
    if (!statement) fail(`${fileName} is a PDF: import an .xlsx, .xls, .csv or tab-separated file.`);
    kind = 'pdf';
    rows = numbered(await readPdf(fileName, bytes, limit, statement));
  } else {
    const text = textOf(fileName, bytes);
    if (statement && looksLikeMt940(text)) {
      kind = 'mt940';
      ({ rows, balances } = readMt940(text));
    } else {
      kind = isTabSeparated(text) ? 'tsv' : 'csv';
      rows = numbered(await readCsv(fileName, text, kind === 'tsv' ? '\t' : ','));
    }
  }
  rows = rows.filter(({ cells }) => cells.some(filled));
  if (rows.length > limit.maxRows) fail(limit.rowsSentence);
  return balances ? { digest, kind, rows, balances } : { digest, kind, rows };
}

function fail(message: string): never {
  throw new SheetReadError(message);
}

const filled = (c: SheetCell) => c !== null && (typeof c !== 'string' || c.trim() !== '');

/**
 * The first sheet's rows, read as a stream: the workbook is first checked by its ZIP directory and by inflating it
 * counted (xlsx-zip.ts), then exceljs's streaming reader hands over rows one at a time and the read stops at the
 * first row past the row or column limit.
 */
async function readXlsx(fileName: string, bytes: Buffer, limit: RowLimit): Promise<SheetCell[][]> {
  const problem = await xlsxInflatedSizeProblem(fileName, bytes, {
    maxRows: limit.maxRows,
    maxColumns: SHEET_MAX_COLUMNS,
    rowsSentence: limit.rowsSentence,
  });
  if (problem) fail(problem);
  // Loaded at the first workbook read, not with this module: exceljs's import costs every process that loads the core
  // (the app, each command-line run, each test file) about 0.6 s of CPU, and most never read a workbook.
  const { default: Excel } = await import('exceljs');
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const table: SheetCell[][] = [];
  let kept = 0;
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets++;
      for await (const row of sheet) {
        if (row.cellCount > SHEET_MAX_COLUMNS) {
          throw new SheetReadError(
            `${fileName}: row ${row.number.toLocaleString('en-IN')} has more than ${SHEET_MAX_COLUMNS} columns, ` +
              'the most the console reads.',
          );
        }
        const cells: SheetCell[] = [];
        row.eachCell({ includeEmpty: true }, (cell, c) => {
          cells[c - 1] = xlsxCell(cell.value, cell.numFmt ?? null);
        });
        const rowCells = Array.from(cells, (c) => c ?? null);
        if (rowCells.some(filled) && ++kept > limit.maxRows) throw new SheetReadError(limit.rowsSentence);
        table[row.number - 1] = rowCells;
      }
      break; // the first sheet only
    }
  } catch (e) {
    if (e instanceof SheetReadError) throw e;
    fail(`${fileName} is not a readable Excel workbook (${e instanceof Error ? e.message : String(e)}).`);
  }
  if (sheets === 0) fail(`${fileName} has no sheet.`);
  return Array.from(table, (r) => r ?? []);
}

/** An exceljs value as text or a number; a formula counts as its cached result. */
function xlsxCell(value: ExcelJS.CellValue, format: string | null): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return { number: value, format };
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    return xlsxCell((value as { result?: ExcelJS.CellValue }).result ?? null, format);
  }
  if ('text' in value) return String(value.text);
  if ('error' in value) return String(value.error);
  return null;
}

function readXls(fileName: string, bytes: Buffer, limit: RowLimit): SheetCell[][] {
  try {
    return readXlsRows(bytes, { ...limit, maxColumns: SHEET_MAX_COLUMNS }, (sentence) =>
      fail(sentence === limit.rowsSentence ? sentence : `${fileName}: ${sentence}`),
    );
  } catch (e) {
    if (e instanceof SheetReadError) throw e;
    return fail(
      `${fileName} is not a readable Excel 97-2003 workbook (${e instanceof Error ? e.message : String(e)}).`,
    );
  }
}

async function readPdf(
  fileName: string,
  bytes: Buffer,
  limit: RowLimit,
  statement: StatementRead,
): Promise<SheetCell[][]> {
  let rows: SheetCell[][] | null;
  try {
    rows = await readPdfRows(bytes, statement.password, statement.isHeader, {
      maxRows: limit.maxRows,
      maxPages: PDF_MAX_PAGES,
      rowsSentence: limit.rowsSentence,
      tooBig: (sentence) => fail(sentence === limit.rowsSentence ? sentence : `${fileName} ${sentence}`),
    });
  } catch (e) {
    if (e instanceof SheetReadError) throw e;
    if (e instanceof PdfPasswordError) {
      throw new StatementPasswordError(
        e.reason === 'wrong'
          ? `The password for ${fileName} is wrong; the bank's e-statement mail says what it is made of (often the customer id or a date of birth).`
          : `${fileName} is protected by a password; give its password to read it.`,
        e.reason,
      );
    }
    return fail(`${fileName} is not a readable PDF (${e instanceof Error ? e.message : String(e)}).`);
  }
  if (rows === null) {
    fail(
      `${fileName} is a scanned image with no text to read; download the statement from netbanking as a spreadsheet, CSV or text PDF.`,
    );
  }
  return rows;
}

function textOf(fileName: string, bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) fail(`${fileName} is not UTF-8 text; save it from the spreadsheet as "CSV UTF-8".`);
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** Tab-separated when most of the first non-blank lines hold a tab (a narration may hold commas, rarely a tab). */
function isTabSeparated(text: string): boolean {
  const first = text
    .split(/\r?\n/, 200)
    .filter((l) => l.trim() !== '')
    .slice(0, 40);
  return first.filter((l) => l.includes('\t')).length * 2 > first.length;
}

function readCsv(fileName: string, text: string, delimiter: ',' | '\t'): Promise<SheetCell[][]> {
  return new Promise((resolve, reject) => {
    const rows: SheetCell[][] = [];
    // Tab-separated bank text is not quoted: a `"` in a narration is a character, not a quote.
    parseString(text, {
      headers: false,
      ignoreEmpty: false,
      strictColumnHandling: false,
      delimiter,
      quote: delimiter === '\t' ? null : '"',
    })
      .on('error', (e: Error) =>
        reject(
          new SheetReadError(
            `${fileName} is not a well-formed ${delimiter === ',' ? 'CSV' : 'tab-separated'} file after row ${rows.length}: ${e.message}`,
          ),
        ),
      )
      .on('data', (row: string[]) => rows.push(row.map((c) => (c === '' ? null : c))))
      .on('end', () => resolve(rows));
  });
}
