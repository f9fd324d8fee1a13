/**
 * The cache file itself: settings, migrations (each from an empty file and from the version before it),
 * a file from a newer app, and recovery from a file SQLite cannot read (moved aside, never deleted).
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/cache/database';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord } from '../../shared/api/settlements';
import { syncRunInto } from '../support/settlement-run';
import { batchModesOfRecords, chartOfSearch, storedBatchModes } from '../support/batch-mode-truth';
import { CacheVersionError, LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from '../../electron/cache/migrations';
import { KEYED_SORT_COLUMNS } from '../../shared/settlement-query';

let dir: string;
const at = new Date('2025-01-10T10:11:12.345Z');
const now = () => at;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A row in each table a version adds, so a later migration can be seen to keep them. */
const SEEDS: Record<number, string[]> = {
  1: [
    `INSERT INTO sync_runs (id, kind, range_from, range_to, status, started_at, updated_at)
     VALUES (1, 'settlements', '2025-01-01', '2025-01-02', 'completed', 't', 't')`,
    `INSERT INTO sync_run_dates (run_id, date, status) VALUES (1, '2025-01-01', 'completed')`,
  ],
  2: [
    `INSERT INTO settlements (id, date, pg, pg_transaction_id, settlement_date, order_date, order_status, pg_status,
       payment_mode, amount, mer_service_fee, mer_service_tax, merchant_subvention_amount, cgst, igst, sgst,
       settled_amount, seen_run)
     VALUES (1, '2025-01-01', 'payu', 'pay_1', '2025-01-01 11:00:00', '2024-12-31 09:00:00', 'success', 'success',
       'UPI', 1000, 15, 3, 0, 1, 0, 2, 982, 1)`,
    `INSERT INTO settlement_rollup VALUES ('2025-01-01', 'payu', 'UPI', 'success', 'success', 0, 1, 1000, 15, 3, 982)`,
    `INSERT INTO settlement_digests VALUES ('2025-01-01', 'payu', x'00', x'00')`,
    `INSERT INTO settlement_days VALUES ('2025-01-01', '', 't', 1, 1)`,
  ],
  3: [`INSERT INTO beneficiaries (beneficiary_id, name, fetched_at) VALUES ('ben_1', 'Asha', 't')`],
  4: [`INSERT INTO payout_lookups (payout_id, mode, looked_up_at) VALUES ('po_1', 'normal', 't')`],
  5: [
    // Columns named: a later version adds some, and the seeds of every version before one run on it.
    `INSERT INTO payout_accounts (pg, account_number, ifsc_code, account_type, currency, extra, first_seen_at, last_seen_at)
     VALUES ('payu', '1234', NULL, NULL, NULL, NULL, 't', 't')`,
    `INSERT INTO payout_gateway_errors VALUES ('easebuzz', '500', 'down', 't')`,
    `INSERT INTO balance_snapshots (pg, account_number, taken_at, source, available_balance) VALUES ('payu', '1234', 't', 'accounts', 100)`,
  ],
  6: [
    `INSERT INTO payout_lookups (payout_id, mode, looked_up_at, gateway_error_code, gateway_error_message)
     VALUES ('po_6', 'normal', 't', 'E1', 'account frozen')`,
    `INSERT INTO payout_accounts (pg, account_number, transaction_limit, first_seen_at, last_seen_at)
     VALUES ('cashfree', '5678', 2500000, 't', 't')`,
  ],
  7: [
    `INSERT INTO settlements (id, date, pg, pg_transaction_id, settlement_date, order_id, order_date, utr, order_status,
       pg_status, payment_mode, amount, mer_service_fee, mer_service_tax, merchant_subvention_amount, cgst, igst, sgst,
       settled_amount, seen_run)
     VALUES (2, '2025-01-02', 'payu', 'pay_7', '2025-01-02 11:00:00', 'ord_7', '2025-01-01 09:00:00', 'UTR7', 'success',
       'success', 'UPI', 1000, 15, 3, 0, 1, 0, 2, 982, 1)`,
  ],
  8: [
    `INSERT INTO journal VALUES (1, 't', 'cache', 'cache.cleared', 'done', NULL, NULL, 's', '{}', '0', 'u', 'p', 'h')`,
    `INSERT INTO period_closes (id, range_from, range_to, closed_at, close_seq, digest, records, totals, state)
     VALUES (1, '2025-01-01', '2025-01-02', 't', 1, 'd', 0, '[]', 'closed')`,
    `INSERT INTO period_close_records VALUES (1, '2025-01-01', 'payu', 'pay_1', '2025-01-01 11:00:00', 'h')`,
  ],
  9: [
    `INSERT INTO payout_check_runs (id, mode, started_at) VALUES (1, 'advance', 't')`,
    `INSERT INTO payout_check_items (run_id, position, payout_id, outcome) VALUES (1, 0, 'po_9', 'queued')`,
    `INSERT INTO payout_first_seen VALUES ('po_9', 't')`,
    `INSERT INTO payout_settings VALUES ('payouts', '{}')`,
  ],
  // The beneficiary import, bank-detail changes and low-headroom thresholds (issue 15).
  10: [
    `INSERT INTO beneficiary_import_rows VALUES ('d:2', 'd', 2, 1, 'created', 'bene_1', NULL, 't')`,
    `INSERT INTO beneficiary_changes VALUES (1, 'bene_1', 't', '1', 'A', NULL, '2', 'B', NULL)`,
    `INSERT INTO headroom_thresholds VALUES ('payu', 100)`,
  ],
  // Settlement batches, bank statements and their matches (issue 14, part A).
  11: [
    `INSERT INTO settlement_batches VALUES ('2025-01-01', 'payu', 'UTR7', '2025-01-01 11:00:00', 1, 1000, 15, 3, 0, 982, 0)`,
    `INSERT INTO bank_accounts (id, name, created_at) VALUES (1, 'HDFC', 't')`,
    `INSERT INTO bank_statement_imports (id, account_id, file_name, digest, layout, imported_at, lines, added, bad)
     VALUES (1, 1, 'f.csv', 'd', 'HDFC Bank', 't', 1, 1, 0)`,
    `INSERT INTO bank_lines VALUES (1, 1, 'k', '2025-01-01', NULL, 'NEFT CR-X-UTR7', NULL, 982, NULL, 'NEFT', 'UTR7', 1, 2)`,
    `INSERT INTO recon_matches (id, account_id, batch_date, pg, utr, settlement_date, how, note, matched_at)
     VALUES (1, 1, '2025-01-01', 'payu', 'UTR7', '2025-01-01 11:00:00', 'utr', NULL, 't')`,
    `INSERT INTO recon_match_lines VALUES (1, 1)`,
    `INSERT INTO recon_apart VALUES ('k', 1, 'not ours', 't')`,
    `INSERT INTO recon_settings VALUES ('matching', '{}')`,
  ],
  // What each sync changed, paging manifests and the exception workflow (issue 14, part B).
  12: [
    `INSERT INTO settlement_changes VALUES (1, 1, 1, '2025-01-01', 'payu', 'pay_1', '2025-01-01 11:00:00', 'changed',
       '[{"field":"utr","old":null,"new":"U1"}]', 't')`,
    `INSERT INTO settlement_manifests VALUES (1, '2025-01-01', 'payu', 1, 1, 982, 'd', 't', 1, 0, 1)`,
    `INSERT INTO settlement_exception_states VALUES ('2025-01-01', 'payu', 'pay_1', '2025-01-01 11:00:00', 'acknowledged',
       'Asha', 'called the bank', 't', NULL, NULL, NULL, NULL)`,
    `INSERT INTO settlement_exception_events (date, pg, pg_transaction_id, settlement_date, at, action, text)
       VALUES ('2025-01-01', 'payu', 'pay_1', '2025-01-01 11:00:00', 't', 'acknowledge', NULL)`,
  ],
  // Orders and subscriptions looked up, for offline review (issue 16).
  13: [
    `INSERT INTO merchant_orders VALUES ('ord_1', '{}', 't', '[]', NULL)`,
    `INSERT INTO merchant_subscriptions VALUES ('sub_1', 'rcpt_1', '{}', 't')`,
  ],
  // Settlement sort keys per date (issue 19, part A).
  14: [
    `INSERT INTO settlement_sort_codes VALUES (1, 'pg', 'payu')`,
    `INSERT INTO settlement_sort_codes VALUES (2, 'mode', 'UPI')`,
    `INSERT INTO settlement_sort_codes VALUES (3, 'order_status', 'success')`,
    `INSERT INTO settlement_sort_keys VALUES (20089, 2, 1, 1000, 1, 0, 2, 3, 3, 0)`,
    `INSERT INTO settlement_sorted_days VALUES ('2025-01-01')`,
  ],
  // Marks over the sort keys that count a filter's keys (issue 19).
  15: [
    `INSERT INTO settlement_sort_classes VALUES (1, 2, 3, 3, 0)`,
    `INSERT INTO settlement_sort_marks VALUES (2, 20089, 1, 0, 1000, 1, x'0100000001000000')`,
    `INSERT INTO settlement_sort_marks VALUES (2, 20089, 1, 1, NULL, NULL, x'0100000001000000')`,
  ],
  // The marks packed one row per list (issue 19): one class (code 1), none before the mark, one in the list.
  16: [
    `INSERT INTO settlement_sort_mark_lists VALUES (2, 20089, 1, '[[1000,1]]', x'01000000010000000000000001000000')`,
  ],
  // The two statuses' sort keys (issue 19): column 9 is the order status, a key of its text.
  17: [`INSERT INTO settlement_sort_keys VALUES (20089, 9, 1, 'success', 1, 0, 2, 3, 3, 0)`],
  // A journal entry on its way to the desk, and one the desk took as its entry 7.
  18: [`INSERT INTO journal_desk_outbox VALUES (1, NULL)`, `INSERT INTO journal_desk_outbox VALUES (2, 7)`],
  // A desk's resolved exception, as the grid's copy holds it.
  19: [
    `INSERT INTO desk_exception_states VALUES ('2025-01-01', 'cashfree', 'TXN1', '2025-01-01 10:00:00', 'resolved', NULL)`,
  ],
  // A match by hand with a difference keeps why (issue 30 #14).
  20: [
    `INSERT INTO bank_accounts (id, name, created_at) VALUES (2, 'ICICI', 't')`,
    `INSERT INTO recon_matches (id, account_id, batch_date, pg, utr, settlement_date, how, note, reason, matched_at)
     VALUES (2, 2, '2025-01-02', 'payu', 'UTR8', '2025-01-02 11:00:00', 'manual', 'by phone', 'bank charges', 't')`,
  ],
  // A statement imported with its completeness proof (issue 31).
  21: [
    `INSERT INTO bank_accounts (id, name, created_at) VALUES (3, 'RBL', 't')`,
    `INSERT INTO bank_statement_imports VALUES (2, 3, 'g.xls', 'e', 'RBL Bank', 't', 1, 1, 0, '{"holds":true,"sentence":"Complete."}')`,
  ],
  // A date synced while the desk could not be reached.
  22: [`INSERT INTO desk_unpublished_dates VALUES ('2025-01-03', 't')`],
  // The journal's last verification and the Today screen's refresh window (issue 35).
  23: [
    `INSERT INTO journal_verifications (id, at, ok, entries, problem) VALUES (1, 't', 1, 12, NULL)`,
    `INSERT INTO today_settings (id, refresh_days) VALUES (1, 5)`,
  ],
  // Each date's exception figures, kept for Today.
  24: [
    `INSERT INTO exception_day_figures (date, flags, state, assignee, records, risk) VALUES ('2025-01-02', 1, 'open', '', 3, 900)`,
  ],
  // Refunds and chargebacks kept apart in the rollup and the batches (issue 31 #5).
  25: [
    `INSERT INTO settlement_rollup (date, pg, payment_mode, order_status, pg_status, exception_flags, count, amount, fees,
       taxes, settled, refunds, chargebacks)
     VALUES ('2025-01-02', 'payu', 'UPI', 'refunded', 'refunded', 0, 1, -500, 0, 0, -500, -500, 0)`,
  ],
  // The sort keys packed in blocks (issue 33): one key, id offset 1 in 3 bytes, class 1 in a byte.
  26: [`INSERT INTO settlement_sort_blocks VALUES (2, 20089, 1, 0, x'010000', x'01')`],
  // Search keys by day number and the record's offset in its day (issue 33).
  27: [
    `INSERT INTO settlement_keys VALUES (20089, 'UTR1', 1)`,
    `INSERT INTO settlement_keyed_days VALUES ('2025-01-01')`,
  ],
  // The chart's sums per UTR batch and payment mode (issue 33): migration 28 fills UTR7's from seed 7's record.
  28: [`INSERT INTO settlement_batch_modes VALUES ('2025-01-01', 'payu', 'UTR1', 'CC', 1, 2000, 30, 5, 1965, 0, 0)`],
};

