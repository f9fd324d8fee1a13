/**
 * The cross-record reconciliation rule, "the same gateway transaction settled more than once", kept up to
 * date when a settlement date closes. The date's digests are met with its own repeats and with every
 * other cached date's digests of the same gateway; only the rows whose transaction hashes meet are read,
 * grouped by their real (gateway, transaction id), and their `duplicate_settlement` exception is set or
 * cleared. Rows are never deleted, so a digest only grows, and a row that once met a partner keeps
 * meeting it: a partner that vanished or stopped carrying money is seen, and the exception cleared.
 *
 * Cost: one pass over the stored digests of the gateway per closed date (16 bytes a cached row), plus a
 * read per row that meets another; the sandbox's 0.5% of transactions settled twice are about that.
 */
import type { Database } from 'better-sqlite3';
import { duplicateSettlement, type ReconciliationException } from '../../shared/reconciliation';
import { decodeDigest, repeatedIds, sharedIds, type Digest } from './digest';
import { ROLLUP_COLUMNS, type Rollup, type RollupRow } from './settlement-rollup';
import { flagsOf, parseExceptions } from './settlement-rows';
import { prepareAll } from './statements';

const SQL = {
  otherDigests: `SELECT hashes, ids FROM settlement_digests WHERE pg = ? AND date <> ?`,
  row: `SELECT id, pg_transaction_id, settlement_date, vanished_at, exceptions, ${ROLLUP_COLUMNS}
        FROM settlements WHERE id = ?`,
  setExceptions: `UPDATE settlements SET exception_flags = ?, exceptions = ? WHERE id = ?`,
  /** The sort keys carry each record's exception flags (sort-keys.ts): its date's are out of date now. */
  unsortDay: `DELETE FROM settlement_sorted_days WHERE date = ?`,
} as const;

interface Candidate extends RollupRow {
  id: number;
  pg_transaction_id: string;
  settlement_date: string;
  vanished_at: string | null;
  exceptions: string | null;
}

export function createDuplicateRule(db: Database) {
  const sql = prepareAll(db, SQL);

  /**
   * Runs inside the caller's transaction, for one gateway of the closing date and its digest. Changes of
   * exception flags go to `rollup`, which the caller flushes.
   */
  return function recompute(date: string, pg: string, digest: Digest, rollup: Rollup): void {
    const ids = new Set<number>();
    repeatedIds(digest, ids);
    for (const [hashes, rowIds] of sql.otherDigests.raw().iterate(pg, date) as Iterable<[Buffer, Buffer]>) {
      sharedIds(digest, decodeDigest(hashes, rowIds), ids);
    }
    if (ids.size === 0) return;

    const groups = new Map<string, Candidate[]>();
    for (const id of ids) {
      const row = sql.row.get(id) as Candidate;
      const key = `${row.pg}\u0000${row.pg_transaction_id}`;
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(row);
    }
    for (const rows of groups.values()) {
      // Settled "with money" and still returned by the API: what the rule counts.
      const counted = rows.filter((r) => r.vanished_at === null && r.settled_amount !== 0);
      const exception = duplicateSettlement(counted.map((r) => r.settlement_date));
      for (const row of rows) {
        const wanted = exception !== null && counted.includes(row) ? exception : null;
        const kept = parseExceptions(row.exceptions);
        const current = kept.find((e) => e.rule === 'duplicate_settlement') ?? null;
        if (JSON.stringify(current) === JSON.stringify(wanted)) continue;
        const next: ReconciliationException[] = kept.filter((e) => e.rule !== 'duplicate_settlement');
        if (wanted) next.push(wanted);
        const flags = flagsOf(next);
        sql.setExceptions.run(flags, next.length === 0 ? null : JSON.stringify(next), row.id);
        if (flags !== row.exception_flags) sql.unsortDay.run(row.date);
        if (row.vanished_at === null && flags !== row.exception_flags) {
          rollup.add(row, -1);
          rollup.add({ ...row, exception_flags: flags }, 1);
        }
      }
    }
  };
}
export type DuplicateRule = ReturnType<typeof createDuplicateRule>;
