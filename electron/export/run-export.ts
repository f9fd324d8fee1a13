/**
 * Writes one export from a read-only cache connection to a file: the settlement workbook (Summary, detail
 * sheets continued past Excel's row limit, Exceptions) or CSV, and the beneficiary, payout-lookup and balance
 * lists. Everything is read inside one read transaction, so the Summary describes exactly the detail rows even
 * while a sync writes; the export also adds the detail up as it streams and refuses to finish if the two differ.
 *
 * Runs in the export worker (worker.ts) in the app, and directly in tests and benchmarks.
 */
import type { ExportProgress, ExportRequest, ExportResult } from '../../shared/exports';
import type { SettlementFilter } from '../../shared/settlement-query';
import { openCacheReader, type CacheReader } from '../cache/database';
import { openAtomicFile, type AtomicFile } from './atomic-file';
import { createCsvWriter } from './csv-writer';
import { LIST_EXPORTS } from './list-sheets';
import {
  DETAIL_COLUMNS,
  EXCEPTION_COLUMNS,
  SUMMARY_COLUMNS,
  addRecord,
  detailRow,
  exceptionRows,
  firstDifference,
  grandTotal,
  summaryRows,
  zeroTotals,
  type ExportContext,
  type Totals,
} from './settlement-sheets';
import {
  XLSX_MAX_ROWS,
  createXlsxWriter,
  type ColumnSpec,
  type RowValues,
  type SheetWriter,
  type XlsxWriter,
} from './xlsx-writer';

export interface ExportJob {
  request: ExportRequest;
  cacheFile: string;
  /** The final file; written under a temporary name first. */
  file: string;
  context: ExportContext;
  nativeBinding?: string;
  /** Rows per sheet, header included: lower only in tests of the continuation sheets. */
  maxRowsPerSheet?: number;
}

export class ExportCancelledError extends Error {
  override name = 'ExportCancelledError';
}

/** Detail rows read per page: bounded memory, and a turn of the event loop between pages for a cancel to arrive. */
const PAGE_ROWS = 1000;
const PROGRESS_EVERY_MS = 200;

