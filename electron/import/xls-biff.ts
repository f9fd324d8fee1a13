/**
 * The first sheet of an old binary Excel workbook (BIFF8 `.xls`, Excel 97-2003: HDFC's and ICICI's netbanking
 * download) as rows of cells. `cfb` opens the compound file (the OLE container); the BIFF8 records of its Workbook
 * stream are read here: shared strings (SST with its CONTINUE records), LABELSST, LABEL, NUMBER, RK, MULRK, and a
 * FORMULA's cached result, with each number cell's format (a `000…` format keeps an account number's leading zeros).
 * A BIFF8 file is not compressed: the 20 MB file limit bounds it, and the row and column limits are checked as the
 * records are read, so a sheet past them is refused before its rows are held.
 */
import CFB from 'cfb';
import type { SheetCell } from '../../shared/beneficiary-import';

export interface XlsLimits {
  maxRows: number;
  maxColumns: number;
  rowsSentence: string;
}

const BOF = 0x0809;
const EOF = 0x000a;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const CONTINUE = 0x003c;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const FORMULA = 0x0006;
const STRING = 0x0207;
const XF = 0x00e0;
const FORMAT = 0x041e;
const FILEPASS = 0x002f;

/** The built-in number formats a statement's cells use; the rest are General as far as reading goes. */
const BUILT_IN_FORMATS: Readonly<Record<number, string>> = { 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00' };

interface Record_ {
  type: number;
  data: Buffer;
  at: number;
}

function* records(stream: Buffer, from: number): Generator<Record_> {
  let at = from;
  while (at + 4 <= stream.length) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    if (at + 4 + length > stream.length) throw new Error('a record runs past the end of the workbook stream');
    yield { type, data: stream.subarray(at + 4, at + 4 + length), at };
    at += 4 + length;
  }
}

/** Reads across an SST record and its CONTINUE records: a string's characters may go on in the next one. */
class Pieces {
  private part = 0;
  private at = 0;
  constructor(private readonly parts: Buffer[]) {}

