/**
 * The grid reader's warming of a sort (`settlements.warmSort`, electron/cache/sort-warming.ts), on a read-only
 * connection that logs every statement it runs: a warmed order's first page reads no marks, and gives the same rows
 * as SQLite's own ORDER BY; warming keeps no merge, so the grid's next page takes its own up; and where the keys would
 * not answer a first page (a text search, resolved exceptions left out), warming reads nothing.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/cache/database';
import { createSettlementsRepository } from '../../electron/cache/settlements';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord } from '../../shared/api/settlements';
import { KEYED_SORT_COLUMNS, type SettlementSort } from '../../shared/settlement-query';
import { TEST_NOW } from '../support/clock';
import { plainIds } from '../support/plain-order';
import { syncRunInto } from '../support/settlement-run';

const DATES = ['2025-05-01', '2025-05-02', '2025-05-03'];
const PER_DAY = 1200;
const range = { from: DATES[0]!, to: DATES.at(-1)! };
const now = () => new Date(TEST_NOW);

let dir: string;
let db: Database.Database;
const ran: string[] = [];
let settlements: ReturnType<typeof createSettlementsRepository>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-warm-'));
  const file = join(dir, 'cache.sqlite');
  const cache = openCache(file, { now });
  const source = new SettlementSource(
    31,
    PER_DAY,
    GATEWAYS.map((g) => g.code),
  );
  for (const d of DATES) {
    syncRunInto(cache, { [d]: source.page(d, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w)) }, 400);
  }
  cache.close();
  db = new Database(file, { readonly: true, verbose: (sql) => ran.push(String(sql)) });
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
// A fresh repository a test: nothing kept from the one before.
beforeEach(() => {
  settlements = createSettlementsRepository(db, now);
  ran.length = 0;
});

const marksRead = () => ran.filter((sql) => sql.includes('FROM settlement_sort_mark_lists')).length;
/**
 * A seek's binary search in a block reads one record's value at a time (logged with its id); a kept merge seeks
 * nowhere.
 */
const seeksRead = () => ran.filter((sql) => /FROM settlements WHERE id = [\d.]+$/.test(sql)).length;

describe('warming a sort', () => {
  it('leaves a first page reading no marks, with the rows of the plain ORDER BY', () => {
    const amount: SettlementSort = { column: 'amount', direction: 'desc' };
    const fee: SettlementSort = { column: 'mer_service_fee', direction: 'asc' };
    settlements.warmSort({ ...range, pg: GATEWAYS[0]!.code }, amount);
    expect(marksRead()).toBeGreaterThan(0);
    ran.length = 0;
    const page = settlements.query({ ...range, pg: GATEWAYS[0]!.code, sort: amount, limit: 64 });
    expect(marksRead()).toBe(0);
    expect(page.rows.map((r) => r.id)).toEqual(plainIds(db, { ...range, pg: GATEWAYS[0]!.code }, amount, 64, 0));
    // An order not warmed reads its marks: the check above can fail.
    settlements.query({ ...range, pg: GATEWAYS[0]!.code, sort: fee, limit: 64 });
    expect(marksRead()).toBeGreaterThan(0);
  });

  it('keeps no merge: the grid’s next page takes up its own after every order is warmed', () => {
    const sort: SettlementSort = { column: 'order_date', direction: 'asc' };
    const first = settlements.query({ ...range, sort, limit: 40 });
    for (const column of KEYED_SORT_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) settlements.warmSort(range, { column, direction });
    }
    ran.length = 0;
    const next = settlements.query({ ...range, sort, after: first.nextCursor!, limit: 40 });
    expect(seeksRead()).toBe(0);
    expect(next.rows.map((r) => r.id)).toEqual(plainIds(db, range, sort, 40, 40));
  });

  it('reads nothing where a first page would not read the keys', () => {
    settlements.warmSort({ ...range, search: '1' }, { column: 'utr', direction: 'asc' });
    settlements.warmSort({ ...range, exceptionsOnly: true }, { column: 'amount', direction: 'asc' }, 'local');
    expect(ran.filter((sql) => /settlement_sort_(mark_lists|blocks)|FROM settlements\b/.test(sql))).toEqual([]);
  });
});
