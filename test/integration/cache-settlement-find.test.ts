/**
 * Finding rows in a real SQLite cache fed with the sandbox's records: a text search (UTR, transaction id or
 * order id, in full or its start, any case) visiting only its matches through the per-date key indexes or, when
 * most rows match, walking the range; and pages that start at a position of the result (a jump) through the
 * rollup's counts per date or by skipping rows. Every answer is compared with the same selection made in
 * JavaScript over every row read in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import Database from 'better-sqlite3';
import { toSqlFilter } from '../../electron/cache/settlement-filter';
import { idRange } from '../../electron/cache/settlement-ids';
import { MAX_KEYED, createSearchPlanner } from '../../electron/cache/settlement-search';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord } from '../../shared/api/settlements';
import {
  settlementFilter,
  type CachedSettlement,
  type SettlementQuery,
  type SettlementSort,
} from '../../shared/settlement-query';
import { syncRunInto } from '../support/settlement-run';
import { TEST_NOW } from '../support/clock';
import { allCachedRows } from '../support/cache-rows';

const DATES = ['2025-05-01', '2025-05-02', '2025-05-04'];
/** Enough rows that every transaction id's "pay_" is more matches than the key indexes are used for. */
const PER_DAY = Math.ceil((MAX_KEYED + 1500) / DATES.length);
const source = new SettlementSource(
  11,
  PER_DAY,
  GATEWAYS.map((g) => g.code),
);
const range = { from: DATES[0]!, to: DATES.at(-1)! };

let dir: string;
let cache: Cache;
let all: CachedSettlement[];

/** Every cached row of the range in the query's order. */
const allRows = (filter: Partial<SettlementQuery> = {}) => allCachedRows(cache, range, filter);

const startsWith = (value: string | null, text: string) =>
  value !== null && value.toLowerCase().startsWith(text.toLowerCase());
