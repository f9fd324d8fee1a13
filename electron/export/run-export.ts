/**
 * Writes one export from a read-only cache connection: the settlement workbook (Summary, detail sheets continued
 * past Excel's row limit without splitting a day, Exceptions, Audit) or CSV (split into numbered files past a
 * spreadsheet's rows, with a provenance sidecar), and the beneficiary, payout-lookup and balance lists. Everything
 * is read inside one read transaction, so the sheets describe the same records even while a sync writes; the Summary
 * is the detail added up as it streams, and the export refuses to finish if that differs from the cache's own sums.
 *
 * Runs in the export worker (worker.ts) in the app, and directly in tests and benchmarks.
 */
import { basename, dirname, join, parse } from 'node:path';
import {
  SPREADSHEET_DATA_ROWS,
  type ExportProgress,
  type ExportRequest,
  type ExportResult,
} from '../../shared/exports';
import { formatDateRange, formatDdMmYyyy } from '../../shared/format';
import { RULE_IDS, type RuleId } from '../../shared/reconciliation';
import type { SettlementFilter, SettlementSort, SettlementSortColumn } from '../../shared/settlement-query';
import { openCacheReader, type CacheReader } from '../cache/database';
import { openOutputs, removeStaleParts, type Outputs } from './atomic-file';
import { createCsvWriter, type CsvWriter } from './csv-writer';
import { LIST_EXPORTS, LIST_SORT_COLUMNS, listFilterText, sortListRows } from './list-sheets';
import type { ListSortKind } from '../../shared/exports';
import {
  AUDIT_COLUMNS,
  AUDIT_SHEET,
  auditRows,
  csvProvenance,
  writeSidecarFile,
  type ExportContext,
  type Provenance,
} from './provenance';
import {
  BANK_CREDIT_COLUMNS,
  bankCreditRows,
  DETAIL_COLUMNS,
  DETAIL_PRINT,
  CHANGE_COLUMNS,
  EXCEPTION_COLUMNS,
  EXCEPTION_PRINT,
  MANIFEST_COLUMNS,
  changeRows,
  manifestRows,
  SUMMARY_COLUMNS,
  addRecord,
  createSummaryLines,
  describeFilter,
  detailRow,
  exceptionRows,
  planParts,
  recordsPerDate,
  summaryRows,
  zeroTotals,
  type DetailSheet,
  type Totals,
} from './settlement-sheets';
import {
  XLSX_MAX_ROWS,
  createXlsxWriter,
  type ColumnSpec,
  type RowValues,
  type SheetOptions,
  type XlsxWriter,
} from './xlsx-writer';

export interface ExportJob {
  request: ExportRequest;
  cacheFile: string;
  /** The final file; written under a temporary name first. */
  file: string;
  context: ExportContext;
  nativeBinding?: string;
  /** Rows per sheet and per CSV file, header included: lower only in tests of continuation sheets and split files. */
  maxRowsPerSheet?: number;
}

export class ExportCancelledError extends Error {
  override name = 'ExportCancelledError';
}

/** Detail rows read per page: bounded memory, and a turn of the event loop between pages for a cancel to arrive. */
const PAGE_ROWS = 1000;
/**
 * Records per page in filing order. A page is live while its rows are written, so every young-generation collection
 * in the worker copies it: at 1,000 records the worker's collections copied 126 MB over a 100,000-row export, at 100
 * 29 MB, and its peak RSS fell by about 30 MB (docs/performance/export-at-the-floor.md). The sorted path keeps
 * PAGE_ROWS: each of its pages is a keyset query of the grid's.
 */
const FILING_PAGE_ROWS = 100;
const PROGRESS_EVERY_MS = 200;

