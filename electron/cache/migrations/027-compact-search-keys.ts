import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 27,
  name: 'settlement search keys by day number and offset',
  // A search key's row held its date as text (11 bytes) and the record's whole id (6 bytes), repeated in each of a
  // record's three keys: 120 MB per million rows. The day's number and the id's offset from the day's first id
  // (settlement-ids.ts: id = day * 2^32 + n) hold the same in about 5 (search-keys.ts, settlement-search.ts).
  // Emptied like the sort keys of migration 26: every date is keyed again when the next sync ends, and a search walks
  // a date's records until then.
  sql: `
      DROP TABLE settlement_keys;
      DELETE FROM settlement_keyed_days;
      CREATE TABLE settlement_keys (
        day INTEGER NOT NULL,
        key TEXT NOT NULL COLLATE NOCASE,
        n INTEGER NOT NULL,
        PRIMARY KEY (day, key, n)
      ) WITHOUT ROWID;
    `,
};
