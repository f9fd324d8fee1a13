/**
 * SQLite's own indexes against the cache's hand-built search and sort keys (issue 33 item 3), on the same data in the
 * same run, so that each hand-built structure is kept or removed on a figure:
 *  - `indexes.build`: each candidate set of SQLite indexes built by `CREATE INDEX` over the data set (a sort, then
 *    appends: the cheapest way SQLite has to build one) — seconds and MB per million rows — beside the hand-built
 *    search and sort keys' bytes in the same file;
 *  - `indexes.sync_date`: what one more date of 20,000 records (a desk's day, in the sync's transactions of one page)
 *    costs with each candidate set kept up row by row, against the bare insert of the same rows into the same file
 *    with no extra index (the ratio issue 33 item 4 asks ≥ 0.4 of, for everything written before reads are fast); beside
 *    it the same date through the cache's real path: its ingest, then its search and sort keys;
 *  - `indexes.reads`: the reads the sort and search keys serve, answered by the global indexes alone: a first page by
 *    amount (every filter the grid has), the next page, a position half-way down, a UTR, transaction and order id by
 *    their start. The hand-built keys' figures for the same reads are `find.*`'s.
 *  - `indexes.fts5`: the three search keys in a contentless FTS5 table (prefix search by token), built and kept up.
 * No targets of their own: each line is the evidence for a decision record in docs/performance/sqlite-indexes.md.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openCache } from '../../electron/cache/database';
import { ROW_COLUMNS, fieldValues } from '../../electron/cache/settlement-rows';
import { addDays } from '../../shared/time';
import type { SettlementRecord } from '../../shared/api/settlements';
import { ingestDates, recordPages, scratchDir } from './records';
import { DATASET_ROWS, DATASET_TO, SYNC_PER_DAY, datasetCopy } from './dataset';
import type { Bench } from './run';

/** What item 4 asks of a sync: everything written for a date at least this share of the bare insert's rate. */
const SYNC_TARGET_RATIO = 0.4;
const PAGE = 100;
/** The date a sync adds: the day after the data set. */
const NEW_DATE = addDays(DATASET_TO, 1);

/** The columns the sort keys order by and the three the search keys hold (in NOCASE, which serves both). */
const KEYED = [
  'utr COLLATE NOCASE',
  'pg_transaction_id COLLATE NOCASE',
  'order_id COLLATE NOCASE',
  'amount',
  'mer_service_fee',
  'mer_service_tax',
  'settled_amount',
  'settlement_date',
  'order_date',
  'order_status',
  'pg_status',
];

/** Candidate sets: one index a column over all dates, or each led by the date (a sync's inserts land together). */
const CANDIDATES = [
  { name: 'global', lead: '' },
  { name: 'date_leading', lead: 'date, ' },
] as const;

const round = (v: number, digits = 1) => Number(v.toFixed(digits));

function openRaw(file: string): Database.Database {
  const db = new Database(file);
  // The cache's own settings (database.ts), so only the indexes differ from its writes.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -65536');
  return db;
}

const megabytesPerMillion = (db: Database.Database, pattern: string, rows: number) =>
  round(
    ((db.prepare('SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name GLOB ?').pluck().get(pattern) as number) /
      rows) *
      (1e6 / 1048576),
  );

function createIndexes(db: Database.Database, lead: string): number {
  const t = performance.now();
  KEYED.forEach((column, i) => db.exec(`CREATE INDEX x_${i} ON settlements (${lead}${column})`));
  return performance.now() - t;
}

/** The new date's records, generated before any timing. */
function newDatePages(): SettlementRecord[][] {
  return [...recordPages(SYNC_PER_DAY, NEW_DATE, SYNC_PER_DAY)];
}

/** Inserts the pages row by row in a transaction a page, as the sync's pages do; returns the milliseconds. */
function insertPages(db: Database.Database, pages: SettlementRecord[][]): number {
  const insert = db.prepare(
    `INSERT INTO settlements (${ROW_COLUMNS.join(', ')}) VALUES (${ROW_COLUMNS.map(() => '?').join(', ')})`,
  );
  let id = (db.prepare('SELECT max(id) FROM settlements').pluck().get() as number) + 1;
  const write = db.transaction((page: SettlementRecord[]) => {
    for (const r of page)
      insert.run(id++, NEW_DATE, r.pg, r.pg_transaction_id, r.settlement_date, ...fieldValues(r), 0, null, 1);
  });
  const t = performance.now();
  for (const page of pages) write(page);
  return performance.now() - t;
}

