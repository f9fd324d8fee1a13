/**
 * Opening a profile's cache of the big data set (dataset.ts) and showing its first rows, against the target:
 *  - `open.first_rows`: opening the file (its check at open, settings, migrations) and reading the first page of 500
 *    rows over the 90 days (< 500 ms), each in a fresh process-level open of a copy the earlier groups did not
 *    touch;
 *  - beside it, the check of the settlement records that now runs after open in a worker thread, and SQLite's full
 *    quick check of the same file on one connection: what the open used to wait for.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openCache } from '../../electron/cache/database';
import { scratchDir } from './records';
import { DATASET_FROM, DATASET_ROWS, DATASET_TO, datasetCopy } from './dataset';
import type { Bench } from './run';

const FIRST_ROWS_TARGET_MS = 500;
const round = (ms: number) => Number(ms.toFixed(1));

export const openBenches: Bench = {
  group: 'open',
  defaultRows: DATASET_ROWS,
  async *run({ rows }) {
    const scratch = scratchDir();
    const file = join(scratch.dir, 'open.sqlite');
    try {
      datasetCopy(rows, file);
      const start = performance.now();
      const cache = openCache(file);
      const openedMs = performance.now() - start;
      const page = cache.settlements.query({ from: DATASET_FROM, to: DATASET_TO, limit: 500 });
      const firstRowsMs = performance.now() - start;
      const checkStart = performance.now();
      const check = await cache.checkAfterOpen();
      const checkMs = performance.now() - checkStart;
      cache.close();

      const whole = new Database(file, { readonly: true });
      const wholeStart = performance.now();
      whole.pragma('quick_check');
      const wholeMs = performance.now() - wholeStart;
      whole.close();

      yield {
        bench: 'open.first_rows',
        rows,
        ms: round(firstRowsMs),
        open_ms: round(openedMs),
        rows_shown: page.rows.length,
        target_ms: FIRST_ROWS_TARGET_MS,
        pass: firstRowsMs < FIRST_ROWS_TARGET_MS && page.rows.length > 0,
        check_after_open_ms: round(checkMs),
        check_after_open: check.status,
        whole_file_quick_check_ms: round(wholeMs),
      };
    } finally {
      scratch.remove();
    }
  },
};
