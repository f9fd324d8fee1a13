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
import { IMPORT_MAX_ROWS, type SheetCell } from '../../shared/beneficiary-import';

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

export async function readSheet(fileName: string, bytes: Buffer): Promise<Sheet> {
  const { digest, rows } = await readTable(fileName, bytes);
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

/**
 * Every non-blank row of the file's first sheet with its row number, and the file's SHA-256: for files whose header
 * is not the first row (a bank statement starts with lines about the account).
 */
export async function readTable(
  fileName: string,
  bytes: Buffer,
): Promise<{ digest: string; rows: { cells: SheetCell[]; n: number }[] }> {
  if (bytes.length > SHEET_MAX_BYTES) throw new SheetReadError(`${fileName} is larger than 20 MB.`);
  const kind = extname(fileName).toLowerCase();
  const table =
    kind === '.xlsx'
      ? await readXlsx(fileName, bytes)
      : kind === '.csv'
        ? await readCsv(fileName, bytes)
        : fail(`${fileName}: import an .xlsx or a .csv file.`);
  return {
    digest: createHash('sha256').update(bytes).digest('hex'),
    rows: table.map((cells, i) => ({ cells, n: i + 1 })).filter(({ cells }) => cells.some(filled)),
  };
}

function fail(message: string): never {
  throw new SheetReadError(message);
}

const filled = (c: SheetCell) => c !== null && (typeof c !== 'string' || c.trim() !== '');

async function readXlsx(fileName: string, bytes: Buffer): Promise<SheetCell[][]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch (e) {
    fail(`${fileName} is not a readable Excel workbook (${e instanceof Error ? e.message : String(e)}).`);
  }
  const sheet = book.worksheets[0];
  if (!sheet) fail(`${fileName} has no sheet.`);
  const table: SheetCell[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    const cells: SheetCell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      cells[c - 1] = xlsxCell(cell.value, cell.numFmt ?? null);
    });
    table[n - 1] = Array.from(cells, (c) => c ?? null);
  });
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
