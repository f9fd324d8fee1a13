import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 3,
  name: 'beneficiaries',
  sql: `
      CREATE TABLE beneficiaries (
        beneficiary_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        vpa TEXT,
        account_number TEXT,
        ifsc TEXT,
        phone TEXT,
        email TEXT,
        address TEXT,
        extra TEXT,
        fetched_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX beneficiaries_by_name ON beneficiaries (name COLLATE NOCASE, beneficiary_id);
    `,
};
