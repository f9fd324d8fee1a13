/**
 * What each row of an import file became, keyed by (file digest, row): the record that stops a rerun, after a
 * crash or a cancel, from creating a payee twice. A row is written as `sent`, with its journal attempt, before
 * its request leaves; its outcome replaces that once known. A row still `sent` on a rerun is one whose answer
 * was lost (the app stopped in between): its journal attempt, and any status check made of it since, decide.
 */
import type { Database } from 'better-sqlite3';
import { prepareAll } from './statements';

export type ImportRowState = 'sent' | 'created' | 'refused' | 'unknown';

export interface ImportRowRecord {
  importKey: string;
  attemptSeq: number;
  outcome: ImportRowState;
  beneficiaryId: string | null;
  reason: string | null;
}

const SQL = {
  get: `SELECT import_key AS importKey, attempt_seq AS attemptSeq, outcome, beneficiary_id AS beneficiaryId, reason
        FROM beneficiary_import_rows WHERE import_key = ?`,
  sent: `INSERT INTO beneficiary_import_rows (import_key, file_digest, row_number, attempt_seq, outcome, at)
         VALUES (?, ?, ?, ?, 'sent', ?)
         ON CONFLICT (import_key) DO UPDATE SET attempt_seq = excluded.attempt_seq, outcome = 'sent',
           beneficiary_id = NULL, reason = NULL, at = excluded.at`,
  settle: `UPDATE beneficiary_import_rows SET outcome = ?, beneficiary_id = ?, reason = ?, at = ? WHERE import_key = ?`,
} as const;

export function importKey(digest: string, row: number): string {
  return `${digest}:${row}`;
}

export function createBeneficiaryImportsRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  return {
    get: (key: string) => (sql.get.get(key) as ImportRowRecord | undefined) ?? null,
    /** Before the request leaves: the row is sent under this journal attempt. */
    markSent(digest: string, row: number, attemptSeq: number): void {
      sql.sent.run(importKey(digest, row), digest, row, attemptSeq, now().toISOString());
    },
    settle(key: string, outcome: Exclude<ImportRowState, 'sent'>, beneficiaryId: string | null, reason: string | null) {
      sql.settle.run(outcome, beneficiaryId, reason, now().toISOString(), key);
    },
  };
}
export type BeneficiaryImportsRepository = ReturnType<typeof createBeneficiaryImportsRepository>;
