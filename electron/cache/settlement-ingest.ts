/**
 * Writing one settlement date of a sync run into the cache, page by page, then closing the date.
 *
 * Each page is one transaction: its records (appended, or updated in place when already cached), their
 * exceptions, the rollup and the run's checkpoint for the date. A crash or kill at any moment leaves
 * either the whole page with its checkpoint or neither, so the next attempt starts at the next page with
 * nothing twice and nothing missing.
 *
 * Natural key: (date asked for, gateway, gateway transaction id, settlement time). Within the date it is
 * kept unique by a HashIndex of the rows already cached for the date, loaded when the date starts (empty
 * for a date never synced, the fast path: plain appends). A record whose key is cached updates that row;
 * a record the API sends twice in one run (its pages shifted under us) is stored once. The gateway is the
 * record's `pg`, else the one the sync asked for, else ''.
 *
 * Closing the date (one transaction): rows this run did not see are marked vanished (kept, out of the
 * rollup), the date's digests are stored and the "settled twice" rule is run across dates, the date's rollup and
 * batches are made again from its rows (settlement-verify.ts), and the date is recorded as synced with its time: the
 * "as of" of later reads. Every transaction first checks the file's schema is ours (schema-check.ts): a trigger
 * planted while the app runs refuses the write rather than rewriting the records. A page that changes records takes the date
 * off the dates whose search keys are current; the sync writes them again when its run ends (search-keys.ts).
 *
 * If a transaction fails, this object is spent (its memory no longer matches the file): the sync stops,
 * and the next one starts the date afresh from the file.
 */
import type { Database } from 'better-sqlite3';
import type { SettlementRecord } from '../../shared/api/settlements';
import { checkRecord, type ReconciliationException } from '../../shared/reconciliation';
import { digestsOf, encodeDigest } from './digest';
import { createPassDigest } from './record-digest';
import { diffFields, type ChangeWriter } from './settlement-changes';
import { HashIndex, MAX_CODES, SEEN, VANISHED, transactionHash } from './hash-index';
import type { DuplicateRule } from './settlement-duplicates';
import type { SortedDays } from './sort-keys';
import { PER_DAY, idRange } from './settlement-ids';
import { ROLLUP_COLUMNS, createRollup, type RollupRow } from './settlement-rollup';
import {
  FIELD_COLUMNS,
  ROW_COLUMNS,
  fieldValues,
  flagsOf,
  parseExceptions,
  sameFields,
  type FieldValues,
  type StoredRow,
} from './settlement-rows';
import { prepareAll, type Statements } from './statements';

