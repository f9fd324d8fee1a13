/**
 * Writing the search keys (migrations.ts, settlement-search.ts) of dates whose records changed: one date per
 * transaction, reading its records and appending its keys in the table's own order. They are written after a sync
 * has answered (writeKeysAfter in electron/sync/settlement-sync.ts), not inside each page: three keys a record inserted one by one as pages arrive cost more than the rest of
 * the ingest together, while a date's keys written at once in key order are appends. Until a date's keys are
 * written again a search walks that date's records, so nothing is ever missing from a search, only slower.
 *
 * Each date's read and write are one transaction, and a page that changes the date's records takes it off
 * the keyed dates in its own transaction, so keys are never marked current for records they do not cover.
 */
import type { Database } from 'better-sqlite3';
import { dayNumber, idRange } from './settlement-ids';
import { prepareAll } from './statements';

const SQL = {
  pending: `SELECT date FROM settlement_days WHERE date NOT IN (SELECT date FROM settlement_keyed_days)
            ORDER BY date LIMIT 1`,
  drop: `DELETE FROM settlement_keys WHERE day = ?`,
  // In the table's own order, so the date's keys are appended rather than inserted one by one at random. A row
  // whose two keys are the same text has one entry. Each key holds its day's number and its record's offset from
  // the day's first id (migration 27).
  build: `INSERT OR IGNORE INTO settlement_keys (day, key, n)
            SELECT @day, key, id - @lo FROM (
              SELECT utr AS key, id FROM settlements WHERE id BETWEEN @lo AND @hi AND utr IS NOT NULL
              UNION ALL SELECT pg_transaction_id, id FROM settlements WHERE id BETWEEN @lo AND @hi
              UNION ALL SELECT order_id, id FROM settlements WHERE id BETWEEN @lo AND @hi AND order_id IS NOT NULL)
            ORDER BY key COLLATE NOCASE, id`,
  keyed: `INSERT OR IGNORE INTO settlement_keyed_days (date) VALUES (?)`,
} as const;

export function createSearchKeys(db: Database) {
  const sql = prepareAll(db, SQL);
  const writeDate = db.transaction((): string | null => {
    const date = sql.pending.pluck().get() as string | undefined;
    if (date === undefined) return null;
    const day = dayNumber(date);
    sql.drop.run(day);
    sql.build.run({ day, ...idRange(date, date) });
    sql.keyed.run(date);
    return date;
  });
  return perDateWriter(db, writeDate);
}

/**
 * Runs `work` with the connection's temporary storage on disk. A date of a million records sorts millions of keys:
 * with the temporary storage in memory that sort alone would add a few hundred MB to the process; for a build of keys
 * it may spill to a temporary file instead.
 */
export function withTempOnDisk<T>(db: Database, work: () => T): T {
  const tempStore = db.pragma('temp_store', { simple: true }) as number;
  db.pragma('temp_store = FILE');
  try {
    return work();
  } finally {
    // PRAGMA takes no bound parameters; the value is the number SQLite itself reported.
    db.pragma(`temp_store = ${Number(tempStore)}`);
  }
}

/**
 * One date's keys at a time, by `writeDate` (a transaction that writes the next pending date's keys and returns it,
 * or null when none is pending): for the search keys and the sort keys (sort-keys.ts).
 */
export function perDateWriter(db: Database, writeDate: () => string | null) {
  const writeOne = (): string | null => withTempOnDisk(db, writeDate);
  return {
    /** Writes the keys of one synced date whose keys are not current; the date, or null when none is left. */
    writeOne,
    /** Every such date, yielding to the event loop between two, until none is left or `signal` aborts. */
    async writeAll(signal?: AbortSignal): Promise<number> {
      let written = 0;
      while (!signal?.aborted && writeOne() !== null) {
        written++;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return written;
    },
  };
}
export type SearchKeys = ReturnType<typeof createSearchKeys>;
