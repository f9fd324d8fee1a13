import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 13,
  name: 'orders and subscriptions looked up, for offline review',
  // The answers as the console read them (JSON of the domain model, amounts in paise), with the time read; the
  // actions on them are in the journal. Refund attempts are kept beside their order with their own time.
  sql: `
      CREATE TABLE merchant_orders (
        order_id TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        refunds TEXT,
        refunds_error TEXT
      ) WITHOUT ROWID;
      CREATE INDEX merchant_orders_by_time ON merchant_orders (fetched_at);
      CREATE TABLE merchant_subscriptions (
        subscription_id TEXT PRIMARY KEY,
        receipt_id TEXT,
        body TEXT NOT NULL,
        fetched_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX merchant_subscriptions_by_receipt ON merchant_subscriptions (receipt_id);
      CREATE INDEX merchant_subscriptions_by_time ON merchant_subscriptions (fetched_at);
    `,
};