/** Anything that takes rows: a sheet, a CSV file. */
interface RowSink {
  addRow(values: RowValues): void | Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runExport(
  job: ExportJob,
  hooks: { signal?: AbortSignal; onProgress?: (p: ExportProgress) => void } = {},
): Promise<ExportResult> {
  const started = performance.now();
  const { request } = job;
  const reader = openCacheReader(job.cacheFile, { nativeBinding: job.nativeBinding });
  let target: AtomicFile;
  try {
    target = openAtomicFile(job.file);
  } catch (e) {
    // A folder that cannot be made: nothing was written, but the cache must not stay open.
    reader.close();
    throw e;
  }
  let lastProgress = 0;
  const progress = (p: Omit<ExportProgress, 'kind'>, force = false) => {
    const now = performance.now();
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    hooks.onProgress?.({ kind: request.kind, ...p });
  };
  const checkCancelled = () => {
    if (hooks.signal?.aborted) throw new ExportCancelledError('The export was cancelled.');
  };
  try {
    const { rows, sheets, totals } = await reader.snapshot(() =>
      request.kind === 'settlements'
        ? writeSettlements(reader, job, request.filter, target, progress, checkCancelled)
        : writeList(reader, job, target, progress, checkCancelled),
    );
    checkCancelled();
    target.commit();
    progress({ phase: 'finishing', rowsWritten: rows, rowsTotal: rows }, true);
    return result(job, 'completed', started, { file: job.file, rows, sheets, totals });
  } catch (e) {
    target.discard();
    if (e instanceof ExportCancelledError) return result(job, 'cancelled', started, {});
    throw e;
  } finally {
    reader.close();
  }
}

function result(
  job: ExportJob,
  status: ExportResult['status'],
  started: number,
  done: { file?: string; rows?: number; sheets?: number; totals?: Totals | null },
): ExportResult {
  return {
    ...(done.totals ? { totals: done.totals } : {}),
    kind: job.request.kind,
    format: job.request.format,
    file: done.file ?? null,
    rows: done.rows ?? 0,
    sheets: done.sheets ?? 0,
    status,
    seconds: (performance.now() - started) / 1000,
  };
}

type Progress = (p: Omit<ExportProgress, 'kind'>, force?: boolean) => void;

/** Every settlement the filter selects, oldest first, a page at a time (also the export bench's reader). */
export async function* settlementPages(reader: CacheReader, filter: SettlementFilter, exceptionsOnly: boolean) {
  let after: string | undefined;
  do {
    const page = reader.settlements.page({
      ...filter,
      ...(exceptionsOnly ? { exceptionsOnly: true } : {}),
      sort: { column: 'date', direction: 'asc' },
      limit: PAGE_ROWS,
      after,
    });
    yield page.rows;
    after = page.nextCursor ?? undefined;
    await nextTurn();
  } while (after !== undefined);
}

async function writeSettlements(
  reader: CacheReader,
  job: ExportJob,
  filter: SettlementFilter,
  target: AtomicFile,
  progress: Progress,
  checkCancelled: () => void,
): Promise<{ rows: number; sheets: number; totals: Totals | null }> {
  progress({ phase: 'counting', rowsWritten: 0, rowsTotal: null }, true);
  const summary = reader.settlements.workbookSummary(filter);
  const expected = grandTotal(summary.groups);
  const rowsTotal = expected.count;
  const written = zeroTotals();

  const stream = async (sink: () => RowSink) => {
    for await (const rows of settlementPages(reader, filter, false)) {
      checkCancelled();
      for (const r of rows) {
        const wait = sink().addRow(detailRow(r));
        if (wait) await wait;
        addRecord(written, r);
      }
      progress({ phase: 'writing', rowsWritten: written.count, rowsTotal });
    }
  };

  let sheets = 1;
  if (job.request.format === 'csv') {
    const csv = createCsvWriter(target.stream, DETAIL_COLUMNS);
    try {
      await stream(() => csv);
      await csv.finish();
    } catch (e) {
      csv.abort();
      throw e;
    }
  } else {
    const maxRows = job.maxRowsPerSheet ?? XLSX_MAX_ROWS;
    const book = createXlsxWriter(target.stream, { maxRows });
    try {
      sheets = Math.max(1, Math.ceil(rowsTotal / (maxRows - 1)));
      const sheet = book.addSheet('Summary', SUMMARY_COLUMNS, { autoFilter: false });
      for (const row of summaryRows(summary, filter, job.context, sheets)) await sheet.addRow(row);
      const detail = continuedSheet(book, 'Settlements', DETAIL_COLUMNS);
      await stream(detail.next);
      // A record can break several rules, so exception lines can outnumber records: they continue alike.
      const exceptions = continuedSheet(book, 'Exceptions', EXCEPTION_COLUMNS);
      for await (const rows of settlementPages(reader, filter, true)) {
        checkCancelled();
        for (const r of rows) for (const row of exceptionRows(r)) await exceptions.next().addRow(row);
      }
      progress({ phase: 'finishing', rowsWritten: written.count, rowsTotal }, true);
      // Checked before the file is completed: a workbook whose Summary disagrees with its rows is never handed over.
      assertAgrees(written, expected);
      await book.finish();
      return { rows: written.count, sheets: detail.sheets(), totals: written };
    } catch (e) {
      book.abort();
      throw e;
    }
  }
  assertAgrees(written, expected);
  return { rows: written.count, sheets, totals: written };
}

/** A sheet that goes on as `Name (2)`, `Name (3)`, … at the row limit; `next` is the sheet with room for a row. */
function continuedSheet(book: XlsxWriter, name: string, columns: readonly ColumnSpec[]) {
  let sheet = book.addSheet(name, columns);
  let count = 1;
  return {
    next(): SheetWriter {
      if (sheet.remaining === 0) sheet = book.addSheet(`${name} (${++count})`, columns);
      return sheet;
    },
    sheets: () => count,
  };
}

function assertAgrees(written: ReturnType<typeof zeroTotals>, expected: ReturnType<typeof zeroTotals>): void {
  const differs = firstDifference(written, expected);
  if (differs !== null) {
    throw new Error(
      `The exported rows do not add up to the cache's totals (${differs}); the export was stopped. Try again.`,
    );
  }
}

async function writeList(
  reader: CacheReader,
  job: ExportJob,
  target: AtomicFile,
  progress: Progress,
  checkCancelled: () => void,
): Promise<{ rows: number; sheets: number; totals: null }> {
  const spec = LIST_EXPORTS[job.request.kind as keyof typeof LIST_EXPORTS];
  progress({ phase: 'writing', rowsWritten: 0, rowsTotal: null }, true);
  let rows = 0;
  const write = async (sink: RowSink) => {
    for (const row of spec.rows(reader)) {
      const wait = sink.addRow(row);
      if (wait) await wait;
      if (++rows % PAGE_ROWS === 0) {
        checkCancelled();
        progress({ phase: 'writing', rowsWritten: rows, rowsTotal: null });
        await nextTurn();
      }
    }
  };
  const columns: readonly ColumnSpec[] = spec.columns;
  if (job.request.format === 'csv') {
    const csv = createCsvWriter(target.stream, columns);
    try {
      await write(csv);
      await csv.finish();
    } catch (e) {
      csv.abort();
      throw e;
    }
  } else {
    const book = createXlsxWriter(target.stream, { maxRows: job.maxRowsPerSheet });
    try {
      await write(book.addSheet(spec.sheet, columns));
      await book.finish();
    } catch (e) {
      book.abort();
      throw e;
    }
  }
  return { rows, sheets: 1, totals: null };
}
