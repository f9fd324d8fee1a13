import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCsvWriter } from '../../electron/export/csv-writer';
import type { CsvIdForm } from '../../shared/exports';
import { ExportValueError, type ColumnSpec } from '../../electron/export/xlsx-writer';

/** RFC 4180: records end in CRLF; a quoted field may hold commas, CR, LF and doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let at = 0;
  for (;;) {
    let value = '';
    if (text[at] === '"') {
      at++;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote < 0) throw new Error('unterminated quoted field');
        value += text.slice(at, quote);
        at = quote + 1;
        if (text[at] !== '"') break;
        value += '"';
        at++;
      }
    } else {
      const stop = text.slice(at).search(/,|\r\n/);
      const end = stop < 0 ? text.length : at + stop;
      value = text.slice(at, end);
      if (/["\r\n]/.test(value)) throw new Error(`bare quote or line break in unquoted field ${JSON.stringify(value)}`);
      at = end;
    }
    record.push(value);
    if (text[at] === ',') {
      at++;
      continue;
    }
    if (text.startsWith('\r\n', at)) {
      records.push(record);
      record = [];
      at += 2;
      if (at === text.length) return records;
      continue;
    }
    throw new Error(`expected a comma or CRLF at ${at}`);
  }
}

function sink(options: { highWaterMark?: number; delay?: boolean } = {}) {
  const chunks: Buffer[] = [];
  const out = new Writable({
    highWaterMark: options.highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      if (options.delay) setImmediate(callback);
      else callback();
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

const COLUMNS: ColumnSpec[] = [
  { header: 'Order ID', type: 'text' },
  { header: 'Amount', type: 'money' },
  { header: 'Count', type: 'integer' },
  { header: 'Date', type: 'date' },
  { header: 'Settled at', type: 'datetime' },
];

const HOSTILE = [
  'comma, inside',
  'say "hi"',
  '"',
  'cr\ronly',
  'lf\nonly',
  'crlf\r\nboth',
  'emoji 🧾 ₹ नमस्ते',
  '  spaces  ',
  'control\u0007char',
  '',
  '=HYPERLINK("http://x")',
  '+1+1',
  '-2',
  '@SUM(A1)',
  '\t=1',
  '\r=1',
];

describe('csv writer', () => {
  it('writes a BOM, the header and RFC 4180 records with CRLF line ends', async () => {
    const { out, bytes } = sink();
    const csv = createCsvWriter(out, COLUMNS);
    await csv.addRow(['000123', 0, 0, '2024-03-31', '2024-03-31 23:59:59']);
    await csv.addRow(['12345678901234567890', -1250, -7, null, undefined]);
    await csv.addRow(['pay_1', 1, 9_007_199_254_740_991, '2024-02-29', '2024-01-01 00:00:00']);
    await csv.addRow(['pay_2', 12_345_678_901, null]);
    await csv.addRow(['pay_3', 10 + 20, { type: 'text', value: 'n/a' }, { type: 'money', value: 5 }]);
    await csv.finish();
    const file = bytes();
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = file.toString('utf8').slice(1);
    expect(text.split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
    expect(text).toBe(
      'Order ID,Amount,Count,Date,Settled at\r\n' +
        '000123,0.00,0,2024-03-31,2024-03-31 23:59:59\r\n' +
        '12345678901234567890,-12.50,-7,,\r\n' +
        'pay_1,0.01,9007199254740991,2024-02-29,2024-01-01 00:00:00\r\n' +
        'pay_2,123456789.01,,,\r\n' +
        'pay_3,0.30,n/a,0.05,\r\n',
    );
    expect(csv.rowCount).toBe(5);
  });

  it('round-trips hostile text, with an apostrophe before anything that could start a formula', async () => {
    const { out, bytes } = sink();
    const csv = createCsvWriter(out, [
      { header: 'Text', type: 'text' },
      { header: '=Header', type: 'text' },
    ]);
    for (const text of HOSTILE) await csv.addRow([text, 'x']);
    await csv.finish();
    const records = parseCsv(bytes().toString('utf8').slice(1));
    expect(records[0]).toEqual(['Text', "'=Header"]);
    expect(records.slice(1).map((r) => r[0])).toEqual([
      'comma, inside',
      'say "hi"',
      '"',
      'cr\ronly',
      'lf\nonly',
      'crlf\r\nboth',
      'emoji 🧾 ₹ नमस्ते',
      '  spaces  ',
      'controlchar',
      '',
      `'=HYPERLINK("http://x")`,
      "'+1+1",
      "'-2",
      "'@SUM(A1)",
      // Tab and CR start a formula and end a field or row: guarded at the start and after them.
      "'\t'=1",
      "'\r'=1",
    ]);
    expect(records.slice(1).every((r) => r.length === 2 && r[1] === 'x')).toBe(true);
  });

  it('guards a formula after any separator a spreadsheet may split on, not only at the start', async () => {
    const { out, bytes } = sink();
    const csv = createCsvWriter(out, [{ header: 'Text', type: 'text' }]);
    const cases: [string, string][] = [
      ['x;=HYPERLINK("http://evil.example")', `x;'=HYPERLINK("http://evil.example")`],
      ['a, +1', "a, '+1"],
      ['a|@SUM(1)', "a|'@SUM(1)"],
      ['a\t-1', "a\t'-1"],
      ['a;;=1', "a;;'=1"],
      ['a;\t=1', "a;'\t'=1"],
      ['=a;=b', "'=a;'=b"],
      ['a = b; c - d', 'a = b; c - d'],
      // A line break ends the row for a reader whose separator leaves our quotes mid-field.
      ['Acme\n=1+1;', "Acme\n'=1+1;"],
      ['a\r\n+1', "a\r\n'+1"],
      ['a\r@SUM(1)', "a\r'@SUM(1)"],
      ['a\n -1', "a\n '-1"],
    ];
    for (const [text] of cases) await csv.addRow([text]);
    await csv.finish();
    const records = parseCsv(bytes().toString('utf8').slice(1));
    expect(records.slice(1).map((r) => r[0])).toEqual(cases.map(([, written]) => written));
    // Split as a semicolon, tab or pipe reader would split each line: no piece starts a formula.
    for (const line of bytes()
      .toString('utf8')
      .slice(1)
      .split(/\r\n?|\n/)) {
      for (const piece of line.split(/[,;\t|]/)) expect(piece.replace(/^[ "]+/, ''), line).not.toMatch(/^[=+\-@]/);
    }
  });

  it('removes control characters and replaces unpaired surrogates, keeping tab, CR and LF', async () => {
    const { out, bytes } = sink();
    const csv = createCsvWriter(out, [{ header: 'Text', type: 'text' }]);
    await csv.addRow(['a\u0000b\u001bc\u007fd\u0008e']);
    await csv.addRow(['lone \ud800 high, lone \udc00 low, pair 🧾']);
    await csv.addRow(['tab\tcr\rlf\n']);
    await csv.finish();
    const text = bytes().toString('utf8');
    // eslint-disable-next-line no-control-regex -- control characters are what the file must not hold
    expect(text).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/);
    expect(parseCsv(text.slice(1)).slice(1)).toEqual([
      ['abcde'],
      ['lone \ufffd high, lone \ufffd low, pair 🧾'],
      ['tab\tcr\rlf\n'],
    ]);
  });

  it('writes identifier columns behind a tab, or as ="…", in an Excel-safe CSV, and only those', async () => {
    const columns: ColumnSpec[] = [
      { header: 'UTR', type: 'text', identifier: true },
      { header: 'Note', type: 'text' },
      { header: 'Amount', type: 'money' },
    ];
    const write = async (ids?: CsvIdForm) => {
      const { out, bytes } = sink();
      const csv = createCsvWriter(out, columns, ids ? { ids } : {});
      await csv.addRow(['000123', '000123', 100]);
      await csv.addRow(['=1+1', 'n', -5]);
      await csv.addRow(['a"b', 'a"b', 1]);
      await csv.addRow(['', null, 0]);
      await csv.finish();
      return parseCsv(bytes().toString('utf8').slice(1));
    };
    expect(await write('tab')).toEqual([
      ['UTR', 'Note', 'Amount'],
      ['\t000123', '000123', '1.00'],
      // Guarded first: a reader that strips the tab still finds no formula.
      ["\t'=1+1", 'n', '-0.05'],
      ['\ta"b', 'a"b', '0.01'],
      ['', '', '0.00'],
    ]);
    // A string constant: Excel shows the identifier itself, and a quote inside stays inside the string.
    expect(await write('formula')).toEqual([
      ['UTR', 'Note', 'Amount'],
      ['="000123"', '000123', '1.00'],
      ['="\'=1+1"', 'n', '-0.05'],
      ['="a""b"', 'a"b', '0.01'],
      ['', '', '0.00'],
    ]);
    const plain = [
      ['UTR', 'Note', 'Amount'],
      ['000123', '000123', '1.00'],
      ["'=1+1", 'n', '-0.05'],
      ['a"b', 'a"b', '0.01'],
      ['', '', '0.00'],
    ];
    expect(await write('plain')).toEqual(plain);
    expect(await write()).toEqual(plain);
  });

  it('refuses values that do not fit their column, writing none of the row', async () => {
    const { out, bytes } = sink();
    const csv = createCsvWriter(out, COLUMNS);
    expect(() => csv.addRow(['a', 12.5])).toThrow(
      'CSV row 2, column "Amount": expected a safe integer of minor units, got a non-integer number',
    );
    expect(() => csv.addRow([7])).toThrow('CSV row 2, column "Order ID": expected a string, got a number');
    expect(() => csv.addRow(['a', 1, 1, '2024-13-01'])).toThrow(
      'CSV row 2, column "Date": expected a YYYY-MM-DD date, got a malformed or impossible date string',
    );
    expect(() => csv.addRow(['a', 1, 1, null, '2024-03-31T00:00:00Z'])).toThrow(/column "Settled at"/);
    expect(() => csv.addRow(['a', 1, 1, null, null, 'extra'])).toThrow('CSV row 2: 6 values for 5 columns');
    expect(() => csv.addRow(['a', 1n as unknown as number])).toThrow(ExportValueError);
    await csv.addRow(['ok', 100]);
    await csv.finish();
    expect(bytes().toString('utf8')).toBe('\ufeffOrder ID,Amount,Count,Date,Settled at\r\nok,1.00,,,\r\n');
  });

  it('waits on a slow output and writes every row in order', async () => {
    const { out, bytes } = sink({ highWaterMark: 1024, delay: true });
    const csv = createCsvWriter(out, COLUMNS);
    let waits = 0;
    for (let i = 0; i < 50_000; i++) {
      const pending = csv.addRow([`pay_${i}`, i, i, '2024-03-31', '2024-03-31 10:00:00']);
      if (pending) {
        waits++;
        await pending;
      }
    }
    await csv.finish();
    expect(waits).toBeGreaterThan(10);
    const records = parseCsv(bytes().toString('utf8').slice(1));
    expect(records).toHaveLength(50_001);
    expect(records[50_000]).toEqual(['pay_49999', '499.99', '49999', '2024-03-31', '2024-03-31 10:00:00']);
  });

  it('aborts: a pending promise rejects, the output is destroyed, later calls fail', async () => {
    const stuck = new Writable({ highWaterMark: 1024, write: () => {} });
    const csv = createCsvWriter(stuck, COLUMNS);
    let pending: Promise<void> | undefined;
    for (let i = 0; i < 1_000_000 && !pending; i++) pending = csv.addRow([`row ${i}`, i]) ?? undefined;
    expect(pending).toBeInstanceOf(Promise);
    const reason = new Error('user cancelled');
    csv.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(stuck.destroyed).toBe(true);
    expect(() => csv.addRow(['more'])).toThrow(reason);
    await expect(csv.finish()).rejects.toBe(reason);
  });
});
