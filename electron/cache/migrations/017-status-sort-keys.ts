import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 17,
  name: 'settlement sort keys of the two statuses',
  // Order status and gateway status get sort keys like the columns of many values (sort-keys.ts), so a next page
  // in a status's order takes up the merge of the page before (settlement-key-order.ts) instead of walking its
  // dates' records for a rare value's rows. Every date keyed before this version lacks those two lists: it is
  // marked not current and keyed again, all columns, when the next sync ends; until then reads scan its range.
  sql: `DELETE FROM settlement_sorted_days;`,
};
