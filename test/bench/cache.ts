/**
 * The cache's ingest against the bare SQLite ceiling, in the same run on the same records:
 *  - `ceiling.sqlite_insert`: one prepared INSERT of the same columns, bound the same way, into a table
 *    with no index and no key, in transactions of one page (1000 rows), with the cache's journal settings
 *    (WAL, synchronous=NORMAL, the same checkpoint interval), so only schema, keys and work differ;
 *  - `cache.ingest`: the cache's real path (schema, indexes, rollup, reconciliation, natural-key index,
 *    checkpoint per page, then closing the date: digests and the cross-date rule); beside it the time of the
 *    search keys and of the sort keys the sync writes when its run ends, the ratios with them, and the file's size
 *    per million rows with and without them;
 *  - `cache.sort_keys_off_main`: the newest dates' sort keys written again on main alone and as the app writes them
 *    (sorted in a worker thread): main's busy time and longest block each way;
 *  - `cache.verify`: the recompute a re-sync's close pays, and the checks of settlement-verify.ts (verifyFigures).
 * The records are the sandbox's over 90 days (`rows` of them, the data set of dataset.ts), generated page by page
 * outside the timed sections; each page goes to both, one after the other, so both rates see the machine in the
 * same state. Target: the cache keeps at least 60% of the ceiling's rate. The cache file is kept for the groups
 * after this one.
 */
import { monitorEventLoopDelay, performance as nodePerformance } from 'node:perf_hooks';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { WAL_CHECKPOINT_PAGES, openCache, type Cache } from '../../electron/cache/database';
import { ROW_COLUMNS, fieldValues } from '../../electron/cache/settlement-rows';
import { RECENT_DATES } from '../../electron/cache/settlement-verify';
import type { SettlementRecord } from '../../shared/api/settlements';
import { DATASET_DAYS, DATASET_ROWS, datasetDays, datasetFile, registerDataset } from './dataset';
import { BENCH_DATE, ingestDates, recordPages, scratchDir } from './records';
import type { Bench } from './run';

const TARGET_RATIO = 0.6;
/** A bare table of the cache's columns and a prepared INSERT binding them like the cache does. */
function bareTable(file: string) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // The cache's own columns but its rowid: the bare table lets SQLite number the rows.
  const columns = ROW_COLUMNS.filter((c) => c !== 'id');
  db.exec(`CREATE TABLE bare (${columns.join(', ')})`);
  const insert = db.prepare(`INSERT INTO bare VALUES (${columns.map(() => '?').join(', ')})`);
  const write = db.transaction((page: SettlementRecord[]) => {
    for (const r of page)
      insert.run(BENCH_DATE, r.pg, r.pg_transaction_id, r.settlement_date, ...fieldValues(r), 0, null, 1);
  });
  return { write, close: () => db.close() };
}

/** Dates whose sort keys `cache.sort_keys_off_main` writes again each way: the newest of the data set. */
const OFF_MAIN_DATES = 10;

/**
 * `cache.sort_keys_off_main`: the newest dates' sort keys written again each way, one date after the other with a
 * turn of the event loop between: on main alone (sortKeys.writeAll, the CLI's way), then as the app writes them
 * (Cache.writeSortKeys: sorted in a worker thread, each date's lists written by main). The wall time, main's busy time
 * and main's longest block (what an IPC request from another screen may wait), each way.
 */
async function sortKeysOffMain(cache: Cache, rows: number) {
  const dates = cache.db
    .prepare('SELECT date FROM settlement_sorted_days ORDER BY date DESC LIMIT ?')
    .pluck()
    .all(OFF_MAIN_DATES) as string[];
  const measured = async (write: () => Promise<unknown>) => {
    // Nothing is being sorted meanwhile, so the dates are taken off by hand.
    const takeOff = cache.db.prepare('DELETE FROM settlement_sorted_days WHERE date = ?');
    for (const date of dates) takeOff.run(date);
    const blocks = monitorEventLoopDelay({ resolution: 1 });
    const busy = nodePerformance.eventLoopUtilization();
    const t = performance.now();
    blocks.enable();
    await write();
    blocks.disable();
    return {
      wall_ms: Math.round(performance.now() - t),
      main_busy_ms: Math.round(nodePerformance.eventLoopUtilization(busy).active),
      main_longest_block_ms: Math.round(blocks.max / 1e6),
    };
  };
  const onMain = await measured(() => cache.settlements.sortKeys.writeAll());
  const offMain = await measured(async () => {
    await cache.writeSortKeys();
    await cache.stopSortKeys();
  });
  return { bench: 'cache.sort_keys_off_main', rows, dates: dates.length, on_main: onMain, off_main: offMain };
}

let ceilingMemo: { rows: number; rowsPerSec: number } | undefined;

/** Times the bare INSERT of each page; the result is kept for the sync group of the same run. */
function bareCeiling(rows: number, file: string) {
  const bare = bareTable(file);
  let ms = 0;
  return {
    write(page: SettlementRecord[]) {
      const t = performance.now();
      bare.write(page);
      ms += performance.now() - t;
    },
    done(): number {
      bare.close();
      ceilingMemo = { rows, rowsPerSec: rows / (ms / 1000) };
      return ceilingMemo.rowsPerSec;
    },
  };
}

