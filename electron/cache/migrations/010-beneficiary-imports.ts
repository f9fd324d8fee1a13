import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 10,
  name: 'beneficiary imports, bank-detail changes, low-headroom thresholds',
  // An import row's key is (file digest, row): `attempt_seq` is its journal attempt, written before the request
  // leaves, so a rerun never sends a row whose answer may have been lost. A change keeps the values replaced.
  sql: `
      CREATE TABLE beneficiary_import_rows (
        import_key TEXT PRIMARY KEY,
        file_digest TEXT NOT NULL,
        row_number INTEGER NOT NULL,
        attempt_seq INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'created', 'refused', 'unknown')),
        beneficiary_id TEXT,
        reason TEXT,
        at TEXT NOT NULL
      );
      CREATE TABLE beneficiary_changes (
        id INTEGER PRIMARY KEY,
        beneficiary_id TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        old_account_number TEXT,
        old_ifsc TEXT,
        old_vpa TEXT,
        new_account_number TEXT,
        new_ifsc TEXT,
        new_vpa TEXT
      );
      CREATE INDEX beneficiary_changes_by_beneficiary ON beneficiary_changes (beneficiary_id, changed_at);
      CREATE TABLE headroom_thresholds (pg TEXT PRIMARY KEY, threshold INTEGER NOT NULL CHECK (threshold >= 0));
    `,
};
