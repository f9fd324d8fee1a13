import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 7,
  name: 'settlement search keys, per date',
  sql: `
      CREATE TABLE settlement_keys (
        date TEXT NOT NULL,
        key TEXT NOT NULL COLLATE NOCASE,
        id INTEGER NOT NULL,
        PRIMARY KEY (date, key, id)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_keyed_days (date TEXT PRIMARY KEY) WITHOUT ROWID;
      INSERT OR IGNORE INTO settlement_keys (date, key, id)
        SELECT date, key, id FROM (
          SELECT date, utr AS key, id FROM settlements WHERE utr IS NOT NULL
          UNION ALL SELECT date, pg_transaction_id, id FROM settlements
          UNION ALL SELECT date, order_id, id FROM settlements WHERE order_id IS NOT NULL)
        ORDER BY date, key COLLATE NOCASE, id;
      INSERT INTO settlement_keyed_days SELECT DISTINCT date FROM settlements;
      `,
};
