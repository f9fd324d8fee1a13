import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 8,
  name: 'audit journal and period close',
  // The journal is append-only by convention of the one writer (electron/journal/); its hash chain, not SQLite,
  // is what shows an edit. Closed periods keep a hash per record (by natural key) at close, so a difference is exact
  // and survives the cache being cleared and synced again.
  sql: `
      CREATE TABLE journal (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        event TEXT NOT NULL,
        outcome TEXT NOT NULL,
        refers_to INTEGER,
        request_id TEXT,
        summary TEXT NOT NULL,
        data TEXT NOT NULL,
        app_version TEXT NOT NULL,
        os_user TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX journal_by_refers_to ON journal (refers_to) WHERE refers_to IS NOT NULL;
      CREATE INDEX journal_by_kind ON journal (kind, seq);
      CREATE TABLE period_closes (
        id INTEGER PRIMARY KEY,
        range_from TEXT NOT NULL,
        range_to TEXT NOT NULL,
        closed_at TEXT NOT NULL,
        close_seq INTEGER NOT NULL,
        digest TEXT NOT NULL,
        records INTEGER NOT NULL,
        totals TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('closed', 'changed')),
        changed_at TEXT,
        seen_digest TEXT,
        acknowledged_digest TEXT,
        added INTEGER NOT NULL DEFAULT 0,
        vanished INTEGER NOT NULL DEFAULT 0,
        modified INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE period_close_records (
        close_id INTEGER NOT NULL REFERENCES period_closes (id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (close_id, date, pg, pg_transaction_id, settlement_date)
      ) WITHOUT ROWID;
    `,
};
