/**
 * Streaming XLSX (SpreadsheetML) writer. Rows become XML bytes in chunks (byte-chunks.ts) handed to the ZIP writer at
 * ~64 KB, so memory does not grow with the row count (exceljs's WorkbookWriter keeps a sheet's rows until it
 * is committed). Only what exports need: typed columns, a bold frozen header with an autofilter, widths, the
 * sheet's declared size, and print setup (landscape, one page wide or sets of columns a page wide each, the header
 * repeated, a footer; `PrintLayout`).
 *
 * Cell values follow the column's type (shared with the CSV writer):
 *  - text: a string, written as an inline string; empty text writes no cell, which Excel shows the same way. Text
 *    longer than a cell holds (32,767 characters) is cut to fit and ends with a visible marker; `cutCells` counts them.
 *  - money: integer minor units, written as the exact decimal text of `formatMinor` (never float arithmetic), `#,##0.00`.
 *  - integer: a safe integer (counts), format `#,##0`.
 *  - date: `YYYY-MM-DD`; datetime: `YYYY-MM-DD HH:MM:SS` IST wall clock. Both become Excel serials of the wall clock
 *    (Excel has no time zones), formatted `yyyy-mm-dd` / `yyyy-mm-dd hh:mm:ss`.
 *  - null or undefined: no cell. A row may give `{ type, value }` to write one cell as another type.
 * A value that does not fit throws an `ExportValueError` naming the place and the kind of value, never coerced.
 */
import type { Writable } from 'node:stream';
import { formatMinor } from '../../shared/money';
import { isCalendarDate, isIstDateTime } from '../../shared/time';
import { needsInjectionGuard } from './injection';
import { ByteChunks } from './byte-chunks';
import { createZipWriter, type ZipEntryWriter } from './zip-writer';

/** Rows in one worksheet, header included. Past it the caller continues on a new sheet. */
export const XLSX_MAX_ROWS = 1_048_576;
const XLSX_MAX_COLUMNS = 16_384;
const XLSX_MAX_TEXT = 32_767;

/**
 * How a cut text ends, so a reader of the cell sees it is not the whole value: the original length, and where the
 * whole text is. The cut never splits a surrogate pair.
 */
function cutToCell(text: string): string {
  const marker = ` … [cut: ${text.length.toLocaleString('en-IN')} characters in all; the CSV export has the whole text]`;
  let end = XLSX_MAX_TEXT - marker.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + marker;
}
const FLUSH_BYTES = 64 * 1024;

export type ColumnType = 'text' | 'money' | 'integer' | 'date' | 'datetime';

export interface ColumnSpec {
  readonly header: string;
  readonly type: ColumnType;
  /** In Excel's character units; by default from the type and the header's length. */
  readonly width?: number;
  /**
   * An identifier (UTR, account number, transaction id) held as text: what an "Excel-safe" CSV protects from being
   * read as a number.
   */
  readonly identifier?: boolean;
}

/** One cell written as another type than its column's (a Summary sheet's label and value rows). */
export interface TypedCell {
  readonly type: ColumnType;
  readonly value: string | number | null | undefined;
}

export type CellValue = string | number | null | undefined | TypedCell;
export type RowValues = readonly CellValue[];

export class ExportValueError extends Error {
  override name = 'ExportValueError';
  constructor(
    /** The sheet's name; undefined for CSV. */
    readonly sheet: string | undefined,
    /** 1-based, the header being row 1: the row number Excel shows, the line number of a CSV without line breaks. */
    readonly row: number,
    readonly column: string,
    readonly kind: string,
    expected: string,
  ) {
    super(
      `${sheet === undefined ? 'CSV' : `Sheet "${sheet}"`} row ${row}, column "${column}": expected ${expected}, got ${kind}`,
    );
  }
}

const EXPECTED: Record<ColumnType, string> = {
  text: 'a string',
  money: 'a safe integer of minor units',
  integer: 'a safe integer',
  date: 'a YYYY-MM-DD date',
  datetime: 'a YYYY-MM-DD HH:MM:SS time',
};

/**
 * The canonical text of a value for a cell of `type` (what CSV writes, and what XLSX stores or converts),
 * or undefined when the value does not fit the type.
 */
export function cellText(type: ColumnType, value: string | number): string | undefined {
  switch (type) {
    case 'text':
      return typeof value === 'string' ? value : undefined;
    case 'money':
      return Number.isSafeInteger(value) ? formatMinor(value as number) : undefined;
    case 'integer':
      return Number.isSafeInteger(value) ? String(value) : undefined;
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? value : undefined;
    case 'datetime':
      return typeof value === 'string' && isIstDateTime(value) ? value : undefined;
    default:
      return undefined;
  }
}

/** A row's explicit `{ type, value }`; checked at run time, as a Date or an array must not pass for one. */
export function isTypedCell(value: object): value is TypedCell {
  return 'type' in value && 'value' in value;
}