  private current(): Buffer {
    while (this.at >= this.parts[this.part]!.length) {
      if (++this.part >= this.parts.length) throw new Error('the shared strings run past their records');
      this.at = 0;
    }
    return this.parts[this.part]!;
  }
  u8(): number {
    return this.current()[this.at++]!;
  }
  u16(): number {
    const b = this.current();
    const v = b.readUInt16LE(this.at);
    this.at += 2;
    return v;
  }
  u32(): number {
    const b = this.current();
    const v = b.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  skip(n: number): void {
    for (let left = n; left > 0;) {
      const b = this.current();
      const step = Math.min(left, b.length - this.at);
      this.at += step;
      left -= step;
    }
  }
  /** An XLUnicodeRichExtendedString; a CONTINUE in its characters starts with its own high-byte flag. */
  string(): string {
    let count = this.u16();
    const flags = this.u8();
    let wide = (flags & 1) === 1;
    const runs = flags & 8 ? this.u16() : 0;
    const ext = flags & 4 ? this.u32() : 0;
    let text = '';
    while (count > 0) {
      let b = this.parts[this.part]!;
      if (this.at >= b.length) {
        if (++this.part >= this.parts.length) throw new Error('a shared string runs past its records');
        this.at = 0;
        b = this.parts[this.part]!;
        wide = (b[this.at++]! & 1) === 1;
      }
      const fit = Math.min(count, Math.floor((b.length - this.at) / (wide ? 2 : 1)));
      const end = this.at + fit * (wide ? 2 : 1);
      text += b.toString(wide ? 'utf16le' : 'latin1', this.at, end);
      this.at = end;
      count -= fit;
      if (fit === 0) throw new Error('a shared string is cut inside a character');
    }
    this.skip(runs * 4 + ext);
    return text;
  }
}

/** A short or long XLUnicodeString inside one record (FORMAT, LABEL, STRING, BOUNDSHEET). */
function unicodeString(data: Buffer, at: number, lengthBytes: 1 | 2): string {
  const count = lengthBytes === 1 ? data[at]! : data.readUInt16LE(at);
  const wide = (data[at + lengthBytes]! & 1) === 1;
  const start = at + lengthBytes + 1;
  return data.toString(wide ? 'utf16le' : 'latin1', start, start + count * (wide ? 2 : 1));
}

function rkNumber(rk: number): number {
  const n =
    rk & 2
      ? rk >> 2
      : (() => {
          const b = Buffer.alloc(8);
          b.writeUInt32LE(rk & 0xfffffffc, 4);
          return b.readDoubleLE(0);
        })();
  return rk & 1 ? n / 100 : n;
}

/**
 * Rows of the first worksheet, indexed by row (0-based), or throws an Error whose message says why the file
 * cannot be read (the caller words the sentence). `tooBig` is thrown as is: it is the caller's sentence.
 */
export function readXlsRows(bytes: Buffer, limits: XlsLimits, tooBig: (sentence: string) => never): SheetCell[][] {
  const container = CFB.read(bytes, { type: 'buffer' });
  const entry = CFB.find(container, 'Workbook') ?? CFB.find(container, 'Book');
  if (!entry?.content) throw new Error('it has no workbook stream');
  const stream = Buffer.from(entry.content as Uint8Array);
  const first = records(stream, 0).next();
  if (first.done || first.value.type !== BOF || first.value.data.readUInt16LE(0) !== 0x0600) {
    throw new Error('it is not an Excel 97-2003 (BIFF8) workbook');
  }
  const strings: string[] = [];
  const formats = new Map<number, string>();
  const xfFormat: number[] = [];
  let sheetAt = -1;
  let sst: Buffer[] | null = null;
  const flushSst = () => {
    if (!sst) return;
    const p = new Pieces(sst);
    p.skip(4);
    const unique = p.u32();
    for (let i = 0; i < unique; i++) strings.push(p.string());
    sst = null;
  };
  for (const r of records(stream, 0)) {
    if (r.type === CONTINUE && sst) {
      sst.push(r.data);
      continue;
    }
    flushSst();
    if (r.type === FILEPASS) throw new Error('it is protected by a password; save it again without one');
    else if (r.type === SST) sst = [r.data];
    else if (r.type === FORMAT) formats.set(r.data.readUInt16LE(0), unicodeString(r.data, 2, 2));
    else if (r.type === XF) xfFormat.push(r.data.readUInt16LE(2));
    else if (r.type === BOUNDSHEET && sheetAt < 0 && r.data[5] === 0) sheetAt = r.data.readUInt32LE(0);
    else if (r.type === EOF) break;
  }
  if (sheetAt < 0) throw new Error('it has no worksheet');
  const formatOf = (xf: number): string | null => {
    const id = xfFormat[xf];
    return id === undefined ? null : (formats.get(id) ?? BUILT_IN_FORMATS[id] ?? null);
  };

  const table: SheetCell[][] = [];
  let kept = 0;
  const put = (row: number, col: number, cell: SheetCell) => {
    if (col >= limits.maxColumns) {
      tooBig(
        `row ${(row + 1).toLocaleString('en-IN')} has more than ${limits.maxColumns} columns, the most the console reads.`,
      );
    }
    const cells = (table[row] ??= []);
    if (cells.length === 0 && ++kept > limits.maxRows) tooBig(limits.rowsSentence);
    cells[col] = cell;
  };
  let pendingFormula: { row: number; col: number } | null = null;
  for (const r of records(stream, sheetAt)) {
    const d = r.data;
    if (r.type === EOF) break;
    if (r.type === STRING && pendingFormula) {
      put(pendingFormula.row, pendingFormula.col, unicodeString(d, 0, 2));
      pendingFormula = null;
      continue;
    }
    pendingFormula = null;
    if (r.type === LABELSST) {
      const text = strings[d.readUInt32LE(6)];
      if (text === undefined) throw new Error(`row ${d.readUInt16LE(0) + 1} names a shared string that is not there`);
      put(d.readUInt16LE(0), d.readUInt16LE(2), text);
    } else if (r.type === LABEL) {
      put(d.readUInt16LE(0), d.readUInt16LE(2), unicodeString(d, 6, 2));
    } else if (r.type === NUMBER) {
      put(d.readUInt16LE(0), d.readUInt16LE(2), { number: d.readDoubleLE(6), format: formatOf(d.readUInt16LE(4)) });
    } else if (r.type === RK) {
      put(d.readUInt16LE(0), d.readUInt16LE(2), {
        number: rkNumber(d.readInt32LE(6)),
        format: formatOf(d.readUInt16LE(4)),
      });
    } else if (r.type === MULRK) {
      const row = d.readUInt16LE(0);
      const firstCol = d.readUInt16LE(2);
      const n = (d.length - 6) / 6;
      for (let i = 0; i < n; i++) {
        const xf = d.readUInt16LE(4 + i * 6);
        put(row, firstCol + i, { number: rkNumber(d.readInt32LE(6 + i * 6)), format: formatOf(xf) });
      }
    } else if (r.type === FORMULA) {
      const row = d.readUInt16LE(0);
      const col = d.readUInt16LE(2);
      if (d.readUInt16LE(12) !== 0xffff)
        put(row, col, { number: d.readDoubleLE(6), format: formatOf(d.readUInt16LE(4)) });
      else if (d[6] === 0)
        pendingFormula = { row, col }; // its text is the STRING record that follows
      else if (d[6] === 1) put(row, col, d[8] ? 'TRUE' : 'FALSE');
    }
  }
  return Array.from(table, (r) => Array.from(r ?? [], (c) => c ?? null));
}
