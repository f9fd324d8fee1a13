/**
 * A spreadsheet a person gives the console (XLSX or CSV) as a header row and data rows of cells, with the file's
 * SHA-256. XLSX is read with exceljs (number cells keep their display format, which carries leading zeros); CSV
 * with @fast-csv/parse (RFC 4180 quoting, every cell text: nothing is turned into a number on the way). A file
 * that cannot be read is refused as a whole with the reason; a row's own problems are the importer's to report.
 */
import { parseString } from '@fast-csv/parse';
import ExcelJS from 'exceljs';
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { IMPORT_MAX_ROWS, type SheetCell } from '../../shared/beneficiary-import';
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
  readonly code = 'IMPORT_FILE_UNREADABLE';
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

/** The read running now: files are read one at a time, so two large workbooks are never inflated side by side. */
let reading: Promise<unknown> = Promise.resolve();

/**
 * Every non-blank row of the file's first sheet with its row number, and the file's SHA-256: for files whose header
 * is not the first row (a bank statement starts with lines about the account). Reads wait for each other (one at
 * a time in the process); an XLSX is checked for its inflated size, rows and columns before and while it is read.
 */
export function readTable(
  fileName: string,
  bytes: Buffer,
  limit: RowLimit,
): Promise<{ digest: string; rows: { cells: SheetCell[]; n: number }[] }> {
  const run = reading.then(() => readTableNow(fileName, bytes, limit));
  reading = run.catch(() => undefined);
  return run;
}

async function readTableNow(
  fileName: string,
  bytes: Buffer,
  limit: RowLimit,
): Promise<{ digest: string; rows: { cells: SheetCell[]; n: number }[] }> {
  if (bytes.length > SHEET_MAX_BYTES) tooLarge(fileName);
  const kind = extname(fileName).toLowerCase();
  const table =
    kind === '.xlsx'
      ? await readXlsx(fileName, bytes, limit)
      : kind === '.csv'
        ? await readCsv(fileName, bytes)
        : fail(`${fileName}: import an .xlsx or a .csv file.`);
  const rows = table.map((cells, i) => ({ cells, n: i + 1 })).filter(({ cells }) => cells.some(filled));
  if (rows.length > limit.maxRows) fail(limit.rowsSentence);
  return { digest: createHash('sha256').update(bytes).digest('hex'), rows };
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
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
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

function readCsv(fileName: string, bytes: Buffer): Promise<SheetCell[][]> {
  let text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) fail(`${fileName} is not UTF-8 text; save it from the spreadsheet as "CSV UTF-8".`);
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  return new Promise((resolve, reject) => {
    const rows: SheetCell[][] = [];
    parseString(text, { headers: false, ignoreEmpty: false, strictColumnHandling: false })
      .on('error', (e: Error) =>
        reject(new SheetReadError(`${fileName} is not a well-formed CSV file after row ${rows.length}: ${e.message}`)),
      )
      .on('data', (row: string[]) => rows.push(row.map((c) => (c === '' ? null : c))))
      .on('end', () => resolve(rows));
  });
}