const SQL = {
  insert: `INSERT INTO settlements (${ROW_COLUMNS.join(', ')}) VALUES (${ROW_COLUMNS.map(() => '?').join(', ')})`,
  byId: `SELECT * FROM settlements WHERE id = ?`,
  update: `UPDATE settlements SET ${FIELD_COLUMNS.map((c) => `${c} = ?`).join(', ')},
             exception_flags = ?, exceptions = ?, seen_run = ?, changed_run = ?, vanished_at = NULL
           WHERE id = ?`,
  seen: `UPDATE settlements SET seen_run = ?, vanished_at = NULL WHERE id = ?`,
  vanish: `UPDATE settlements SET vanished_at = ? WHERE id = ?
           RETURNING ${ROLLUP_COLUMNS}, pg_transaction_id, settlement_date`,
  saveManifest: `INSERT INTO settlement_manifests
                   (run_id, date, pg, pages, records, settled, digest, fetched_at, passes, shifts, stable)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                 ON CONFLICT (date, pg, run_id) DO UPDATE SET pages = excluded.pages, records = excluded.records,
                   settled = excluded.settled, digest = excluded.digest, fetched_at = excluded.fetched_at,
                   passes = excluded.passes, shifts = excluded.shifts, stable = excluded.stable`,
  keysOfDate: `SELECT id, pg, pg_transaction_id, seen_run, vanished_at FROM settlements WHERE id BETWEEN ? AND ?`,
  keysOfDateAndPg: `SELECT id, pg, pg_transaction_id, seen_run, vanished_at FROM settlements
                    WHERE id BETWEEN ? AND ? AND pg = ?`,
  lastId: `SELECT max(id) FROM settlements WHERE id BETWEEN ? AND ?`,
  currentRows: `SELECT pg, pg_transaction_id, settlement_date, settled_amount, ${FIELD_COLUMNS.join(', ')}
                FROM settlements WHERE id BETWEEN ? AND ? AND vanished_at IS NULL`,
  currentRowsOfPg: `SELECT pg, pg_transaction_id, settlement_date, settled_amount, ${FIELD_COLUMNS.join(', ')}
                    FROM settlements WHERE id BETWEEN ? AND ? AND vanished_at IS NULL AND pg = ?`,
  checkpoint: `UPDATE sync_run_dates SET status = 'running', next_offset = ?, last_key = ?, pages = pages + 1,
                 records = records + ?, updated = updated + ?, started_at = coalesce(started_at, ?)
               WHERE run_id = ? AND date = ?`,
  heartbeat: `UPDATE sync_runs SET updated_at = ? WHERE id = ?`,
  saveDigest: `INSERT INTO settlement_digests (date, pg, hashes, ids) VALUES (?, ?, ?, ?)
               ON CONFLICT (date, pg) DO UPDATE SET hashes = excluded.hashes, ids = excluded.ids`,
  hasSums: `SELECT EXISTS (SELECT 1 FROM settlement_rollup WHERE date = :date)
             OR EXISTS (SELECT 1 FROM settlement_batches WHERE date = :date)
             OR EXISTS (SELECT 1 FROM settlement_batch_modes WHERE date = :date)`,
  currentCount: `SELECT coalesce(sum(count), 0) FROM settlement_rollup WHERE date = ?`,
  currentCountOfPg: `SELECT coalesce(sum(count), 0) FROM settlement_rollup WHERE date = ? AND pg = ?`,
  markDay: `INSERT INTO settlement_days (date, scope, synced_at, run_id, records) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (date, scope) DO UPDATE SET
              synced_at = excluded.synced_at, run_id = excluded.run_id, records = excluded.records`,
  unkeyDay: `DELETE FROM settlement_keyed_days WHERE date = ?`,
  dateDone: `UPDATE sync_run_dates SET status = 'completed', vanished = vanished + ?, error = NULL,
               finished_at = ?, started_at = coalesce(started_at, ?)
             WHERE run_id = ? AND date = ?`,
} as const;

export type IngestStatements = Statements<keyof typeof SQL>;

export function prepareIngest(db: Database): IngestStatements {
  return prepareAll(db, SQL);
}

export interface DateScope {
  runId: number;
  /** The settlement date asked for, YYYY-MM-DD. */
  date: string;
  /** The one gateway synced, or null for all of them. */
  pg: string | null;
}

export interface PageResult {
  inserted: number;
  /** Cached before this run and changed. */
  updated: number;
  unchanged: number;
  /** Sent again within this run (pages shifted while paging): stored once. */
  repeated: number;
}

export interface IngestDeps {
  db: Database;
  sql: IngestStatements;
  duplicates: DuplicateRule;
  changes: ChangeWriter;
  /** Takes a date whose records changed off the dates whose sort keys are current (sort-keys.ts). */
  sortedDays: SortedDays;
  now: () => Date;
  /** The date's rollup, batches and batch modes made again from its rows (settlement-verify.ts). */
  recomputeDate(date: string): void;
  /** Throws, saying why, when the file's schema is not ours (schema-check.ts): run first in every write. */
  checkSchema(): void;
}

/** What the sync's passes over a date saw (electron/sync/paging-check.ts): written as the date's manifest. */
export interface DateManifest {
  pages: number;
  passes: number;
  shifts: number;
  stable: boolean;
  /**
   * Per gateway: the last pass's records, their net settled (paise) and digest; null when the pass was resumed
   * after a crash (it saw only its end), and the cache's current records of the date are digested instead.
   */
  gateways: ReadonlyMap<string, { records: number; settled: number; digest: string }> | null;
  /** The digest of a gateway the last pass returned nothing for. */
  emptyDigest: string;
}

