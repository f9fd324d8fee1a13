import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DETAIL_COLUMNS,
  DETAIL_PRINT,
  EXCEPTION_COLUMNS,
  EXCEPTION_PRINT,
} from '../../electron/export/settlement-sheets';
import {
  columnSetScale,
  createXlsxWriter,
  ExportValueError,
  MIN_PRINT_POINTS,
  XLSX_MAX_ROWS,
  type ColumnSpec,
  type RowValues,
  type XlsxOptions,
  writeInteger,
  writeMinor,
  writeSerial,
} from '../../electron/export/xlsx-writer';
import { ByteChunks } from '../../electron/export/byte-chunks';
import { formatMinor } from '../../shared/money';
import { cellStyles, cellXfs, zipParts } from '../support/export-files';

const tempDir = mkdtempSync(join(tmpdir(), 'pc-xlsx-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));
const tempFile = (name: string) => join(tempDir, name);

/** The cellXfs entry (as XML text) that a cell of the sheet uses. */
function cellStyle(parts: ReadonlyMap<string, string>, sheet: number, ref: string): string {
  const style = cellStyles(parts.get(`xl/worksheets/sheet${sheet}.xml`)!).get(ref);
  expect(style, `cell ${ref}`).toBeDefined();
  return cellXfs(parts)[style!]!;
}

async function writeWorkbook(
  path: string,
  sheets: { name: string; columns: ColumnSpec[]; rows: RowValues[] }[],
  options: XlsxOptions = {},
): Promise<void> {
  const writer = createXlsxWriter(createWriteStream(path), { now: new Date('2026-01-15T06:30:00Z'), ...options });
  for (const s of sheets) {
    const sheet = writer.addSheet(s.name, s.columns);
    for (const row of s.rows) await sheet.addRow(row);
  }
  await writer.finish();
}

async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
}

const SETTLEMENT_COLUMNS: ColumnSpec[] = [
  { header: 'Order ID', type: 'text', width: 24 },
  { header: 'Amount', type: 'money' },
  { header: 'Count', type: 'integer' },
  { header: 'Settlement date', type: 'date' },
  { header: 'Settled at', type: 'datetime' },
  { header: 'Note', type: 'text' },
];

const HOSTILE = [
  '=HYPERLINK("http://x")',
  '+1+1',
  '-2',
  '@SUM(A1)',
  '\t=1',
  '\r=1',
  `<&>"' and ]]>`,
  'emoji 🧾 ₹ नमस्ते',
  'bell\u0007here',
  'literal _x0041_ escape',
  '  spaces kept  ',
  'line\nbreak and\r\nCRLF',
];

/** Every kind of cell and the edges of each, dates and times repeated and typed as the other: `EVERY_CELL_XML`. */
const EVERY_CELL: RowValues[] = [
  ...HOSTILE.map((text, i): RowValues => [text, -i * 1001, -i, '2024-02-29', '2024-02-29 23:59:59', ` ${text}`]),
  ['pay_1', 0, 0, '1900-03-01', '1900-03-01 00:00:00', 'a\ud800b'],
  ['pay_2', -0, -0, '9999-12-31', '9999-12-31 23:59:59', 'pair 🧾 kept'],
  ['pay_3', 1, 1, '2024-02-29', '2024-02-29 23:59:59', '_x0041_'],
  ['pay_4', -1, Number.MAX_SAFE_INTEGER, '2024-03-01', '2024-02-29 12:00:00', null],
  ['pay_5', 99, Number.MIN_SAFE_INTEGER, '2024-03-01', '2024-02-29 12:00:00', ''],
  ['pay_6', Number.MAX_SAFE_INTEGER, 10, null, undefined, 'trailing '],
  ['pay_7', Number.MIN_SAFE_INTEGER, 100, '2000-01-01', '2000-01-01 00:00:01'],
  [
    { type: 'money', value: 12_345_678_901 },
    { type: 'text', value: '=1' },
    { type: 'date', value: '2024-02-29' },
    { type: 'datetime', value: '2024-03-01 00:00:00' },
    { type: 'date', value: '2024-02-29' },
    { type: 'integer', value: -5 },
  ],
  [{ type: 'text', value: null }, { type: 'money', value: 5 }, null, '2024-03-01', '2024-02-29 12:00:00'],
];
/** The sheet XML EVERY_CELL made before the writer wrote numbers and dates in place (commit 596f224): unchanged. */
const EVERY_CELL_XML = new URL('./fixtures/xlsx-every-cell.xml', import.meta.url);

describe('xlsx writer, read back with exceljs', () => {
  it('writes sheets, header, views, filters, widths and typed cells that exceljs reads back exactly', async () => {
    const path = tempFile('settlements.xlsx');
    await writeWorkbook(path, [
      {
        name: 'Settlements',
        columns: SETTLEMENT_COLUMNS,
        rows: [
          ['000123', 0, 0, '2024-03-31', '2024-03-31 23:59:59', null],
          ['12345678901234567890', -1250, -7, '2024-02-29', '2024-01-01 00:00:00', undefined],
          ['pay_001', 1, 9_007_199_254_740_991, '1900-03-01', '2025-11-22 18:45:07', ''],
          ['pay_002', 12_345_678_901, 42, '9999-12-31', '2000-02-29 12:00:00', 'last'],
          ['pay_003', 10 + 20, null, null, null],
        ],
      },
      {
        name: 'Summary',
        columns: [
          { header: 'Metric', type: 'text' },
          { header: 'Value', type: 'text' },
        ],
        rows: [
          ['Total', { type: 'money', value: 12_345_678_901 }],
          ['Rows', { type: 'integer', value: 5 }],
          ['From', { type: 'date', value: '2024-03-01' }],
          ['Last settled', { type: 'datetime', value: '2024-03-31 23:59:59' }],
          ['Gateway', { type: 'text', value: null }],
        ],
      },
    ]);

    const workbook = await readWorkbook(path);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Settlements', 'Summary']);
    expect(workbook.creator).toBe('Payout Console');
    const ws = workbook.getWorksheet('Settlements')!;

    const header = ws.getRow(1);
    expect(SETTLEMENT_COLUMNS.map((_, i) => header.getCell(i + 1).value)).toEqual(
      SETTLEMENT_COLUMNS.map((c) => c.header),
    );
    expect(header.getCell(1).font?.bold).toBe(true);
    expect(header.getCell(6).font?.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, topLeftCell: 'A2' });
    expect(ws.autoFilter).toBe('A1:F6');
    expect(ws.getColumn(1).width).toBe(24);
    // Defaults: per type, at least the header's length plus room for the filter button.
    expect(ws.getColumn(2).width).toBe(16);
    expect(ws.getColumn(4).width).toBe(18);
    expect(ws.getColumn(5).width).toBe(20);

    const money = [2, 3, 4, 5, 6].map((r) => ws.getCell(`B${r}`));
    expect(money.map((c) => c.value)).toEqual([0, -12.5, 0.01, 123_456_789.01, 0.3]);
    for (const c of money) {
      expect(c.type).toBe(ExcelJS.ValueType.Number);
      expect(c.numFmt).toBe('#,##0.00');
    }
    expect(ws.getCell('C4').value).toBe(9_007_199_254_740_991);
    expect(ws.getCell('C4').numFmt).toBe('#,##0');
    expect(ws.getCell('C3').value).toBe(-7);

    const dates = [2, 3, 4, 5].map((r) => ws.getCell(`D${r}`));
    expect(dates.map((c) => c.value)).toEqual([
      new Date(Date.UTC(2024, 2, 31)),
      new Date(Date.UTC(2024, 1, 29)),
      new Date(Date.UTC(1900, 2, 1)),
      new Date(Date.UTC(9999, 11, 31)),
    ]);
    for (const c of dates) expect(c.numFmt).toBe('yyyy-mm-dd');
    const times = [2, 3, 4, 5].map((r) => ws.getCell(`E${r}`));
    // exceljs gives a serial's wall clock as that time in UTC.
    expect(times.map((c) => c.value)).toEqual([
      new Date(Date.UTC(2024, 2, 31, 23, 59, 59)),
      new Date(Date.UTC(2024, 0, 1, 0, 0, 0)),
      new Date(Date.UTC(2025, 10, 22, 18, 45, 7)),
      new Date(Date.UTC(2000, 1, 29, 12, 0, 0)),
    ]);
    for (const c of times) expect(c.numFmt).toBe('yyyy-mm-dd hh:mm:ss');

    expect(ws.getCell('A2').value).toBe('000123');
    expect(ws.getCell('A3').value).toBe('12345678901234567890');
    expect(ws.getCell('A3').type).toBe(ExcelJS.ValueType.String);
    for (const ref of ['F2', 'F3', 'F4', 'C6', 'D6', 'E6', 'F6']) {
      expect(ws.getCell(ref).value, ref).toBeNull();
    }
    expect(ws.getCell('F5').value).toBe('last');

    const summary = workbook.getWorksheet('Summary')!;
    expect(summary.getCell('B2').value).toBe(123_456_789.01);
    expect(summary.getCell('B2').numFmt).toBe('#,##0.00');
    expect(summary.getCell('B3').value).toBe(5);
    expect(summary.getCell('B4').value).toEqual(new Date(Date.UTC(2024, 2, 1)));
    expect(summary.getCell('B5').value).toEqual(new Date(Date.UTC(2024, 2, 31, 23, 59, 59)));
    expect(summary.getCell('B6').value).toBeNull();
    expect(summary.autoFilter).toBe('A1:B6');

    // Money goes into the file as formatMinor's exact text, not through a float.
    const parts = await zipParts(path);
    const sheet1 = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet1).toContain('<c r="B6" s="4"><v>0.30</v></c>');
    expect(sheet1).toContain('<v>123456789.01</v>');
    expect(sheet1).toContain('<v>-12.50</v>');
    expect(sheet1.indexOf('<autoFilter')).toBeGreaterThan(sheet1.indexOf('</sheetData>'));
    expect(parts.get('xl/workbook.xml')).toContain(
      '<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">\'Settlements\'!$A$1:$F$6</definedName>',
    );
    expect([...parts.keys()]).toEqual([
      '_rels/.rels',
      'docProps/core.xml',
      'docProps/app.xml',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      '[Content_Types].xml',
    ]);
  });

  it('writes every kind of cell byte for byte as before', async () => {
    const path = tempFile('every-cell.xlsx');
    await writeWorkbook(path, [{ name: 'Cells', columns: SETTLEMENT_COLUMNS, rows: EVERY_CELL }]);
    const xml = (await zipParts(path)).get('xl/worksheets/sheet1.xml')!;
    expect(xml).toBe(readFileSync(EVERY_CELL_XML, 'utf8'));
  });

  it("writes an amount as formatMinor's text and an integer as String's, in place", () => {
    const values = [0, -0, 1, -1, 9, 10, 99, 100, 101, -1250, 12_345_678_901, Number.MAX_SAFE_INTEGER];
    values.push(Number.MIN_SAFE_INTEGER);
    for (let k = 0; k < 120; k++) {
      const n = Math.floor(Number.MAX_SAFE_INTEGER / 1.37 ** k);
      values.push(n, -n, n - 1, 7 - n);
    }
    const out = new ByteChunks(1 << 16);
    for (const n of values) {
      out.reserve(48);
      writeMinor(out, n);
      out.byte(0x20);
      writeInteger(out, n);
      out.byte(0x20);
    }
    expect(out.takeAll().toString('latin1')).toBe(values.map((n) => `${formatMinor(n)} ${String(n)} `).join(''));
  });

  it("writes a time's serial as String of the one division's double, every second of days across the range", () => {
    // The first and last days whose serials share a double's step (2^15, 2^16 - 1), a day between, the days just
    // outside it and the ends of what Excel's dates hold (1900-03-01, 9999-12-31), whose serials String writes whole.
    const days = [2 ** 15 - 1, 2 ** 15, 45_672, 2 ** 16 - 1, 2 ** 16, 61, 2_958_465];
    for (const day of days) {
      const out = new ByteChunks(1 << 16);
      const expected: string[] = [];
      for (let second = 0; second < 86_400; second++) {
        out.reserve(32);
        writeSerial(out, day, second);
        out.byte(0x20);
        expected.push(String((day * 86_400 + second) / 86_400));
      }
      expect(out.takeAll().toString('latin1'), `day ${day}`).toBe(expected.join(' ') + ' ');
    }
  });

  it('keeps hostile text as text: no formula, quote-prefixed when it could start one', async () => {
    const path = tempFile('hostile.xlsx');
    await writeWorkbook(path, [
      {
        name: 'Hostile',
        columns: [
          { header: '=cmd|"/c calc"!A1', type: 'text' },
          { header: 'Plain', type: 'text' },
        ],
        rows: HOSTILE.map((text) => [text, 'safe']),
      },
    ]);
    const ws = (await readWorkbook(path)).getWorksheet('Hostile')!;
    const parts = await zipParts(path);
    const quotePrefixed = (ref: string) => cellStyle(parts, 1, ref).includes('quotePrefix="1"');

    // Characters XML cannot hold are written as Excel's _xHHHH_ escape, which Excel decodes but exceljs does not;
    // a literal _xHHHH_ is escaped in turn so that Excel shows it unchanged.
    const expected = (text: string) =>
      text.replace('\u0007', '_x0007_').replace('literal _x0041_', 'literal _x005F_x0041_');
    HOSTILE.forEach((text, i) => {
      const cell = ws.getCell(`A${i + 2}`);
      expect(cell.value, JSON.stringify(text)).toBe(expected(text));
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.formula).toBeUndefined();
      expect(quotePrefixed(`A${i + 2}`), JSON.stringify(text)).toBe(/^[=+\-@\t\r]/.test(text));
      expect(quotePrefixed(`B${i + 2}`)).toBe(false);
    });
    expect(ws.getCell('A1').value).toBe('=cmd|"/c calc"!A1');
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(cellStyle(parts, 1, 'A1')).toContain('quotePrefix="1"');
    expect(cellStyle(parts, 1, 'A1')).toContain('fontId="1"');

    const xml = parts.get('xl/worksheets/sheet1.xml')!;
    expect(xml).not.toContain('<f>');
    expect(xml).toContain('&lt;&amp;&gt;"\' and ]]&gt;');
    expect(xml).toContain('<t xml:space="preserve">&#13;=1</t>');
    expect(xml).toContain('bell_x0007_here');
  });

  it('replaces an unpaired surrogate, which UTF-8 cannot carry, with U+FFFD', async () => {
    const path = tempFile('surrogate.xlsx');
    await writeWorkbook(path, [
      { name: 'S', columns: [{ header: 'Text', type: 'text' }], rows: [['a\ud800b'], ['pair 🧾 kept']] },
    ]);
    const ws = (await readWorkbook(path)).getWorksheet('S')!;
    expect(ws.getCell('A2').value).toBe('a\ufffdb');
    expect(ws.getCell('A3').value).toBe('pair 🧾 kept');
  });

  it('refuses values that do not fit their column, naming sheet, row, column and kind, and writes none of the row', async () => {
    const path = tempFile('invalid.xlsx');
    const writer = createXlsxWriter(createWriteStream(path));
    const sheet = writer.addSheet('Settlements', SETTLEMENT_COLUMNS);
    const bad: [RowValues, RegExp][] = [
      [
        ['a', 12.5],
        /^Sheet "Settlements" row 2, column "Amount": expected a safe integer of minor units, got a non-integer number$/,
      ],
      [['a', '12.50'], /column "Amount": .* got a string$/],
      [['a', 2 ** 53], /column "Amount": .* got an integer beyond 2\^53$/],
      [['a', Number.NaN], /column "Amount": .* got NaN$/],
      [['a', 1, 1.5], /column "Count": expected a safe integer, got a non-integer number$/],
      [[42], /column "Order ID": expected a string, got a number$/],
      [
        ['a', 1, 1, '2024-02-30'],
        /column "Settlement date": expected a YYYY-MM-DD date, got a malformed or impossible date string$/,
      ],
      [['a', 1, 1, '31/03/2024'], /column "Settlement date": .* got a malformed or impossible date string$/],
      [['a', 1, 1, '1900-02-28'], /column "Settlement date": .* got a date before 1900-03-01$/],
      [['a', 1, 1, new Date(0) as unknown as string], /column "Settlement date": .* got a Date object$/],
      [
        ['a', 1, 1, null, '2024-03-31T10:00:00Z'],
        /column "Settled at": expected a YYYY-MM-DD HH:MM:SS time, got a malformed/,
      ],
      [['a', 1, 1, null, '2024-03-31 24:00:00'], /column "Settled at": .* got a malformed or impossible date string$/],
      [
        [{ type: 'money', value: 0.5 }],
        /column "Order ID": expected a safe integer of minor units, got a non-integer number$/,
      ],
      [
        [{ type: 'currency', value: 1 } as never],
        /column "Order ID": expected a cell type among .*, got a cell of unknown type "currency"$/,
      ],
      [[1, 2, 3, 4, 5, 6, 7], /^Sheet "Settlements" row 2: 7 values for 6 columns$/],
    ];
    for (const [row, message] of bad) {
      expect(() => sheet.addRow(row), JSON.stringify(row)).toThrow(message);
    }
    expect(() => sheet.addRow(['a', 0.1])).toThrow(ExportValueError);
    try {
      sheet.addRow(['a', 1, 'seven']);
    } catch (error) {
      expect(error).toMatchObject({ sheet: 'Settlements', row: 2, column: 'Count', kind: 'a string' });
    }
    expect(sheet.rowCount).toBe(0);
    await sheet.addRow(['ok', 100]);
    await writer.finish();
    const ws = (await readWorkbook(path)).getWorksheet('Settlements')!;
    expect(ws.rowCount).toBe(2);
    expect(ws.getCell('A2').value).toBe('ok');
    expect(ws.getCell('B2').value).toBe(1);
  });

  it('checks a date or time again when the same text comes as the other type', async () => {
    const writer = createXlsxWriter(new Writable({ write: (_c, _e, cb) => cb() }));
    const sheet = writer.addSheet('Times', [{ header: 'When', type: 'datetime' }]);
    await sheet.addRow(['2024-03-31 10:00:00']);
    expect(() => sheet.addRow([{ type: 'date', value: '2024-03-31 10:00:00' }])).toThrow(
      /column "When": expected a YYYY-MM-DD date, got a malformed or impossible date string$/,
    );
    await sheet.addRow([{ type: 'date', value: '2024-03-31' }]);
    expect(() => sheet.addRow(['2024-03-31'])).toThrow(/expected a YYYY-MM-DD HH:MM:SS time/);
    expect(sheet.rowCount).toBe(2);
    writer.abort();
  });

  it('checks sheet names', () => {
    const writer = createXlsxWriter(new Writable({ write: (_c, _e, cb) => cb() }));
    writer.addSheet('Settlements', SETTLEMENT_COLUMNS);
    expect(() => writer.addSheet('SETTLEMENTS', SETTLEMENT_COLUMNS)).toThrow(
      'Sheet name "SETTLEMENTS" is already used (sheet names are compared without case)',
    );
    expect(() => writer.addSheet('x'.repeat(32), SETTLEMENT_COLUMNS)).toThrow(/is longer than 31 characters/);
    for (const name of ['a[b', 'a]b', 'a:b', 'a*b', 'a?b', 'a/b', 'a\\b', 'a\nb']) {
      expect(() => writer.addSheet(name, SETTLEMENT_COLUMNS), name).toThrow(/contains one of/);
    }
    expect(() => writer.addSheet('', SETTLEMENT_COLUMNS)).toThrow(/is empty/);
    expect(() => writer.addSheet("'quoted'", SETTLEMENT_COLUMNS)).toThrow(/apostrophe/);
    expect(() => writer.addSheet('No columns', [])).toThrow(/needs 1 to 16384 columns/);
    writer.abort();
  });

  it('stops a sheet at the row limit; the caller continues on a new sheet', async () => {
    expect(XLSX_MAX_ROWS).toBe(1_048_576);
    const path = tempFile('limit.xlsx');
    const writer = createXlsxWriter(createWriteStream(path), { maxRows: 4 });
    const columns: ColumnSpec[] = [{ header: 'n', type: 'integer' }];
    let sheet = writer.addSheet('Part 1', columns);
    const parts = [sheet];
    for (let n = 1; n <= 7; n++) {
      if (sheet.remaining === 0) {
        expect(() => sheet.addRow([n])).toThrow(
          `Sheet "${sheet.name}" is full: a worksheet holds 4 rows; continue on a new sheet`,
        );
        sheet = writer.addSheet(`Part ${parts.length + 1}`, columns);
        parts.push(sheet);
      }
      await sheet.addRow([n]);
    }
    expect(() => parts[0]!.addRow([8])).toThrow(/is finished: a later sheet was added/);
    await writer.finish();
    const workbook = await readWorkbook(path);
    expect(workbook.worksheets.map((w) => [w.name, w.rowCount, w.autoFilter])).toEqual([
      ['Part 1', 4, 'A1:A4'],
      ['Part 2', 4, 'A1:A4'],
      ['Part 3', 2, 'A1:A2'],
    ]);
    expect(workbook.getWorksheet('Part 3')!.getCell('A2').value).toBe(7);
  });

  it('streams a sheet of many chunks and honours the sheet options', async () => {
    const path = tempFile('many.xlsx');
    const writer = createXlsxWriter(createWriteStream(path));
    const sheet = writer.addSheet('Many', SETTLEMENT_COLUMNS, {
      freezeHeader: false,
      autoFilter: false,
      headerStyle: 'plain',
    });
    const rows = 20_000;
    for (let i = 0; i < rows; i++) {
      const pending = sheet.addRow([`pay_${i}`, i * 101, i, '2024-03-31', '2024-03-31 10:11:12', `note ₹ ${i}`]);
      if (pending) await pending;
    }
    await writer.finish();
    const ws = (await readWorkbook(path)).getWorksheet('Many')!;
    expect(ws.rowCount).toBe(rows + 1);
    expect(ws.getCell(`A${rows + 1}`).value).toBe(`pay_${rows - 1}`);
    expect(ws.getCell(`B${rows + 1}`).value).toBe(((rows - 1) * 101) / 100);
    expect(ws.getCell(`F${rows}`).value).toBe(`note ₹ ${rows - 2}`);
    expect(ws.getCell('A1').font?.bold).toBeUndefined();
    expect(ws.views[0]?.state).not.toBe('frozen');
    expect(ws.autoFilter).toBeUndefined();
  });

  it('aborts: pending promises reject, the output is destroyed, later calls fail', async () => {
    const stuck = new Writable({ highWaterMark: 1024, write: () => {} });
    const writer = createXlsxWriter(stuck);
    const sheet = writer.addSheet('S', [{ header: 'Text', type: 'text' }]);
    // Rows until one waits on output that never drains.
    let pending: Promise<void> | undefined;
    for (let i = 0; !pending; i++) {
      const wait = sheet.addRow([`row ${i} ${'x'.repeat(100)}`]);
      if (!wait) continue;
      const settled = await Promise.race([
        wait.then(
          () => true,
          () => true,
        ),
        new Promise((r) => setTimeout(r, 100, false)),
      ]);
      if (!settled) pending = wait;
    }
    const reason = new Error('user cancelled');
    writer.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(stuck.destroyed).toBe(true);
    expect(() => sheet.addRow(['more'])).toThrow(/aborted/);
    await expect(writer.finish()).rejects.toThrow(/aborted/);
  });

  it('cuts text longer than a cell holds, with a visible marker, and counts the cut cells', async () => {
    const path = tempFile('long.xlsx');
    const writer = createXlsxWriter(createWriteStream(path));
    const sheet = writer.addSheet('Long', [{ header: 'Text', type: 'text' }]);
    const exact = 'a'.repeat(32_767);
    // A surrogate pair straddling the cut point is never split.
    const long = '='.padEnd(32_700, 'b') + '🧾'.repeat(100);
    for (const text of [exact, long, 'short']) await sheet.addRow([text]);
    expect(sheet.cutCells).toBe(1);
    expect(writer.cutCells).toBe(1);
    await writer.finish();
    const ws = (await readWorkbook(path)).getWorksheet('Long')!;
    expect(ws.getCell('A2').value).toBe(exact);
    const cut = ws.getCell('A3').value as string;
    const marker = ' … [cut: 32,900 characters in all; the CSV export has the whole text]';
    expect(long.length).toBe(32_900);
    expect(cut.endsWith(marker)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(32_767);
    expect(long.startsWith(cut.slice(0, -marker.length))).toBe(true);
    expect(cut.slice(0, -marker.length)).not.toMatch(/[\ud800-\udbff]$/);
    // Still guarded: the cut text starts with "=".
    const parts = await zipParts(path);
    expect(cellStyle(parts, 1, 'A3')).toMatch(/quotePrefix="1"/);
  });

  it("declares each sheet's size, prints landscape one page wide with the header on every page, and can lead with a later sheet", async () => {
    const path = tempFile('print.xlsx');
    const writer = createXlsxWriter(createWriteStream(path), { firstSheet: 'Summary' });
    const detail = writer.addSheet('Detail', SETTLEMENT_COLUMNS, { rows: 2 });
    await detail.addRow(['a', 1]);
    await detail.addRow(['b', 2]);
    const summary = writer.addSheet('Summary', [{ header: 'Total', type: 'money' }], { rows: 1, autoFilter: false });
    await summary.addRow([3]);
    await writer.finish();
    const parts = await zipParts(path);
    const workbook = parts.get('xl/workbook.xml')!;
    // Written second, shown first; the relationship ids still point at the parts written.
    expect(
      [...workbook.matchAll(/<sheet name="([^"]+)" sheetId="\d+" r:id="(rId\d)"/g)].map((m) => [m[1], m[2]]),
    ).toEqual([
      ['Summary', 'rId2'],
      ['Detail', 'rId1'],
    ]);
    expect(workbook).toContain(`<definedName name="_xlnm.Print_Titles" localSheetId="0">'Summary'!$1:$1</definedName>`);
    expect(workbook).toContain(`<definedName name="_xlnm.Print_Titles" localSheetId="1">'Detail'!$1:$1</definedName>`);
    const [detailXml, summaryXml] = [parts.get('xl/worksheets/sheet1.xml')!, parts.get('xl/worksheets/sheet2.xml')!];
    expect(detailXml).toContain('<dimension ref="A1:F3"/>');
    expect(summaryXml).toContain('<dimension ref="A1:A2"/>');
    expect(summaryXml).toContain('tabSelected="1"');
    expect(detailXml).not.toContain('tabSelected');
    for (const xml of [detailXml, summaryXml]) {
      expect(xml).toContain('<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>');
      expect(xml).toContain('<pageSetup paperSize="9" orientation="landscape" fitToWidth="1" fitToHeight="0"/>');
      expect(xml).toContain('<oddFooter>&amp;L&amp;A&amp;RPage &amp;P of &amp;N</oddFooter>');
    }
    const book = await readWorkbook(path);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Detail']);
    expect(book.getWorksheet('Detail')!.pageSetup).toMatchObject({ orientation: 'landscape', fitToWidth: 1 });
  });

  it('prints a wide sheet in column sets: a manual break before each, at one scale that fits the widest set', async () => {
    const path = tempFile('column-sets.xlsx');
    const writer = createXlsxWriter(createWriteStream(path));
    const columns: ColumnSpec[] = [
      { header: 'Id', type: 'text', width: 60 },
      { header: 'Amount', type: 'money', width: 60 },
      { header: 'Note', type: 'text', width: 100 },
      { header: 'More', type: 'text', width: 20 },
    ];
    const sheet = writer.addSheet('Detail', columns, { rows: 1, print: { columnSets: [2, 2] } });
    await sheet.addRow(['a', 1, 'b', 'c']);
    await writer.finish();
    const xml = (await zipParts(path)).get('xl/worksheets/sheet1.xml')!;
    // The widest set (120 width units, 900 px) on a page 1,045.8 px across: 116%, held to 100%.
    expect(columnSetScale(columns, [2, 2])).toBe(100);
    expect(columnSetScale(columns, [1, 3])).toBe(77);
    expect(xml).not.toContain('fitToPage');
    expect(xml).toContain('<pageSetup paperSize="9" scale="100" pageOrder="downThenOver" orientation="landscape"/>');
    expect(xml).toContain('<colBreaks count="1" manualBreakCount="1"><brk id="2" max="1048575" man="1"/></colBreaks>');
    const book = await readWorkbook(path);
    expect(book.getWorksheet('Detail')!.pageSetup).toMatchObject({ orientation: 'landscape', scale: 100 });
  });

  it('refuses column sets that do not cover the columns, or one too wide to print at 8 pt', () => {
    const writer = createXlsxWriter(new Writable({ write: (_c, _e, cb) => cb() }));
    const columns: ColumnSpec[] = [
      { header: 'Id', type: 'text', width: 100 },
      { header: 'Note', type: 'text', width: 100 },
    ];
    expect(() => writer.addSheet('A', columns, { print: { columnSets: [1] } })).toThrow(/adding up to the 2 columns/);
    expect(() => writer.addSheet('B', columns, { print: { columnSets: [0, 2] } })).toThrow(/positive counts/);
    // 200 width units are 1,500 px: 69% of 11 pt is 7.6 pt.
    expect(() => writer.addSheet('C', columns, { print: { columnSets: [2] } })).toThrow(
      'The columns "Id" to "Note" are too wide for one page at 8 pt',
    );
    expect(columnSetScale(columns, [1, 1])).toBe(100);
  });

  it("prints the settlement detail's sets at 78%: 8.6 pt", () => {
    const { columnSets } = DETAIL_PRINT as { columnSets: number[] };
    const scale = columnSetScale(DETAIL_COLUMNS, columnSets);
    expect(scale).toBe(78);
    expect((scale * 11) / 100).toBeGreaterThanOrEqual(MIN_PRINT_POINTS);
  });

  it("prints the Exceptions sheet's sets at 77%: 8.5 pt", () => {
    const { columnSets } = EXCEPTION_PRINT as { columnSets: number[] };
    const scale = columnSetScale(EXCEPTION_COLUMNS, columnSets);
    expect(scale).toBe(77);
    expect((scale * 11) / 100).toBeGreaterThanOrEqual(MIN_PRINT_POINTS);
  });

  it('refuses a sheet that ends with another row count than it declared', async () => {
    const writer = createXlsxWriter(new Writable({ write: (_c, _e, cb) => cb() }), { maxRows: 10 });
    expect(() => writer.addSheet('T', [{ header: 'Text', type: 'text' }], { rows: -1 })).toThrow(/rows must be/);
    expect(() => writer.addSheet('T', [{ header: 'Text', type: 'text' }], { rows: 10 })).toThrow(/from 0 to 9/);
    const sheet = writer.addSheet('S', [{ header: 'Text', type: 'text' }], { rows: 2 });
    await sheet.addRow(['only one']);
    await expect(writer.finish()).rejects.toThrow('Sheet "S" was declared with 2 rows but holds 1');
  });

  it('refuses to finish a workbook without sheets', async () => {
    const writer = createXlsxWriter(new Writable({ write: (_c, _e, cb) => cb() }));
    await expect(writer.finish()).rejects.toThrow('an XLSX workbook needs at least one sheet');
    writer.abort();
  });
});
