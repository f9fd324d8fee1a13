import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 15,
  name: 'settlement sort key marks, per list',
  // Counts that let a jump with a payment mode, a status or exceptions only rank a key (settlement-key-order.ts):
  // every MARK_EVERY keys of a list (day, column, gateway) a mark holds the key there and, per class of record
  // (payment mode, statuses and exception flags together, `settlement_sort_classes`), how many keys come before it;
  // a last mark with no key holds the list's totals. Written with the keys (sort-keys.ts). The dates keyed before
  // this version have keys and no marks: the key writer takes them as pending and writes them again, marks and all,
  // when the next sync ends; until then their keys serve as before and a filtered jump skips rows, as it did.
  sql: `
      CREATE TABLE settlement_sort_classes (
        code INTEGER PRIMARY KEY,
        mode_code INTEGER NOT NULL,
        order_status_code INTEGER NOT NULL,
        pg_status_code INTEGER NOT NULL,
        exception_flags INTEGER NOT NULL,
        UNIQUE (mode_code, order_status_code, pg_status_code, exception_flags)
      );
      CREATE TABLE settlement_sort_marks (
        col INTEGER NOT NULL,
        day INTEGER NOT NULL,
        pg_code INTEGER NOT NULL,
        n INTEGER NOT NULL,
        value,
        id INTEGER,
        counts BLOB NOT NULL,
        PRIMARY KEY (col, day, pg_code, n)
      ) WITHOUT ROWID;
    `,
};