export function beginDate(deps: IngestDeps, scope: DateScope) {
  const { db, sql, duplicates, changes, now, sortedDays } = deps;
  const { runId, date } = scope;
  const rollup = createRollup(db);
  const pgs: string[] = [];
  const codeOf = (pg: string) => {
    let code = pgs.indexOf(pg);
    if (code < 0) {
      if (pgs.length === MAX_CODES) throw new RangeError(`more than ${MAX_CODES} gateways on ${date}`);
      code = pgs.push(pg) - 1;
    }
    return code;
  };

  const { lo, hi } = idRange(date, date);
  const index = new HashIndex(lo);
  const existing =
    scope.pg === null ? sql.keysOfDate.raw().iterate(lo, hi) : sql.keysOfDateAndPg.raw().iterate(lo, hi, scope.pg);
  for (const [id, pg, txn, seenRun, vanishedAt] of existing as Iterable<
    [number, string, string, number, string | null]
  >) {
    const flags = (seenRun === runId ? SEEN : 0) | (vanishedAt === null ? 0 : VANISHED);
    index.add(transactionHash(pg, txn), id, codeOf(pg), flags);
  }
  // A date the cache held nothing of is not "changed" by its first sync: every record would be new.
  const compared = index.size > 0;
  // Deltas from nothing are exact: a date with no rows and no sums (its first sync, nearly every date an ingest
  // writes) needs no recompute at its close. Any other date's sums may not be its rows' (edited, or counting a row
  // deleted from the file), and the recompute at its close is what a re-sync pays for repairing them.
  const recompute = compared || sql.hasSums.pluck().get({ date }) === 1;
  /** The next free id of the date: records are appended in arrival order (settlement-ids.ts). */
  let nextId = ((sql.lastId.pluck().get(lo, hi) as number | null) ?? lo - 1) + 1;

  const w: DateWrites = { sql, sortedDays, index, rollup, changes, runId, date, codeOf };

  const writePage = (
    records: readonly SettlementRecord[],
    nextOffset: number,
    lastKey: string | null = null,
  ): PageResult => {
    const result: PageResult = { inserted: 0, updated: 0, unchanged: 0, repeated: 0 };
    const at = now().toISOString();
    for (const r of records) {
      const pg = r.pg ?? scope.pg ?? '';
      const hash = transactionHash(pg, r.pg_transaction_id);
      const values = fieldValues(r);
      const found = findStored(w, hash, pg, r.pg_transaction_id, r.settlement_date);
      if (found === null) {
        if (nextId > hi) throw new RangeError(`more than ${PER_DAY} records on ${date}`);
        insertRecord(w, r, nextId++, pg, hash, values, compared, at);
        result.inserted++;
        continue;
      }
      result[refreshRecord(w, found, r, pg, values, at)]++;
      index.setFlags(found.slot, SEEN);
    }
    rollup.flush();
    // Every page that changes records, not only the first: keys may be written between two pages (search-keys.ts).
    if (result.inserted + result.updated > 0) {
      sql.unkeyDay.run(date);
      sortedDays.takeOff(date);
    }
    sql.checkpoint.run(nextOffset, lastKey, records.length, result.updated, at, runId, date);
    sql.heartbeat.run(at, runId);
    return result;
  };

  const close = (manifest?: DateManifest): { vanished: number; records: number } => {
    const at = now().toISOString();
    const vanished = vanishUnseen(w, at);
    // Sort keys hold current records only: vanished ones are still in them.
    if (vanished > 0) sortedDays.takeOff(date);
    if (manifest) {
      const seenBy = manifest.gateways ?? digestOfStored(sql, scope.pg, lo, hi);
      saveManifest(w, manifest, seenBy, scope.pg === null ? pgs : [scope.pg], at);
    }
    // One gateway at a time: the rule never crosses gateways.
    for (const [code, digest] of digestsOf(index)) {
      const { hashes, ids } = encodeDigest(digest);
      sql.saveDigest.run(date, pgs[code]!, hashes, ids);
      duplicates(date, pgs[code]!, digest, rollup);
    }
    // The rule's deltas reach other dates too; this date's own rollup is then made again from its rows, so a re-sync
    // repairs an edited rollup, or one counting a row deleted from the file, instead of carrying it forward.
    rollup.flush();
    if (recompute) deps.recomputeDate(date);
    const records = (
      scope.pg === null ? sql.currentCount.pluck().get(date) : sql.currentCountOfPg.pluck().get(date, scope.pg)
    ) as number;
    sql.markDay.run(date, scope.pg ?? '', at, runId, records);
    sql.dateDone.run(vanished, at, at, runId, date);
    return { vanished, records };
  };

  let spent = false;
  /** One transaction; on failure the memory is out of step with the file, so nothing more is written. */
  const guarded = <A extends unknown[], R>(work: (...args: A) => R) => {
    // The schema is checked inside the write's own transaction: a trigger planted after the check could only
    // commit after it, and then this transaction's write fails rather than runs it.
    const transaction = db.transaction((...args: A) => {
      deps.checkSchema();
      return work(...args);
    });
    return (...args: A): R => {
      if (spent) throw new Error(`the sync of ${date} stopped after a failed write; sync again to resume`);
      try {
        return transaction(...args);
      } catch (e) {
        spent = true;
        rollup.discard();
        throw e;
      }
    };
  };

  return {
    /** Stores one page and moves the date's checkpoint to `nextOffset`, in one transaction. */
    upsertPage: guarded(writePage),
    /**
     * Starts another pass over the date: what the closing marks vanished is then what this pass does not see
     * (a record seen by an earlier pass and dropped by the service since must not be kept as current).
     */
    newPass(): void {
      if (spent) throw new Error(`the sync of ${date} stopped after a failed write; sync again to resume`);
      index.forEach((slot) => index.setFlags(slot, index.flags(slot) & ~SEEN));
    },
    /** Marks what vanished, runs the cross-date rule and records the date as synced, in one transaction. */
    finish: guarded(close),
  };
}
export type DateIngest = ReturnType<typeof beginDate>;