function timedReads(db: Database.Database) {
  const [lo, hi] = db.prepare('SELECT min(id), max(id) FROM settlements').raw().get() as [number, number];
  const half = Math.floor((db.prepare('SELECT count(*) FROM settlements').pluck().get() as number) / 2);
  const sample = db
    .prepare(
      'SELECT utr, pg_transaction_id, order_id, pg, payment_mode FROM settlements WHERE id >= ? ORDER BY id LIMIT 1',
    )
    .get(Math.floor((lo + hi) / 2)) as Record<string, string>;
  const byAmount = (where: string) =>
    `SELECT id FROM settlements INDEXED BY x_3 WHERE id BETWEEN ? AND ? ${where} ORDER BY amount DESC, id DESC LIMIT ${PAGE}`;
  const prefix = (column: string) =>
    `SELECT id FROM settlements WHERE ${column} >= ? COLLATE NOCASE AND ${column} < ? COLLATE NOCASE LIMIT ${PAGE}`;
  const start = (text: string) => [text.slice(0, 8), `${text.slice(0, 8)}\u{10FFFF}`];
  const cases: [string, string, unknown[]][] = [
    ['amount first page', byAmount(''), [lo, hi]],
    ['amount first page, gateway', byAmount('AND pg = ?'), [lo, hi, sample['pg']]],
    ['amount first page, payment mode', byAmount('AND payment_mode = ?'), [lo, hi, sample['payment_mode']]],
    ['amount first page, exceptions only', byAmount('AND exception_flags <> 0'), [lo, hi]],
    ['amount first page, gateway status failed', byAmount("AND pg_status = 'failed'"), [lo, hi]],
    ['amount next page', byAmount('AND (amount, id) < (?, ?)'), [lo, hi, 100_000, Number.MAX_SAFE_INTEGER]],
    [
      'amount position half-way',
      `SELECT id FROM settlements INDEXED BY x_3 WHERE id BETWEEN ? AND ? ORDER BY amount DESC, id DESC LIMIT 1 OFFSET ${half}`,
      [lo, hi],
    ],
    [
      'amount position half-way, payment mode',
      `SELECT id FROM settlements INDEXED BY x_3 WHERE id BETWEEN ? AND ? AND payment_mode = ? ORDER BY amount DESC, id DESC LIMIT 1 OFFSET ${Math.floor(half / 4)}`,
      [lo, hi, sample['payment_mode']],
    ],
    ['UTR by its start', prefix('utr'), start(sample['utr']!)],
    ['transaction id by its start', prefix('pg_transaction_id'), start(sample['pg_transaction_id']!)],
    ['order id by its start', prefix('order_id'), start(sample['order_id']!)],
  ];
  return cases.map(([name, sql, params]) => {
    const statement = db.prepare(sql).raw(true);
    const ms: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      statement.all(...params);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    return { read: name, median_ms: round(ms[2]!, 2), max_ms: round(ms[4]!, 2) };
  });
}