/** Tables a later version drops, with that version: what they held is written again from the records. */
const DROPPED: Record<string, number> = { settlement_sort_marks: 16, settlement_sort_keys: 26 };
/** Tables later versions empty, with those versions: their rows are written again from the records. */
const EMPTIED: Record<string, number[]> = { settlement_sorted_days: [17, 26], settlement_sort_mark_lists: [26] };

const tableOf = (sql: string) => /INSERT INTO (\w+)/.exec(sql)![1]!;

/** Whether a file at `version` has the table a seed fills. */
const seeded = (sql: string, version: number) => (DROPPED[tableOf(sql)] ?? Infinity) > version;

/** Rows in the tables seeded up to `upTo` that a file at `version` still has. */
function rowCounts(db: Database.Database, upTo: number, version = upTo): Record<string, number> {
  const out: Record<string, number> = {};
  for (let v = 1; v <= upTo; v++) {
    for (const sql of SEEDS[v]!.filter((seed) => seeded(seed, version))) {
      const table = tableOf(sql);
      out[table] = db.prepare(`SELECT count(*) AS n FROM ${table}`).pluck().get() as number;
    }
  }
  return out;
}

describe('migrations', () => {
  it('every version has seed rows here, numbered 1, 2, 3, ... with no gap', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
    expect(Object.keys(SEEDS).map(Number)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  for (const { version, name } of MIGRATIONS) {
    it(`${version} (${name}) runs on an empty file and is recorded`, () => {
      const db = new Database(join(dir, `empty-${version}.sqlite`));
      expect(migrate(db, now, version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
      expect(schemaVersion(db)).toBe(version);
      expect(db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all()).toEqual(
        MIGRATIONS.slice(0, version).map((m) => ({ version: m.version, name: m.name, applied_at: at.toISOString() })),
      );
      for (const sql of SEEDS[version]!) db.exec(sql);
      db.close();
    });

    if (version > 1) {
      it(`${version} (${name}) runs on a file at version ${version - 1} with data, and keeps the data`, () => {
        const db = new Database(join(dir, `previous-${version}.sqlite`));
        // Each version's seeds at that version: a later one may add columns an earlier seed does not name.
        for (let v = 1; v < version; v++) {
          migrate(db, now, v);
          for (const sql of SEEDS[v]!.filter((seed) => seeded(seed, version - 1))) db.exec(sql);
        }
        const before = rowCounts(db, version - 1, version);
        for (const [table, emptiedAt] of Object.entries(EMPTIED)) if (emptiedAt.includes(version)) before[table] = 0;
        expect(migrate(db, now, version)).toEqual([version]);
        expect(schemaVersion(db)).toBe(version);
        expect(rowCounts(db, version - 1, version)).toEqual(before);
        const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all();
        for (const [table, droppedAt] of Object.entries(DROPPED))
          if (droppedAt <= version) expect(tables).not.toContain(table);
        for (const sql of SEEDS[version]!) db.exec(sql);
        expect(migrate(db, now)).toEqual(MIGRATIONS.filter((m) => m.version > version).map((m) => m.version));
        db.close();
      });
    }
  }

  it("28: a cache synced at 27 draws a UTR search's chart from its batches' sums, right the first time it opens", () => {
    const file = join(dir, 'synced-at-27.sqlite');
    const cache = openCache(file, { now });
    const dates = ['2025-01-15', '2025-01-16'];
    const source = new SettlementSource(9, 600, ['payu', 'cashfree', 'razorpay']);
    const recordsOf = (date: string) => source.page(date, undefined, 0, 600).data.map((w) => settlementRecord.parse(w));
    syncRunInto(cache, Object.fromEntries(dates.map((d) => [d, recordsOf(d)])), 250);
    // Records vanished and moved to a new UTR, which the fill must leave out and follow.
    const { removed } = source.mutate(dates[1]!, 20, 15);
    syncRunInto(cache, { [dates[1]!]: recordsOf(dates[1]!) }, 250);
    const filled = storedBatchModes(cache.db);
    expect(removed.length).toBeGreaterThan(0);
    cache.close();
    // The file as version 27 left it: no table, the version before.
    const old = new Database(file);
    old.exec(
      `DROP TABLE settlement_batch_modes; DELETE FROM schema_migrations WHERE version = 28; PRAGMA user_version = 27`,
    );
    old.close();

    const upgraded = openCache(file, { now });
    try {
      expect(schemaVersion(upgraded.db)).toBe(LATEST_VERSION);
      expect(storedBatchModes(upgraded.db)).toEqual(batchModesOfRecords(upgraded.db));
      expect(storedBatchModes(upgraded.db)).toEqual(filled);
      const utr = upgraded.db
        .prepare(`SELECT utr FROM settlement_batches WHERE utr <> '' ORDER BY records DESC LIMIT 1`)
        .pluck()
        .get() as string;
      const range = { from: dates[0]!, to: dates[1]! };
      expect(upgraded.settlements.explain('aggregate', { ...range, search: utr, limit: 1 })[0]).toMatch(
        /^SEARCH settlement_batch_modes /,
      );
      expect(upgraded.settlements.aggregate({ ...range, search: utr }).byDate).toEqual(
        chartOfSearch(upgraded.db, range.from, range.to, utr),
      );
    } finally {
      upgraded.close();
    }
  });

  it('26: dates keyed before it are keyed again, in blocks, when a sync next ends; reads stay exact meanwhile', () => {
    const file = join(dir, 'keyed-before-26.sqlite');
    const cache = openCache(file, { now });
    const date = '2025-01-15';
    const records = new SettlementSource(5, 600, ['payu', 'cashfree']).page(date, undefined, 0, 600);
    syncRunInto(cache, { [date]: records.data.map((w) => settlementRecord.parse(w)) }, 1000);
    /** Keys in the blocks: a class byte each. */
    const keys = () =>
      cache.db.prepare('SELECT coalesce(sum(length(classes)), 0) FROM settlement_sort_blocks').pluck().get() as number;
    // Every column's lists together hold every record once.
    expect(keys()).toBe(KEYED_SORT_COLUMNS.length * 600);
    /** Every record in the order status's order, read in pages of 250, each after the one before's cursor. */
    const byStatus = () => {
      const ids: string[] = [];
      let after: string | undefined;
      do {
        const page = cache.settlements.query({
          from: date,
          to: date,
          sort: { column: 'order_status', direction: 'asc' },
          limit: 250,
          ...(after === undefined ? {} : { after }),
        });
        for (const r of page.rows) ids.push(`${r.order_status}/${r.id}`);
        after = page.nextCursor ?? undefined;
      } while (after !== undefined);
      return ids;
    };
    const plain = (
      cache.db.prepare('SELECT order_status, id FROM settlements ORDER BY order_status, id').raw(true).all() as [
        string,
        number,
      ][]
    ).map(([status, id]) => `${status}/${id}`);
    expect(byStatus()).toEqual(plain);
    // A file that was at version 25, as migration 26 leaves it: no keys, no marks, no date current.
    cache.db.exec(
      'DELETE FROM settlement_sort_blocks; DELETE FROM settlement_sort_mark_lists; DELETE FROM settlement_sorted_days',
    );
    expect(byStatus()).toEqual(plain);
    expect(cache.settlements.sortKeys.writeOne()).toBe(date);
    expect(cache.settlements.sortKeys.writeOne()).toBeNull();
    expect(keys()).toBe(KEYED_SORT_COLUMNS.length * 600);
    expect(byStatus()).toEqual(plain);
    // A date with no current records has no keys and no marks, and is not taken up again and again.
    const empty = cache.syncRuns.claim('settlements', { from: '2025-01-16', to: '2025-01-16', pg: null }, [
      '2025-01-16',
    ]).run;
    const ingest = cache.settlements.beginDate({ runId: empty.id, date: '2025-01-16', pg: null });
    ingest.upsertPage([], 0);
    ingest.finish();
    cache.syncRuns.finish(empty.id, 'completed');
    expect(cache.settlements.sortKeys.writeOne()).toBe('2025-01-16');
    expect(cache.settlements.sortKeys.writeOne()).toBeNull();
    expect(keys()).toBe(KEYED_SORT_COLUMNS.length * 600);
    cache.close();
  });

  it('25: the rollup and batches of a file at 24 get their refunds and chargebacks from their current rows', () => {
    const db = new Database(join(dir, 'before-25.sqlite'));
    migrate(db, now, 24);
    const insert = db.prepare(
      `INSERT INTO settlements (id, date, pg, pg_transaction_id, settlement_date, order_date, order_status, pg_status,
         payment_mode, amount, mer_service_fee, mer_service_tax, merchant_subvention_amount, cgst, igst, sgst,
         settled_amount, seen_run, utr, dispute_id, vanished_at)
       VALUES (?, '2025-01-01', 'payu', ?, '2025-01-01 11:00:00', '2024-12-31 09:00:00', 'success', 'success', 'UPI',
         ?, 0, 0, 0, 0, 0, 0, ?, 1, 'UTR1', ?, ?)`,
    );
    // A sale, a refund, a refund whose dispute id is blanks, a chargeback, and a refund that vanished.
    const rows: [number, string, number, string | null, string | null][] = [
      [1, 'sale', 10_000, null, null],
      [2, 'refund', -700, null, null],
      [3, 'blank', -300, ' \t', null],
      [4, 'chargeback', -2_000, 'dsp_1', null],
      [5, 'gone', -50, null, 't'],
    ];
    for (const [id, txn, amount, dispute, vanished] of rows) insert.run(id, txn, amount, amount, dispute, vanished);
    db.exec(
      `INSERT INTO settlement_rollup VALUES ('2025-01-01', 'payu', 'UPI', 'success', 'success', 0, 4, 7000, 0, 0, 7000)`,
    );
    db.exec(
      `INSERT INTO settlement_batches VALUES ('2025-01-01', 'payu', 'UTR1', '2025-01-01 11:00:00', 4, 7000, 0, 0, 0, 7000, 0)`,
    );
    migrate(db, now, 25);
    const split = { refunds: -1_000, chargebacks: -2_000 };
    expect(db.prepare('SELECT refunds, chargebacks FROM settlement_rollup').all()).toEqual([split]);
    expect(db.prepare('SELECT refunds, chargebacks FROM settlement_batches').all()).toEqual([split]);
    db.close();
  });

  it('a failing migration leaves the file at the last version that completed', () => {
    const db = new Database(join(dir, 'half.sqlite'));
    migrate(db, now, 2);
    db.exec('CREATE TABLE beneficiaries (x)');
    expect(() => migrate(db, now)).toThrow(/already exists/);
    expect(schemaVersion(db)).toBe(2);
    db.close();
  });

  it('migrate refuses a file from a newer app', () => {
    const db = new Database(join(dir, 'newer.sqlite'));
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    expect(() => migrate(db, now)).toThrow(CacheVersionError);
    db.close();
  });

  it('a file from a newer app is moved aside exactly as it was, and the profile keeps a working cache', () => {
    const file = join(dir, 'newer.sqlite');
    openCache(file, { now }).close();
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    const bytes = readFileSync(file);
    const cache = openCache(file, { now });
    expect(cache.recovered?.reason).toMatch(/newer version of the app/);
    expect(readFileSync(cache.recovered!.movedTo).equals(bytes)).toBe(true);
    expect(schemaVersion(cache.db)).toBe(LATEST_VERSION);
    cache.close();
  });
});

describe('opening', () => {
  it('creates the folder and the file with WAL, foreign keys, a busy timeout and the latest schema', () => {
    const file = join(dir, 'cache', 'profile-1.sqlite');
    const cache = openCache(file, { now });
    expect(cache.recovered).toBeNull();
    expect(cache.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(cache.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(cache.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(schemaVersion(cache.db)).toBe(LATEST_VERSION);
    expect(cache.sizeBytes()).toBeGreaterThan(0);
    cache.close();
    cache.close();
    const again = openCache(file, { now });
    expect(again.recovered).toBeNull();
    again.close();
  });
});

describe('recovery', () => {
  it('moves a file that is not a database aside with its WAL and SHM, says where, and starts afresh', () => {
    const file = join(dir, 'garbage.sqlite');
    const garbage = randomBytes(64 * 1024);
    writeFileSync(file, garbage);
    writeFileSync(`${file}-wal`, 'not a wal');
    writeFileSync(`${file}-shm`, 'not a shm');

    const cache = openCache(file, { now });
    const movedTo = `${file}.corrupt-20250110T101112Z`;
    expect(cache.recovered).toMatchObject({ movedTo, reason: expect.stringMatching(/not a database/) });
    expect(cache.recovered!.message).toContain(movedTo);
    expect(cache.recovered!.message).toMatch(/Nothing was deleted/);
    expect(readFileSync(movedTo).equals(garbage)).toBe(true);
    expect(readFileSync(`${movedTo}-wal`, 'utf8')).toBe('not a wal');
    expect(readFileSync(`${movedTo}-shm`, 'utf8')).toBe('not a shm');
    expect(schemaVersion(cache.db)).toBe(LATEST_VERSION);
    expect(cache.settlements.totals({ from: '2025-01-01', to: '2025-01-31' }).count).toBe(0);
    cache.close();
  });

  it('moves aside a database whose pages were overwritten, found by the integrity check', () => {
    const file = join(dir, 'damaged.sqlite');
    const cache = openCache(file, { now });
    const { run } = cache.syncRuns.claim('settlements', { from: '2025-01-15', to: '2025-01-15', pg: null }, [
      '2025-01-15',
    ]);
    cache.db
      .prepare(`INSERT INTO sync_run_dates (run_id, date, status, error) VALUES (?, ?, 'pending', ?)`)
      .run(run.id, '2025-01-16', 'x'.repeat(50_000));
    cache.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(4096 * 3), 0, 4096 * 3, 4096 * 4);
    closeSync(fd);

    const reopened = openCache(file, { now });
    expect(reopened.recovered?.reason).toBeTruthy();
    expect(existsSync(reopened.recovered!.movedTo)).toBe(true);
    expect(reopened.syncRuns.recent()).toEqual([]);
    reopened.close();
  });

  it('finds damage in the settlement records after open, off the main thread, and moves the file aside at the next open', async () => {
    const file = join(dir, 'records.sqlite');
    const cache = openCache(file, { now });
    const records = new SettlementSource(5, 6000, ['payu', 'cashfree']).page('2025-01-15', undefined, 0, 6000);
    syncRunInto(cache, { '2025-01-15': records.data.map((w) => settlementRecord.parse(w)) }, 1000);
    const leaf = cache.db
      .prepare(
        `SELECT pageno FROM dbstat WHERE name = 'settlements' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 40`,
      )
      .pluck()
      .get() as number;
    const pageSize = cache.db.pragma('page_size', { simple: true }) as number;
    cache.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(pageSize), 0, pageSize, (leaf - 1) * pageSize);
    closeSync(fd);

    // The open checks everything else and opens; the records' check then finds the damage and marks the file.
    const damaged = openCache(file, { now });
    expect(damaged.recovered).toBeNull();
    const check = await damaged.checkAfterOpen();
    expect(check).toMatchObject({ status: 'damaged', message: expect.stringMatching(/moved aside .* next time/) });
    expect(existsSync(`${file}.damaged`)).toBe(true);
    // Like every file of the data folder, the mark is the user's alone.
    if (process.platform !== 'win32') expect(statSync(`${file}.damaged`).mode & 0o777).toBe(0o600);
    damaged.close();

    const reopened = openCache(file, { now });
    expect(reopened.recovered?.reason).toMatch(/integrity check failed earlier/);
    expect(existsSync(reopened.recovered!.movedTo)).toBe(true);
    expect(existsSync(`${file}.damaged`)).toBe(false);
    expect(reopened.settlements.totals({ from: '2025-01-15', to: '2025-01-15' }).count).toBe(0);
    await expect(reopened.checkAfterOpen()).resolves.toEqual({ status: 'ok' });
    reopened.close();
  });

  it('leaves the WAL of a damaged file untouched: no checkpoint into it, no deletion', () => {
    const live = join(dir, 'live.sqlite');
    openCache(live, { now }).close();
    const cache = openCache(live, { now });
    cache.db.pragma('wal_autocheckpoint = 0');
    cache.syncRuns.claim('settlements', { from: '2025-01-15', to: '2025-01-15', pg: null }, ['2025-01-15']);
    // A crash: the files as they are on disk while the writer still has the WAL open.
    const file = join(dir, 'crashed.sqlite');
    writeFileSync(file, readFileSync(live));
    writeFileSync(`${file}-wal`, readFileSync(`${live}-wal`));
    cache.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(4096 * 16), 0, 4096 * 16, 4096 * 2);
    closeSync(fd);
    const wal = readFileSync(`${file}-wal`);
    expect(wal.length).toBeGreaterThan(0);

    const reopened = openCache(file, { now });
    expect(reopened.recovered).not.toBeNull();
    expect(readFileSync(`${reopened.recovered!.movedTo}-wal`).equals(wal)).toBe(true);
    reopened.close();
  });

  it('never overwrites an earlier moved file', () => {
    const file = join(dir, 'twice.sqlite');
    writeFileSync(file, 'garbage one, long enough to be read as a header of something');
    openCache(file, { now }).close();
    rmSync(file);
    writeFileSync(file, 'garbage two, long enough to be read as a header of something');
    const second = openCache(file, { now });
    expect(second.recovered!.movedTo).toBe(`${file}.corrupt-20250110T101112Z-2`);
    expect(readFileSync(`${file}.corrupt-20250110T101112Z`, 'utf8')).toMatch(/^garbage one/);
    second.close();
  });
});

describe('a file that is not ours', () => {
  /** A cache with one settlement in it, then changed by `tamper` through a connection of its own. */
  function tampered(tamper: string): string {
    const file = join(dir, 'cache', 'p.sqlite');
    const cache = openCache(file, { now });
    cache.db.exec(SEEDS[2]![0]!);
    cache.close();
    const db = new Database(file);
    db.exec(tamper);
    db.close();
    return file;
  }

  it.each([
    [
      'a planted trigger',
      `CREATE TRIGGER zero_amounts AFTER INSERT ON settlements BEGIN
         UPDATE settlements SET amount = 0, settled_amount = 0 WHERE id = new.id; END`,
      /trigger "zero_amounts"/,
    ],
    [
      'a view in place of a table',
      'DROP TABLE beneficiaries; CREATE VIEW beneficiaries AS SELECT 1 AS x',
      /view "beneficiaries"/,
    ],
    ['a table we did not make', 'CREATE TABLE exfil (x)', /table "exfil"/],
    ['an index we did not make', 'CREATE INDEX extra ON settlements (amount)', /index "extra"/],
    ['a table changed in place', 'ALTER TABLE settlements ADD COLUMN note TEXT', /table "settlements"/],
    ['a missing index', 'DROP INDEX balance_snapshots_by_time', /missing .*balance_snapshots_by_time/],
  ])('%s: moved aside with the reason, and a clean cache started', (_label, tamper, reason) => {
    const file = tampered(tamper);
    const cache = openCache(file, { now });
    expect(cache.recovered?.reason).toMatch(reason);
    expect(cache.recovered!.message).toContain(cache.recovered!.movedTo);
    expect(existsSync(cache.recovered!.movedTo)).toBe(true);
    // Only the triggers our migrations make (exception figures' stale dates); no view.
    const TRIGGERS_VIEWS = "SELECT type, name FROM sqlite_schema WHERE type IN ('trigger', 'view') ORDER BY name";
    const clean = openCache(join(dir, `clean-${_label.replace(/\W+/g, '-')}.sqlite`), { now });
    expect(cache.db.prepare(TRIGGERS_VIEWS).all()).toEqual(clean.db.prepare(TRIGGERS_VIEWS).all());
    expect(cache.db.prepare(TRIGGERS_VIEWS).all()).not.toContainEqual(expect.objectContaining({ type: 'view' }));
    clean.close();
    expect(cache.db.prepare('SELECT count(*) AS n FROM settlements').get()).toEqual({ n: 0 });
    cache.close();
  });

  it('an untouched cache passes the schema check at every reopen', () => {
    const file = tampered('SELECT 1');
    for (let i = 0; i < 2; i++) {
      const cache = openCache(file, { now });
      expect(cache.recovered).toBeNull();
      cache.close();
    }
  });

  it('a folder where the file belongs is moved aside instead of failing with EISDIR', () => {
    const file = join(dir, 'cache', 'p.sqlite');
    mkdirSync(file, { recursive: true });
    const cache = openCache(file, { now });
    expect(cache.recovered?.reason).toMatch(/other than a file/);
    expect(lstatSync(cache.recovered!.movedTo).isDirectory()).toBe(true);
    expect(schemaVersion(cache.db)).toBe(LATEST_VERSION);
    cache.close();
  });

  it('a symbolic link where the file belongs is moved aside, and nothing is written where it pointed', () => {
    const outside = join(dir, 'outside.sqlite');
    const file = join(dir, 'cache', 'p.sqlite');
    mkdirSync(join(dir, 'cache'));
    symlinkSync(outside, file);
    const cache = openCache(file, { now });
    expect(cache.recovered?.reason).toMatch(/symbolic link/);
    expect(lstatSync(cache.recovered!.movedTo).isSymbolicLink()).toBe(true);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(existsSync(outside)).toBe(false);
    cache.close();
  });

  it('a cache folder that is a symbolic link is refused with a sentence', () => {
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'cache'));
    expect(() => openCache(join(dir, 'cache', 'p.sqlite'), { now })).toThrow(
      /cache is a symbolic link; the app does not write through links/,
    );
  });

  it.runIf(process.platform !== 'win32')('keeps the folder 0700 and the database, WAL and SHM files 0600', () => {
    const file = join(dir, 'cache', 'p.sqlite');
    mkdirSync(join(dir, 'cache'), { mode: 0o755 });
    const cache = openCache(file, { now });
    cache.db.exec(SEEDS[1]![0]!);
    expect(statSync(join(dir, 'cache')).mode & 0o777).toBe(0o700);
    for (const suffix of ['', '-wal', '-shm']) expect(statSync(file + suffix).mode & 0o777).toBe(0o600);
    cache.close();
  });

  it.runIf(process.platform !== 'win32')('leaves a shared (sticky) folder as it is, its own files still 0600', () => {
    // Like /tmp: run as root, tightening it would have locked every other account out of the machine's temp folder.
    const shared = join(dir, 'tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const file = join(shared, 'p.sqlite');
    const cache = openCache(file, { now });
    cache.db.exec(SEEDS[1]![0]!);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    for (const suffix of ['', '-wal', '-shm']) expect(statSync(file + suffix).mode & 0o777).toBe(0o600);
    cache.close();
  });
});
