import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 23,
  name: "the journal's last verification, the Today screen's refresh window and its exception figures",
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
    );
    -- Today's exception figures (treasury/exception-queue.ts localSummary) read this index alone: every column they
    -- group, sum or join on, for the records that break a rule only, so the wide rows are never read.
    CREATE INDEX settlements_exception_figures
      ON settlements (exception_flags, date, pg, pg_transaction_id, settlement_date, amount, settled_amount)
      WHERE exception_flags <> 0 AND vanished_at IS NULL;`,
};