export const indexBenches: Bench = {
  group: 'indexes',
  defaultRows: DATASET_ROWS,
  async *run({ rows }) {
    const scratch = scratchDir();
    try {
      const pages = newDatePages();
      const base = join(scratch.dir, 'base.sqlite');
      datasetCopy(rows, base);

      // The same date through the cache's real path: its ingest, then the keys a sync writes after its answer.
      const real = join(scratch.dir, 'real.sqlite');
      copyFileSync(base, real);
      const cache = openCache(real);
      let handBuilt: ReturnType<typeof ingestDates>;
      let handBuiltMb: { search: number; sort: number };
      try {
        handBuilt = ingestDates(cache, [[NEW_DATE, pages]]);
        handBuiltMb = {
          search: megabytesPerMillion(cache.db, 'settlement_key*', rows),
          sort: megabytesPerMillion(cache.db, '*settlement_sort*', rows), // with the blocks' key index (sqlite_autoindex_…)
        };
      } finally {
        cache.close();
      }

      const bareFile = join(scratch.dir, 'bare.sqlite');
      copyFileSync(base, bareFile);
      const bare = openRaw(bareFile);
      const bareMs = insertPages(bare, pages);
      bare.close();

      for (const candidate of CANDIDATES) {
        const file = join(scratch.dir, `${candidate.name}.sqlite`);
        copyFileSync(base, file);
        const db = openRaw(file);
        try {
          const createMs = createIndexes(db, candidate.lead);
          yield {
            bench: 'indexes.build',
            rows,
            candidate: candidate.name,
            indexes: KEYED.length,
            create_s: round(createMs / 1000),
            mb_per_million_rows: megabytesPerMillion(db, 'x_*', rows),
            hand_built_search_keys_mb_per_million_rows: handBuiltMb.search,
            hand_built_sort_keys_mb_per_million_rows: handBuiltMb.sort,
          };
          db.exec('ANALYZE');
          if (candidate.name === 'global') yield { bench: 'indexes.reads', rows, reads: timedReads(db) };
          const ms = insertPages(db, pages);
          const ratio = bareMs / ms;
          yield {
            bench: 'indexes.sync_date',
            rows,
            records: SYNC_PER_DAY,
            candidate: candidate.name,
            ms: Math.round(ms),
            bare_insert_ms: Math.round(bareMs),
            ratio_to_bare: round(ratio, 3),
            target_ratio: SYNC_TARGET_RATIO,
            pass: ratio >= SYNC_TARGET_RATIO,
          };
        } finally {
          db.close();
        }
      }

      const handBuiltMs = handBuilt.ms + handBuilt.keysMs + handBuilt.sortKeysMs;
      yield {
        bench: 'indexes.sync_date',
        rows,
        records: SYNC_PER_DAY,
        candidate: 'hand_built',
        ms: Math.round(handBuiltMs),
        ingest_ms: Math.round(handBuilt.ms),
        search_keys_ms: Math.round(handBuilt.keysMs),
        sort_keys_ms: Math.round(handBuilt.sortKeysMs),
        bare_insert_ms: Math.round(bareMs),
        ratio_to_bare: round(bareMs / handBuiltMs, 3),
        target_ratio: SYNC_TARGET_RATIO,
        pass: bareMs / handBuiltMs >= SYNC_TARGET_RATIO,
      };

      const ftsFile = join(scratch.dir, 'fts.sqlite');
      copyFileSync(base, ftsFile);
      const fts = openRaw(ftsFile);
      try {
        // Identifiers are one token each ("pay_AB12" stays whole), so a prefix query is a search by their start.
        fts.exec(
          `CREATE VIRTUAL TABLE settlement_fts USING fts5(utr, pg_transaction_id, order_id, content='', ` +
            `detail=none, tokenize="unicode61 tokenchars '_-'", prefix='4 8')`,
        );
        let t = performance.now();
        fts.exec(
          `INSERT INTO settlement_fts (rowid, utr, pg_transaction_id, order_id)
           SELECT id, utr, pg_transaction_id, order_id FROM settlements`,
        );
        const buildMs = performance.now() - t;
        const sample = fts
          .prepare('SELECT utr FROM settlements WHERE utr IS NOT NULL LIMIT 1 OFFSET 777')
          .pluck()
          .get();
        const query = fts.prepare(`SELECT rowid FROM settlement_fts WHERE settlement_fts MATCH ? LIMIT ${PAGE}`);
        t = performance.now();
        // detail=none keeps no column per token: the start is looked for in all three keys.
        query.all(`"${String(sample).slice(0, 8)}"*`);
        const prefixMs = performance.now() - t;
        const add = fts.prepare(
          'INSERT INTO settlement_fts (rowid, utr, pg_transaction_id, order_id) VALUES (?, ?, ?, ?)',
        );
        let id = 1 + (fts.prepare('SELECT max(id) FROM settlements').pluck().get() as number);
        const write = fts.transaction((page: SettlementRecord[]) => {
          for (const r of page) add.run(id++, r.utr, r.pg_transaction_id, r.order_id);
        });
        t = performance.now();
        for (const page of pages) write(page);
        const dateMs = performance.now() - t;
        yield {
          bench: 'indexes.fts5',
          rows,
          build_s: round(buildMs / 1000),
          mb_per_million_rows: megabytesPerMillion(fts, 'settlement_fts*', rows),
          utr_prefix_ms: round(prefixMs, 2),
          sync_date_ms: Math.round(dateMs),
          bare_insert_ms: Math.round(bareMs),
        };
      } finally {
        fts.close();
      }
    } finally {
      scratch.remove();
    }
  },
};
