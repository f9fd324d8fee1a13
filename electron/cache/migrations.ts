/**
 * The cache's schema, as numbered migrations, one file each in `migrations/` (listed in order by
 * `migrations/index.ts`), and the runner that applies them. `PRAGMA user_version` says which have run; each also leaves
 * a row in `schema_migrations` (when, and under which name). A migration is never edited once shipped:
 * a change is a new one. Each is tested from an empty file and from the version before it.
 *
 * Design of the settlement tables (the ingest has to keep up with a bare INSERT, see settlement-ingest.ts):
 *  - `settlements` is keyed by an id the writer assigns from (date, arrival order) (settlement-ids.ts),
 *    so a sync appends in key order, and the default order and date ranges are rowid ranges. Its one index covers only records with exceptions. There is deliberately no index on the
 *    natural key: random transaction ids in a B-tree cost several times the insert itself. The natural
 *    key (date asked for, gateway, gateway transaction id, settlement time) is kept unique by the one
 *    writer, which holds an in-memory hash of the date being synced, and the cross-date rule "settled
 *    twice" reads per-date sorted digests (`settlement_digests`) instead.
 *  - `settlement_rollup` holds count and sums (refunds and chargebacks apart, migration 25) per date x gateway x
 *    payment mode x statuses x exception flags, kept in step with the records in the same transactions, so totals and aggregates with any
 *    filter but text search do not scan a million rows (settlement-rollup.ts).
 *  - `settlement_batch_modes` holds the chart's sums per date x gateway x UTR x payment mode, kept like the batches
 *    (migration 28), so a search whose matches are all UTR batch records draws its chart from a few rows.
 *  - `settlement_keys` holds the search keys (UTR, gateway transaction id, order id) of each day, ordered by day
 *    then key without case, each with its record's offset in the day (migration 27), and is written when a date closes, all its keys at once in key order: appends,
 *    where an index on the keys would take three random B-tree inserts a row (three plain indexes cut the
 *    ingest to a sixth of a bare insert; per-date indexes still nearly doubled the cost of a page).
 *    `settlement_keyed_days` lists the dates whose keys are current; a page that changes a date's records
 *    takes it off, and a search walks the records of such a date instead (settlement-search.ts).
 *  - `settlement_sort_blocks` holds, per day, sort column of many values (amounts, times, ids, statuses) and gateway,
 *    every current record's id in the column's order with its class of record, packed in blocks of 256 (migration 26),
 *    written like the search keys when a sync ends; `settlement_sorted_days` lists the dates whose sort keys are
 *    current (sort-keys.ts, settlement-key-order.ts); `settlement_sort_mark_lists` holds each list's marks, each
 *    block's first key and the keys before it per class of record, so a seek picks a block and a jump ranks a key
 *    under any filter the classes carry (settlement-key-rank.ts).
 *  - `settlement_days` records when each date was last synced, per gateway scope ('' = every gateway):
 *    the "as of" time of every read.
 */
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from './migrations/index';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export { MIGRATIONS };

export const LATEST_VERSION = MIGRATIONS.at(-1)!.version;

export class CacheVersionError extends Error {
  override name = 'CacheVersionError';
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the file up to `target` (the latest by default), one transaction per migration, so a failure
 * leaves the file at the last version that completed. A file from a newer app is refused untouched.
 * Returns the versions applied.
 */
export function migrate(db: Database, appliedAt: () => Date, target = LATEST_VERSION): number[] {
  const current = schemaVersion(db);
  if (current > LATEST_VERSION) {
    throw new CacheVersionError(
      `This cache was written by a newer version of the app (schema ${current}; this one knows up to ` +
        `${LATEST_VERSION}). Update the app; the file was left as it is.`,
    );
  }
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        appliedAt().toISOString(),
      );
      // PRAGMA takes no bound parameters; the version is one of the constants above.
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