/** What the writes of one date share. */
interface DateWrites {
  sql: IngestStatements;
  sortedDays: SortedDays;
  /** The date's cached records by key hash, with whether this run saw each and whether it had vanished. */
  index: HashIndex;
  rollup: ReturnType<typeof createRollup>;
  changes: ChangeWriter;
  runId: number;
  date: string;
  /** The gateway's number in the index; a date holds at most MAX_CODES gateways. */
  codeOf(pg: string): number;
}

/** The cached row with this exact key, found through the index; its slot too. */
function findStored(w: DateWrites, hash: number, pg: string, txn: string, settledAt: string) {
  for (let slot = w.index.find(hash); slot >= 0; slot = w.index.find(hash, slot)) {
    const row = w.sql.byId.get(w.index.rowId(slot)) as StoredRow;
    if (row.settlement_date === settledAt && row.pg_transaction_id === txn && row.pg === pg) return { slot, row };
  }
  return null;
}

/** A record the cache did not hold, appended under `id`; journaled as new unless it is the date's first sync. */
function insertRecord(
  w: DateWrites,
  r: SettlementRecord,
  id: number,
  pg: string,
  hash: number,
  values: FieldValues,
  compared: boolean,
  at: string,
): void {
  const exceptions = checkRecord(r);
  const exceptionFlags = flagsOf(exceptions);
  w.sql.insert.run(
    id,
    w.date,
    pg,
    r.pg_transaction_id,
    r.settlement_date,
    ...values,
    exceptionFlags,
    exceptions.length === 0 ? null : JSON.stringify(exceptions),
    w.runId,
  );
  w.index.add(hash, id, w.codeOf(pg), SEEN);
  w.rollup.addRecord(r, w.date, pg, exceptionFlags, 1);
  if (compared) {
    const key = { runId: w.runId, recordId: id, date: w.date, pg, pgTransactionId: r.pg_transaction_id };
    w.changes({ ...key, settlementDate: r.settlement_date, kind: 'new' }, at);
  }
}

/**
 * A record the cache held, sent again: marked seen, brought back if it had vanished, rewritten if a field changed.
 * Says which count of the page it adds to: sent earlier in this run is `repeated` whatever else it is.
 */
