import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 14,
  name: 'settlement sort keys, per date',
  // Written after a sync like the search keys (sort-keys.ts): per day, column and gateway, every record's sort
  // value and id in order, with its ordinal `n` in that order, which counts the keys before any value with one
  // seek, and what the other filters check: payment mode, statuses (by number, `settlement_sort_codes`, a byte each)
  // and exception flags.
  // Empty here: each synced date gets its keys when the next sync ends, and reads scan until then.
  sql: `
      CREATE TABLE settlement_sort_codes (
        code INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('pg', 'mode', 'order_status', 'pg_status')),
        value TEXT NOT NULL,
        UNIQUE (kind, value)
      );
      CREATE TABLE settlement_sort_keys (
        day INTEGER NOT NULL,
        col INTEGER NOT NULL,
        pg_code INTEGER NOT NULL,
        value NOT NULL,
        id INTEGER NOT NULL,
        n INTEGER NOT NULL,
        mode_code INTEGER NOT NULL,
        order_status_code INTEGER NOT NULL,
        pg_status_code INTEGER NOT NULL,
        exception_flags INTEGER NOT NULL,
        PRIMARY KEY (day, col, pg_code, value, id)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_sorted_days (date TEXT PRIMARY KEY) WITHOUT ROWID;
    `,
};
