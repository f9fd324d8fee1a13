import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 16,
  name: 'settlement sort key marks, one row per list',
  // The marks of migration 15 packed one row per list (sort-keys.ts): a jump reads a range's marks as about 360
  // rows (90 days x 4 gateways) instead of 8,000, each list's marks' keys as JSON and its counts per class as one
  // BLOB. The counts now also give each mark's ordinal (the sum over every class), so a jump with no filter but the
  // dates and a gateway ranks by the marks too (settlement-key-rank.ts). The old marks are dropped; the dates keyed
  // before this version have no mark lists and get them, from their keys, when the next sync ends; until then a jump
  // in those dates skips rows.
  sql: `
      DROP TABLE settlement_sort_marks;
      CREATE TABLE settlement_sort_mark_lists (
        col INTEGER NOT NULL,
        day INTEGER NOT NULL,
        pg_code INTEGER NOT NULL,
        keys TEXT NOT NULL,
        counts BLOB NOT NULL,
        PRIMARY KEY (col, day, pg_code)
      ) WITHOUT ROWID;
    `,
};
