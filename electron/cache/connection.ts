/**
 * How every connection that writes to a cache is set up (the reasons are in database.ts), in a module of its own so
 * that the sync's writer thread (settlement-writer-worker.ts) loads this and the ingest, not the whole cache.
 */
import type Database from 'better-sqlite3';

export const BUSY_TIMEOUT_MS = 5_000;
/**
 * Page cache per connection. Writes append and reads are keyset pages or rollup rows, so a small cache
 * serves both; a bigger one only adds to the memory of a long sync.
 */
export const CACHE_KIB = 16 * 1024;
/**
 * Checkpoint the WAL into the file every 10,000 pages (40 MB) instead of SQLite's 1,000: a long sync
 * then pays for a tenth of the checkpoints (each one ends in an fsync), about 10% of its ingest time.
 */
export const WAL_CHECKPOINT_PAGES = 10_000;
/** After a checkpoint the WAL file is cut back to this, so a big sync does not leave it large. */
const WAL_LIMIT_BYTES = 64 * 1024 * 1024;

/** The settings above, for every connection that writes to a cache: the app's own, the sync's writer thread's. */
export function configureConnection(db: Database.Database): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
  db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
}
