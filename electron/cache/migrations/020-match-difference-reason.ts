import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 20,
  name: 'the reason a match by hand was made with a difference',
  // A match by hand whose credits do not add up to the batch asks the desk why; the answer stays with the match.
  // Matches made before this version have none (null).
  sql: `ALTER TABLE recon_matches ADD COLUMN reason TEXT;`,
};
