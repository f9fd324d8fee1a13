import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 26,
  name: 'settlement sort keys packed in blocks',
  // The sort keys of migration 14 were a row of about 40 bytes per record per column, most of the file. The same
  // lists are now dense (sort-keys.ts): per list (column, day, gateway), its record ids in order in blocks of 256,
  // one row a block: `ids` holds each id as its offset from the date's first id, little-endian, 3 bytes each (4 when
  // the date's offsets need them), and `classes` each key's class of record (`settlement_sort_classes`), 1 byte each
  // (2 when a class's code passes 255); the widths follow from the two lengths. Values are read from the records.
  // A list's mark row (migration 16) keeps its shape: each block's first key and the keys of each class before it.
  // Both are emptied, and every date is keyed again when the next sync ends; reads scan until then.
  // A table with rowids: a WITHOUT ROWID row keeps at most about 1 KB in its 4 KB page, and a block of 256 keys is
  // just over that, so each block spilled to an overflow page of its own (158 MB per million rows against 52, `npm run bench -- --only cache --rows 300000`).
  sql: `
      DROP TABLE settlement_sort_keys;
      DELETE FROM settlement_sort_mark_lists;
      DELETE FROM settlement_sorted_days;
      CREATE TABLE settlement_sort_blocks (
        col INTEGER NOT NULL,
        day INTEGER NOT NULL,
        pg_code INTEGER NOT NULL,
        block INTEGER NOT NULL,
        ids BLOB NOT NULL,
        classes BLOB NOT NULL,
        PRIMARY KEY (col, day, pg_code, block)
      );
    `,
};
