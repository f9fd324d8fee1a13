/**
 * The benchmarks' big cache: `rows` sandbox records spread evenly over 90 days (2,000,000 by default, the issue's
 * size), as a desk that syncs a quarter would hold it. The cache group builds it while it measures the ingest and
 * leaves the file here; the find, open and ui groups of the same run open that file instead of ingesting 2,000,000
 * rows again. It lives in a scratch folder removed when the process exits.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCache, type Cache } from '../../electron/cache/database';
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

const built = new Map<number, string>();
let scratch: ReturnType<typeof scratchDir> | undefined;

function scratchFolder(): string {
  if (!scratch) {
    scratch = scratchDir();
    const s = scratch;
    process.once('exit', () => s.remove());
  }
  return scratch.dir;
}

/** Where a data set of `rows` is to be kept, for `register` once it is written and closed. */
export function datasetFile(rows: number): string {
  return join(scratchFolder(), `dataset-${rows}.sqlite`);
}

/** Records that `file` (closed) holds the data set of `rows`. */
export function registerDataset(rows: number, file: string): void {
  built.set(rows, file);
}

/**
 * A copy of the data set of `rows`, built now unless an earlier group of this run left one: a group may write
 * to its copy (the app's own open does) without changing what the next group measures.
 */
export function datasetCopy(rows: number, to: string): void {
  let file = built.get(rows);
  if (!file) {
    file = datasetFile(rows);
    const cache: Cache = openCache(file);
    try {
      ingestDates(cache, datasetDays(rows));
    } finally {
      cache.close();
    }
    registerDataset(rows, file);
  }
  copyFileSync(file, to);
}
