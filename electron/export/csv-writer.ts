/**
 * Streaming CSV writer with the XLSX writer's columns and value rules: UTF-8 with a BOM (so Excel reads it as UTF-8),
 * RFC 4180 quoting, CRLF line ends, the header first. Money is the exact decimal text of `formatMinor` without
 * grouping; dates and times are their own text. Text is kept whole, however long.
 *
 * Formula injection: `guardCsvText` puts an apostrophe before anything that could start a formula, at the start
 * of a value or after any common separator inside it, as OWASP recommends. A CSV cannot carry a cell style, so
 * unlike XLSX the apostrophe stays visible in the data; that is the price of a file that cannot run a formula in
 * whatever spreadsheet opens it, whichever separator it splits on. Money and integers are numbers, never prefixed.
 *
 * Control characters: C0 controls other than tab, LF and CR (NUL, escape, …) and DEL have no meaning in a CSV
 * field and break tools that read one, so they are removed; an unpaired surrogate, which UTF-8 cannot carry,
 * becomes U+FFFD.
 *
 * Excel-safe CSV (`ids`): a spreadsheet opening a CSV guesses each field's type, so a UTR or account number made
 * of digits becomes a number (leading zeros lost, past 15 digits rounded). With `tab` every identifier column's
 * value starts with a tab, which Excel and LibreOffice keep as text and which is no formula, but which stays in the
 * cell (a VLOOKUP against it needs CLEAN()). With `formula` it is written `="…"`: Excel and LibreOffice show
 * exactly the identifier, and the formula is a string constant that can run nothing. Either way the value is
 * guarded first, so a tool that strips the tab or the formula still sees no formula. Systems should read the plain
 * CSV, whose identifiers are exactly the service's.
 */
import { finished, type Writable } from 'node:stream';
import type { CsvIdForm } from '../../shared/exports';
import { createFailureLatch } from './failure-latch';
import { guardCsvText } from './injection';
import { cellText, invalidValue, isTypedCell, type ColumnSpec, type ColumnType, type RowValues } from './xlsx-writer';

const FLUSH_CHARS = 64 * 1024;
const NEEDS_QUOTES = /[",\r\n]/;

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CONTROL =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this must find
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function textField(text: string, ids: CsvIdForm = 'plain'): string {
  const clean = text.replace(CONTROL, (c) => (c.length === 1 && c.charCodeAt(0) >= 0xd800 ? '\ufffd' : ''));
  const guarded = guardCsvText(clean);
  if (guarded === '' || ids === 'plain') return field(guarded);
  return field(ids === 'tab' ? `\t${guarded}` : `="${guarded.replace(/"/g, '""')}"`);
}

export interface CsvOptions {
  /** How identifier columns are written for a spreadsheet (shared/exports.ts `CSV_ID_FORMS`). Default plain. */
  ids?: CsvIdForm;
}

export interface CsvWriter {
  /** Data rows written so far (the header not counted). */
  readonly rowCount: number;
  /**
   * Adds a row. Returns a promise only when output is backed up; await it before the next row
   * (`const p = csv.addRow(r); if (p) await p;` saves a microtask per row). Throws `ExportValueError` for a value
   * that does not fit, without writing any of the row.
   */
  addRow(values: RowValues): void | Promise<void>;
  /** Writes what is buffered, ends `out` and resolves once it has closed. */
  finish(): Promise<void>;
  /** Stops writing and destroys `out` (the partial file is the caller's to remove); pending promises reject. */
  abort(reason?: Error): void;
}

export function createCsvWriter(out: Writable, columns: readonly ColumnSpec[], options: CsvOptions = {}): CsvWriter {
  if (columns.length === 0) throw new RangeError('a CSV export needs at least one column');
  const types: ColumnType[] = columns.map((c) => c.type);
  const idForms = columns.map((c): CsvIdForm => (c.identifier === true ? (options.ids ?? 'plain') : 'plain'));
  let buffer = '\ufeff' + columns.map((c) => textField(c.header)).join(',') + '\r\n';
  let rowCount = 0;
  let state: 'open' | 'finishing' | 'done' = 'open';
  let waiting: Promise<void> | undefined;
  const latch = createFailureLatch(() => out.destroy());
  const { until } = latch;

  function fail(error: Error): void {
    if (state !== 'done') latch.fail(error);
  }
  // Stays for the stream's life: an 'error' with no listener would crash the process.
  out.on('error', fail);

  function flush(): void | Promise<void> {
    if (waiting) return waiting;
    const chunk = Buffer.from(buffer, 'utf8');
    buffer = '';
    if (out.write(chunk)) return;
    const drained = until((done) => {
      out.once('drain', done);
      return () => out.off('drain', done);
    }).then(() => {
      waiting = undefined;
    });
    drained.catch(() => {});
    waiting = drained;
    return drained;
  }

  function check(): void {
    if (latch.failure) throw latch.failure;
    if (state !== 'open') throw new Error('the CSV export is already finished');
  }

  return {
    get rowCount() {
      return rowCount;
    },
    addRow(values) {
      check();
      const r = rowCount + 2;
      if (values.length > types.length) {
        throw new RangeError(`CSV row ${r}: ${values.length} values for ${types.length} columns`);
      }
      let line = '';
      for (let i = 0; i < types.length; i++) {
        if (i > 0) line += ',';
        let value = values[i];
        if (value === null || value === undefined) continue;
        let type = types[i]!;
        if (typeof value === 'object') {
          if (!isTypedCell(value)) throw invalidValue(undefined, r, columns[i]!.header, type, value);
          type = value.type;
          value = value.value;
          if (value === null || value === undefined) continue;
        }
        const text = cellText(type, value);
        if (text === undefined) throw invalidValue(undefined, r, columns[i]!.header, type, value);
        line += type === 'text' ? textField(text, idForms[i]) : text;
      }
      buffer += line + '\r\n';
      rowCount++;
      if (buffer.length >= FLUSH_CHARS) return flush();
    },
    async finish() {
      check();
      state = 'finishing';
      while (waiting) await waiting;
      const closed = until((done) => finished(out, (error) => (error ? fail(error) : done())));
      out.end(Buffer.from(buffer, 'utf8'));
      buffer = '';
      await closed;
      state = 'done';
    },
    abort(reason = new Error('the CSV export was aborted')) {
      fail(reason);
    },
  };
}
