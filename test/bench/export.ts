/**
 * Settlement export against exceljs's streaming writer and against the floor of the work, in the same run:
 *  - `ceiling.exceljs_stream`: exceljs's stream.xlsx.WorkbookWriter writing the detail sheet alone as its
 *    maintainers advise for large files (rows committed, the event loop given turns, our deflate level), from the
 *    same cache reads and the same prepared values (export-child.ts);
 *  - `export.xlsx`: the app's export as the app runs it, `runExport` in its worker thread: Summary, Settlements,
 *    Exceptions and Audit; `ratio_to_ceiling` and `ratio_to_floor` compare its seconds with both lines, and
 *    `cpu_ratio_to_…` its CPU seconds;
 *  - `floor.read_and_deflate`: reading the same rows from SQLite plus deflating the XML of that very workbook at
 *    our level, one after the other: what is physically required of any XLSX export of them;
 *  - `export.csv`: the same records as CSV.
 * Every run is a process of its own, so each peak RSS (the process's maximum resident set, worker included) is
 * that run's alone; `baseline_rss_mb` is the same export of no records (Node, tsx in both threads, the modules),
 * so what the rows add shows beside it. The records are the sandbox's, all on one date, in a cache built before
 * the runs; sizes 100,000 and `rows` (1,000,000 by default; `--rows` is the largest size run).
 * Targets: the XLSX export within 1.3x the ceiling's seconds, and under 250 MB at any size (the ceiling keeps
 * every row of its sheet in memory until the sheet is committed, so it grows with the rows); and within 1.5x the
 * floor in CPU for what the rows cost (`rows_cpu_ratio_to_floor`): the run's CPU less the baseline's (the process
 * and tsx in both threads, about 3 s, which the floor's own figure, taken after its set-up, leaves out too).
 * `cpu_ratio_to_floor` beside it is the whole process's CPU against the floor's, as measured before.
 *
 * That ratio divides a difference of two CPU figures by a third, each of a few seconds, so one run of each moved it
 * by more than the code does (1.4 to 2.5 in one session). The XLSX export, its baseline and its floor are therefore
 * each run ROUNDS times, one of each in turn so that a change of load falls on all three alike; the line reports
 * each figure's median (peak RSS: the largest) and the ratio of every round (`rows_cpu_ratio_to_floor_rounds`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCache } from '../../electron/cache/database';
import { addDays } from '../../shared/time';
import { BENCH_DATE, ingest, recordPages, scratchDir } from './records';
import type { ChildArgs, ChildResult } from './export-child';
import type { Bench } from './run';

const TARGET_RATIO = 1.3;
const TARGET_FLOOR_RATIO = 1.5;
const RSS_TARGET_MB = 250;
const SMALL = 100_000;
/** Runs of the XLSX export, its baseline and its floor, each: the median of five ignores two disturbed runs. */
const ROUNDS = 5;
/** Sized so the group takes a few minutes on two busy cores; `--rows 1000000` for the full size. */
const DEFAULT_ROWS = 300_000;
const CHILD = fileURLToPath(new URL('./export-child.ts', import.meta.url));

