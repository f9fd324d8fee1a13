import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 11,
  name: 'settlement batches, bank statements, reconciliation',
  // Batches: count and sums per (date, gateway, UTR, settlement time), kept by the same deltas as the rollup
  // (settlement-rollup.ts); the records already cached are rolled up once here. A statement line's key is a
  // digest of its content and its ordinal among identical lines of its file, so importing a file again (or an
  // overlapping one) adds nothing. A credit is in at most one match (UNIQUE line_id) and a batch in at most one
  // (UNIQUE key); `recon_apart` keeps what the desk took apart from being put together again by the matcher.
  sql: `
      CREATE TABLE settlement_batches (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        utr TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        records INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        fees INTEGER NOT NULL,
        taxes INTEGER NOT NULL,
        subvention INTEGER NOT NULL,
        settled INTEGER NOT NULL,
        exceptions INTEGER NOT NULL,
        PRIMARY KEY (date, pg, utr, settlement_date)
      ) WITHOUT ROWID;
      INSERT INTO settlement_batches
        SELECT date, pg, coalesce(utr, ''), settlement_date, count(*), sum(amount), sum(mer_service_fee),
               sum(mer_service_tax), sum(merchant_subvention_amount), sum(settled_amount), sum(exception_flags <> 0)
        FROM settlements WHERE vanished_at IS NULL GROUP BY date, pg, coalesce(utr, ''), settlement_date;
      CREATE TABLE bank_accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        gateways TEXT,
        mapping TEXT,
        created_at TEXT NOT NULL
      );
      CREATE TABLE bank_statement_imports (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
        file_name TEXT NOT NULL,
        digest TEXT NOT NULL,
        layout TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        lines INTEGER NOT NULL,
        added INTEGER NOT NULL,
        bad INTEGER NOT NULL
      );
      CREATE TABLE bank_lines (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
        line_key TEXT NOT NULL,
        date TEXT NOT NULL,
        value_date TEXT,
        narration TEXT NOT NULL,
        reference TEXT,
        amount INTEGER NOT NULL,
        balance INTEGER,
        rail TEXT,
        utr TEXT,
        import_id INTEGER NOT NULL REFERENCES bank_statement_imports (id) ON DELETE CASCADE,
        row_number INTEGER NOT NULL,
        UNIQUE (account_id, line_key)
      );
      CREATE INDEX bank_lines_by_date ON bank_lines (account_id, date);
      CREATE TABLE recon_matches (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
        batch_date TEXT NOT NULL,
        pg TEXT NOT NULL,
        utr TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        how TEXT NOT NULL CHECK (how IN ('utr', 'amount', 'split', 'manual')),
        note TEXT,
        matched_at TEXT NOT NULL,
        UNIQUE (batch_date, pg, utr, settlement_date)
      );
      CREATE TABLE recon_match_lines (
        match_id INTEGER NOT NULL REFERENCES recon_matches (id) ON DELETE CASCADE,
        line_id INTEGER NOT NULL UNIQUE REFERENCES bank_lines (id) ON DELETE CASCADE,
        PRIMARY KEY (match_id, line_id)
      ) WITHOUT ROWID;
      CREATE TABLE recon_apart (
        batch_key TEXT NOT NULL,
        line_id INTEGER NOT NULL REFERENCES bank_lines (id) ON DELETE CASCADE,
        note TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (batch_key, line_id)
      ) WITHOUT ROWID;
      CREATE TABLE recon_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `,
};
