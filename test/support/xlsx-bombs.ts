/**
 * XLSX files built to hurt a reader: a real workbook (written by exceljs) whose first sheet's XML is swapped for
 * generated XML, deflated as a stream so a sheet of hundreds of MB is never held whole, and zipped by hand so the
 * central directory can declare sizes that are not true.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

const SHEET = 'xl/worksheets/sheet1.xml';
const HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const TAIL = '</sheetData></worksheet>';

interface Part {
  name: string;
  deflated: Buffer;
  size: number;
  crc: number;
}

/** The parts of a one-sheet workbook exceljs writes, the sheet left out. */
async function baseParts(): Promise<Part[]> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Sheet1').addRow(['x']);
  const zip = await JSZip.loadAsync(Buffer.from(await book.xlsx.writeBuffer()));
  const parts: Part[] = [];
  for (const name of Object.keys(zip.files)) {
    if (name === SHEET || zip.files[name]!.dir) continue;
    const data = Buffer.from(await zip.files[name]!.async('uint8array'));
    parts.push({ name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) });
  }
  return parts;
}

/** `rows(i)` for i in 1..count as sheet XML, deflated as it is made; its true size and CRC with it. */
async function deflatedSheet(count: number, row: (i: number) => string): Promise<Omit<Part, 'name'>> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let size = 0;
  let crc = 0;
  const write = async (text: string) => {
    const b = Buffer.from(text, 'utf8');
    size += b.length;
    crc = crc32(b, crc);
    if (!deflate.write(b)) await new Promise((resolve) => deflate.once('drain', resolve));
  };
  await write(HEAD);
  let batch = '';
  for (let i = 1; i <= count; i++) {
    batch += row(i);
    if (batch.length > 1 << 20) {
      await write(batch);
      batch = '';
    }
  }
  await write(batch + TAIL);
  deflate.end();
  await done;
  return { deflated: Buffer.concat(out), size, crc };
}

/** A ZIP of `parts`; `declare` gives the size the directory and local header claim for a part (its own if absent). */
function zipOf(parts: Part[], declare: (p: Part) => number = (p) => p.size): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(declare(p), 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(p.crc >>> 0, 16);
    entry.writeUInt32LE(p.deflated.length, 20);
    entry.writeUInt32LE(declare(p), 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, p.deflated);
    central.push(entry, name);
    offset += 30 + name.length + p.deflated.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** A workbook whose first sheet is `count` rows made by `row`; `lie` makes the directory declare the sheet 10 KB. */
export async function xlsxWithRows(count: number, row: (i: number) => string, lie = false): Promise<Buffer> {
  const sheet = { name: SHEET, ...(await deflatedSheet(count, row)) };
  return zipOf([...(await baseParts()), sheet], (p) => (lie && p.name === SHEET ? 10 * 1024 : p.size));
}

/** A row of `n` inline-string cells. */
export const wideRow = (i: number, n: number) =>
  `<row r="${i}">${Array.from({ length: n }, (_, c) => `<c t="inlineStr"><is><t>v${c}</t></is></c>`).join('')}</row>`;

/** A small row of three cells: a text, a number and a text with leading zeros. */
export const smallRow = (i: number) =>
  `<row r="${i}"><c r="A${i}" t="inlineStr"><is><t>Payee ${i}</t></is></c><c r="B${i}"><v>${i}</v></c>` +
  `<c r="C${i}" t="inlineStr"><is><t>00${i}</t></is></c></row>`;

/** About 480 MB of sheet XML (the bomb): 2.4 million alike rows of 200 bytes, deflating to about 1 MB. */
export const BOMB_ROWS = 2_400_000;
export const bombRow = () => `<row><c t="inlineStr"><is><t>${'A'.repeat(150)}</t></is></c></row>`.padEnd(200, ' ');

/** About 480 MB too, in 1,000 rows of one 480 KB cell: under every row and column limit, only its size is wrong. */
export const FAT_ROWS = 1_000;
export const fatRow = () => `<row><c t="inlineStr"><is><t>${'B'.repeat(480_000)}</t></is></c></row>`;
