/**
 * The cross-record reconciliation rule, "the same gateway transaction settled more than once", kept up to
 * date when a settlement date closes. The date's digests are met with its own repeats and with every
 * other cached date's digests of the same gateway; only the rows whose transaction hashes meet are read,
 * grouped by their real (gateway, transaction id), and their `duplicate_settlement` exception is set or
 * cleared. Rows are never deleted, so a digest only grows, and a row that once met a partner keeps
 * meeting it: a partner that vanished or stopped carrying money is seen, and the exception cleared.
 *
 * Cost: one pass over the digests of the gateway per closed date (16 bytes a cached row, kept in memory between
 * closes: see keptDigests), plus a read per row that meets another; the sandbox's 0.5% of transactions settled
 * twice are about that.
 */
import type { Database } from 'better-sqlite3';
import { duplicateSettlement, type ReconciliationException } from '../../shared/reconciliation';
import { decodeDigest, repeatedIds, sharedIds, type Digest } from './digest';
import { ROLLUP_COLUMNS, type Rollup, type RollupRow } from './settlement-rollup';
import { flagsOf, parseExceptions } from './settlement-rows';
import { prepareAll, type Statements } from './statements';

/** How long the other dates' digests stay in memory after a date closes: the next date of a sync closes sooner. */
export const DIGESTS_KEPT_MS = 30_000;

const SQL = {
  digests: `SELECT date, hashes, ids FROM settlement_digests WHERE pg = ?`,
  digest: `SELECT hashes, ids FROM settlement_digests WHERE date = ? AND pg = ?`,
  row: `SELECT id, pg_transaction_id, settlement_date, vanished_at, exceptions, ${ROLLUP_COLUMNS}
        FROM settlements WHERE id = ?`,
  setExceptions: `UPDATE settlements SET exception_flags = ?, exceptions = ? WHERE id = ?`,
} as const;

interface Candidate extends RollupRow {
  id: number;
  pg_transaction_id: string;
  settlement_date: string;
  vanished_at: string | null;
  exceptions: string | null;
}

/**
 * Every date's digest of a gateway, read once and kept while dates keep closing: a sync of 90 dates read every
 * other date's digest at each close, the whole table 90 times (at two million rows, about 3 GB and a fifth of the
 * ingest). Only what is committed is kept: a closing date's own entry is dropped (its new digest is read back when
 * another date needs it, whether its transaction committed or not), a write by another connection (SQLite's
 * data_version) drops all of it, and so does DIGESTS_KEPT_MS without a close (16 bytes a cached row).
 */
function keptDigests(db: Database, sql: Statements<keyof typeof SQL>) {
  let kept = new Map<string, Map<string, Digest | null>>();
  let version: unknown = null;
  let release: ReturnType<typeof setTimeout> | undefined;
  return {
    /** Every date's digest of `pg` but `date`'s; `date`'s entry is dropped. */
    others(pg: string, date: string): Iterable<Digest> {
      const now = db.pragma('data_version', { simple: true });
      if (now !== version) [kept, version] = [new Map(), now];
      clearTimeout(release);
      release = setTimeout(() => (kept = new Map()), DIGESTS_KEPT_MS);
      release.unref?.();
      let dates = kept.get(pg);
      if (!dates) {
        dates = new Map();
        for (const [d, hashes, ids] of sql.digests.raw().iterate(pg) as Iterable<[string, Buffer, Buffer]>) {
          dates.set(d, decodeDigest(hashes, ids));
        }
        kept.set(pg, dates);
      }
      dates.set(date, null);
      const byDate = dates;
      return (function* () {
        for (const [d, digest] of byDate) {
          if (d === date) continue;
          if (digest) {
            yield digest;
            continue;
          }
          const row = sql.digest.raw().get(d, pg) as [Buffer, Buffer] | undefined;
          const read = row ? decodeDigest(row[0], row[1]) : null;
          if (read) {
            byDate.set(d, read);
            yield read;
          } else byDate.delete(d);
        }
      })();
    },
  };
}

export function createDuplicateRule(db: Database) {
  const sql = prepareAll(db, SQL);
  const digests = keptDigests(db, sql);

  /**
   * Runs inside the caller's transaction, for one gateway of the closing date and its digest. Changes of
   * exception flags go to `rollup`, which the caller flushes.
   */
  return function recompute(date: string, pg: string, digest: Digest, rollup: Rollup): void {
    const ids = new Set<number>();
    repeatedIds(digest, ids);
    for (const other of digests.others(pg, date)) sharedIds(digest, other, ids);
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
        if (row.vanished_at === null && flags !== row.exception_flags) {
          rollup.add(row, -1);
          rollup.add({ ...row, exception_flags: flags }, 1);
        }
      }
    }
  };
}
export type DuplicateRule = ReturnType<typeof createDuplicateRule>;
