/**
 * The local cache: one SQLite file per profile (`<data>/cache/<profile id>.sqlite`), which everything the
 * UI shows is read from and the API fills. Opening it checks it, migrates it and hands out one repository
 * per table group. No SQL leaves this folder but the audit journal's own (electron/journal/, on `db`).
 *
 * Settings, and why:
 *  - WAL: the UI reads while a sync writes, and a crash mid-write leaves the last committed page intact.
 *  - synchronous=NORMAL: with WAL this never corrupts; a power cut may lose the last transactions, which
 *    a cache refills on the next sync (the checkpoint goes back with them, so nothing is half-applied).
 *  - foreign keys on; a busy timeout, because the CLI and the app may open the same file.
 *  - an integrity check at open of everything but the settlement records, whose check runs after open in a worker
 *    thread (integrity.ts), and a schema check at open (schema-check.ts): a file that fails any of them (damaged,
 *    from a newer app, or holding a trigger, view or table we did not make), or a link or folder where the file
 *    belongs, is moved aside (recovery.ts), not deleted. The folder is 0700 and the file 0600 (private-files.ts).
 */
import { createExceptionFigures } from './exception-figures';
import { createDataGeneration } from './data-generation';
import { closeSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { createAccountsRepository } from './accounts';
import { journalEntries } from '../journal/journal';
import { createBeneficiariesRepository } from './beneficiaries';
import { createBeneficiaryImportsRepository } from './beneficiary-imports';
import { checkAfterOpen, checkAtOpen, clearDamageMark, type AfterOpenCheck } from './integrity';
import { createMerchantRepository } from './merchant';
import { migrate } from './migrations';
import { createPayoutChecksRepository } from './payout-checks';
import { createPayoutSettingsRepository } from './payout-settings';
import { createTodaySettingsRepository } from './today-settings';
import { createPayoutsRepository } from './payouts';
import { ensurePrivateDir, ensurePrivateFile } from '../private-files';
import { CacheCorruptError, isCorruption, moveAside, type Recovery } from './recovery';
import { schemaProblem } from './schema-check';
import { createReconciliationRepository } from './reconciliation';
import { createChangesRepository } from './settlement-changes';
import { createExceptionsRepository } from './settlement-exceptions';
import { createManifestsRepository } from './settlement-manifests';
import { createSettlementReader, type SettlementReader } from './settlement-reader';
import type { CacheVerifyResult } from '../../shared/cache-verify';
import { createSettlementsRepository } from './settlements';
import { createSortListBuilder, writeSortKeysBuiltElsewhere } from './sort-keys';
import { SYNC_LOCK_SUFFIX } from './sync-lock';
import { createSyncRunsRepository } from './sync-runs';

export interface CacheOptions {
  /** The clock for every time the cache records (sync times, lookups, the name of a moved file). */
  now?: () => Date;
  /** better-sqlite3's Electron build (electron/native-binding.ts); the default build under Node. */
  nativeBinding?: string;
}

const BUSY_TIMEOUT_MS = 5_000;
/**
 * Page cache per connection. Writes append and reads are keyset pages or rollup rows, so a small cache
 * serves both; a bigger one only adds to the memory of a long sync.
 */
const CACHE_KIB = 16 * 1024;
/**
 * Page cache of a reader (an export's worker): SQLite's own default. An export reads each page of its rows once,
 * so a bigger cache only holds pages it will not read again; 16 MB here put a 300,000-row CSV export's peak RSS
 * over 250 MB (250–262 MB against 212–228 with 2 MB, at the same speed; test/bench/export.ts).
 */
const READER_CACHE_KIB = 2 * 1024;
/**
 * Checkpoint the WAL into the file every 10,000 pages (40 MB) instead of SQLite's 1,000: a long sync
 * then pays for a tenth of the checkpoints (each one ends in an fsync), about 10% of its ingest time.
 */
export const WAL_CHECKPOINT_PAGES = 10_000;
/** After a checkpoint the WAL file is cut back to this, so a big sync does not leave it large. */
const WAL_LIMIT_BYTES = 64 * 1024 * 1024;

export function openCache(file: string, options: CacheOptions = {}) {
  const now = options.now ?? (() => new Date());
  ensurePrivateDir(dirname(file));
  let recovered: Recovery | null = null;
  try {
    checkReadable(file, options.nativeBinding);
  } catch (e) {
    if (!isCorruption(e)) throw e;
    recovered = moveAside(file, e instanceof Error ? e.message : String(e), now());
    clearDamageMark(file);
  }
  ensurePrivateFile(file);
  const db = openConfigured(file, options.nativeBinding, now);
  let afterOpen: ReturnType<typeof checkAfterOpen> | undefined;
  const syncRuns = createSyncRunsRepository(db, now, { nativeBinding: options.nativeBinding });
  const payouts = createPayoutsRepository(db, now);
  const settlementReads = createSettlementReader(file, { nativeBinding: options.nativeBinding });
  const settlements = createSettlementsRepository(db, now, { nativeBinding: options.nativeBinding });
  // The checks running apart (verifyApart), each in a worker of its own: stopped with the cache.
  const checkers = new Set<SettlementReader>();
  // The sort keys' own reader: kept between runs, as a sync starts one for each date it closes, until stopped.
  let sortBuilder: SettlementReader | null = null;
  let sortKeysRun: Promise<number> | null = null;
  let sortKeysAgain = false;
  function writeSortKeys(signal?: AbortSignal): Promise<number> {
    sortKeysAgain = true;
    sortKeysRun ??= (async () => {
      sortBuilder ??= createSettlementReader(file, { nativeBinding: options.nativeBinding });
      const builder = sortBuilder;
      let written = 0;
      try {
        while (sortKeysAgain && !signal?.aborted) {
          sortKeysAgain = false;
          written += await writeSortKeysBuiltElsewhere(settlements.sortKeys, (date) => builder.sortLists(date), signal);
        }
        return written;
      } finally {
        sortKeysRun = null;
      }
    })();
    return sortKeysRun;
  }
  return {
    file,
    db,
    /** Set when the file was unreadable and was moved aside at this open. */
    recovered,
    settlements,
    /**
     * The Settlements grid's pages, totals and chart, read in a worker thread started on the first of them
     * (settlement-reader.ts); the CLI and exports read `settlements` directly.
     */
    settlementReads,
    /**
     * The sort keys of every date whose keys are not current (sort-keys.ts), each date's lists built in a worker
     * thread of their own, not the grid's (whose reads would queue behind a date's sorting), and written here; the
     * dates written. A call while they are being written makes that run go round again and answers with it, so a
     * sync calls it as each date closes and the lists of the dates before are built while it stores the next.
     */
    writeSortKeys,
    /**
     * The check of `dates` (settlement-verify.ts) in a worker thread of its own, stopped after: a date of a million
     * records is seconds of reading, which on main held every screen's IPC and in the grid's worker its reads.
     */
    async verifyApart(dates: readonly string[]): Promise<CacheVerifyResult> {
      const checker = createSettlementReader(file, { nativeBinding: options.nativeBinding });
      checkers.add(checker);
      try {
        return await checker.verify(dates);
      } finally {
        checkers.delete(checker);
        await checker.close();
      }
    },
    /** Stops the sort keys' worker thread unless a run is using it (after a sync's keys are written). */
    async stopSortKeys(): Promise<void> {
      if (sortKeysRun) return;
      const builder = sortBuilder;
      sortBuilder = null;
      await builder?.close();
    },
    /** What each sync changed, per record (settlement-changes.ts). */
    changes: createChangesRepository(db),
    /** What each date's paging saw, per gateway (settlement-manifests.ts). */
    manifests: createManifestsRepository(db),
    /** The exception workflow and triage answers, by natural key (settlement-exceptions.ts). */
    exceptions: createExceptionsRepository(db, now),
    /** Each date's exception groups, for Today (exception-figures.ts). */
    exceptionFigures: createExceptionFigures(db),
    syncRuns,
    beneficiaries: createBeneficiariesRepository(db, now),
    beneficiaryImports: createBeneficiaryImportsRepository(db, now),
    payouts,
    payoutChecks: createPayoutChecksRepository(db, now, payouts),
    payoutSettings: createPayoutSettingsRepository(db),
    /** The Today screen's "Refresh all" window. */
    today: createTodaySettingsRepository(db),
    accounts: createAccountsRepository(db, now),
    /** Orders and subscriptions looked up, for offline review. */
    merchant: createMerchantRepository(db, now),
    reconciliation: createReconciliationRepository(db, now),
    /** Bytes on disk, the WAL and shared-memory files included. */
    sizeBytes: () => cacheFileSize(file),
    /**
     * The integrity check of the settlement records, started on first call in a worker thread (integrity.ts); the
     * same answer to every call. A damaged file is marked and moved aside at the next open.
     */
    checkAfterOpen(): Promise<AfterOpenCheck> {
      afterOpen ??= checkAfterOpen(file, options.nativeBinding, now);
      return afterOpen.result;
    },
    /**
     * Closes main's connection at once; resolves when the settlement-read worker has stopped and let go of the file
     * (which must happen before the file is moved, on Windows).
     */
    close(): Promise<void> {
      void afterOpen?.stop();
      // A sort-key run or a check still going fails at its next step: their workers let go of the file with the reads'.
      const readsStopped = Promise.all([
        settlementReads.close(),
        sortBuilder?.close(),
        ...[...checkers].map((checker) => checker.close()),
      ]).then(() => {});
      if (db.open) {
        syncRuns.releaseAll();
        db.pragma('optimize');
        db.close();
      }
      return readsStopped;
    },
  };
}
export type Cache = ReturnType<typeof openCache>;

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * The check at open (integrity.ts), on a read-only connection: one that can write would, on closing, checkpoint
 * the WAL into the damaged file and delete it, which is exactly what must not happen to a file being moved
 * aside. A file that does not even start like a database is not handed to SQLite at all.
 */
function checkReadable(file: string, nativeBinding: string | undefined): void {
  let stat;
  try {
    stat = lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    // A mark left beside a file that is gone (deleted by hand) must not condemn the next one.
    clearDamageMark(file);
    return;
  }
  // A link would have SQLite write wherever it points; a folder or device cannot be a cache.
  if (stat.isSymbolicLink()) throw new CacheCorruptError('a symbolic link stood where the cache file belongs');
  if (!stat.isFile()) throw new CacheCorruptError('something other than a file stood where the cache file belongs');
  const header = Buffer.alloc(HEADER.length);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read > 0 && !header.subarray(0, read).equals(HEADER.subarray(0, read))) {
    throw new CacheCorruptError('file is not a database');
  }
  if (read === 0) return;
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    checkAtOpen(db, file);
    const problem = schemaProblem(db, nativeBinding);
    if (problem) throw new CacheCorruptError(problem);
  } finally {
    db.close();
  }
}

