import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 21,
  name: 'the completeness proof of each imported statement',
  // The statement's own balances, totals and counts beside those of the lines read (shared/bank-statement.ts's
  // CompletenessProof, as JSON), so the reconciliation report shows each statement's proof. Statements imported
  // before this version have none (null): the report says their completeness was not checked.
  sql: `ALTER TABLE bank_statement_imports ADD COLUMN proof TEXT;`,
};