function refreshRecord(
  w: DateWrites,
  { slot, row }: { slot: number; row: StoredRow },
  r: SettlementRecord,
  pg: string,
  values: FieldValues,
  at: string,
): 'repeated' | 'unchanged' | 'updated' {
  const flags = w.index.flags(slot);
  const counted = (flags & VANISHED) === 0;
  const key = { runId: w.runId, recordId: row.id, date: w.date, pg, pgTransactionId: r.pg_transaction_id };
  if (sameFields(row, values)) {
    w.sql.seen.run(w.runId, row.id);
    if (!counted) {
      w.rollup.add(row as unknown as RollupRow, 1);
      // Sort keys hold current records only: a record back from vanished is missing from them.
      w.sortedDays.takeOff(w.date);
      w.changes({ ...key, settlementDate: r.settlement_date, kind: 'returned' }, at);
    }
    return flags & SEEN ? 'repeated' : 'unchanged';
  }
  const exceptions = withDuplicateKept(checkRecord(r), row.exceptions);
  const exceptionFlags = flagsOf(exceptions);
  w.sql.update.run(
    ...values,
    exceptionFlags,
    exceptions.length === 0 ? null : JSON.stringify(exceptions),
    w.runId,
    w.runId,
    row.id,
  );
  if (counted) w.rollup.add(row as unknown as RollupRow, -1);
  w.rollup.addRecord(r, w.date, pg, exceptionFlags, 1);
  const fields = diffFields(row, values);
  w.changes({ ...key, settlementDate: r.settlement_date, kind: counted ? 'changed' : 'returned', fields }, at);
  return flags & SEEN ? 'repeated' : 'updated';
}

/** Marks vanished every cached record of the date this pass did not see, journaled; says how many. */
function vanishUnseen(w: DateWrites, at: string): number {
  let vanished = 0;
  w.index.forEach((slot, _hash, rowId) => {
    if (w.index.flags(slot) !== 0) return;
    const row = w.sql.vanish.get(at, rowId) as RollupRow & { pg_transaction_id: string; settlement_date: string };
    w.rollup.add(row, -1);
    w.index.setFlags(slot, VANISHED);
    vanished++;
    w.changes(
      {
        runId: w.runId,
        recordId: rowId,
        date: w.date,
        pg: row.pg,
        pgTransactionId: row.pg_transaction_id,
        settlementDate: row.settlement_date,
        kind: 'vanished',
      },
      at,
    );
  });
  return vanished;
}

/** The digest per gateway of the date's current records: a resumed pass saw only its end, so the cache speaks. */
function digestOfStored(sql: IngestStatements, pg: string | null, lo: number, hi: number) {
  const digest = createPassDigest(pg);
  const rows = (
    pg === null ? sql.currentRows.raw().iterate(lo, hi) : sql.currentRowsOfPg.raw().iterate(lo, hi, pg)
  ) as Iterable<[string, string, string, number, ...FieldValues]>;
  for (const [pg, txn, settledAt, settled, ...values] of rows) digest.addRow(pg, txn, settledAt, settled, values);
  return digest.gateways();
}

/** The date's manifest, a row per gateway seen or asked for; one the passes returned nothing for gets the empty digest. */
function saveManifest(
  w: DateWrites,
  manifest: DateManifest,
  seenBy: NonNullable<DateManifest['gateways']>,
  asked: readonly string[],
  at: string,
): void {
  for (const pg of new Set([...seenBy.keys(), ...asked])) {
    const seen = seenBy.get(pg) ?? { records: 0, settled: 0, digest: manifest.emptyDigest };
    w.sql.saveManifest.run(
      w.runId,
      w.date,
      pg,
      manifest.pages,
      seen.records,
      seen.settled,
      seen.digest,
      at,
      manifest.passes,
      manifest.shifts,
      manifest.stable ? 1 : 0,
    );
  }
}

/** A record's own exceptions, keeping the cross-record one (recomputed when the date closes). */
function withDuplicateKept(own: ReconciliationException[], stored: string | null): ReconciliationException[] {
  const duplicate = parseExceptions(stored).find((e) => e.rule === 'duplicate_settlement');
  return duplicate ? [...own, duplicate] : own;
}