function openConfigured(file: string, nativeBinding: string | undefined, now: () => Date): Database.Database {
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${CACHE_KIB}`);
    db.pragma('temp_store = MEMORY');
    db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    migrate(db, now);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Bytes on disk of a cache file with its WAL and shared-memory files; 0 for files that do not exist. */
export function cacheFileSize(file: string): number {
  return CACHE_FILE_SUFFIXES.reduce((sum, suffix) => sum + fileSize(file + suffix), 0);
}

// The sync lock's file (sync-lock.ts) goes with the cache it guards when the cache is cleared.
export const CACHE_FILE_SUFFIXES = ['', '-wal', '-shm', SYNC_LOCK_SUFFIX] as const;

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * A read-only connection to a cache the app has open, for work off the main thread (exports). It reads the
 * schema the app's own connection migrated; `snapshot` runs a function in one read transaction, so every
 * read inside sees the same records even while a sync writes.
 */
export function openCacheReader(file: string, options: CacheOptions = {}) {
  const now = options.now ?? (() => new Date());
  const db = new Database(file, {
    readonly: true,
    fileMustExist: true,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${READER_CACHE_KIB}`);
  return {
    settlements: createSettlementsRepository(db, now),
    changes: createChangesRepository(db),
    manifests: createManifestsRepository(db),
    exceptions: createExceptionsRepository(db, now),
    exceptionFigures: createExceptionFigures(db),
    beneficiaries: createBeneficiariesRepository(db, now),
    ...readerPayouts(db, now),
    accounts: createAccountsRepository(db, now),
    reconciliation: createReconciliationRepository(db, now),
    journal: { every: () => journalEntries(db) },
    /** A date's sort lists, for main's connection to write (sort-keys.ts); inside `snapshot`. */
    sortLists: createSortListBuilder(db),
    /** Changes when anything is committed to the file (data-generation.ts). */
    dataGeneration: createDataGeneration(db),
    async snapshot<T>(run: () => Promise<T>): Promise<T> {
      db.exec('BEGIN');
      try {
        return await run();
      } finally {
        db.exec('COMMIT');
      }
    },
    close: () => db.close(),
  };
}
export type CacheReader = ReturnType<typeof openCacheReader>;

function readerPayouts(db: Database.Database, now: () => Date) {
  const payouts = createPayoutsRepository(db, now);
  return { payouts, payoutChecks: createPayoutChecksRepository(db, now, payouts) };
}
