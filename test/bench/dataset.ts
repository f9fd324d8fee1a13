/**
 * The benchmarks' big cache: `rows` sandbox records spread evenly over 90 days (2,000,000 by default, the issue's
 * size), as a desk that syncs a quarter would hold it. The cache group builds it while it measures the ingest and
 * leaves the file here; the find, open and recon groups of the same run open a copy instead of ingesting 2,000,000
 * rows again. Each group runs in a process of its own (run.ts), so the file lives in a folder the run's first
 * process makes and removes (`DATASETS_ENV`); a process started alone keeps its own, removed when it exits.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_FILE_SUFFIXES, openCache, type Cache } from '../../electron/cache/database';
import type { SettlementRecord } from '../../shared/api/settlements';
import { addDays } from '../../shared/time';
import { MAX_PER_DAY } from '../../electron/sandbox/data/settlements';
import { BENCH_DATE, ingestDates, recordPages, scratchDir } from './records';

export const DATASET_DAYS = 90;
/** Rows of the find, open and ui groups when `--rows` is not given. */
export const DATASET_ROWS = 2_000_000;
export const DATASET_TO = '2025-03-31';
export const DATASET_FROM = addDays(DATASET_TO, -(DATASET_DAYS - 1));

/** Each date of the data set, oldest first, with its pages: `rows` in all, as even as whole rows allow. */
export function datasetDays(rows: number): [date: string, pages: Iterable<SettlementRecord[]>][] {
  const perDay = Math.ceil(rows / DATASET_DAYS);
  return Array.from({ length: DATASET_DAYS }, (_, i) => {
    const date = addDays(DATASET_FROM, i);
    const count = Math.max(0, Math.min(perDay, rows - i * perDay));
    return [date, recordPages(count, date, perDay)];
  });
}

/** A sync as a desk runs it (issue 33): 29 days of 20,000 records, the sandbox's own batches at that size. */
export const SYNC_DAYS = 29;
export const SYNC_PER_DAY = 20_000;

/** The sync-shaped data set's days up to `DATASET_TO`: `rows` in all (29 x 20,000 at most), as even as whole rows allow. */
export function syncDays(rows: number): [date: string, pages: Iterable<SettlementRecord[]>][] {
  const perDay = Math.min(SYNC_PER_DAY, Math.ceil(rows / SYNC_DAYS));
  return Array.from({ length: SYNC_DAYS }, (_, i) => {
    const date = addDays(DATASET_TO, i - (SYNC_DAYS - 1));
    const count = Math.max(0, Math.min(perDay, rows - i * perDay));
    return [date, recordPages(count, date, perDay)];
  });
}

/**
 * The UI bench's big set: the sandbox's most a day (1,000,000) on each date from BENCH_DATE, the query group's worst
 * case; 2,000,000 rows are two such dates, with a few batches of 125,000-250,000 records.
 */
export function fullDays(rows: number): [date: string, pages: Iterable<SettlementRecord[]>][] {
  return Array.from({ length: Math.ceil(rows / MAX_PER_DAY) }, (_, i) => {
    const onDate = Math.min(MAX_PER_DAY, rows - i * MAX_PER_DAY);
    return [addDays(BENCH_DATE, i), recordPages(onDate, addDays(BENCH_DATE, i), onDate)];
  });
}

/**
 * The shapes a data set comes in: the benchmarks' quarter (the default), a user's month of syncs, or full dates.
 */
const SHAPES = { quarter: datasetDays, sync: syncDays, full: fullDays } as const;
export type DatasetShape = keyof typeof SHAPES;

/** The folder of the run's data sets, named by the process that runs the groups (run.ts). */
export const DATASETS_ENV = 'PAYOUT_BENCH_DATASETS';

let scratch: ReturnType<typeof scratchDir> | undefined;

function datasetsFolder(): string {
  const shared = process.env[DATASETS_ENV];
  if (shared) return shared;
  if (!scratch) {
    scratch = scratchDir();
    const s = scratch;
    process.once('exit', () => s.remove());
  }
  return scratch.dir;
}

/** Where a data set of `rows` is to be kept, for `registerDataset` once it is written and closed. */
export function datasetFile(rows: number, shape: DatasetShape = 'quarter'): string {
  return join(datasetsFolder(), shape === 'quarter' ? `dataset-${rows}.sqlite` : `dataset-${shape}-${rows}.sqlite`);
}

/** A data set's file is whole once this mark is beside it: a group that failed while writing leaves none. */
const readyMark = (rows: number, shape: DatasetShape) => `${datasetFile(rows, shape)}.ready`;

/** Records that the data set of `rows` is written and closed. */
export function registerDataset(rows: number, shape: DatasetShape = 'quarter'): void {
  writeFileSync(readyMark(rows, shape), '');
}

/**
 * A copy of the data set of `rows`, built now unless an earlier group of this run left one: a group may write
 * to its copy (the app's own open does) without changing what the next group measures.
 */
export function datasetCopy(rows: number, to: string, shape: DatasetShape = 'quarter'): void {
  mkdirSync(dirname(to), { recursive: true });
  const file = datasetFile(rows, shape);
  if (!existsSync(readyMark(rows, shape))) {
    // What a failed build left would add to the rows, not replace them.
    for (const suffix of CACHE_FILE_SUFFIXES) rmSync(file + suffix, { force: true });
    const cache: Cache = openCache(file);
    try {
      ingestDates(cache, SHAPES[shape](rows));
    } finally {
      cache.close();
    }
    registerDataset(rows, shape);
  }
  copyFileSync(file, to);
}
