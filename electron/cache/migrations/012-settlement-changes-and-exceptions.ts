import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 12,
  name: 'settlement changes, paging manifests, exception workflow',
  // A change is one row per record per sync (its fields as JSON: old and new), written in the page's own
  // transaction. A manifest is what one run saw of a (date, gateway): the latest per pair is the date's
  // completeness. An exception's state is keyed by the record's natural key, not its row id, so it survives
  // re-syncs and a cleared-and-resynced cache alike; its events are the trail of who did what.
  sql: `
      CREATE TABLE settlement_changes (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL,
        record_id INTEGER NOT NULL,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('new', 'changed', 'vanished', 'returned')),
        fields TEXT,
        at TEXT NOT NULL
      );
      ALTER TABLE sync_run_dates ADD COLUMN last_key TEXT;
      CREATE INDEX settlement_changes_by_date ON settlement_changes (date, id);
      CREATE INDEX settlement_changes_by_run ON settlement_changes (run_id, id);
      CREATE TABLE settlement_manifests (
        run_id INTEGER NOT NULL,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pages INTEGER NOT NULL,
        records INTEGER NOT NULL,
        settled INTEGER NOT NULL,
        digest TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        passes INTEGER NOT NULL,
        shifts INTEGER NOT NULL,
        stable INTEGER NOT NULL CHECK (stable IN (0, 1)),
        PRIMARY KEY (date, pg, run_id)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_exception_states (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
        assignee TEXT,
        note TEXT,
        updated_at TEXT NOT NULL,
        triage TEXT,
        triage_model TEXT,
        triaged_at TEXT,
        tag TEXT,
        PRIMARY KEY (date, pg, pg_transaction_id, settlement_date)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_exception_events (
        id INTEGER PRIMARY KEY,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        text TEXT
      );
      CREATE INDEX settlement_exception_events_by_record
        ON settlement_exception_events (date, pg, pg_transaction_id, settlement_date, id);
    `,
};