/** The bare INSERT rate: the one measured by the cache group in this run, else measured now. */
export function sqliteCeiling(rows: number): number {
  if (ceilingMemo?.rows === rows) return ceilingMemo.rowsPerSec;
  const scratch = scratchDir();
  try {
    const ceiling = bareCeiling(rows, join(scratch.dir, 'bare.sqlite'));
    for (const page of recordPages(rows)) ceiling.write(page);
    return ceiling.done();
  } finally {
    scratch.remove();
  }
}

/** Bytes of some tables, read from SQLite's own page accounting. */
function tableBytes(cache: Cache, tables: string[]): number {
  return cache.db
    .prepare(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN (SELECT value FROM json_each(?))`)
    .pluck()
    .get(JSON.stringify(tables)) as number;
}

/**
 * `cache.verify`: what holding the cache against itself costs on the data set just written (settlement-verify.ts):
 * the recompute of one date's rollup and batches from its rows that a re-sync's close pays (every date once, in its own
 * transaction as a close is; mean and slowest), the check of the newest dates the Settlements screen asks for, and
 * `cache verify` over every date. No target: figures beside the ingest they follow.
 */
async function verifyFigures(cache: Cache, rows: number) {
  const { verifier } = cache.settlements;
  const dates = verifier.dates();
  const recomputes = dates.map((date) => {
    const t = performance.now();
    cache.db.transaction(() => verifier.recomputeDate(date))();
    return performance.now() - t;
  });
  const timedCheck = async (checked: string[]) => {
    const t = performance.now();
    const found = await verifier.verify(checked);
    if (found.mismatches.length > 0) throw new Error(`the data set does not verify: ${found.mismatches[0]!.message}`);
    return Number((performance.now() - t).toFixed(1));
  };
  const ms = (v: number) => Number(v.toFixed(1));
  return {
    bench: 'cache.verify',
    rows,
    days: dates.length,
    rows_per_date: Math.round(rows / dates.length),
    recompute_date_ms: ms(recomputes.reduce((a, b) => a + b, 0) / recomputes.length),
    recompute_date_max_ms: ms(Math.max(...recomputes)),
    recent_dates: RECENT_DATES,
    verify_recent_ms: await timedCheck(dates.slice(-RECENT_DATES)),
    verify_all_s: Number(((await timedCheck(dates)) / 1000).toFixed(2)),
  };
}

export const cacheBenches: Bench = {
  group: 'cache',
  defaultRows: DATASET_ROWS,
  async *run({ rows }) {
    const scratch = scratchDir();
    const file = datasetFile(rows);
    const cache = openCache(file);
    let kept = false;
    try {
      // Page by page, the bare INSERT then the cache, so both see the same machine at the same moment.
      const bare = bareCeiling(rows, join(scratch.dir, 'bare.sqlite'));
      const { ms, keysMs, sortKeysMs } = ingestDates(cache, datasetDays(rows), (page) => bare.write(page));
      const ceiling = bare.done();
      yield { bench: 'ceiling.sqlite_insert', rows, rows_per_s: Math.round(ceiling), rows_per_transaction: 1000 };
      const rate = rows / (ms / 1000);
      const bytes = cache.sizeBytes();
      // Search keys (migration 7) and sort keys (migration 26's blocks) with their marks (migration 16).
      const searchBytes = tableBytes(cache, ['settlement_keys', 'settlement_keyed_days']);
      const markBytes = tableBytes(cache, ['settlement_sort_mark_lists', 'settlement_sort_classes']);
      const sortBytes =
        tableBytes(cache, [
          'settlement_sort_blocks',
          'sqlite_autoindex_settlement_sort_blocks_1',
          'settlement_sorted_days',
        ]) + markBytes;
      const perMillion = (b: number) => Number(((b / 1e6) * (1e6 / rows)).toFixed(1));
      yield {
        bench: 'cache.ingest',
        rows,
        days: DATASET_DAYS,
        rows_per_s: Math.round(rate),
        ceiling: 'ceiling.sqlite_insert',
        ceiling_rows_per_s: Math.round(ceiling),
        ratio: Number((rate / ceiling).toFixed(3)),
        target_ratio: TARGET_RATIO,
        pass: rate / ceiling >= TARGET_RATIO,
        // The search keys, written after the pages: shown with the ingest they follow, and the ratio of both together.
        search_keys_s: Number((keysMs / 1000).toFixed(2)),
        ratio_with_search_keys: Number((rows / ((ms + keysMs) / 1000) / ceiling).toFixed(3)),
        // The sort keys, written after the search keys, on this thread (the app sorts them in a worker thread:
        // cache.sort_keys_off_main).
        sort_keys_s: Number((sortKeysMs / 1000).toFixed(2)),
        ratio_with_search_and_sort_keys: Number((rows / ((ms + keysMs + sortKeysMs) / 1000) / ceiling).toFixed(3)),
        file_mb: Math.round(bytes / 1e6),
        // Without a kind of keys, the file is what it was before them: nothing else changed in its layout.
        mb_per_million_rows: perMillion(bytes),
        mb_per_million_rows_without_sort_keys: perMillion(bytes - sortBytes),
        sort_marks_mb_per_million_rows: perMillion(markBytes),
        mb_per_million_rows_without_search_or_sort_keys: perMillion(bytes - sortBytes - searchBytes),
      };
      yield await sortKeysOffMain(cache, rows);
      yield await verifyFigures(cache, rows);
      cache.close();
      registerDataset(rows);
      kept = true;
    } finally {
      if (!kept) cache.close();
      scratch.remove();
    }
  },
};
