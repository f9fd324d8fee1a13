/**
 * One measured run of the export bench (export.ts) in a process of its own, so that its peak RSS is its alone:
 *
 *   node --import tsx test/bench/export-child.ts '{"mode":"ceiling|floor|xlsx|csv","cacheFile":…,"out":…,"date":…}'
 *
 *  - ceiling: exceljs's streaming writer (stream.xlsx.WorkbookWriter) used as its maintainers advise for large
 *    files: no shared strings, each row committed as it is added, and a turn of the event loop every
 *    `YIELD_EVERY` rows so committed rows reach the file instead of piling up (exceljs issues #709, #1894),
 *    deflating at our level; one sheet of the export's detail columns. The records are read from the cache as the
 *    export reads them (same pages, same read transaction) and prepared as it prepares them (`detailRow`), so
 *    only the writer differs;
 *  - floor: what any XLSX export of these rows must do, one after the other: read the same rows from SQLite
 *    (`settlementPages`, the export's reader) and deflate, at our level and in our chunks, the very XML bytes of
 *    the workbook at `out` (written by an xlsx run first; inflated into memory before the clock starts);
 *  - xlsx, csv: the app's export, `runExport` in its worker thread, as the app starts it.
 *
 * stdout: one JSON line `{"rows","seconds","cpu_seconds","peak_rss_mb","file_mb"}` (the floor adds its two parts
 * and the XML's size). The peak is getrusage's maximum resident set: the whole process, worker thread included,
 * and never missed between samples.
 */
import { readFileSync, statSync } from 'node:fs';
import { createDeflateRaw } from 'node:zlib';
import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { openCacheReader } from '../../electron/cache/database';
import { settlementPages, type ExportJob } from '../../electron/export/run-export';
import { DETAIL_COLUMNS, detailRow } from '../../electron/export/settlement-sheets';
import { spawnExportWorker } from '../../electron/export/spawn-worker';
import type { WorkerMessage } from '../../electron/export/worker-protocol';
import type { ColumnType, RowValues } from '../../electron/export/xlsx-writer';
import { DEFAULT_DEFLATE_LEVEL, DEFLATE_CHUNK_SIZE } from '../../electron/export/zip-writer';
import { formatMinor } from '../../shared/money';

export interface ChildArgs {
  mode: 'ceiling' | 'floor' | 'xlsx' | 'csv';
  cacheFile: string;
  out: string;
  /** The settlement date every bench record is on. */
  date: string;
}

export interface ChildResult {
  rows: number;
  seconds: number;
  /** User + system CPU of the whole process (worker included): steadier than wall time on a shared machine. */
  cpu_seconds: number;
  peak_rss_mb: number;
  file_mb: number;
  /** The floor's parts: reading the rows, deflating the XML. */
  read_seconds?: number;
  deflate_seconds?: number;
  xml_mb?: number;
}

/** Rows between the ceiling's yields to the event loop: often enough to keep memory flat, rarely enough to cost little. */
const YIELD_EVERY = 100;

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
  const book = new Excel.stream.xlsx.WorkbookWriter({
    filename: out,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: DEFAULT_DEFLATE_LEVEL } },
  });
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
        for (const r of page) {
          sheet.addRow(toExcelJs(detailRow(r))).commit();
          if (++rows % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        }
      }
    });
  } finally {
    reader.close();
  }
  sheet.commit();
  await book.commit();
  return rows;
}

/** The floor: the rows read as the export reads them, then the workbook's XML deflated as our ZIP writer does. */
async function floor({ cacheFile, out, date }: ChildArgs): Promise<{ rows: number; parts: Partial<ChildResult> }> {
  const zip = await JSZip.loadAsync(readFileSync(out));
  const xml: Buffer[] = [];
  for (const entry of Object.values(zip.files)) {
    const bytes = await entry.async('nodebuffer');
    for (let at = 0; at < bytes.length; at += DEFLATE_CHUNK_SIZE) xml.push(bytes.subarray(at, at + DEFLATE_CHUNK_SIZE));
  }
  const started = performance.now();
  const cpu = process.cpuUsage();
  const reader = openCacheReader(cacheFile);
  let rows = 0;
  try {
    await reader.snapshot(async () => {
      for await (const page of settlementPages(reader, { from: date, to: date }, false)) rows += page.length;
    });
  } finally {
    reader.close();
  }
  const read = performance.now();
  const deflate = createDeflateRaw({ level: DEFAULT_DEFLATE_LEVEL, chunkSize: DEFLATE_CHUNK_SIZE });
  deflate.resume();
  const done = new Promise((resolve) => deflate.on('end', resolve));
  for (const chunk of xml) if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  const seconds = (s: number) => Number((s / 1000).toFixed(2));
  return {
    rows,
    parts: {
      read_seconds: seconds(read - started),
      deflate_seconds: seconds(performance.now() - read),
      cpu_seconds: Number(((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1e6).toFixed(2)),
      xml_mb: Number((xml.reduce((n, c) => n + c.length, 0) / 1e6).toFixed(1)),
    },
  };
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
let rows: number;
let parts: Partial<ChildResult> = {};
if (args.mode === 'ceiling') rows = await exceljsCeiling(args);
else if (args.mode === 'floor') ({ rows, parts } = await floor(args));
else rows = await exportInWorker(args);
const floorSeconds = (parts.read_seconds ?? 0) + (parts.deflate_seconds ?? 0);
const result: ChildResult = {
  rows,
  // The floor's own time excludes inflating the workbook into memory, which only sets it up.
  seconds:
    args.mode === 'floor' ? Number(floorSeconds.toFixed(2)) : Number(((performance.now() - started) / 1000).toFixed(2)),
  cpu_seconds: Number(((process.resourceUsage().userCPUTime + process.resourceUsage().systemCPUTime) / 1e6).toFixed(2)),
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  file_mb: Number((statSync(args.out).size / 1e6).toFixed(1)),
  ...parts,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