function measure(args: ChildArgs): ChildResult {
  const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`export bench child (${args.mode}) exited with ${child.status}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ChildResult;
}

/** The median of each figure over a few runs of one mode, and the largest peak RSS: a run's memory is not noise. */
function medianResult(runs: ChildResult[]): ChildResult {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const result: ChildResult = { ...runs[0]! };
  for (const key of Object.keys(result) as (keyof ChildResult)[]) {
    result[key] = key === 'peak_rss_mb' ? Math.max(...runs.map((r) => r[key])) : median(runs.map((r) => r[key]!));
  }
  return result;
}

export const exportBenches: Bench = {
  group: 'export',
  defaultRows: DEFAULT_ROWS,
  async *run({ rows: largest }) {
    for (const rows of new Set([Math.min(SMALL, largest), largest])) {
      const scratch = scratchDir();
      try {
        const cacheFile = join(scratch.dir, 'cache.sqlite');
        const cache = openCache(cacheFile);
        ingest(cache, recordPages(rows));
        cache.close();
        const out = (mode: ChildArgs['mode']) => join(scratch.dir, `${mode}.${mode === 'csv' ? 'csv' : 'xlsx'}`);
        const run = (mode: ChildArgs['mode'], date = BENCH_DATE) => measure({ mode, cacheFile, out: out(mode), date });
        /** An export of no records through the same worker: its peak RSS and CPU, what a run costs before any row. */
        const baselineOf = (mode: 'xlsx' | 'csv') => run(mode, addDays(BENCH_DATE, 1));
        const ratio = (a: number, b: number) => Number((a / b).toFixed(3));

        const ceiling = run('ceiling');
        yield { bench: 'ceiling.exceljs_stream', ...ceiling };

        // Round by round: the baseline, the export, then the floor, which deflates the XML of the workbook the
        // export just wrote (in a process of its own).
        const rounds = Array.from({ length: ROUNDS }, () => {
          const baseline = baselineOf('xlsx');
          const result = run('xlsx');
          if (result.rows !== rows) throw new Error(`export.xlsx wrote ${result.rows} of ${rows} rows`);
          return { baseline, result, floor: measure({ mode: 'floor', cacheFile, out: out('xlsx'), date: BENCH_DATE }) };
        });
        const baseline = medianResult(rounds.map((r) => r.baseline));
        const result = medianResult(rounds.map((r) => r.result));
        const floor = medianResult(rounds.map((r) => r.floor));
        const rowsCpu = Number((result.cpu_seconds - baseline.cpu_seconds).toFixed(2));
        const rowsToFloor = ratio(rowsCpu, floor.cpu_seconds);
        const toCeiling = ratio(result.seconds, ceiling.seconds);
        yield {
          bench: 'export.xlsx',
          ...result,
          rounds: ROUNDS,
          baseline_rss_mb: baseline.peak_rss_mb,
          baseline_cpu_seconds: baseline.cpu_seconds,
          rows_cpu_seconds: rowsCpu,
          ceiling: 'ceiling.exceljs_stream',
          ratio_to_ceiling: toCeiling,
          target_ratio: TARGET_RATIO,
          floor: 'floor.read_and_deflate',
          ratio_to_floor: ratio(result.seconds, floor.seconds),
          // CPU seconds: the work done, less swayed than wall time by other processes on a shared machine.
          cpu_ratio_to_ceiling: ratio(result.cpu_seconds, ceiling.cpu_seconds),
          cpu_ratio_to_floor: ratio(result.cpu_seconds, floor.cpu_seconds),
          rows_cpu_ratio_to_floor: rowsToFloor,
          rows_cpu_ratio_to_floor_rounds: rounds.map((r) =>
            ratio(r.result.cpu_seconds - r.baseline.cpu_seconds, r.floor.cpu_seconds),
          ),
          target_rows_cpu_ratio_to_floor: TARGET_FLOOR_RATIO,
          target_peak_rss_mb: RSS_TARGET_MB,
          pass: toCeiling <= TARGET_RATIO && rowsToFloor <= TARGET_FLOOR_RATIO && result.peak_rss_mb <= RSS_TARGET_MB,
        };
        yield { bench: 'floor.read_and_deflate', rounds: ROUNDS, ...floor };

        const baselineCsv = baselineOf('csv');
        const csv = run('csv');
        if (csv.rows !== rows) throw new Error(`export.csv wrote ${csv.rows} of ${rows} rows`);
        yield {
          bench: 'export.csv',
          ...csv,
          baseline_rss_mb: baselineCsv.peak_rss_mb,
          ceiling: 'ceiling.exceljs_stream',
          ratio_to_ceiling: ratio(csv.seconds, ceiling.seconds),
          cpu_ratio_to_ceiling: ratio(csv.cpu_seconds, ceiling.cpu_seconds),
          target_peak_rss_mb: RSS_TARGET_MB,
          pass: csv.peak_rss_mb <= RSS_TARGET_MB,
        };
      } finally {
        scratch.remove();
      }
    }
  },
};
