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
import { decodeDigest, mergeAll, repeatedIds, sharedIds, sharedOutside, type Digest } from './digest';
import { idRange } from './settlement-ids';
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

/** Dates closed since a gateway's digests were merged into one before they are merged again. */
export const FRESH_DATES = 16;

interface Kept {
  /** Every date's digest as read when kept, merged into one sorted digest. */
  base: Digest;
  /** Dates closed since: their digest, or null until read back from the file (what their close committed). */
  fresh: Map<string, Digest | null>;
}

/**
 * Every date's digest of a gateway, read once and kept while dates keep closing: a sync of 90 dates read every
 * other date's digest at each close and merged it with the closing one, the whole table 90 times over (at two
 * million rows, about 3 GB read and a fifth of the ingest).
 *
 * Kept as one sorted digest of all dates (`base`), which the closing date's digest is searched in (its own
 * entries there, by their ids, skipped), and the dates closed since (`fresh`), merged one by one and folded into
 * the base every FRESH_DATES dates. A closing date's fresh entry is read back from the file when next needed,
 * whether its transaction committed or not. A digest only grows (rows are never deleted), so an older copy of a
 * date's entries left in the base only names rows its newer digest names too. A write by another connection
 * (SQLite's data_version) drops all of it, and so do DIGESTS_KEPT_MS without a close (16 bytes a cached row).
 */
function keptDigests(db: Database, sql: Statements<keyof typeof SQL>) {
  let kept = new Map<string, Kept>();
  let version: unknown = null;
  let release: ReturnType<typeof setTimeout> | undefined;

  const read = (date: string, pg: string): Digest | null => {
    const row = sql.digest.raw().get(date, pg) as [Buffer, Buffer] | undefined;
    return row ? decodeDigest(row[0], row[1]) : null;
  };
  const keep = (pg: string): Kept => {
    const digests: Digest[] = [];
    for (const [, hashes, ids] of sql.digests.raw().iterate(pg) as Iterable<[string, Buffer, Buffer]>) {
      digests.push(decodeDigest(hashes, ids));
    }
    return { base: mergeAll(digests), fresh: new Map() };
  };

  return {
    /** Adds to `out` the rows of `pg`'s other dates whose hash meets one of `digest` (the closing `date`'s), and those. */
    shared(pg: string, date: string, digest: Digest, out: Set<number>): void {
      const now = db.pragma('data_version', { simple: true });
      if (now !== version) [kept, version] = [new Map(), now];
      clearTimeout(release);
      release = setTimeout(() => (kept = new Map()), DIGESTS_KEPT_MS);
      release.unref?.();
      let state = kept.get(pg);
      if (!state) kept.set(pg, (state = keep(pg)));
      const { lo, hi } = idRange(date, date);
      sharedOutside(digest, state.base, lo, hi, out);
      for (const [d, known] of state.fresh) {
        if (d === date) continue;
        const other = known ?? read(d, pg);
        if (other) {
          state.fresh.set(d, other);
          sharedIds(digest, other, out);
        }
      }
      state.fresh.set(date, null);
      if (state.fresh.size > FRESH_DATES) {
        const fresh = [...state.fresh].map(([d, known]) => known ?? read(d, pg));
        state.base = mergeAll([state.base, ...fresh.filter((f): f is Digest => f !== null)]);
        state.fresh.clear();
      }
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
    digests.shared(pg, date, digest, ids);
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
