/**
 * Guards an XLSX (a ZIP) before exceljs inflates it: the central directory's declared sizes are checked against a
 * limit, then every entry is inflated as a stream and counted (its bytes thrown away) so that a directory that lies
 * is caught too. Nothing here holds more than one inflate chunk of a sheet in memory.
 */
import { createInflateRaw } from 'node:zlib';

/** The most XML an XLSX may inflate to, all its parts together: a statement of 200,000 lines is about 60 MB. */
export const XLSX_MAX_INFLATED_BYTES = 100 * 1024 * 1024;

const MB = (n: number) => `${Math.round(n / (1024 * 1024)).toLocaleString('en-IN')} MB`;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  declared: number;
  localOffset: number;
}

/** The entries of the ZIP's central directory, or a sentence saying why it cannot be read. */
export function zipEntries(bytes: Buffer): Entry[] | string {
  const min = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= min; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return 'it is not a ZIP file';
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) return 'it uses ZIP64, which a spreadsheet of this size never needs';
  const entries: Entry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) return 'its ZIP directory is damaged';
    const nameLength = bytes.readUInt16LE(at + 28);
    const entry: Entry = {
      method: bytes.readUInt16LE(at + 10),
      compressed: bytes.readUInt32LE(at + 20),
      declared: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
    };
    if (entry.compressed === 0xffffffff || entry.declared === 0xffffffff || entry.localOffset === 0xffffffff) {
      return 'it uses ZIP64, which a spreadsheet of this size never needs';
    }
    entries.push(entry);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * Null when the workbook inflates to at most `limit` bytes, else the sentence that refuses it: first by the sizes
 * its directory declares, then by counting what each entry really inflates to (stopping at the limit).
 */
export async function xlsxInflatedSizeProblem(
  fileName: string,
  bytes: Buffer,
  limits: { maxRows: number; maxColumns: number; rowsSentence: string; limit?: number },
): Promise<string | null> {
  const limit = limits.limit ?? XLSX_MAX_INFLATED_BYTES;
  const entries = zipEntries(bytes);
  if (typeof entries === 'string') return `${fileName} is not a readable Excel workbook (${entries}).`;
  const tooLarge = (what: string) =>
    `${fileName} ${what} more than ${MB(limit)} of spreadsheet XML, the most the console reads; ` +
    'it is not a statement or a payee list (or it is a ZIP bomb).';
  const declared = entries.reduce((sum, e) => sum + e.declared, 0);
  if (declared > limit) return tooLarge(`declares ${MB(declared)} inflated:`);
  let inflated = 0;
  for (const e of entries) {
    const local = e.localOffset;
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) {
      return `${fileName} is not a readable Excel workbook (its ZIP entry ${e.name} is damaged).`;
    }
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + e.compressed);
    if (e.method === 0) {
      inflated += data.length;
    } else if (e.method === 8) {
      const scan = /^xl\/worksheets\/[^/]+\.xml$/.test(e.name) ? new SheetScan(fileName, limits) : null;
      const size = await inflatedSize(data, limit - inflated, scan);
      if (size === null) return tooLarge('inflates to');
      if (scan?.problem) return scan.problem;
      if (typeof size === 'string') return `${fileName} is not a readable Excel workbook (${e.name}: ${size}).`;
      inflated += size;
    } else {
      return `${fileName} is not a readable Excel workbook (${e.name} uses ZIP method ${e.method}).`;
    }
    if (inflated > limit) return tooLarge('inflates to');
  }
  return null;
}

/** The bytes `data` inflates to, counted and dropped; null past `room`; a string when it is not deflate data. */
function inflatedSize(data: Buffer, room: number, scan: SheetScan | null): Promise<number | null | string> {
  return new Promise((resolve) => {
    const inflate = createInflateRaw();
    let size = 0;
    let done = false;
    const finish = (v: number | null | string) => {
      if (done) return;
      done = true;
      resolve(v);
    };
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > room) {
        finish(null);
        inflate.destroy();
      } else if (scan && !scan.read(chunk)) {
        finish(size);
        inflate.destroy();
      }
    });
    inflate.on('error', (e: Error) => finish(e.message));
    inflate.on('end', () => finish(size));
    inflate.end(data);
  });
}

/**
 * Counts, in a worksheet's XML as it inflates, the rows that hold a value and the cells of each row, without
 * parsing it: exceljs builds a whole row before it hands it over, so a row of a million cells must be refused here.
 * Tags are found in the text, with or without a namespace prefix (a tag cut between two chunks is joined by the
 * carried tail of the one before).
 */
class SheetScan {
  problem: string | null = null;
  private carry = '';
  private rows = 0;
  private cells = 0;
  private rowHasValue = false;
  private row = 0;

  constructor(
    private readonly fileName: string,
    private readonly limits: { maxRows: number; maxColumns: number; rowsSentence: string },
  ) {}

  /** False once the sheet is refused (`problem` says why). */
  read(chunk: Buffer): boolean {
    const text = this.carry + chunk.toString('latin1');
    const tags = /<(?:[A-Za-z_][\w.-]{0,15}:)?(row|c|v|is)[\s>/]/g; // with a namespace prefix or none
    for (let m = tags.exec(text); m; m = tags.exec(text)) {
      if (m.index + m[0].length <= this.carry.length) continue; // counted with the chunk before
      const tag = m[1];
      if (tag === 'row') {
        this.endRow();
        this.row++;
        this.cells = 0;
        this.rowHasValue = false;
      } else if (tag === 'c') {
        if (++this.cells > this.limits.maxColumns) {
          this.problem =
            `${this.fileName}: row ${this.row.toLocaleString('en-IN')} has more than ${this.limits.maxColumns} ` +
            'columns, the most the console reads.';
          return false;
        }
      } else {
        this.rowHasValue = true;
      }
      if (this.rows > this.limits.maxRows) {
        this.problem = this.limits.rowsSentence;
        return false;
      }
    }
    this.carry = text.slice(-24); // longer than any tag counted: a prefix of 16, a colon, `<row `
    return true;
  }

  private endRow(): void {
    if (this.rowHasValue) this.rows++;
    this.rowHasValue = false;
  }
}
