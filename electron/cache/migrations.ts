/**
 * The cache's schema, as numbered migrations. `PRAGMA user_version` says which have run; each also leaves
 * a row in `schema_migrations` (when, and under which name). A migration is never edited once shipped:
 * a change is a new one. Each is tested from an empty file and from the version before it.
 *
 * Design of the settlement tables (the ingest has to keep up with a bare INSERT, see settlement-ingest.ts):
 *  - `settlements` is keyed by an id the writer assigns from (date, arrival order) (settlement-ids.ts),
 *    so a sync appends in key order, and the default order and date ranges are rowid ranges. Its one index covers only records with exceptions. There is deliberately no index on the
 *    natural key: random transaction ids in a B-tree cost several times the insert itself. The natural
 *    key (date asked for, gateway, gateway transaction id, settlement time) is kept unique by the one
 *    writer, which holds an in-memory hash of the date being synced, and the cross-date rule "settled
 *    twice" reads per-date sorted digests (`settlement_digests`) instead.
 *  - `settlement_rollup` holds count and sums per date x gateway x payment mode x statuses x exception
 *    flags, kept in step with the records in the same transactions, so totals and aggregates with any
 *    filter but text search do not scan a million rows (settlement-rollup.ts).
 *  - `settlement_keys` holds the search keys (UTR, gateway transaction id, order id) of each date, ordered by date
 *    then key without case, and is written when a date closes, all its keys at once in key order: appends,
 *    where an index on the keys would take three random B-tree inserts a row (three plain indexes cut the
 *    ingest to a sixth of a bare insert; per-date indexes still nearly doubled the cost of a page).
 *    `settlement_keyed_days` lists the dates whose keys are current; a page that changes a date's records
 *    takes it off, and a search walks the records of such a date instead (settlement-search.ts).
 *  - `settlement_sort_keys` holds, per day, sort column of many values (amounts, times, ids) and gateway, every
 *    record's value and id in order with its ordinal, written like the search keys when a sync ends; `settlement_sorted_days`
 *    lists the dates whose sort keys are current (sort-keys.ts, settlement-key-order.ts); `settlement_sort_mark_lists`
 *    holds each list's marks, every 256 keys the key there and the keys before it per class of record, so a jump
 *    ranks a key under any filter the keys carry (settlement-key-rank.ts).
 *  - `settlement_days` records when each date was last synced, per gateway scope ('' = every gateway):
 *    the "as of" time of every read.
 */
