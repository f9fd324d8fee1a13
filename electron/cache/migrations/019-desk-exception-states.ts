import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 19,
  name: 'desk exception states',
  // On a desk the exception workflow is the desk's; the Settlements grid reads its state column and leaves resolved
  // exceptions out of "Exceptions only" from this copy, in the same SQL as the cache's own workflow states, so a
  // page costs no round trip to the desk (treasury/exception-queue.ts refreshes it after the desk announces a change).
  // Only exceptions that are not plainly open are held: a key not here is open.
  sql: `
      CREATE TABLE desk_exception_states (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        state TEXT NOT NULL,
        assignee TEXT,
        PRIMARY KEY (date, pg, pg_transaction_id, settlement_date)
      ) WITHOUT ROWID;
    `,
};