const matches = (text: string) => (r: CachedSettlement) =>
  startsWith(r.utr, text) || startsWith(r.pg_transaction_id, text) || startsWith(r.order_id, text);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-find-'));
  cache = openCache(join(dir, 'cache.sqlite'), { now: () => new Date(TEST_NOW) });
  syncRunInto(
    cache,
    Object.fromEntries(
      DATES.map((d) => [d, source.page(d, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w))]),
    ),
    1000,
  );
  all = allRows();
});
afterAll(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('text search', () => {
  const plan = (q: Partial<SettlementQuery>) => cache.settlements.explain('query', { ...range, ...q }).join(' | ');

  it('finds a UTR, a transaction id and an order id in full, by their start and in any case, through the key indexes', () => {
    const row = all[777]!;
    const texts = [
      row.utr!,
      row.utr!.slice(0, 5),
      row.pg_transaction_id,
      row.pg_transaction_id.slice(0, 9).toUpperCase(),
      row.order_id!.toLowerCase(),
      row.order_id!.slice(0, 7),
    ];
    for (const text of texts) {
      const found = allRows({ search: text });
      expect(found.length, text).toBeGreaterThan(0);
      expect(found, text).toEqual(all.filter(matches(text)));
      expect(plan({ search: text }), text).toMatch(/SEARCH k USING PRIMARY KEY \(day=\? AND key>\? AND key<\?\)/);
    }
  });

  it('is the start of a value, not any part of it', () => {
    const utr = all.find((r) => r.utr)!.utr!;
    expect(allRows({ search: utr.slice(3) }).map((r) => r.id)).not.toContain(all.find((r) => r.utr === utr)!.id);
    expect(allRows({ search: '%' })).toEqual([]);
    expect(allRows({ search: 'pay\\' })).toEqual([]);
  });

  it('walks the range when most rows match, with the same answer', () => {
    const found = allRows({ search: 'ORD_' });
    expect(found.length).toBeGreaterThan(MAX_KEYED);
    expect(found).toEqual(all);
    expect(plan({ search: 'ord_' })).not.toMatch(/SEARCH k /);
  });

  it('walks only between the first and last dates that may hold a match: the rows the whole range would give', () => {
    // A second connection to the same file: the planner alone, on the keys the cache wrote.
    const db = new Database(join(dir, 'cache.sqlite'), { readonly: true });
    try {
      const planner = createSearchPlanner(db);
      const paramsOf = (search: string) => toSqlFilter(settlementFilter.parse({ ...range, search })).params;
      // A UTR is its settlement batch's: its records lie on the dates of that batch, not all of the range.
      const utr = all.find((r) => r.date === DATES[1] && r.utr)!.utr!;
      const dates = [...new Set(all.filter(matches(utr)).map((r) => r.date))].sort();
      expect(dates.length).toBeLessThan(DATES.length);
      expect(planner.walked(paramsOf(utr))).toEqual({
        ...paramsOf(utr),
        from: dates[0],
        to: dates.at(-1),
        ...idRange(dates[0]!, dates.at(-1)!),
      });
      // Every date holds a match: nothing to narrow.
      expect(planner.walked(paramsOf('ord_'))).toEqual(paramsOf('ord_'));
      // Nothing matches at all: the range stays (the count sends such a read to the keys anyway).
      expect(planner.walked(paramsOf('zz-no-such-key'))).toEqual(paramsOf('zz-no-such-key'));
    } finally {
      db.close();
    }
  });

  it('totals and charts a walked search from the same narrowed dates, as of the range asked for', () => {
    // Dates without records at both ends: the walk narrows to the cached dates, the answer is the whole range's.
    const wide = { from: '2025-04-20', to: '2025-05-10' };
    expect(cache.settlements.totals({ ...wide, search: 'ord_' })).toEqual(cache.settlements.totals(wide));
    expect(cache.settlements.aggregate({ ...wide, search: 'ORD_' })).toEqual(cache.settlements.aggregate(wide));
  });

  it('finds the records of a date whose keys are not written yet (a sync on its way) by walking that date', () => {
    const date = '2025-05-03';
    const records = source.page(date, undefined, 0, 300).data.map((w) => settlementRecord.parse(w));
    const { run } = cache.syncRuns.claim('settlements', { from: date, to: date, pg: null }, [date]);
    const ingest = cache.settlements.beginDate({ runId: run.id, date, pg: null });
    ingest.upsertPage(records.slice(0, 200), 200);
    const wanted = records[150]!;
    // A UTR is its batch's (one bank credit, many records): the search finds the batch's records cached so far.
    const batchOf = (upTo: number) =>
      records
        .slice(0, upTo)
        .filter((r) => r.utr === wanted.utr)
        .map((r) => r.pg_transaction_id)
        .sort();
    const found = () =>
      allRows({ search: wanted.utr! })
        .filter((r) => r.date === date)
        .map((r) => r.pg_transaction_id)
        .sort();
    expect(found()).toContain(wanted.pg_transaction_id);
    expect(found()).toEqual(batchOf(200));
    // Keyed dates still answer by their keys beside the walked one.
    const keyed = all[500]!;
    expect(allRows({ search: keyed.pg_transaction_id }).map((r) => r.id)).toContain(keyed.id);

    ingest.upsertPage(records.slice(200), 300);
    ingest.finish();
    cache.syncRuns.finish(run.id, 'completed');
    // Closed but its keys not written yet: still walked.
    expect(found()).toEqual(batchOf(300));
    expect(cache.settlements.searchKeys.writeOne()).toBe(date);
    expect(cache.settlements.searchKeys.writeOne()).toBeNull();
    expect(found()).toEqual(batchOf(300));
    const last = records[299]!;
    expect(allRows({ search: last.order_id! }).map((r) => r.pg_transaction_id)).toContain(last.pg_transaction_id);
    all = allRows();
  });

  it('finds a changed UTR at once, even when keys were written between two pages of the re-sync', () => {
    const date = DATES[1]!;
    const records = source.page(date, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w));
    const changed = records.map((r, i) => (i === 10 || i === 2000 ? { ...r, utr: `NEWUTR${i}X` } : r));
    const { run } = cache.syncRuns.claim('settlements', { from: date, to: date, pg: null }, [date]);
    const ingest = cache.settlements.beginDate({ runId: run.id, date, pg: null });
    ingest.upsertPage(changed.slice(0, 1000), 1000);
    expect(cache.settlements.searchKeys.writeOne()).toBe(date);
    ingest.upsertPage(changed.slice(1000), changed.length);
    for (const i of [10, 2000]) {
      expect(allRows({ search: `newutr${i}` }).map((r) => r.pg_transaction_id)).toEqual([
        records[i]!.pg_transaction_id,
      ]);
    }
    ingest.finish();
    cache.syncRuns.finish(run.id, 'completed');
    while (cache.settlements.searchKeys.writeOne() !== null);
    expect(allRows({ search: 'NEWUTR2000' })).toHaveLength(1);
    // The old UTR still names the rest of its batch, and no longer the changed record.
    const oldUtr = records[10]!.utr!;
    expect(
      allRows({ search: oldUtr })
        .map((r) => r.pg_transaction_id)
        .sort(),
    ).toEqual(
      changed
        .filter((r) => r.utr?.startsWith(oldUtr))
        .map((r) => r.pg_transaction_id)
        .sort(),
    );
    all = allRows();
  });

  it('keeps every other filter, sort and the totals, on both paths', () => {
    const text = all[1234]!.utr!.slice(0, 3);
    const byAmount: SettlementSort = { column: 'amount', direction: 'desc' };
    for (const search of [text, 'pay_']) {
      const keep = (r: CachedSettlement) => matches(search)(r) && r.pg === 'payu';
      const found = allRows({ search, pg: 'payu', sort: byAmount });
      const expected = all.filter(keep).sort((a, b) => b.amount - a.amount || b.id - a.id);
      expect(found, search).toEqual(expected);
      const totals = cache.settlements.totals({ ...range, search, pg: 'payu' });
      expect(totals.count).toBe(expected.length);
      expect(totals.settled).toBe(expected.reduce((s, r) => s + r.settled_amount, 0));
      const aggregate = cache.settlements.aggregate({ ...range, search, pg: 'payu', exceptionsOnly: true });
      expect(aggregate.total.count).toBe(expected.filter((r) => r.exceptions.length > 0).length);
    }
  });
});

