import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 1,
  name: 'sync runs',
  sql: `
      CREATE TABLE schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at TEXT NOT NULL
      );
      CREATE TABLE sync_runs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        range_from TEXT NOT NULL,
        range_to TEXT NOT NULL,
        pg TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'partial', 'cancelled', 'failed')),
        owner_pid INTEGER,
        attempts INTEGER NOT NULL DEFAULT 1,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT,
        error TEXT
      );
      CREATE INDEX sync_runs_by_range ON sync_runs (kind, range_from, range_to, pg, id);
      CREATE TABLE sync_run_dates (
        run_id INTEGER NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        next_offset INTEGER NOT NULL DEFAULT 0,
        pages INTEGER NOT NULL DEFAULT 0,
        records INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        vanished INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        started_at TEXT,
        finished_at TEXT,
        PRIMARY KEY (run_id, date)
      ) WITHOUT ROWID;
    `,
};
