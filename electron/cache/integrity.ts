/**
 * How a damaged cache file is caught without making every open wait for a full check of millions of rows.
 *
 *  - At open (before the file is used): its header, then SQLite's quick check of every table that does not grow with
 *    the records: the schema, sync runs and checkpoints, the rollup, beneficiaries, payouts, balances. Milliseconds,
 *    whatever the number of records. A file that fails is moved aside (recovery.ts), as before.
 *  - After open, off the main thread: the quick check of the settlement records, their search and sort keys and digests (a
 *    few seconds at two million rows), in a worker thread on its own read-only connection, so the first rows show
 *    while it runs. A file that fails it is marked (`<file>.damaged`, with what SQLite said) and the app's log is
 *    told; the next open finds the mark and moves the file aside before using it.
 *  - Meanwhile a read that meets a damaged page fails with SQLite's own corruption error rather than a wrong row.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { CacheCorruptError } from './recovery';
import { PRIVATE_FILE_MODE } from '../private-files';

/**
 * The tables whose check runs after open: those that grow with the records (the records, their search and sort keys,
 * their digests), nearly all of the file. Every other table holds a few rows per date, account or lookup.
 */
export const CHECKED_AFTER_OPEN = [
  'settlements',
  'settlement_keys',
  'settlement_sort_blocks',
  'settlement_sort_mark_lists',
  'settlement_digests',
] as const;

const TABLES = `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN (${CHECKED_AFTER_OPEN.map((t) => `'${t}'`).join(', ')})`;
const QUICK_CHECK = 'SELECT quick_check FROM pragma_quick_check(?)';

export const damageMark = (file: string): string => `${file}.damaged`;

/** The first problem SQLite's quick check reports for `table` (and its indexes), or null. */
function firstProblem(db: Database, table: string): string | null {
  const rows = db.prepare(QUICK_CHECK).pluck().all(table) as string[];
  return rows.length === 1 && rows[0] === 'ok' ? null : (rows[0]?.split('\n')[0] ?? 'no answer');
}

/** The check at open, on a read-only connection; throws CacheCorruptError for a damaged or marked file. */
export function checkAtOpen(db: Database, file: string): void {
  const mark = damageMark(file);
  if (existsSync(mark)) {
    throw new CacheCorruptError(`integrity check failed earlier: ${readFileSync(mark, 'utf8').split('\n')[0]}`);
  }
  for (const table of db.prepare(TABLES).pluck().all() as string[]) {
    const problem = firstProblem(db, table);
    if (problem !== null) throw new CacheCorruptError(`integrity check failed: ${problem}`);
  }
}

/** After the file was moved aside, its mark has done its work. */
export function clearDamageMark(file: string): void {
  rmSync(damageMark(file), { force: true });
}

/**
 * The worker: CommonJS, given the driver's path by the main thread, so it needs no build step of its own and loads
 * the very better-sqlite3 (and native binding) the app uses. It answers the first problem of each table, or null.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const { file, nativeBinding, tables } = workerData;
let answer;
let db;
try {
  db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  db.pragma('busy_timeout = 5000');
  const check = db.prepare(${JSON.stringify(QUICK_CHECK)}).pluck();
  answer = { problem: null };
  for (const table of tables) {
    const rows = check.all(table);
    if (!(rows.length === 1 && rows[0] === 'ok')) { answer = { problem: String(rows[0] ?? 'no answer').split('\\n')[0] }; break; }
  }
} catch (e) {
  const corrupt = /^SQLITE_(CORRUPT|NOTADB)/.test(String(e && e.code));
  answer = corrupt ? { problem: String(e.message) } : { error: String(e && e.message) };
} finally {
  // Closed before answering: once the answer is in, this connection no longer holds the file.
  if (db) db.close();
}
parentPort.postMessage(answer);`;

export type AfterOpenCheck =
  /** Every table passed. */
  | { status: 'ok' }
  /** SQLite found damage: the file is marked and will be moved aside at the next open. */
  | { status: 'damaged'; problem: string; message: string }
  /** The check could not run (the cache was closed first, or the worker failed): nothing is known. */
  | { status: 'not-run'; reason: string };

/**
 * Starts the check of the settlement records in a worker thread. `stop()` ends it (closing the cache does), and the
 * result then says it did not run.
 */
export function checkAfterOpen(file: string, nativeBinding: string | undefined, at: () => Date) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, nativeBinding, driver, tables: [...CHECKED_AFTER_OPEN] },
  });
  let settle!: (r: AfterOpenCheck) => void;
  const result = new Promise<AfterOpenCheck>((resolve) => (settle = resolve));
  worker.once('message', (m: { problem?: string | null; error?: string }) => {
    if (m.error !== undefined) return settle({ status: 'not-run', reason: m.error });
    if (!m.problem) return settle({ status: 'ok' });
    writeFileSync(damageMark(file), `${m.problem}\nfound ${at().toISOString()}\n`, { mode: PRIVATE_FILE_MODE });
    settle({
      status: 'damaged',
      problem: m.problem,
      message:
        `The local cache is damaged (${m.problem}). It will be moved aside and a new cache started the next time ` +
        'the app opens it; sync again then to fill it. Nothing is deleted.',
    });
  });
  worker.once('error', (e) => settle({ status: 'not-run', reason: e.message }));
  worker.once('exit', () => settle({ status: 'not-run', reason: 'stopped before it finished' }));
  return {
    result,
    stop: async (): Promise<void> => void (await worker.terminate()),
  };
}
