/**
 * One measured run of the export bench (export.ts) in a process of its own, so that its peak RSS is its alone:
 *
 *   node --import tsx test/bench/export-child.ts '{"mode":"ceiling|xlsx|csv","cacheFile":…,"out":…,"date":…}'
 *
 *  - ceiling: a bare exceljs streaming write (stream.xlsx.WorkbookWriter) of the date's records, one sheet of the
 *    export's detail columns, each row committed as it is added; the records are read from the cache as the
 *    export reads them (same pages, same read transaction) and prepared as it prepares them (`detailRow`), so
 *    only the writer differs;
 *  - xlsx, csv: the app's export, `runExport` in its worker thread, as the app starts it.
 *
 * stdout: one JSON line `{"rows","seconds","peak_rss_mb","file_mb"}`. The peak is getrusage's maximum resident
 * set: the whole process, worker thread included, and never missed between samples.
 */
import { statSync } from 'node:fs';
import type ExcelJS from 'exceljs';
import { openCacheReader } from '../../electron/cache/database';
import { settlementPages, type ExportJob } from '../../electron/export/run-export';
import { DETAIL_COLUMNS, detailRow } from '../../electron/export/settlement-sheets';
import { spawnExportWorker } from '../../electron/export/spawn-worker';
import type { WorkerMessage } from '../../electron/export/worker-protocol';
import type { ColumnType, RowValues } from '../../electron/export/xlsx-writer';
import { formatMinor } from '../../shared/money';

export interface ChildArgs {
  mode: 'ceiling' | 'xlsx' | 'csv';
  cacheFile: string;
  out: string;
  /** The settlement date every bench record is on. */
  date: string;
}

export interface ChildResult {
  rows: number;
  seconds: number;
  peak_rss_mb: number;
  file_mb: number;
}

const NUM_FMT: Partial<Record<ColumnType, string>> = {
  money: '#,##0.00',
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm:ss',
};

/** A detail row as exceljs takes it: rupees as numbers from the exact decimal text, wall-clock times as Dates. */
function toExcelJs(values: RowValues): ExcelJS.CellValue[] {
  return values.map((value, i) => {
    if (value === null || value === undefined) return null;
    if (typeof value === 'object') throw new Error('detail rows hold plain values');
    switch (DETAIL_COLUMNS[i]!.type) {
      case 'money':
        return Number(formatMinor(value as number));
      case 'date':
        return new Date(`${value}T00:00:00Z`);
      case 'datetime':
        return new Date(`${(value as string).replace(' ', 'T')}Z`);
      default:
        return value;
    }
  });
}

async function exceljsCeiling({ cacheFile, out, date }: ChildArgs): Promise<number> {
  // Loaded only for the ceiling, so the export runs carry none of exceljs in their memory.
  const { default: Excel } = await import('exceljs');
  const book = new Excel.stream.xlsx.WorkbookWriter({ filename: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('Settlements', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = DETAIL_COLUMNS.map((c) => ({
    header: c.header,
    width: c.width ?? 20,
    style: NUM_FMT[c.type] ? { numFmt: NUM_FMT[c.type] } : {},
  }));
  const reader = openCacheReader(cacheFile);
  let rows = 0;
  try {
    await reader.snapshot(async () => {
      for await (const page of settlementPages(reader, { from: date, to: date }, false)) {
        for (const r of page) sheet.addRow(toExcelJs(detailRow(r))).commit();
        rows += page.length;
      }
    });
  } finally {
    reader.close();
  }
  sheet.commit();
  await book.commit();
  return rows;
}

async function exportInWorker({ mode, cacheFile, out, date }: ChildArgs): Promise<number> {
  const job: ExportJob = {
    request: { kind: 'settlements', format: mode === 'csv' ? 'csv' : 'xlsx', filter: { from: date, to: date } },
    cacheFile,
    file: out,
    context: {
      profileName: 'Bench',
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1',
      generatedAtIst: date + ' 00:00:00',
      appVersion: 'bench',
    },
  };
  const worker = spawnExportWorker(job);
  const end = await new Promise<WorkerMessage>((resolve, reject) => {
    worker.on('message', (m: WorkerMessage) => m.type !== 'progress' && resolve(m));
    worker.once('error', reject);
  });
  if (end.type === 'failed') throw new Error(`the export failed: ${end.error}`);
  if (end.type !== 'result' || end.result.status !== 'completed') throw new Error('the export did not complete');
  return end.result.rows;
}

const args = JSON.parse(process.argv[2]!) as ChildArgs;
const started = performance.now();
const rows = args.mode === 'ceiling' ? await exceljsCeiling(args) : await exportInWorker(args);
const result: ChildResult = {
  rows,
  seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  file_mb: Number((statSync(args.out).size / 1e6).toFixed(1)),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
