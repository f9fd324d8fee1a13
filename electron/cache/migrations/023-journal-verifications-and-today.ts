import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 23,
  name: "the journal's last verification and the Today screen's refresh window",
  // The Today screen dates "last journal verify", and the CLI (a process of its own) must read the same answer, so the
  // last verification is kept in the file, not in memory; one row, replaced by each verification.
  sql: `
    CREATE TABLE journal_verifications (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      at TEXT NOT NULL,
      ok INTEGER NOT NULL,
      entries INTEGER NOT NULL,
      problem TEXT
    );
    CREATE TABLE today_settings (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      refresh_days INTEGER NOT NULL CHECK (refresh_days BETWEEN 1 AND 31)
    );`,
};
