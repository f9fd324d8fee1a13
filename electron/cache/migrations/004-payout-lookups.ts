import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 4,
  name: 'payout lookups',
  sql: `
      CREATE TABLE payout_lookups (
        id INTEGER PRIMARY KEY,
        payout_id TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('normal', 'advance')),
        looked_up_at TEXT NOT NULL,
        transfer_status TEXT,
        ut_no TEXT,
        amount INTEGER,
        processed_at TEXT,
        error TEXT,
        payout TEXT
      );
      CREATE INDEX payout_lookups_by_payout ON payout_lookups (payout_id, id);
      CREATE INDEX payout_lookups_by_time ON payout_lookups (looked_up_at, id);
    `,
};