/** The error for a value `cellText` refused, describing the value's kind but not the value (exports hold PII). */
export function invalidValue(
  sheet: string | undefined,
  row: number,
  column: string,
  type: string,
  value: unknown,
  kind = describe(type, value),
): ExportValueError {
  const expected = EXPECTED[type as ColumnType] ?? 'a cell type among text, money, integer, date, datetime';
  return new ExportValueError(sheet, row, column, kind, expected);
}

function describe(type: string, value: unknown): string {
  if (!(type in EXPECTED)) return `a cell of unknown type "${type}"`;
  switch (typeof value) {
    case 'number':
      if (Number.isNaN(value)) return 'NaN';
      if (!Number.isFinite(value)) return 'an infinite number';
      if (!Number.isInteger(value)) return 'a non-integer number';
      if (!Number.isSafeInteger(value)) return 'an integer beyond 2^53';
      return 'a number';
    case 'string':
      return type === 'date' || type === 'datetime' ? 'a malformed or impossible date string' : 'a string';
    case 'object':
      if (value instanceof Date) return 'a Date object';
      return Array.isArray(value) ? 'an array' : 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * Text as XML element content. Besides `&`, `<` and `>`:
 *  - CR becomes `&#13;`, since XML parsers turn a literal CR into LF;
 *  - characters XML 1.0 forbids (C0 controls but tab and LF, U+FFFE, U+FFFF) become Excel's `_xHHHH_` escape, which
 *    Excel and LibreOffice decode back to the character; a literal `_xHHHH_` in the text gets its `_` escaped as
 *    `_x005F_` so Excel shows it unchanged. Readers that do not decode these (exceljs) show the escape text;
 *  - an unpaired surrogate, which UTF-8 cannot encode, becomes U+FFFD.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this must find
const XML_ESCAPE = /[&<>\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]|_x[0-9a-fA-F]{4}_/gu;

function escapeXml(text: string): string {
  XML_ESCAPE.lastIndex = 0;
  if (!XML_ESCAPE.test(text)) return text;
  return text.replace(XML_ESCAPE, (match) => {
    switch (match) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '\r':
        return '&#13;';
    }
    if (match.length > 1) return '_x005F' + match;
    const code = match.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
    return `_x${code.toString(16).toUpperCase().padStart(4, '0')}_`;
  });
}

// Sheet names and the creator are not cell text: Excel does not decode `_xHHHH_` there, and they cannot hold
// controls (sheet names are checked; a creator's would be replaced).
// eslint-disable-next-line no-control-regex -- control characters are exactly what this must find
const MARKUP_ESCAPE = /[&<>"\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g;
const MARKUP_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeMarkup(text: string): string {
  return text.replace(MARKUP_ESCAPE, (c) => MARKUP_ENTITIES[c] ?? '\ufffd');
}

/**
 * `<is>` content. xml:space="preserve" only where leading or trailing whitespace needs it, as Excel writes it:
 * on every cell it made a sixth of a typical sheet's XML, all of which has to be encoded, checksummed and deflated.
 */
function inlineString(out: ByteChunks, text: string): void {
  const preserve = text.charCodeAt(0) <= 0x20 || text.charCodeAt(text.length - 1) <= 0x20;
  out.ascii(preserve ? '<is><t xml:space="preserve">' : '<is><t>');
  if (!out.plainXml(text)) out.utf8(escapeXml(text));
  out.ascii('</t></is>');
}

/** Bytes a cell takes beside its text: reference, style, type and tags, with room to spare. */
const CELL_BYTES = 96;
/**
 * UTF-8 bytes one UTF-16 code unit of text can become in the XML: `_xHHHH_` (a control character) is the longest;
 * `&amp;` takes 5, a character of the BMP 3.
 */
const BYTES_PER_TEXT_UNIT = 7;

/** An upper bound of a row's bytes, reserved before it is written so that it can be taken back whole. */
function rowBytes(values: RowValues): number {
  let bytes = 32; // <row r="…"></row>
  for (const value of values) {
    const inner = value !== null && typeof value === 'object' && isTypedCell(value) ? value.value : value;
    bytes += CELL_BYTES + (typeof inner === 'string' ? inner.length * BYTES_PER_TEXT_UNIT : 0);
  }
  return bytes;
}

function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

// Excel's 1900 date system counts days from 1899-12-30 (which absorbs its fictitious 1900-02-29): the Unix epoch is
// day 25,569. Serials before 1900-03-01 are off by that leap-year bug; exports never need them, so they are refused.
const UNIX_EPOCH_SERIAL = 25_569;
const FIRST_EXACT_DATE = '1900-03-01';
const MS_PER_DAY = 86_400_000;
const SECONDS_PER_DAY = 86_400;

function digits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/**
 * Between these serials (1989-09-17 to 2079-06-04) a double's step is 2^-37 throughout, so a time's serial is its
 * day plus a fraction that depends on the second alone: the division rounds `days + seconds / 86,400` to a multiple
 * of the step, and `days` is an even multiple of it. `String` of the serial, the shortest decimal that reads back as
 * it (a tie going by the evenness of its count of steps, also the second's alone), is then the day's digits followed
 * by the same text for every day of the range.
 */
const SAME_STEP_FROM = 2 ** 15;
const SAME_STEP_TO = 2 ** 16;
/**
 * Per second of the day, the bytes of `String` of its serial on day 2^15 after the day's five digits (`.5` at noon),
 * which follow every day of the range; filled as seconds are met. One flat table, a length byte and the text in
 * `FRACTION_STRIDE` bytes a second (a double's shortest text has at most 17 digits, so at most 12 after the point):
 * copying from it took a fifth of the time of copying from 86,400 strings, each a heap object of its own that the
 * order times, nearly all different, reached at random.
 */
const FRACTION_AT = 5;
const FRACTION_STRIDE = 16;
const fractions = new Uint8Array(SECONDS_PER_DAY * FRACTION_STRIDE);

function fillFraction(seconds: number): void {
  const text = String((SAME_STEP_FROM * SECONDS_PER_DAY + seconds) / SECONDS_PER_DAY);
  const at = seconds * FRACTION_STRIDE;
  // One more than the text's length: midnight's serial has no fraction, and 0 is a second not met yet.
  fractions[at] = 1 + text.length - FRACTION_AT;
  for (let i = FRACTION_AT; i < text.length; i++) fractions[at + 1 + i - FRACTION_AT] = text.charCodeAt(i);
}

/**
 * `String` of the Excel serial of a day and a second of it, written in place: the time of day is the fraction
 * computed in one division, so it is the double nearest the exact second. `String` of one double a row (the order
 * time differs on nearly every row) was a sixth of the time the worker spent on cells; a second's is now made once.
 */
export function writeSerial(out: ByteChunks, days: number, seconds: number): void {
  if (days < SAME_STEP_FROM || days >= SAME_STEP_TO) {
    out.ascii(String((days * SECONDS_PER_DAY + seconds) / SECONDS_PER_DAY));
    return;
  }
  const at = seconds * FRACTION_STRIDE;
  if (fractions[at] === 0) fillFraction(seconds);
  out.digits(days);
  out.copy(fractions, at + 1, at + fractions[at]!);
}

/** What `serial` gives for a value that is no date or time of its type, and for one before FIRST_EXACT_DATE. */
const NOT_A_DATE = -1;
const TOO_EARLY = -2;

/**
 * `formatMinor(minor)` written in place: the sign, the whole units, a point and two digits. Eight amounts a detail
 * row each made five short strings, most of the garbage an export's writing left.
 */
export function writeMinor(out: ByteChunks, minor: number): void {
  if (minor < 0) out.byte(0x2d);
  const abs = Math.abs(minor);
  const cents = abs % 100;
  out.digits((abs - cents) / 100);
  out.byte(0x2e);
  out.byte(0x30 + (cents - (cents % 10)) / 10);
  out.byte(0x30 + (cents % 10));
}

/** `String(n)` of a safe integer written in place. */
export function writeInteger(out: ByteChunks, n: number): void {
  if (n < 0) out.byte(0x2d);
  out.digits(Math.abs(n));
}

/**
 * The serials of the days seen, by yyyymmdd: a sheet's rows share a few days, and `Date.UTC` for each of a row's
 * four dates was a tenth of the writer's time. Bounded, as the days in one export need not be.
 */
const daySerials = new Map<number, number>();
const DAY_SERIALS_KEPT = 4096;

function daySerial(year: number, month: number, day: number): number {
  const key = year * 10_000 + month * 100 + day;
  let serial = daySerials.get(key);
  if (serial === undefined) {
    if (daySerials.size >= DAY_SERIALS_KEPT) daySerials.clear();
    serial = Date.UTC(year, month - 1, day) / MS_PER_DAY + UNIX_EPOCH_SERIAL;
    daySerials.set(key, serial);
  }
  return serial;
}

// Indexes into cellXfs in STYLES_XML.
const STYLE = { header: 1, headerGuarded: 2, guarded: 3, money: 4, integer: 5, date: 6, datetime: 7 } as const;

// A data cell is `<c r="` + its column's letters + the row's number + what follows here (the type's style).
const TEXT_CELL = '" t="inlineStr">';
const GUARDED_TEXT_CELL = `" s="${STYLE.guarded}" t="inlineStr">`;
const TEXT_CELL_END = '</c>';
const VALUE_CELL: Record<Exclude<ColumnType, 'text'>, string> = {
  money: `" s="${STYLE.money}"><v>`,
  integer: `" s="${STYLE.integer}"><v>`,
  date: `" s="${STYLE.date}"><v>`,
  datetime: `" s="${STYLE.datetime}"><v>`,
};
const VALUE_CELL_END = '</v></c>';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const STYLES_XML =
  XML_DECLARATION +
  `<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="3">' +
  '<numFmt numFmtId="164" formatCode="#,##0.00"/>' +
  '<numFmt numFmtId="165" formatCode="yyyy-mm-dd"/>' +
  '<numFmt numFmtId="166" formatCode="yyyy-mm-dd hh:mm:ss"/>' +
  '</numFmts>' +
  '<fonts count="2">' +
  '<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '</fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="8">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" quotePrefix="1"/>' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '</cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '<dxfs count="0"/><tableStyles count="0"/>' +
  '</styleSheet>';

const ROOT_RELS_XML =
  XML_DECLARATION +
  `<Relationships xmlns="${PACKAGE_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
  `<Relationship Id="rId2" Type="${PACKAGE_REL_NS}/metadata/core-properties" Target="docProps/core.xml"/>` +
  `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/>` +
  '</Relationships>';

const APP_XML =
  XML_DECLARATION +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">' +
  '<Application>Payout Console</Application></Properties>';

function coreXml(creator: string, now: Date): string {
  const when = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const who = escapeMarkup(creator);
  return (
    XML_DECLARATION +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"' +
    ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"' +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:creator>${who}</dc:creator><cp:lastModifiedBy>${who}</cp:lastModifiedBy>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

interface FinishedSheet {
  name: string;
  /** Its part, `xl/worksheets/sheetN.xml`: N is the order the sheets were written in. */
  part: number;
  /** The autofilter's range in absolute references, for its defined name; undefined without an autofilter. */
  filterRange: string | undefined;
}

/** The sheets in workbook (tab) order; the relationship ids follow the parts. */
function workbookXml(sheets: readonly FinishedSheet[]): string {
  const list = sheets.map((s, i) => `<sheet name="${escapeMarkup(s.name)}" sheetId="${i + 1}" r:id="rId${s.part}"/>`);
  const defined = (name: string, i: number, s: FinishedSheet, range: string, hidden = '') =>
    `<definedName name="${name}" localSheetId="${i}"${hidden}>` +
    `${escapeMarkup(`'${s.name.replace(/'/g, "''")}'!${range}`)}</definedName>`;
  const names = sheets.flatMap((s, i) => [
    // Excel records every autofilter as this hidden name; it writes one itself when it finds it missing.
    ...(s.filterRange === undefined ? [] : [defined('_xlnm._FilterDatabase', i, s, s.filterRange, ' hidden="1"')]),
    // The header row printed at the top of every page.
    defined('_xlnm.Print_Titles', i, s, '$1:$1'),
  ]);
  return (
    XML_DECLARATION +
    `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<bookViews><workbookView activeTab="0"/></bookViews>' +
    `<sheets>${list.join('')}</sheets>` +
    `<definedNames>${names.join('')}</definedNames>` +
    '</workbook>'
  );
}

/**
 * Print setup: A4 landscape, narrow margins, the header row repeated (`_xlnm.Print_Titles` in the workbook), and a
 * footer naming the sheet and the page.
 *  - `wide`: every column fitted to one page wide, as many pages down as the rows need. `fitToPage` in sheetPr is what
 *    makes Excel honour fitToWidth.
 *  - `page` (a short overview sheet): one page tall as well, when its rows are few enough to stay readable so
 *    (`ONE_PAGE_ROWS`).
 *  - `{ columnSets }` (a detail sheet too wide for one page at a readable size): the columns in sets of these counts,
 *    each set starting a page width of its own (a manual column break), all printed at one scale chosen so the
 *    widest set fits one page wide (`columnSetScale`). "Fit to" leaves the size to the reader, which shrinks the type
 *    to the page count (two pages wide printed the 23 settlement columns at 6.2 pt in LibreOffice): this layout sets
 *    the scale itself. Pages run down the first set, then down the next.
 */
export type PrintLayout = 'wide' | 'page' | { readonly columnSets: readonly number[] };
/** Rows of 15 pt under the header that fit one A4 landscape page between these margins at 8 pt type or more. */
export const ONE_PAGE_ROWS = 40;

/** The cells' type size (styles.xml's Calibri 11) and the smallest a column set may print at. */
const BODY_POINTS = 11;
export const MIN_PRINT_POINTS = 8;
/** What one page holds across, in pixels of 1/96 inch: A4 landscape (297 mm) less the 0.4-inch side margins. */
const PRINTABLE_PX = (297 / 25.4 - 0.8) * 96;
/**
 * Pixels per unit of column width (a width counts digits of the default font, padding included). Excel draws Calibri
 * 11's digit 7 px wide; LibreOffice measures Carlito, Calibri's metric twin, unrounded: 7.43 px. The wider, so a set
 * sized for one fits a page in both.
 */
const PX_PER_WIDTH = 7.5;

/**
 * The print scale (per cent) at which every column set fits one page wide: at most 100, and refused below the
 * scale that prints the cells at `MIN_PRINT_POINTS`, naming the set too wide for it.
 */
export function columnSetScale(columns: readonly ColumnSpec[], sets: readonly number[]): number {
  if (!sets.every((n) => Number.isInteger(n) && n > 0) || sets.reduce((a, n) => a + n, 0) !== columns.length) {
    throw new RangeError(`columnSets must be positive counts adding up to the ${columns.length} columns`);
  }
  let scale = 100;
  let first = 0;
  for (const count of sets) {
    const set = columns.slice(first, first + count);
    const px = set.reduce((sum, c) => sum + columnWidth(c) * PX_PER_WIDTH, 0);
    const fits = Math.floor((100 * PRINTABLE_PX) / px);
    if ((fits * BODY_POINTS) / 100 < MIN_PRINT_POINTS) {
      throw new RangeError(
        `The columns "${set[0]!.header}" to "${set.at(-1)!.header}" are too wide for one page at ${MIN_PRINT_POINTS} pt`,
      );
    }
    scale = Math.min(scale, fits);
    first += count;
  }
  return scale;
}

function printSetup(layout: PrintLayout, columns: readonly ColumnSpec[], rows: number): string {
  const common =
    '<printOptions gridLines="1"/>' +
    '<pageMargins left="0.4" right="0.4" top="0.5" bottom="0.6" header="0.3" footer="0.3"/>';
  const footer = '<headerFooter><oddFooter>&amp;L&amp;A&amp;RPage &amp;P of &amp;N</oddFooter></headerFooter>';
  if (typeof layout === 'object') {
    const scale = columnSetScale(columns, layout.columnSets);
    // A break's id is the zero-based index of the first column of the next page width.
    let start = 0;
    const starts = layout.columnSets.slice(0, -1).map((n) => (start += n));
    const breaks = starts.map((id) => `<brk id="${id}" max="${XLSX_MAX_ROWS - 1}" man="1"/>`).join('');
    return (
      common +
      `<pageSetup paperSize="9" scale="${scale}" pageOrder="downThenOver" orientation="landscape"/>` +
      footer +
      (starts.length
        ? `<colBreaks count="${starts.length}" manualBreakCount="${starts.length}">${breaks}</colBreaks>`
        : '')
    );
  }
  const tall = layout === 'page' && rows <= ONE_PAGE_ROWS ? 1 : 0;
  return common + `<pageSetup paperSize="9" orientation="landscape" fitToWidth="1" fitToHeight="${tall}"/>` + footer;
}

function workbookRelsXml(count: number): string {
  let rels = '';
  for (let i = 1; i <= count; i++) {
    rels += `<Relationship Id="rId${i}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i}.xml"/>`;
  }
  rels += `<Relationship Id="rId${count + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>`;
  return XML_DECLARATION + `<Relationships xmlns="${PACKAGE_REL_NS}">${rels}</Relationships>`;
}

function contentTypesXml(count: number): string {
  const type = (name: string) => `application/vnd.openxmlformats-officedocument.${name}+xml`;
  let overrides = `<Override PartName="/xl/workbook.xml" ContentType="${type('spreadsheetml.sheet.main')}"/>`;
  for (let i = 1; i <= count; i++) {
    overrides += `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="${type('spreadsheetml.worksheet')}"/>`;
  }
  overrides +=
    `<Override PartName="/xl/styles.xml" ContentType="${type('spreadsheetml.styles')}"/>` +
    '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
    `<Override PartName="/docProps/app.xml" ContentType="${type('extended-properties')}"/>`;
  return (
    XML_DECLARATION +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    overrides +
    '</Types>'
  );
}

const DEFAULT_WIDTH: Record<ColumnType, number> = { text: 20, money: 16, integer: 12, date: 12, datetime: 20 };
const MAX_DEFAULT_WIDTH = 60;

function columnWidth(column: ColumnSpec): number {
  if (column.width !== undefined) return column.width;
  // +3 leaves room for the bold face and the autofilter's drop-down button.
  return Math.min(MAX_DEFAULT_WIDTH, Math.max(DEFAULT_WIDTH[column.type], column.header.length + 3));
}

const FORBIDDEN_IN_SHEET_NAME = /[[\]:*?/\\\p{Cc}]/u;

function checkSheetName(name: string, taken: ReadonlySet<string>): void {
  const problem =
    name.length === 0
      ? 'is empty'
      : name.length > 31
        ? 'is longer than 31 characters'
        : FORBIDDEN_IN_SHEET_NAME.test(name)
          ? 'contains one of [ ] : * ? / \\ or a control character'
          : name.startsWith("'") || name.endsWith("'")
            ? 'starts or ends with an apostrophe'
            : taken.has(name.toLowerCase())
              ? 'is already used (sheet names are compared without case)'
              : undefined;
  if (problem) throw new RangeError(`Sheet name "${name}" ${problem}`);
}

export interface SheetOptions {
  /**
   * The data rows the sheet will hold (the header not counted), declared for its `<dimension>`, which streaming
   * readers size the sheet by; the sheet refuses to end with any other count. Without it no dimension is written.
   */
  rows?: number;
  /** Keep the header row in view while scrolling. Default true. */
  freezeHeader?: boolean;
  /** Filter buttons on the header, over every written row. Default true. */
  autoFilter?: boolean;
  /** Default 'bold'. */
  headerStyle?: 'bold' | 'plain';
  /** How it prints (`PrintLayout`). Default 'wide'. */
  print?: PrintLayout;
}

export interface SheetWriter {
  readonly name: string;
  /** Data rows written so far (the header not counted). */
  readonly rowCount: number;
  /** Data rows this sheet can still take before the row limit; at 0, continue on a new sheet. */
  readonly remaining: number;
  /** Text cells cut to fit so far. */
  readonly cutCells: number;
  /**
   * Adds a row. Returns a promise only when it has handed a ~64 KB chunk to compression (letting it run) or output
   * is backed up; await it before the next row. `const p = sheet.addRow(r); if (p) await p;` saves a microtask per
   * row. Rows added without awaiting are kept, only in memory. Throws `ExportValueError` for a value that does not
   * fit, without writing any of the row.
   */
  addRow(values: RowValues): void | Promise<void>;
}

export interface XlsxWriter {
  /** Text cells cut to fit, in every sheet so far. */
  readonly cutCells: number;
  /** Starts the next sheet; the previous one is finished and takes no more rows. */
  addSheet(name: string, columns: readonly ColumnSpec[], options?: SheetOptions): SheetWriter;
  /** Completes the workbook, ends `out` and resolves once it has closed. */
  finish(): Promise<void>;
  /** Stops writing and destroys `out` (the partial file is the caller's to remove); pending promises reject. */
  abort(reason?: Error): void;
}

export interface XlsxOptions {
  /** The document's author. Default "Payout Console". */
  creator?: string;
  /** Created time in the document properties and the ZIP entries. */
  now?: Date;
  /** Rows per sheet, header included; a lower limit is for tests. Default and maximum `XLSX_MAX_ROWS`. */
  maxRows?: number;
  /**
   * The sheet shown first (and opened on), whenever it is written: a Summary written last, once the detail it sums
   * up is known, still leads the workbook. Default: the first sheet added.
   */
  firstSheet?: string;
}

export function createXlsxWriter(out: Writable, options: XlsxOptions = {}): XlsxWriter {
  const now = options.now ?? new Date();
  const maxRows = options.maxRows ?? XLSX_MAX_ROWS;
  if (!Number.isInteger(maxRows) || maxRows < 2 || maxRows > XLSX_MAX_ROWS) {
    throw new RangeError(`maxRows must be an integer from 2 to ${XLSX_MAX_ROWS}`);
  }
  const zip = createZipWriter(out, { now });
  const taken = new Set<string>();
  const finishedSheets: FinishedSheet[] = [];
  let current: Sheet | undefined;
  let sheetCount = 0;
  let cutCells = 0;
  const { firstSheet } = options;
  let state: 'open' | 'finishing' | 'aborted' = 'open';

  // Zip work happens in this order, one step after another: an entry must end before the next starts.
  let tail: Promise<void> = Promise.resolve();
  function then(step: () => Promise<void>): Promise<void> {
    const next = tail.then(step);
    tail = next;
    // A failure reaches callers through the promises they await; this only stops an unawaited one being reported.
    next.catch(() => {});
    return next;
  }

  // `.rels` first: file(1) and other sniffers recognise an OOXML package by its first entry.
  then(async () => {
    await zip.addFile('_rels/.rels', ROOT_RELS_XML);
    await zip.addFile('docProps/core.xml', coreXml(options.creator ?? 'Payout Console', now));
    await zip.addFile('docProps/app.xml', APP_XML);
    await zip.addFile('xl/styles.xml', STYLES_XML);
  });

  function checkOpen(): void {
    if (state === 'aborted') throw new Error('the XLSX export was aborted');
    if (state === 'finishing') throw new Error('the XLSX workbook is already finished');
  }

  class Sheet implements SheetWriter {
    rowCount = 0;
    cutCells = 0;
    closed = false;
    private entry: ZipEntryWriter | undefined;
    private readonly bytes = new ByteChunks(FLUSH_BYTES);
    /** Set while output cannot take more: the entry is not open yet, or the deflater is full. */
    private waiting: Promise<void> | undefined;
    private readonly types: ColumnType[];
    private readonly letters: string[];
    /** `<c r="` and each column's letters: the start of its cells. */
    private readonly refs: string[];
    /** Per column, the last date or datetime text written, its type, its day's serial and its second (`serial`). */
    private readonly lastText: (string | undefined)[] = [];
    private readonly lastType: (ColumnType | undefined)[] = [];
    private readonly lastDays: number[] = [];
    private readonly lastSeconds: number[] = [];

    constructor(
      readonly name: string,
      private readonly columns: readonly ColumnSpec[],
      private readonly options: SheetOptions,
      private readonly index: number,
    ) {
      this.types = columns.map((c) => c.type);
      this.letters = columns.map((_, i) => columnLetters(i));
      this.refs = this.letters.map((letters) => `<c r="${letters}`);
      this.writeHead(firstSheet === undefined ? index === 0 : name === firstSheet);
      this.wait(
        then(async () => {
          this.entry = zip.entry(`xl/worksheets/sheet${index + 1}.xml`);
        }),
      );
    }

    get remaining(): number {
      return maxRows - 1 - this.rowCount;
    }

    private wait(promise: Promise<void>): Promise<void> {
      const waiting = promise.then(() => {
        if (this.waiting === waiting) this.waiting = undefined;
      });
      waiting.catch(() => {});
      this.waiting = waiting;
      return waiting;
    }

    /** Markup (the sheet's head and end), as UTF-8. */
    private text(xml: string): void {
      this.bytes.reserve(xml.length * 3);
      this.bytes.utf8(xml);
    }

    private writeHead(selected: boolean): void {
      const { freezeHeader = true, headerStyle = 'bold' } = this.options;
      const pane = freezeHeader
        ? '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
          '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>'
        : '';
      const cols = this.columns
        .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${columnWidth(c)}" customWidth="1"/>`)
        .join('');
      const { rows } = this.options;
      const dimension =
        rows === undefined ? '' : `<dimension ref="A1:${this.letters[this.letters.length - 1]}${rows + 1}"/>`;
      this.text(
        XML_DECLARATION +
          `<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
          // A scaled layout must not say fitToPage: it selects "fit to", under which the scale is not used.
          (typeof this.options.print === 'object' ? '' : '<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>') +
          dimension +
          `<sheetViews><sheetView workbookViewId="0"${selected ? ' tabSelected="1"' : ''}>${pane}</sheetView></sheetViews>` +
          '<sheetFormatPr defaultRowHeight="15"/>' +
          `<cols>${cols}</cols>` +
          '<sheetData><row r="1">',
      );
      const bold = headerStyle === 'bold';
      this.bytes.reserve(rowBytes(this.columns.map((c) => c.header)));
      this.columns.forEach((c, i) => {
        if (c.header === '') return;
        const guarded = needsInjectionGuard(c.header);
        const style = bold ? (guarded ? STYLE.headerGuarded : STYLE.header) : guarded ? STYLE.guarded : 0;
        this.bytes.utf8(`${this.refs[i]}1"${style ? ` s="${style}"` : ''} t="inlineStr">`);
        inlineString(this.bytes, c.header);
        this.bytes.ascii('</c>');
      });
      this.bytes.ascii('</row>');
    }

    addRow(values: RowValues): void | Promise<void> {
      checkOpen();
      if (this.closed) throw new Error(`Sheet "${this.name}" is finished: a later sheet was added`);
      const r = this.rowCount + 2;
      if (r > maxRows) {
        throw new RangeError(
          `Sheet "${this.name}" is full: a worksheet holds ${maxRows} rows; continue on a new sheet`,
        );
      }
      if (values.length > this.types.length) {
        throw new RangeError(`Sheet "${this.name}" row ${r}: ${values.length} values for ${this.types.length} columns`);
      }
      const out = this.bytes;
      out.reserve(rowBytes(values));
      const rowStart = out.pos;
      out.ascii('<row r="');
      // The row's number is written once and copied into each cell's reference.
      const numberStart = out.pos;
      out.digits(r);
      const numberEnd = out.pos;
      out.ascii('">');
      let cut = 0;
      for (let i = 0; i < values.length; i++) {
        let value = values[i];
        if (value === null || value === undefined) continue;
        let type = this.types[i]!;
        if (typeof value === 'object') {
          if (!isTypedCell(value)) throw this.refuse(rowStart, r, i, type, value);
          type = value.type;
          value = value.value;
          if (value === null || value === undefined) continue;
        }
        // Each case checks the value as `cellText` does (the CSV's text) and writes it without making that text.
        switch (type) {
          case 'text': {
            if (typeof value !== 'string') throw this.refuse(rowStart, r, i, type, value);
            if (value === '') continue;
            const fitted = value.length > XLSX_MAX_TEXT ? cutToCell(value) : value;
            if (fitted !== value) cut++;
            out.ascii(this.refs[i]!);
            out.again(numberStart, numberEnd);
            out.ascii(needsInjectionGuard(fitted) ? GUARDED_TEXT_CELL : TEXT_CELL);
            inlineString(out, fitted);
            out.ascii(TEXT_CELL_END);
            continue;
          }
          case 'money':
          case 'integer':
            if (!Number.isSafeInteger(value)) throw this.refuse(rowStart, r, i, type, value);
            out.ascii(this.refs[i]!);
            out.again(numberStart, numberEnd);
            out.ascii(VALUE_CELL[type]);
            if (type === 'money') writeMinor(out, value as number);
            else writeInteger(out, value as number);
            out.ascii(VALUE_CELL_END);
            continue;
          case 'date':
          case 'datetime': {
            const seconds = this.serial(i, type, value);
            if (seconds === NOT_A_DATE) throw this.refuse(rowStart, r, i, type, value);
            if (seconds === TOO_EARLY) {
              throw this.refuse(rowStart, r, i, type, value, `a date before ${FIRST_EXACT_DATE}`);
            }
            out.ascii(this.refs[i]!);
            out.again(numberStart, numberEnd);
            out.ascii(VALUE_CELL[type]);
            writeSerial(out, this.lastDays[i]!, seconds);
            out.ascii(VALUE_CELL_END);
            continue;
          }
          default:
            throw this.refuse(rowStart, r, i, type, value);
        }
      }
      out.ascii('</row>');
      this.rowCount++;
      this.cutCells += cut;
      cutCells += cut;
      if (out.ready()) return this.flush();
    }

    /** Takes the row begun at `rowStart` back whole, and gives the error that reports the value. */
    private refuse(rowStart: number, r: number, i: number, type: string, value: unknown, kind?: string) {
      this.bytes.rewind(rowStart);
      return invalidValue(this.name, r, this.columns[i]!.header, type, value, kind);
    }

    /**
     * The second of the day of a date or datetime cell (0 for a date), its day's serial left in `lastDays`;
     * NOT_A_DATE when the value is not one (`cellText`), or TOO_EARLY. The column's last text is kept with them: rows
     * in filing order share their date and their batch's settlement time, which are then checked and read once a
     * run of rows rather than once a row.
     */
    private serial(i: number, type: 'date' | 'datetime', value: string | number): number {
      if (value === this.lastText[i] && type === this.lastType[i]) return this.lastSeconds[i]!;
      const text = cellText(type, value);
      if (text === undefined) return NOT_A_DATE;
      if (text < FIRST_EXACT_DATE) return TOO_EARLY;
      const seconds =
        text.length === 10 ? 0 : digits(text, 11, 2) * 3600 + digits(text, 14, 2) * 60 + digits(text, 17, 2);
      this.lastText[i] = text;
      this.lastType[i] = type;
      this.lastDays[i] = daySerial(digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2));
      this.lastSeconds[i] = seconds;
      return seconds;
    }

    private flush(): void | Promise<void> {
      if (this.waiting) return this.waiting;
      return this.wait(this.entry!.write(this.bytes.take()));
    }

    /** Ends the sheet's XML and its ZIP entry; runs in the zip order, after the entry was opened. */
    async close(): Promise<FinishedSheet> {
      while (this.waiting) await this.waiting;
      const declared = this.options.rows;
      if (declared !== undefined && declared !== this.rowCount) {
        throw new Error(`Sheet "${this.name}" was declared with ${declared} rows but holds ${this.rowCount}`);
      }
      const lastColumn = this.letters[this.letters.length - 1]!;
      const filterRange = this.options.autoFilter === false ? undefined : `$A$1:$${lastColumn}$${this.rowCount + 1}`;
      this.text(
        '</sheetData>' +
          (filterRange === undefined ? '' : `<autoFilter ref="A1:${lastColumn}${this.rowCount + 1}"/>`) +
          printSetup(this.options.print ?? 'wide', this.columns, this.rowCount) +
          '</worksheet>',
      );
      await this.entry!.write(this.bytes.takeAll());
      await this.entry!.end();
      return { name: this.name, part: this.index + 1, filterRange };
    }
  }

  /** Marks the current sheet closed at once (no more rows) and queues writing its end. */
  function closeCurrent(): void {
    const sheet = current;
    if (!sheet) return;
    sheet.closed = true;
    then(async () => {
      const finished = await sheet.close();
      if (finished.name === firstSheet) finishedSheets.unshift(finished);
      else finishedSheets.push(finished);
    });
  }

  return {
    get cutCells() {
      return cutCells;
    },
    addSheet(name, columns, sheetOptions = {}) {
      checkOpen();
      checkSheetName(name, taken);
      if (columns.length === 0 || columns.length > XLSX_MAX_COLUMNS) {
        throw new RangeError(`Sheet "${name}" needs 1 to ${XLSX_MAX_COLUMNS} columns, got ${columns.length}`);
      }
      for (const c of columns) {
        if (!(c.type in DEFAULT_WIDTH)) {
          throw new RangeError(`Sheet "${name}" column "${c.header}": unknown type "${c.type}"`);
        }
        if (c.width !== undefined && !(c.width > 0 && c.width <= 255)) {
          throw new RangeError(`Sheet "${name}" column "${c.header}": width must be above 0 and at most 255`);
        }
        if (c.header.length > XLSX_MAX_TEXT) {
          throw new RangeError(`Sheet "${name}": a header is longer than 32,767 characters`);
        }
      }
      // A column set too wide to print readably is the caller's mistake: refused before any row is written.
      if (typeof sheetOptions.print === 'object') columnSetScale(columns, sheetOptions.print.columnSets);
      const { rows } = sheetOptions;
      if (rows !== undefined && !(Number.isSafeInteger(rows) && rows >= 0 && rows <= maxRows - 1)) {
        throw new RangeError(`Sheet "${name}": rows must be an integer from 0 to ${maxRows - 1}`);
      }
      taken.add(name.toLowerCase());
      closeCurrent();
      current = new Sheet(name, columns, sheetOptions, sheetCount++);
      return current;
    },
    async finish() {
      checkOpen();
      if (!current) throw new Error('an XLSX workbook needs at least one sheet');
      state = 'finishing';
      closeCurrent();
      await then(async () => {
        await zip.addFile('xl/workbook.xml', workbookXml(finishedSheets));
        await zip.addFile('xl/_rels/workbook.xml.rels', workbookRelsXml(finishedSheets.length));
        await zip.addFile('[Content_Types].xml', contentTypesXml(finishedSheets.length));
        await zip.finish();
      });
    },
    abort(reason = new Error('the XLSX export was aborted')) {
      if (state === 'aborted') return;
      state = 'aborted';
      zip.abort(reason);
    },
  };
}