/** Anything that takes rows: a sheet, a CSV file. */
interface RowSink {
  addRow(values: RowValues): void | Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Progress = (p: Omit<ExportProgress, 'kind'>, force?: boolean) => void;

interface Run {
  reader: CacheReader;
  job: ExportJob;
  outputs: Outputs;
  progress: Progress;
  checkCancelled: () => void;
}

interface Written {
  rows: number;
  sheets: number;
  warning?: string;
  /** A settlement export's totals, added up from the rows written (and checked against the Summary's). */
  totals?: Totals;
}

export async function runExport(
  job: ExportJob,
  hooks: { signal?: AbortSignal; onProgress?: (p: ExportProgress) => void } = {},
): Promise<ExportResult> {
  const started = performance.now();
  const { request } = job;
  removeStaleParts(dirname(job.file));
  const reader = openCacheReader(job.cacheFile, { nativeBinding: job.nativeBinding });
  const outputs = openOutputs();
  let lastProgress = 0;
  const progress: Progress = (p, force = false) => {
    const now = performance.now();
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    hooks.onProgress?.({ kind: request.kind, ...p });
  };
  const checkCancelled = () => {
    if (hooks.signal?.aborted) throw new ExportCancelledError('The export was cancelled.');
  };
  const run: Run = { reader, job, outputs, progress, checkCancelled };
  try {
    const written = await reader.snapshot(() =>
      request.kind === 'settlements'
        ? writeSettlements(run, request.filter, request.sort, request.view)
        : writeList(run),
    );
    checkCancelled();
    const files = outputs.commit();
    progress({ phase: 'finishing', rowsWritten: written.rows, rowsTotal: written.rows }, true);
    return {
      ...result(job, 'completed', started),
      file: files[0]!,
      files,
      rows: written.rows,
      sheets: written.sheets,
      ...(written.warning ? { warning: written.warning } : {}),
      ...(written.totals ? { totals: written.totals } : {}),
    };
  } catch (e) {
    await outputs.discard();
    if (e instanceof ExportCancelledError) return result(job, 'cancelled', started);
    throw e;
  } finally {
    reader.close();
  }
}

function result(job: ExportJob, status: ExportResult['status'], started: number): ExportResult {
  return {
    kind: job.request.kind,
    format: job.request.format,
    file: null,
    files: [],
    rows: 0,
    sheets: 0,
    status,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Every settlement the filter selects in filing order (date, gateway, settlement time), or in `sort` (the grid's
 * order on screen, read by the grid's own keyset pages), a page at a time with a turn of the event loop between
 * pages (also the export bench's reader).
 */
export async function* settlementPages(
  reader: CacheReader,
  filter: SettlementFilter,
  exceptionsOnly: boolean,
  sort?: SettlementSort,
) {
  const selected = exceptionsOnly ? { ...filter, exceptionsOnly: true } : filter;
  if (sort) {
    let after: string | undefined;
    do {
      const page = reader.settlements.page({ ...selected, sort, limit: PAGE_ROWS, ...(after ? { after } : {}) });
      if (page.rows.length > 0) yield page.rows;
      after = page.nextCursor ?? undefined;
      await nextTurn();
    } while (after !== undefined);
    return;
  }
  for (const page of reader.settlements.inFilingOrder(selected, FILING_PAGE_ROWS)) {
    yield page;
    await nextTurn();
  }
}

const SORT_LABELS: Record<SettlementSortColumn, string> = {
  date: 'Settlement date asked for',
  settlement_date: 'Settled at',
  order_date: 'Order date',
  amount: 'Amount',
  mer_service_fee: 'Fee',
  mer_service_tax: 'Tax',
  settled_amount: 'Settled amount',
  pg: 'Gateway',
  payment_mode: 'Payment mode',
  order_status: 'Order status',
  pg_status: 'Gateway status',
  order_id: 'Order id',
  pg_transaction_id: 'Gateway transaction id',
  utr: 'UTR',
};

/** The rows' order in words, for the Audit sheet and a CSV's sidecar. */
function describeSort(sort: SettlementSort | undefined): string {
  if (!sort) return 'Filing order: date, gateway, settlement time';
  return `${SORT_LABELS[sort.column]}, ${sort.direction === 'asc' ? 'ascending' : 'descending'} (as on screen)`;
}

/**
 * Rows spread over parts (sheets or files) of planned sizes: `open` starts part i, `close` ends it. `addRow` stays
 * synchronous within a part, so the writers' one-promise-per-chunk pacing is kept.
 */
function partedSink<S extends RowSink>(
  parts: readonly number[],
  open: (index: number) => S,
  close: (sink: S) => Promise<void>,
) {
  let index = 0;
  let inPart = 0;
  let sink = open(0);
  const next = async (values: RowValues) => {
    await close(sink);
    index++;
    inPart = 0;
    sink = open(index);
    inPart++;
    const wait = sink.addRow(values);
    if (wait) await wait;
  };
  return {
    addRow(values: RowValues): void | Promise<void> {
      if (inPart === parts[index]) return next(values);
      inPart++;
      return sink.addRow(values);
    },
    end: () => close(sink),
  };
}

/** Parts of at most `capacity` rows each, for rows that need not stay together by date. */
function chunks(total: number, capacity: number): number[] {
  const parts: number[] = [];
  for (let left = total; left > 0; left -= capacity) parts.push(Math.min(left, capacity));
  return parts.length ? parts : [0];
}

/** `Name`, then `Name (2)`, `Name (3)`, … */
const sheetName = (name: string, index: number) => (index === 0 ? name : `${name} (${index + 1})`);

/** The data file of part `index` of `count`: the chosen name when there is one part, else `name-2-of-3.csv`. */
function partFile(file: string, index: number, count: number): string {
  if (count === 1) return file;
  const { dir, name, ext } = parse(file);
  return join(dir, `${name}-${index + 1}-of-${count}${ext}`);
}

/** The rows each CSV file takes, and the warning for one file that spreadsheets will cut short. */
function csvParts(job: ExportJob, total: number, split: (capacity: number) => number[]) {
  const capacity = job.maxRowsPerSheet === undefined ? SPREADSHEET_DATA_ROWS : job.maxRowsPerSheet - 1;
  if (job.request.csv?.oneFile !== true) return { parts: split(capacity) };
  return {
    parts: [total],
    warning:
      total > capacity
        ? `This CSV holds ${total.toLocaleString('en-IN')} rows; spreadsheets open only the first ` +
          `${capacity.toLocaleString('en-IN')} of them. Systems read it whole; ` +
          'for a spreadsheet, export split files or the Excel workbook.'
        : undefined,
  };
}

/** Writes the CSV data files of `parts` from `rows`; resolves each file's provenance line (its name and rows). */
async function writeCsv(
  run: Run,
  columns: readonly ColumnSpec[],
  parts: readonly number[],
  rows: (sink: RowSink) => Promise<void>,
): Promise<[string, string][]> {
  const { job, outputs } = run;
  const writers: CsvWriter[] = [];
  const sink = partedSink(
    parts,
    (i) => {
      const csv = createCsvWriter(outputs.open(partFile(job.file, i, parts.length)).stream, columns, {
        ids: job.request.csv?.ids,
      });
      writers.push(csv);
      return csv;
    },
    (csv) => csv.finish(),
  );
  try {
    await rows(sink);
    await sink.end();
  } catch (e) {
    for (const csv of writers) csv.abort();
    throw e;
  }
  return parts.map((count, i) => [
    parts.length === 1 ? 'File' : `File ${i + 1} of ${parts.length}`,
    `${basename(partFile(job.file, i, parts.length))} (${count.toLocaleString('en-IN')} rows)`,
  ]);
}

async function writeSidecar(run: Run, provenance: Provenance): Promise<void> {
  await writeSidecarFile(
    run.outputs,
    run.job.file,
    run.job.context,
    csvProvenance(provenance, run.job.request.csv?.ids),
  );
}

const SETTLEMENT_TOTALS: readonly [string, keyof Totals][] = [
  ['amount', 'amount'],
  ['service fee', 'fees'],
  ['service tax', 'taxes'],
  ['CGST', 'cgst'],
  ['SGST', 'sgst'],
  ['IGST', 'igst'],
  ['subvention', 'subvention'],
  ['settled amount', 'settled'],
  ['sales (amounts of 0 and more)', 'sales'],
  ['refunds', 'refunds'],
  ['chargebacks', 'chargebacks'],
];

async function writeSettlements(
  run: Run,
  filter: SettlementFilter,
  sort: SettlementSort | undefined,
  view: string | undefined,
): Promise<Written> {
  const { reader, job, outputs, progress, checkCancelled } = run;
  progress({ phase: 'counting', rowsWritten: 0, rowsTotal: null }, true);
  // The cache's groups (from its rollup where the filter allows): the rows to plan parts by, and the check.
  const cached = reader.settlements.aggregate(filter);
  const rowsTotal = cached.total.count;
  const perDate = recordsPerDate(cached.byDate);
  const written = zeroTotals();
  const lines = createSummaryLines();
  /** The Summary's lines, once every row is written; throws when they disagree with the cache's. */
  const checkedLines = () => {
    const checked = lines.linesAgainst(cached.byDate);
    if (!Array.isArray(checked)) {
      // The records are what the service sent; a total kept beside them that differs is repaired by syncing the date.
      const where = checked.group
        ? ` of ${formatDdMmYyyy(checked.group.date)} (${checked.group.pg}, ${checked.group.paymentMode})`
        : '';
      throw new Error(
        `The exported rows${where} do not add up to the cache's totals (${checked.differs}); the export was stopped. ` +
          'Sync the dates again (`cache verify` names every date that differs), then export.',
      );
    }
    return checked;
  };
  const provenance = (parts: Provenance['parts'], cutCells?: number): Provenance => ({
    what: 'Settlements',
    scope: [
      ['Date range', `${formatDateRange(filter.from, filter.to)} (settlement dates, IST)`],
      ['Filters', describeFilter(filter)],
      ...(view ? [['Saved view', view] as [string, string]] : []),
      ['Order', describeSort(sort)],
    ],
    rows: rowsTotal,
    // Called once every row was written and checked.
    totals: SETTLEMENT_TOTALS.map(([label, figure]) => [label, written[figure]]),
    parts,
    ...(cutCells === undefined ? {} : { cutCells }),
  });

  // In filing order a day never spans two parts; in another order the days are mixed, so parts are plain chunks.
  const plan = (capacity: number) => (sort ? chunks(rowsTotal, capacity) : planParts(perDate, capacity));

  /** Streams every detail row into `sink`; `onRecord` sees each record after its row was taken. */
  const stream = async (sink: RowSink, onRecord?: (r: Parameters<typeof addRecord>[1]) => void) => {
    for await (const rows of settlementPages(reader, filter, false, sort)) {
      checkCancelled();
      for (const r of rows) {
        const wait = sink.addRow(detailRow(r));
        if (wait) await wait;
        addRecord(written, r);
        lines.add(r);
        onRecord?.(r);
      }
      progress({ phase: 'writing', rowsWritten: written.count, rowsTotal });
    }
  };

  if (job.request.format === 'csv') {
    const { parts, warning } = csvParts(job, rowsTotal, plan);
    const files = await writeCsv(run, DETAIL_COLUMNS, parts, (sink) => stream(sink));
    checkedLines();
    await writeSidecar(run, provenance(files));
    return { rows: written.count, sheets: parts.length, totals: written, ...(warning ? { warning } : {}) };
  }

  const maxRows = job.maxRowsPerSheet ?? XLSX_MAX_ROWS;
  const book = createXlsxWriter(outputs.open(job.file).stream, { maxRows, firstSheet: 'Summary' });
  try {
    const detailParts = plan(maxRows - 1);
    const sheets: DetailSheet[] = [];
    const detail = partedSink(
      detailParts,
      (i) => {
        const name = sheetName('Settlements', i);
        sheets.push({ name, firstDate: null, lastDate: null, totals: zeroTotals() });
        return book.addSheet(name, DETAIL_COLUMNS, { rows: detailParts[i], print: DETAIL_PRINT });
      },
      async () => {},
    );
    await stream(detail, (r) => {
      const sheet = sheets[sheets.length - 1]!;
      // Earliest and latest, not first and last: in the on-screen order the dates are not in sequence.
      if (sheet.firstDate === null || r.date < sheet.firstDate) sheet.firstDate = r.date;
      if (sheet.lastDate === null || r.date > sheet.lastDate) sheet.lastDate = r.date;
      addRecord(sheet.totals, r);
    });
    // A record can break several rules, so exception lines can outnumber records: counted first, they continue alike.
    let exceptionLines = 0;
    const ruleCounts = Object.fromEntries(RULE_IDS.map((id) => [id, 0])) as Record<RuleId, number>;
    for await (const rows of settlementPages(reader, filter, true)) {
      for (const r of rows) {
        exceptionLines += r.exceptions.length;
        for (const e of r.exceptions) ruleCounts[e.rule]++;
      }
    }
    const exceptionParts = chunks(exceptionLines, maxRows - 1);
    const exceptions = partedSink(
      exceptionParts,
      (i) =>
        book.addSheet(sheetName('Exceptions', i), EXCEPTION_COLUMNS, {
          rows: exceptionParts[i],
          print: EXCEPTION_PRINT,
        }),
      async () => {},
    );
    for await (const rows of settlementPages(reader, filter, true)) {
      checkCancelled();
      for (const r of rows)
        for (const row of exceptionRows(r, reader.exceptions.stateOf(r)!)) await exceptions.addRow(row);
    }
    // What the syncs changed in the range, and what each date's paging saw (same read transaction as the rows).
    const changeQuery = { from: filter.from, to: filter.to, ...(filter.pg ? { pg: filter.pg } : {}) };
    let changeLines = 0;
    for (const c of reader.changes.all(changeQuery)) changeLines += Math.max(1, c.fields.length);
    const changeParts = chunks(changeLines, maxRows - 1);
    const changes = partedSink(
      changeParts,
      (i) => book.addSheet(sheetName('Changes', i), CHANGE_COLUMNS, { rows: changeParts[i] }),
      async () => {},
    );
    for (const c of reader.changes.all(changeQuery)) {
      for (const row of changeRows(c)) {
        const wait = changes.addRow(row);
        if (wait) await wait;
      }
    }
    await addSheetRows(book, 'Manifest', MANIFEST_COLUMNS, manifestRows(reader.manifests.completeness(changeQuery)));
    // Whole batches of the range and gateway: a batch is one bank credit, so the record filters do not cut it.
    const recon = reader.reconciliation;
    await addSheetRows(
      book,
      'Bank credits',
      BANK_CREDIT_COLUMNS,
      bankCreditRows(
        recon.batches(filter.from, filter.to, filter.pg ?? null),
        recon.creditsOfBatches(filter.from, filter.to),
        recon.accounts().length === 0
          ? null
          : { today: job.context.generatedAtIst.slice(0, 10), settings: recon.settings() },
      ),
      { print: 'page' },
    );
    progress({ phase: 'finishing', rowsWritten: written.count, rowsTotal }, true);
    // Checked before the file is completed: a workbook whose rows disagree with the cache is never handed over.
    const summaryLines = checkedLines();
    // Written last, once the detail is known (subtotals, cut cells); the workbook still shows it first.
    const cutCells = book.cutCells;
    await addSheetRows(
      book,
      'Summary',
      SUMMARY_COLUMNS,
      summaryRows({ groups: summaryLines, ruleCounts }, sheets, cutCells),
      {
        autoFilter: false,
        print: 'page',
      },
    );
    const detailNames = sheets.map((s) => s.name).join(', ');
    await addSheetRows(
      book,
      AUDIT_SHEET,
      AUDIT_COLUMNS,
      auditRows(job.context, provenance([['Detail sheets', detailNames]], cutCells)),
      {
        autoFilter: false,
      },
    );
    await book.finish();
    return { rows: written.count, sheets: sheets.length, totals: written, ...cutWarning(cutCells) };
  } catch (e) {
    book.abort();
    throw e;
  }
}

function cutWarning(cutCells: number): { warning?: string } {
  if (cutCells === 0) return {};
  return {
    warning:
      `${cutCells.toLocaleString('en-IN')} text ${cutCells === 1 ? 'cell was' : 'cells were'} longer than a cell ` +
      'holds and cut to fit, marked in the cell; the CSV export has the whole text.',
  };
}

/** A whole sheet of rows known up front (Summary, Audit, the lists), with its size declared. */
async function addSheetRows(
  book: XlsxWriter,
  name: string,
  columns: readonly ColumnSpec[],
  rows: readonly RowValues[],
  options: Pick<SheetOptions, 'autoFilter' | 'print'> = {},
): Promise<void> {
  const sheet = book.addSheet(name, columns, { ...options, rows: rows.length });
  for (const row of rows) {
    const wait = sheet.addRow(row);
    if (wait) await wait;
  }
}

/** Totals of every money column of a list, exact in minor units; refused past 2^53 rather than rounded. */
function listTotals(columns: readonly ColumnSpec[], rows: readonly RowValues[]): [string, number][] {
  return columns.flatMap((c, i) => {
    if (c.type !== 'money') return [];
    let sum = 0;
    for (const row of rows) {
      const v = row[i];
      if (typeof v === 'number') sum += v;
    }
    if (!Number.isSafeInteger(sum)) throw new Error(`The total of "${c.header}" is too large to add up exactly.`);
    return [[c.header.replace(/ \(INR\)$/, ''), sum]];
  });
}

async function writeList(run: Run): Promise<Written> {
  const { reader, job, outputs, progress, checkCancelled } = run;
  const spec = LIST_EXPORTS[job.request.kind as keyof typeof LIST_EXPORTS];
  progress({ phase: 'counting', rowsWritten: 0, rowsTotal: null }, true);
  // Lists are what the desk looked up, not a million settlements: read whole, so the sheet's size is declared.
  const request = job.request;
  const sort = 'sort' in request && request.kind !== 'settlements' ? request.sort : undefined;
  const sortColumn = sort && LIST_SORT_COLUMNS[request.kind as ListSortKind][sort.column as never];
  const read = [...spec.rows(reader, request)];
  const rows = sort && sortColumn !== undefined ? sortListRows(read, sortColumn, sort.direction) : read;
  const columns: readonly ColumnSpec[] = spec.columns;
  const filterText = listFilterText(request);
  const write = async (sink: RowSink) => {
    for (let i = 0; i < rows.length; i++) {
      const wait = sink.addRow(rows[i]!);
      if (wait) await wait;
      if ((i + 1) % PAGE_ROWS === 0) {
        checkCancelled();
        progress({ phase: 'writing', rowsWritten: i + 1, rowsTotal: rows.length });
        await nextTurn();
      }
    }
  };
  const provenance = (parts: Provenance['parts'], cutCells?: number): Provenance => ({
    what: spec.sheet,
    scope: [
      [
        'View',
        ((what: string) => (filterText ? `${what}, only those on screen: ${filterText}` : what))(
          typeof spec.view === 'string' ? spec.view : spec.view(request),
        ),
      ],
      ...('view' in request && request.view ? [['Saved view', request.view] as [string, string]] : []),
      [
        'Order',
        sort && sortColumn !== undefined
          ? `${columns[sortColumn]!.header}, ${sort.direction === 'asc' ? 'ascending' : 'descending'} (as on screen)`
          : "The list's own order",
      ],
    ],
    rows: rows.length,
    totals: listTotals(columns, rows),
    parts,
    ...(cutCells === undefined ? {} : { cutCells }),
  });

  if (job.request.format === 'csv') {
    const { parts, warning } = csvParts(job, rows.length, (capacity) => chunks(rows.length, capacity));
    const files = await writeCsv(run, columns, parts, write);
    await writeSidecar(run, provenance(files));
    return { rows: rows.length, sheets: parts.length, ...(warning ? { warning } : {}) };
  }
  const maxRows = job.maxRowsPerSheet ?? XLSX_MAX_ROWS;
  const book = createXlsxWriter(outputs.open(job.file).stream, { maxRows });
  try {
    const parts = chunks(rows.length, maxRows - 1);
    const sink = partedSink(
      parts,
      (i) => book.addSheet(sheetName(spec.sheet, i), columns, { rows: parts[i] }),
      async () => {},
    );
    await write(sink);
    const names = parts.map((_, i) => sheetName(spec.sheet, i)).join(', ');
    await addSheetRows(
      book,
      AUDIT_SHEET,
      AUDIT_COLUMNS,
      auditRows(job.context, provenance([['Sheets', names]], book.cutCells)),
      {
        autoFilter: false,
      },
    );
    await book.finish();
    return { rows: rows.length, sheets: parts.length, ...cutWarning(book.cutCells) };
  } catch (e) {
    book.abort();
    throw e;
  }
}
