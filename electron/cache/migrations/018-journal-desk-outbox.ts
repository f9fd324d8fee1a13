import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 18,
  name: 'journal desk outbox',
  // While a profile is on a desk, each journal entry also goes to the desk's journal (journal/desk-mirror.ts): it
  // is listed here in the transaction that writes it, and given its desk entry's number once the desk took it.
  // The journal's own rows stay as written; only this list changes. Entries from local mode are not listed.
  sql: `
      CREATE TABLE journal_desk_outbox (
        seq INTEGER PRIMARY KEY,
        desk_seq INTEGER
      );
      CREATE INDEX journal_desk_outbox_waiting ON journal_desk_outbox (seq) WHERE desk_seq IS NULL;
    `,
};
