/**
 * The one-writer lock of a cache's settlement sync, held by the operating system rather than by a process id.
 *
 * A small SQLite file beside the cache (`<cache>.sync-lock`) is opened on a connection of its own, which runs
 * `BEGIN EXCLUSIVE` and stays in that transaction for the sync's whole duration. SQLite takes the exclusive lock
 * with the OS's own file locks (fcntl on macOS and Linux, LockFileEx on Windows), which the kernel drops the
 * instant the holder dies — SIGKILL, a crash, a power-cut app — so a dead sync never blocks the next one, and
 * pid reuse or an unreaped process cannot hold a cache hostage. A live holder in another process (the app and
 * the CLI at once) or in this one (a second connection) makes the next `BEGIN EXCLUSIVE` fail at once with
 * SQLITE_BUSY, which is the refusal.
 *
 * The lock file holds no data: nothing is ever written in the transaction, and it is rolled back on release.
 */
import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../private-files';

export const SYNC_LOCK_SUFFIX = '.sync-lock';

export interface SyncLock {
  /** Ends the transaction and closes the connection; safe to call twice. */
  release(): void;
}

/** The lock, or null when a live sync holds it. Any other failure (a read-only folder, say) is thrown. */
export function tryAcquireSyncLock(cacheFile: string, nativeBinding?: string): SyncLock | null {
  // 0600 and never through a link, like the cache itself (private-files.ts).
  ensurePrivateFile(cacheFile + SYNC_LOCK_SUFFIX);
  // timeout 0: a held lock is an answer now, not something to wait five seconds for.
  const db = new Database(cacheFile + SYNC_LOCK_SUFFIX, { timeout: 0, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    db.close();
    if ((e as { code?: unknown }).code === 'SQLITE_BUSY') return null;
    throw e;
  }
  return {
    release() {
      if (!db.open) return;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}