import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sync runs',
    sql: `
      CREATE TABLE schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at TEXT NOT NULL
      );
      CREATE TABLE sync_runs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        range_from TEXT NOT NULL,
        range_to TEXT NOT NULL,
        pg TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'partial', 'cancelled', 'failed')),
        owner_pid INTEGER,
        attempts INTEGER NOT NULL DEFAULT 1,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT,
        error TEXT
      );
      CREATE INDEX sync_runs_by_range ON sync_runs (kind, range_from, range_to, pg, id);
      CREATE TABLE sync_run_dates (
        run_id INTEGER NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        next_offset INTEGER NOT NULL DEFAULT 0,
        pages INTEGER NOT NULL DEFAULT 0,
        records INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        vanished INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        started_at TEXT,
        finished_at TEXT,
        PRIMARY KEY (run_id, date)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'settlements',
    sql: `
      CREATE TABLE settlements (
        id INTEGER PRIMARY KEY,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        order_id TEXT,
        order_date TEXT NOT NULL,
        utr TEXT,
        order_status TEXT NOT NULL,
        pg_status TEXT NOT NULL,
        payment_mode TEXT NOT NULL,
        amount INTEGER NOT NULL,
        mer_service_fee INTEGER NOT NULL,
        mer_service_tax INTEGER NOT NULL,
        merchant_subvention_amount INTEGER NOT NULL,
        cgst INTEGER NOT NULL,
        igst INTEGER NOT NULL,
        sgst INTEGER NOT NULL,
        settled_amount INTEGER NOT NULL,
        dispute_id TEXT,
        description TEXT,
        extra TEXT,
        exception_flags INTEGER NOT NULL DEFAULT 0,
        exceptions TEXT,
        seen_run INTEGER NOT NULL,
        changed_run INTEGER,
        vanished_at TEXT
      );
      CREATE INDEX settlements_exceptions ON settlements (id) WHERE exception_flags <> 0;
      CREATE TABLE settlement_rollup (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        payment_mode TEXT NOT NULL,
        order_status TEXT NOT NULL,
        pg_status TEXT NOT NULL,
        exception_flags INTEGER NOT NULL,
        count INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        fees INTEGER NOT NULL,
        taxes INTEGER NOT NULL,
        settled INTEGER NOT NULL,
        PRIMARY KEY (date, pg, payment_mode, order_status, pg_status, exception_flags)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_digests (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        hashes BLOB NOT NULL,
        ids BLOB NOT NULL,
        PRIMARY KEY (date, pg)
      );
      CREATE TABLE settlement_days (
        date TEXT NOT NULL,
        scope TEXT NOT NULL,
        synced_at TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        records INTEGER NOT NULL,
        PRIMARY KEY (date, scope)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'beneficiaries',
    sql: `
      CREATE TABLE beneficiaries (
        beneficiary_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        vpa TEXT,
        account_number TEXT,
        ifsc TEXT,
        phone TEXT,
        email TEXT,
        address TEXT,
        extra TEXT,
        fetched_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX beneficiaries_by_name ON beneficiaries (name COLLATE NOCASE, beneficiary_id);
    `,
  },
  {
    version: 4,
    name: 'payout lookups',
    sql: `
      CREATE TABLE payout_lookups (
        id INTEGER PRIMARY KEY,
        payout_id TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('normal', 'advance')),
        looked_up_at TEXT NOT NULL,
        transfer_status TEXT,
        ut_no TEXT,
        amount INTEGER,
        processed_at TEXT,
        error TEXT,
        payout TEXT
      );
      CREATE INDEX payout_lookups_by_payout ON payout_lookups (payout_id, id);
      CREATE INDEX payout_lookups_by_time ON payout_lookups (looked_up_at, id);
    `,
  },
  {
    version: 5,
    name: 'payout accounts and balances',
    sql: `
      CREATE TABLE payout_accounts (
        pg TEXT NOT NULL,
        account_number TEXT NOT NULL,
        ifsc_code TEXT,
        account_type TEXT,
        currency TEXT,
        extra TEXT,
        first_seen_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        PRIMARY KEY (pg, account_number)
      ) WITHOUT ROWID;
      CREATE TABLE payout_gateway_errors (
        pg TEXT PRIMARY KEY,
        code TEXT,
        message TEXT NOT NULL,
        at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE balance_snapshots (
        id INTEGER PRIMARY KEY,
        pg TEXT NOT NULL,
        account_number TEXT NOT NULL,
        taken_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('accounts', 'balance')),
        available_balance INTEGER NOT NULL,
        account_balance INTEGER,
        minimum_balance INTEGER,
        hold_fund INTEGER,
        overdraft INTEGER
      );
      CREATE INDEX balance_snapshots_by_account ON balance_snapshots (pg, account_number, taken_at);
      CREATE INDEX balance_snapshots_by_time ON balance_snapshots (taken_at);
    `,
  },
  {
    version: 6,
    name: 'gateway errors of payout lookups, transaction limits of accounts',
    sql: `
      ALTER TABLE payout_lookups ADD COLUMN gateway_error_code TEXT;
      ALTER TABLE payout_lookups ADD COLUMN gateway_error_message TEXT;
      ALTER TABLE payout_accounts ADD COLUMN transaction_limit INTEGER;
      CREATE INDEX beneficiaries_by_vpa ON beneficiaries (vpa) WHERE vpa IS NOT NULL;
      CREATE INDEX beneficiaries_by_account ON beneficiaries (account_number, ifsc) WHERE account_number IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: 'settlement search keys, per date',
    sql: `
      CREATE TABLE settlement_keys (
        date TEXT NOT NULL,
        key TEXT NOT NULL COLLATE NOCASE,
        id INTEGER NOT NULL,
        PRIMARY KEY (date, key, id)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_keyed_days (date TEXT PRIMARY KEY) WITHOUT ROWID;
      INSERT OR IGNORE INTO settlement_keys (date, key, id)
        SELECT date, key, id FROM (
          SELECT date, utr AS key, id FROM settlements WHERE utr IS NOT NULL
          UNION ALL SELECT date, pg_transaction_id, id FROM settlements
          UNION ALL SELECT date, order_id, id FROM settlements WHERE order_id IS NOT NULL)
        ORDER BY date, key COLLATE NOCASE, id;
      INSERT INTO settlement_keyed_days SELECT DISTINCT date FROM settlements;
      `,
  },
  {
    version: 8,
    name: 'audit journal and period close',
    // The journal is append-only by convention of the one writer (electron/journal/); its hash chain, not SQLite,
    // is what shows an edit. Closed periods keep a hash per record (by natural key) at close, so a difference is exact
    // and survives the cache being cleared and synced again.
    sql: `
      CREATE TABLE journal (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        event TEXT NOT NULL,
        outcome TEXT NOT NULL,
        refers_to INTEGER,
        request_id TEXT,
        summary TEXT NOT NULL,
        data TEXT NOT NULL,
        app_version TEXT NOT NULL,
        os_user TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX journal_by_refers_to ON journal (refers_to) WHERE refers_to IS NOT NULL;
      CREATE INDEX journal_by_kind ON journal (kind, seq);
      CREATE TABLE period_closes (
        id INTEGER PRIMARY KEY,
        range_from TEXT NOT NULL,
        range_to TEXT NOT NULL,
        closed_at TEXT NOT NULL,
        close_seq INTEGER NOT NULL,
        digest TEXT NOT NULL,
        records INTEGER NOT NULL,
        totals TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('closed', 'changed')),
        changed_at TEXT,
        seen_digest TEXT,
        acknowledged_digest TEXT,
        added INTEGER NOT NULL DEFAULT 0,
        vanished INTEGER NOT NULL DEFAULT 0,
        modified INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE period_close_records (
        close_id INTEGER NOT NULL REFERENCES period_closes (id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (close_id, date, pg, pg_transaction_id, settlement_date)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 9,
    name: 'bulk payout checks, first sight of each payout, payout settings',
    // A run's items are its queue too: an advance check waiting for the service is an item whose outcome is
    // 'queued', so the queue survives a restart with the run it belongs to. First sight is kept apart from the
    // lookups so that clearing nothing else can move it; the lookups already made give it its first value.
    sql: `
      CREATE TABLE payout_check_runs (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL CHECK (mode IN ('normal', 'advance')),
        started_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE TABLE payout_check_items (
        run_id INTEGER NOT NULL REFERENCES payout_check_runs (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        payout_id TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'checked', 'refused', 'failed', 'queued')),
        lookup_id INTEGER REFERENCES payout_lookups (id),
        error TEXT,
        PRIMARY KEY (run_id, position)
      ) WITHOUT ROWID;
      CREATE INDEX payout_check_items_queued ON payout_check_items (outcome) WHERE outcome = 'queued';
      CREATE TABLE payout_first_seen (
        payout_id TEXT PRIMARY KEY,
        first_seen_at TEXT NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO payout_first_seen (payout_id, first_seen_at)
        SELECT payout_id, min(looked_up_at) FROM payout_lookups WHERE payout IS NOT NULL GROUP BY payout_id;
      CREATE TABLE payout_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    name: 'beneficiary imports, bank-detail changes, low-headroom thresholds',
    // An import row's key is (file digest, row): `attempt_seq` is its journal attempt, written before the request
    // leaves, so a rerun never sends a row whose answer may have been lost. A change keeps the values replaced.
    sql: `
      CREATE TABLE beneficiary_import_rows (
        import_key TEXT PRIMARY KEY,
        file_digest TEXT NOT NULL,
        row_number INTEGER NOT NULL,
        attempt_seq INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'created', 'refused', 'unknown')),
        beneficiary_id TEXT,
        reason TEXT,
        at TEXT NOT NULL
      );
      CREATE TABLE beneficiary_changes (
        id INTEGER PRIMARY KEY,
        beneficiary_id TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        old_account_number TEXT,
        old_ifsc TEXT,
        old_vpa TEXT,
        new_account_number TEXT,
        new_ifsc TEXT,
        new_vpa TEXT
      );
      CREATE INDEX beneficiary_changes_by_beneficiary ON beneficiary_changes (beneficiary_id, changed_at);
      CREATE TABLE headroom_thresholds (pg TEXT PRIMARY KEY, threshold INTEGER NOT NULL CHECK (threshold >= 0));
    `,
  },
  {
    version: 11,
    name: 'settlement batches, bank statements, reconciliation',
    // Batches: count and sums per (date, gateway, UTR, settlement time), kept by the same deltas as the rollup
    // (settlement-rollup.ts); the records already cached are rolled up once here. A statement line's key is a
    // digest of its content and its ordinal among identical lines of its file, so importing a file again (or an
    // overlapping one) adds nothing. A credit is in at most one match (UNIQUE line_id) and a batch in at most one
    // (UNIQUE key); `recon_apart` keeps what the desk took apart from being put together again by the matcher.
    sql: `
      CREATE TABLE settlement_batches (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        utr TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        records INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        fees INTEGER NOT NULL,
        taxes INTEGER NOT NULL,
        subvention INTEGER NOT NULL,
        settled INTEGER NOT NULL,
        exceptions INTEGER NOT NULL,
        PRIMARY KEY (date, pg, utr, settlement_date)
      ) WITHOUT ROWID;
      INSERT INTO settlement_batches
        SELECT date, pg, coalesce(utr, ''), settlement_date, count(*), sum(amount), sum(mer_service_fee),
               sum(mer_service_tax), sum(merchant_subvention_amount), sum(settled_amount), sum(exception_flags <> 0)
        FROM settlements WHERE vanished_at IS NULL GROUP BY date, pg, coalesce(utr, ''), settlement_date;
      CREATE TABLE bank_accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        gateways TEXT,
        mapping TEXT,
        created_at TEXT NOT NULL
      );
      CREATE TABLE bank_statement_imports (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
        file_name TEXT NOT NULL,
        digest TEXT NOT NULL,
        layout TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        lines INTEGER NOT NULL,
        added INTEGER NOT NULL,
        bad INTEGER NOT NULL
      );
      CREATE TABLE bank_lines (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
        line_key TEXT NOT NULL,
        date TEXT NOT NULL,
        value_date TEXT,
        narration TEXT NOT NULL,
        reference TEXT,
        amount INTEGER NOT NULL,
        balance INTEGER,
        rail TEXT,
        utr TEXT,
        import_id INTEGER NOT NULL REFERENCES bank_statement_imports (id) ON DELETE CASCADE,
        row_number INTEGER NOT NULL,
        UNIQUE (account_id, line_key)
      );
      CREATE INDEX bank_lines_by_date ON bank_lines (account_id, date);
      CREATE TABLE recon_matches (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
        batch_date TEXT NOT NULL,
        pg TEXT NOT NULL,
        utr TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        how TEXT NOT NULL CHECK (how IN ('utr', 'amount', 'split', 'manual')),
        note TEXT,
        matched_at TEXT NOT NULL,
        UNIQUE (batch_date, pg, utr, settlement_date)
      );
      CREATE TABLE recon_match_lines (
        match_id INTEGER NOT NULL REFERENCES recon_matches (id) ON DELETE CASCADE,
        line_id INTEGER NOT NULL UNIQUE REFERENCES bank_lines (id) ON DELETE CASCADE,
        PRIMARY KEY (match_id, line_id)
      ) WITHOUT ROWID;
      CREATE TABLE recon_apart (
        batch_key TEXT NOT NULL,
        line_id INTEGER NOT NULL REFERENCES bank_lines (id) ON DELETE CASCADE,
        note TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (batch_key, line_id)
      ) WITHOUT ROWID;
      CREATE TABLE recon_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `,
  },
  {
    version: 12,
    name: 'settlement changes, paging manifests, exception workflow',
    // A change is one row per record per sync (its fields as JSON: old and new), written in the page's own
    // transaction. A manifest is what one run saw of a (date, gateway): the latest per pair is the date's
    // completeness. An exception's state is keyed by the record's natural key, not its row id, so it survives
    // re-syncs and a cleared-and-resynced cache alike; its events are the trail of who did what.
    sql: `
      CREATE TABLE settlement_changes (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL,
        record_id INTEGER NOT NULL,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('new', 'changed', 'vanished', 'returned')),
        fields TEXT,
        at TEXT NOT NULL
      );
      ALTER TABLE sync_run_dates ADD COLUMN last_key TEXT;
      CREATE INDEX settlement_changes_by_date ON settlement_changes (date, id);
      CREATE INDEX settlement_changes_by_run ON settlement_changes (run_id, id);
      CREATE TABLE settlement_manifests (
        run_id INTEGER NOT NULL,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pages INTEGER NOT NULL,
        records INTEGER NOT NULL,
        settled INTEGER NOT NULL,
        digest TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        passes INTEGER NOT NULL,
        shifts INTEGER NOT NULL,
        stable INTEGER NOT NULL CHECK (stable IN (0, 1)),
        PRIMARY KEY (date, pg, run_id)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_exception_states (
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
        assignee TEXT,
        note TEXT,
        updated_at TEXT NOT NULL,
        triage TEXT,
        triage_model TEXT,
        triaged_at TEXT,
        tag TEXT,
        PRIMARY KEY (date, pg, pg_transaction_id, settlement_date)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_exception_events (
        id INTEGER PRIMARY KEY,
        date TEXT NOT NULL,
        pg TEXT NOT NULL,
        pg_transaction_id TEXT NOT NULL,
        settlement_date TEXT NOT NULL,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        text TEXT
      );
      CREATE INDEX settlement_exception_events_by_record
        ON settlement_exception_events (date, pg, pg_transaction_id, settlement_date, id);
    `,
  },
  {
    version: 13,
    name: 'orders and subscriptions looked up, for offline review',
    // The answers as the console read them (JSON of the domain model, amounts in paise), with the time read; the
    // actions on them are in the journal. Refund attempts are kept beside their order with their own time.
    sql: `
      CREATE TABLE merchant_orders (
        order_id TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        refunds TEXT,
        refunds_error TEXT
      ) WITHOUT ROWID;
      CREATE INDEX merchant_orders_by_time ON merchant_orders (fetched_at);
      CREATE TABLE merchant_subscriptions (
        subscription_id TEXT PRIMARY KEY,
        receipt_id TEXT,
        body TEXT NOT NULL,
        fetched_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX merchant_subscriptions_by_receipt ON merchant_subscriptions (receipt_id);
      CREATE INDEX merchant_subscriptions_by_time ON merchant_subscriptions (fetched_at);
    `,
  },
  {
    version: 14,
    name: 'settlement sort keys, per date',
    // Written after a sync like the search keys (sort-keys.ts): per day, column and gateway, every record's sort
    // value and id in order, with its ordinal `n` in that order, which counts the keys before any value with one
    // seek, and what the other filters check: payment mode, statuses (by number, `settlement_sort_codes`, a byte each)
    // and exception flags.
    // Empty here: each synced date gets its keys when the next sync ends, and reads scan until then.
    sql: `
      CREATE TABLE settlement_sort_codes (
        code INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('pg', 'mode', 'order_status', 'pg_status')),
        value TEXT NOT NULL,
        UNIQUE (kind, value)
      );
      CREATE TABLE settlement_sort_keys (
        day INTEGER NOT NULL,
        col INTEGER NOT NULL,
        pg_code INTEGER NOT NULL,
        value NOT NULL,
        id INTEGER NOT NULL,
        n INTEGER NOT NULL,
        mode_code INTEGER NOT NULL,
        order_status_code INTEGER NOT NULL,
        pg_status_code INTEGER NOT NULL,
        exception_flags INTEGER NOT NULL,
        PRIMARY KEY (day, col, pg_code, value, id)
      ) WITHOUT ROWID;
      CREATE TABLE settlement_sorted_days (date TEXT PRIMARY KEY) WITHOUT ROWID;
    `,
  },
  {
    version: 15,
    name: 'settlement sort key marks, per list',
    // Counts that let a jump with a payment mode, a status or exceptions only rank a key (settlement-key-order.ts):
    // every MARK_EVERY keys of a list (day, column, gateway) a mark holds the key there and, per class of record
    // (payment mode, statuses and exception flags together, `settlement_sort_classes`), how many keys come before it;
    // a last mark with no key holds the list's totals. Written with the keys (sort-keys.ts). The dates keyed before
    // this version have keys and no marks: the key writer takes them as pending and writes them again, marks and all,
    // when the next sync ends; until then their keys serve as before and a filtered jump skips rows, as it did.
    sql: `
      CREATE TABLE settlement_sort_classes (
        code INTEGER PRIMARY KEY,
        mode_code INTEGER NOT NULL,
        order_status_code INTEGER NOT NULL,
        pg_status_code INTEGER NOT NULL,
        exception_flags INTEGER NOT NULL,
        UNIQUE (mode_code, order_status_code, pg_status_code, exception_flags)
      );
      CREATE TABLE settlement_sort_marks (
        col INTEGER NOT NULL,
        day INTEGER NOT NULL,
        pg_code INTEGER NOT NULL,
        n INTEGER NOT NULL,
        value,
        id INTEGER,
        counts BLOB NOT NULL,
        PRIMARY KEY (col, day, pg_code, n)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 16,
    name: 'settlement sort key marks, one row per list',
    // The marks of migration 15 packed one row per list (sort-keys.ts): a jump reads a range's marks as about 360
    // rows (90 days x 4 gateways) instead of 8,000, each list's marks' keys as JSON and its counts per class as one
    // BLOB. The counts now also give each mark's ordinal (the sum over every class), so a jump with no filter but the
    // dates and a gateway ranks by the marks too (settlement-key-rank.ts). The old marks are dropped; the dates keyed
    // before this version have no mark lists and get them, from their keys, when the next sync ends; until then a jump
    // in those dates skips rows.
    sql: `
      DROP TABLE settlement_sort_marks;
      CREATE TABLE settlement_sort_mark_lists (
        col INTEGER NOT NULL,
        day INTEGER NOT NULL,
        pg_code INTEGER NOT NULL,
        keys TEXT NOT NULL,
        counts BLOB NOT NULL,
        PRIMARY KEY (col, day, pg_code)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 17,
    name: 'settlement sort keys of the two statuses',
    // Order status and gateway status get sort keys like the columns of many values (sort-keys.ts), so a next page
    // in a status's order takes up the merge of the page before (settlement-key-order.ts) instead of walking its
    // dates' records for a rare value's rows. Every date keyed before this version lacks those two lists: it is
    // marked not current and keyed again, all columns, when the next sync ends; until then reads scan its range.
    sql: `DELETE FROM settlement_sorted_days;`,
  },
];

export const LATEST_VERSION = MIGRATIONS.at(-1)!.version;

export class CacheVersionError extends Error {
  override name = 'CacheVersionError';
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the file up to `target` (the latest by default), one transaction per migration, so a failure
 * leaves the file at the last version that completed. A file from a newer app is refused untouched.
 * Returns the versions applied.
 */
export function migrate(db: Database, appliedAt: () => Date, target = LATEST_VERSION): number[] {
  const current = schemaVersion(db);
  if (current > LATEST_VERSION) {
    throw new CacheVersionError(
      `This cache was written by a newer version of the app (schema ${current}; this one knows up to ` +
        `${LATEST_VERSION}). Update the app; the file was left as it is.`,
    );
  }
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        appliedAt().toISOString(),
      );
      // PRAGMA takes no bound parameters; the version is one of the constants above.
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
