import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 5,
  name: 'payout accounts and balances',
  sql: `
      CREATE TABLE payout_accounts (
        pg TEXT NOT NULL,
        account_number TEXT NOT NULL,
        ifsc_code TEXT,
        account_type TEXT,
        currency TEXT,
        extra TEXT,
        first_seen_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        PRIMARY KEY (pg, account_number)
      ) WITHOUT ROWID;
      CREATE TABLE payout_gateway_errors (
        pg TEXT PRIMARY KEY,
        code TEXT,
        message TEXT NOT NULL,
        at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE balance_snapshots (
        id INTEGER PRIMARY KEY,
        pg TEXT NOT NULL,
        account_number TEXT NOT NULL,
        taken_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('accounts', 'balance')),
        available_balance INTEGER NOT NULL,
        account_balance INTEGER,
        minimum_balance INTEGER,
        hold_fund INTEGER,
        overdraft INTEGER
      );
      CREATE INDEX balance_snapshots_by_account ON balance_snapshots (pg, account_number, taken_at);
      CREATE INDEX balance_snapshots_by_time ON balance_snapshots (taken_at);
    `,
};
