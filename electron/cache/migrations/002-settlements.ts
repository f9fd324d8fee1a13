import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 2,
  name: 'settlements',
  sql: `
      CREATE TABLE settlements (
        id INTEGER PRIMARY KEY,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        order_id TEXT,
        order_date TEXT NOT NULL,
        utr TEXT,
        order_status TEXT NOT NULL,
        pg_status TEXT NOT NULL,
        payment_mode TEXT NOT NULL,
        amount INTEGER NOT NULL,
        mer_service_fee INTEGER NOT NULL,
        mer_service_tax INTEGER NOT NULL,
        merchant_subvention_amount INTEGER NOT NULL,
        cgst INTEGER NOT NULL,
        igst INTEGER NOT NULL,
        sgst INTEGER NOT NULL,
        settled_amount INTEGER NOT NULL,
        dispute_id TEXT,
        description TEXT,
        extra TEXT,
        exception_flags INTEGER NOT NULL DEFAULT 0,
        exceptions TEXT,
        seen_run INTEGER NOT NULL,
        changed_run INTEGER,
        vanished_at TEXT
      );
      CREATE INDEX settlements_exceptions ON settlements (id) WHERE exception_flags <> 0;
      CREATE TABLE settlement_rollup (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        payment_mode TEXT NOT NULL,
        order_status TEXT NOT NULL,
        pg_status TEXT NOT NULL,
        exception_flags INTEGER NOT NULL,
        count INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        fees INTEGER NOT NULL,
        taxes INTEGER NOT NULL,
        settled INTEGER NOT NULL,
        PRIMARY KEY (date, pg, payment_mode, order_status, pg_status, exception_flags)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_digests (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        hashes BLOB NOT NULL,
        ids BLOB NOT NULL,
        PRIMARY KEY (date, pg)
      );
      CREATE TABLE settlement_days (
        date TEXT NOT NULL,
        scope TEXT NOT NULL,
        synced_at TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        records INTEGER NOT NULL,
        PRIMARY KEY (date, scope)
      ) WITHOUT ROWID;
    `,
};
