/**
 * The benchmarks' big cache: `rows` sandbox records spread evenly over 90 days (2,000,000 by default, the issue's
 * size), as a desk that syncs a quarter would hold it. The cache group builds it while it measures the ingest and
 * leaves the file here; the find, open and recon groups of the same run open a copy instead of ingesting 2,000,000
 * rows again. Each group runs in a process of its own (run.ts), so the file lives in a folder the run's first
 * process makes and removes (`DATASETS_ENV`); a process started alone keeps its own, removed when it exits.
 */
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_FILE_SUFFIXES, openCache, type Cache } from '../../electron/cache/database';
import type { SettlementRecord } from '../../shared/api/settlements';
import { addDays } from '../../shared/time';
import { ingestDates, recordPages, scratchDir } from './cache';

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
export function datasetFile(rows: number): string {
  return join(datasetsFolder(), `dataset-${rows}.sqlite`);
}

/** A data set's file is whole once this mark is beside it: a group that failed while writing leaves none. */
const readyMark = (rows: number) => `${datasetFile(rows)}.ready`;

/** Records that the data set of `rows` is written and closed. */
export function registerDataset(rows: number): void {
  writeFileSync(readyMark(rows), '');
}

/**
 * A copy of the data set of `rows`, built now unless an earlier group of this run left one: a group may write
 * to its copy (the app's own open does) without changing what the next group measures.
 */
export function datasetCopy(rows: number, to: string): void {
  const file = datasetFile(rows);
  if (!existsSync(readyMark(rows))) {
    // What a failed build left would add to the rows, not replace them.
    for (const suffix of CACHE_FILE_SUFFIXES) rmSync(file + suffix, { force: true });
    const cache: Cache = openCache(file);
    try {
      ingestDates(cache, datasetDays(rows));
    } finally {
      cache.close();
    }
    registerDataset(rows);
  }
  copyFileSync(file, to);
}
