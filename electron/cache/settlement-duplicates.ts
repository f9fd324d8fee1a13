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
import { DigestTable, decodeDigest, repeatedIds, type Digest } from './digest';
import { idRange } from './settlement-ids';
import { ROLLUP_COLUMNS, type Rollup, type RollupRow } from './settlement-rollup';
import { flagsOf, parseExceptions } from './settlement-rows';
import type { SortedDays } from './sort-keys';
import { prepareAll, type Statements } from './statements';

/** How long the other dates' digests stay in memory after a date closes: the next date of a sync closes sooner. */
export const DIGESTS_KEPT_MS = 30_000;

const SQL = {
  digests: `SELECT hashes, ids FROM settlement_digests WHERE pg = ?`,
  digest: `SELECT hashes, ids FROM settlement_digests WHERE date = ? AND pg = ?`,
  /** Prepared once: db.pragma() prepares its statement at each call, and the rule asks at every close. */
  dataVersion: `SELECT data_version FROM pragma_data_version`,
  row: `SELECT id, pg_transaction_id, settlement_date, vanished_at, exceptions, ${ROLLUP_COLUMNS}
        FROM settlements WHERE id = ?`,
  setExceptions: `UPDATE settlements SET exception_flags = ?, exceptions = ? WHERE id = ?`,
  /** The sort keys carry each record's exception flags (sort-keys.ts): its date's are out of date now. */
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
 * other date's digest at each close and merged it with the closing one, the whole table 90 times over (at two
 * million rows, about 3 GB read and a fifth of the ingest). Kept as one DigestTable of every row, which the
 * closing date's hashes are met in (its own rows, by their ids, skipped): a probe a row. A sorted digest of all
 * dates, searched, with the dates closed since met one by one and merged in every 16 dates, took 1.0 s of a
 * 2,000,000-row ingest against 0.57 s.
 *
 * A closing date's digest is added when the next date closes, read back from the file: what its close committed,
 * whether it did or not. A write by another connection (SQLite's data_version) drops all of it, and so do
 * DIGESTS_KEPT_MS without a close (16 bytes a slot, 21 to 43 bytes a cached row).
 */
function keptDigests(sql: Statements<keyof typeof SQL>) {
  let kept = new Map<string, DigestTable>();
  /** Per gateway, the date closed last: its digest is added at the next close. */
  let lastClosed = new Map<string, string>();
  let version: unknown = null;
  let release: ReturnType<typeof setTimeout> | undefined;
  const forget = () => ([kept, lastClosed] = [new Map(), new Map()]);

  const keep = (pg: string): DigestTable => {
    const table = new DigestTable();
    for (const [hashes, ids] of sql.digests.raw().iterate(pg) as Iterable<[Buffer, Buffer]>) {
      table.add(decodeDigest(hashes, ids));
    }
    return table;
  };

  return {
    /** Adds to `out` the rows of `pg`'s other dates whose hash meets one of `digest` (the closing `date`'s), and those. */
    shared(pg: string, date: string, digest: Digest, out: Set<number>): void {
      const now = sql.dataVersion.pluck().get();
      if (now !== version) {
        forget();
        version = now;
      }
      clearTimeout(release);
      release = setTimeout(forget, DIGESTS_KEPT_MS);
      release.unref?.();
      let table = kept.get(pg);
      if (!table) kept.set(pg, (table = keep(pg)));
      const last = lastClosed.get(pg);
      const committed =
        last === undefined ? undefined : (sql.digest.raw().get(last, pg) as [Buffer, Buffer] | undefined);
      if (committed) table.add(decodeDigest(committed[0], committed[1]));
      const { lo, hi } = idRange(date, date);
      table.meet(digest, lo, hi, out);
      lastClosed.set(pg, date);
    },
  };
}

export function createDuplicateRule(db: Database, sortedDays: SortedDays) {
  const sql = prepareAll(db, SQL);
  const digests = keptDigests(sql);

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
        if (flags !== row.exception_flags) sortedDays.takeOff(row.date);
        if (row.vanished_at === null && flags !== row.exception_flags) {
          rollup.add(row, -1);
          rollup.add({ ...row, exception_flags: flags }, 1);
        }
      }
    }
  };
}
export type DuplicateRule = ReturnType<typeof createDuplicateRule>;