describe('a page at a position', () => {
  const at = (q: Partial<SettlementQuery>, position: number, limit = 50) =>
    cache.settlements.query({ ...range, ...q, position, limit });

  it('starts at that row of the result, in either date order, filtered or not', () => {
    const filters: Partial<SettlementQuery>[] = [
      {},
      { pg: 'cashfree', paymentMode: 'UPI' },
      { exceptionsOnly: true },
      { sort: { column: 'date', direction: 'asc' } },
      { pg: 'easebuzz', sort: { column: 'date', direction: 'asc' } },
    ];
    for (const filter of filters) {
      const rows = allRows(filter);
      // Both edges of each date, the middle, the last row, and one past it.
      const dayEdges = DATES.flatMap((_, i) => {
        const first = rows.findIndex((r) => r.date === DATES[i]);
        return first < 0 ? [] : [first - 1, first, first + 1];
      });
      for (const position of [0, 1, ...dayEdges, rows.length >> 1, rows.length - 1, rows.length].filter(
        (p) => p >= 0,
      )) {
        const page = at(filter, position);
        expect(page.rows, `${JSON.stringify(filter)} at ${position}`).toEqual(rows.slice(position, position + 50));
        const next = page.nextCursor
          ? cache.settlements.query({ ...range, ...filter, after: page.nextCursor, limit: 50 })
          : null;
        expect(next?.rows ?? [], `after ${position}`).toEqual(rows.slice(position + 50, position + 100));
      }
    }
  });

  it('also where the rollup cannot count: another sort, a search, vanished records', () => {
    const cases: Partial<SettlementQuery>[] = [
      { sort: { column: 'utr', direction: 'asc' } },
      { search: all[99]!.utr!.slice(0, 2) },
      { state: 'all' },
    ];
    for (const filter of cases) {
      const rows = allRows(filter);
      for (const position of [0, 7, rows.length >> 1, rows.length - 1]) {
        expect(at(filter, position).rows, JSON.stringify(filter)).toEqual(rows.slice(position, position + 50));
      }
    }
  });

  it('refuses a position with a cursor', () => {
    const page = cache.settlements.query({ ...range, limit: 10 });
    expect(() => cache.settlements.query({ ...range, after: page.nextCursor!, position: 5 })).toThrow(/not both/);
  });

  // Unfiltered, a date whose ids are as many as its rows is reached by arithmetic on its ids; one with a vanished
  // record (a gap in its current ids, or its last id gone) is walked. Both land on the same rows.
  it('lands on the right row of a date with vanished records, beside dates without', () => {
    const date = DATES[1]!;
    const records = source.page(date, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w));
    const gone = new Set([records[40]!.pg_transaction_id, records.at(-1)!.pg_transaction_id]);
    syncRunInto(cache, { [date]: records.filter((r) => !gone.has(r.pg_transaction_id)) }, 1000);
    for (const direction of ['desc', 'asc'] as const) {
      const filter = { sort: { column: 'date' as const, direction } };
      const rows = allRows(filter);
      expect(rows.some((r) => gone.has(r.pg_transaction_id))).toBe(false);
      const first = rows.findIndex((r) => r.date === date);
      const last = rows.findLastIndex((r) => r.date === date);
      for (const position of [first - 1, first, first + 39, first + 40, first + 41, last - 1, last, last + 1, 3]) {
        expect(at(filter, position, 20).rows, `${direction} at ${position}`).toEqual(
          rows.slice(position, position + 20),
        );
      }
    }
    all = allRows();
  });
});
