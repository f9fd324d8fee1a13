/**
 * Sorting cached settlements by a column, read through the cache's pages (cursor after cursor) and jumps (a position),
 * compared with a plain `ORDER BY column, id LIMIT … OFFSET …` run by a second connection on the same SQLite file:
 * the same rows in the same order, ties broken by id the same way, across every filter the rollup answers.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { createKeyOrder } from '../../electron/cache/settlement-key-order';
import { createKeyRank, type KeyRankTuning } from '../../electron/cache/settlement-key-rank';
import { createDateRank } from '../../electron/cache/settlement-date-rank';
import { dayNumber } from '../../electron/cache/settlement-ids';
import { toSqlFilter } from '../../electron/cache/settlement-filter';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord } from '../../shared/api/settlements';
import {
  KEYED_SORT_COLUMNS as KEYED_COLUMNS,
  settlementFilter,
  type KeyedSortColumn,
  type SettlementFilter,
  type SettlementSort,
} from '../../shared/settlement-query';
import { TEST_NOW } from '../support/clock';
import { allCachedRows } from '../support/cache-rows';
import { expectEveryPagePlain, plainIds as plainIdsOn } from '../support/plain-order';
import { syncRunInto } from '../support/settlement-run';

const DATES = ['2025-05-01', '2025-05-02', '2025-05-04', '2025-05-05'];
const PER_DAY = 1500;
const source = new SettlementSource(
  23,
  PER_DAY,
  GATEWAYS.map((g) => g.code),
);
const range = { from: DATES[0]!, to: DATES.at(-1)! };

let dir: string;
let file: string;
let cache: Cache;
let plain: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-sort-'));
  file = join(dir, 'cache.sqlite');
  cache = openCache(file, { now: () => new Date(TEST_NOW) });
  // A run a day, keys written after each, as daily syncs do: a later day's records settled twice change the
  // exception flags of an earlier day's, whose keys were written already.
  for (const d of DATES) {
    syncRunInto(cache, { [d]: source.page(d, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w)) }, 500);
  }
  plain = new Database(file, { readonly: true });
});
afterAll(() => {
  plain.close();
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The ids of a filter's records in a sort's order by SQLite alone, on the second connection. */
const plainIds = (
  filter: SettlementFilter,
  sort: SettlementSort,
  limit?: number,
  offset?: number,
  after?: { value: string | number; id: number },
) => plainIdsOn(plain, filter, sort, limit, offset, after);

/** The page of 40 at `position` and the page after it (by its cursor) equal the plain ORDER BY's at those offsets. */
function pageAndNextMatch(filter: SettlementFilter, sort: SettlementSort, position: number): void {
  const what = `${JSON.stringify(filter)} by ${sort.column} ${sort.direction} at ${position}`;
  const page = cache.settlements.query({ ...filter, sort, position, limit: 40 });
  expect(
    page.rows.map((r) => r.id),
    what,
  ).toEqual(plainIds(filter, sort, 40, position));
  const next = page.nextCursor
    ? cache.settlements.query({ ...filter, sort, after: page.nextCursor, limit: 40 }).rows.map((r) => r.id)
    : [];
  expect(next, what).toEqual(plainIds(filter, sort, 40, position + 40));
}

const FILTERS: SettlementFilter[] = [
  range,
  { ...range, pg: 'payu' },
  { ...range, paymentMode: 'UPI' },
  { ...range, pg: 'cashfree', paymentMode: 'UPI' },
  { ...range, exceptionsOnly: true },
  { ...range, pgStatus: 'failed' },
  { ...range, orderStatus: 'success', rule: 'duplicate_settlement' },
  { from: DATES[1]!, to: DATES[2]! },
];
const VALUE_SORTS: SettlementSort[] = (['pg', 'payment_mode', 'order_status', 'pg_status'] as const).flatMap((column) =>
  (['desc', 'asc'] as const).map((direction) => ({ column, direction })),
);

describe('sort by a column of few values, through the rollup', () => {
  it('pages through every row once, in the plain ORDER BY’s order, for every filter', () => {
    expectEveryPagePlain(cache, plain, FILTERS, VALUE_SORTS);
  });

  it('starts a page at any position: group edges, the middle, the last row and past it, then pages on', () => {
    for (const filter of [range, { ...range, pg: 'payu' }, { ...range, exceptionsOnly: true }]) {
      for (const sort of VALUE_SORTS) {
        const ids = plainIds(filter, sort);
        const rows = plain
          .prepare(`SELECT id, ${sort.column} AS v, date FROM settlements WHERE id IN (SELECT value FROM json_each(?))`)
          .all(JSON.stringify(ids)) as { id: number; v: string; date: string }[];
        const byId = new Map(rows.map((r) => [r.id, r]));
        // Where the value or the date changes: a group's first row, and the rows either side of it.
        const edges = ids.flatMap((id, i) => {
          const prev = i > 0 ? byId.get(ids[i - 1]!)! : null;
          const r = byId.get(id)!;
          return prev && (prev.v !== r.v || prev.date !== r.date) ? [i - 1, i, i + 1] : [];
        });
        for (const position of [0, 1, ...edges, ids.length >> 1, ids.length - 1, ids.length]) {
          pageAndNextMatch(filter, sort, position);
        }
      }
    }
  });
});

const KEYED_SORTS: SettlementSort[] = KEYED_COLUMNS.flatMap((column) =>
  (['desc', 'asc'] as const).map((direction) => ({ column, direction })),
);

/** Filters the keys' ordinals do not count and their marks do (sort-keys.ts), one of each kind and some together. */
const MARKED_FILTERS: SettlementFilter[] = [
  { ...range, paymentMode: 'CC' },
  { ...range, pg: 'cashfree', paymentMode: 'UPI' },
  { ...range, pgStatus: 'failed' },
  { ...range, orderStatus: 'success' },
  { ...range, orderStatus: 'success', rule: 'duplicate_settlement' },
  { ...range, exceptionsOnly: true },
  { from: DATES[1]!, to: DATES[2]!, exceptionsOnly: true, paymentMode: 'UPI' },
];

describe('sort by a column of many values, through the sort keys', () => {
  /**
   * The key at ranks of every filter's result asked of the marks directly, on a connection of their own: the cache's
   * own read falls back to skipping rows when the marks cannot count, so a fallback cannot hide a wrong count here.
   */
  const ranksMatch = (columns: readonly KeyedSortColumn[], tunings: (KeyRankTuning | undefined)[]) => {
    const keyRanks = tunings.map((tuning) => ({
      tuning,
      keyRank: createKeyRank(plain, createKeyOrder(plain), tuning),
    }));
    for (const filter of [range, { ...range, pg: 'payu' }, { from: DATES[1]!, to: DATES[2]! }, ...MARKED_FILTERS]) {
      const { params, exceptionsOnly } = toSqlFilter(settlementFilter.parse(filter));
      for (const column of columns) {
        const ids = plainIds(filter, { column, direction: 'asc' });
        expect(ids.length, JSON.stringify(filter)).toBeGreaterThan(0);
        const step = Math.max(1, Math.floor(ids.length / 20));
        const ranks = [-1, 0, 1, ...Array.from({ length: 20 }, (_, i) => i * step + 3), ids.length - 1, ids.length];
        for (const { tuning, keyRank } of keyRanks) {
          for (const rank of ranks) {
            const what = `${JSON.stringify(filter)} by ${column} at ${rank}, ${JSON.stringify(tuning)}`;
            const found = keyRank.keyAtRank(column, params, exceptionsOnly, () => rank);
            expect(found, what).not.toBeNull();
            expect(found!.total).toBe(ids.length);
            expect(found!.key?.[1] ?? null, what).toBe(ids[rank] ?? null);
          }
        }
      }
    }
  };

  it('finds the key at a rank by the marks alone, at every rank, for every column and filter', () => {
    ranksMatch(KEYED_COLUMNS, [undefined]);
  });

  it('finds the same keys counting down to two neighbouring marks, and halving the stretch at every count', () => {
    // On these small lists the app's tuning reads at once; these take each path to its end, for a number, a text and
    // a time column.
    ranksMatch(
      ['amount', 'utr', 'settlement_date'],
      [
        { readFew: 0, guidedCuts: 6 },
        { readFew: 0, guidedCuts: 0 },
      ],
    );
  });

  it('pages through every row once, in the plain ORDER BY’s order, for every filter', () => {
    for (const filter of FILTERS) {
      for (const sort of KEYED_SORTS) {
        expect(
          allCachedRows(cache, filter, { ...filter, sort }).map((r) => r.id),
          `${JSON.stringify(filter)} by ${sort.column} ${sort.direction}`,
        ).toEqual(plainIds(filter, sort));
      }
    }
  });

  /** A page at positions of a filter's result (the first rows, the middle, the last and past them), and the page after it. */
  const jumpsMatch = (filter: SettlementFilter) => {
    for (const sort of KEYED_SORTS) {
      const total = plainIds(filter, sort).length;
      for (const position of [0, 1, 2, 777, total >> 1, total - 41, total - 1, total, total + 5].filter((p) => p >= 0))
        pageAndNextMatch(filter, sort, position);
    }
  };

  it('starts a page at any position by the keys’ ranks: the dates alone, a gateway', () => {
    for (const filter of [range, { from: DATES[1]!, to: DATES[2]! }, { ...range, pg: 'payu' }]) jumpsMatch(filter);
  });

  for (const filter of MARKED_FILTERS) {
    it(`starts a page at any position by the marks: ${JSON.stringify(filter)}`, () => jumpsMatch(filter));
  }
});

describe('the date order under a filter, by the status lists', () => {
  const DATE_SORTS: SettlementSort[] = [
    { column: 'date', direction: 'desc' },
    { column: 'date', direction: 'asc' },
  ];
  const DATE_FILTERS = [
    { ...range, pg: 'payu' },
    { from: DATES[1]!, to: DATES[2]!, pg: 'easebuzz' },
    ...MARKED_FILTERS,
  ];

  it('finds the row at a rank of each date by the lists alone, for every filter, and nothing for a wrong count', () => {
    // On a connection of its own, as the marks' ranks above: the cache's read would skip rows where the lists fail.
    const dateRank = createDateRank(createKeyOrder(plain));
    for (const filter of DATE_FILTERS) {
      const { params, exceptionsOnly } = toSqlFilter(settlementFilter.parse(filter));
      for (const date of DATES.filter((d) => d >= filter.from && d <= filter.to)) {
        const ids = plainIds({ ...filter, from: date, to: date }, { column: 'date', direction: 'asc' });
        expect(ids.length, `${JSON.stringify(filter)} on ${date}`).toBeGreaterThan(1);
        for (const rank of [0, 1, ids.length >> 2, ids.length >> 1, ids.length - 2, ids.length - 1]) {
          const what = `${JSON.stringify(filter)} on ${date} at ${rank}`;
          expect(dateRank.idAtRank(params, exceptionsOnly, dayNumber(date), rank, ids.length), what).toBe(ids[rank]);
        }
        expect(dateRank.idAtRank(params, exceptionsOnly, dayNumber(date), 0, ids.length + 1)).toBeNull();
      }
    }
  });

  it('pages through every row once, in the plain ORDER BY’s order, for every filter', () => {
    expectEveryPagePlain(cache, plain, DATE_FILTERS, DATE_SORTS);
  });

  it('starts a page at any position: both edges of each date, inside them, the last row and past it', () => {
    for (const filter of DATE_FILTERS) {
      for (const sort of DATE_SORTS) {
        const ids = plainIds(filter, sort);
        const dates = new Map(
          (
            plain
              .prepare('SELECT id, date FROM settlements WHERE id IN (SELECT value FROM json_each(?))')
              .all(JSON.stringify(ids)) as { id: number; date: string }[]
          ).map((r) => [r.id, r.date]),
        );
        const edges = ids.flatMap((id, i) =>
          i > 0 && dates.get(ids[i - 1]!) !== dates.get(id) ? [i - 1, i, i + 1] : [],
        );
        for (const position of [1, 37, ...edges, ids.length >> 1, ids.length - 1, ids.length]) {
          pageAndNextMatch(filter, sort, position);
        }
      }
    }
  });
});

describe('sort keys that are not current', () => {
  const MARKS_RANK: SettlementFilter[] = [
    range,
    { ...range, pg: 'payu' },
    { ...range, paymentMode: 'UPI' },
    { ...range, exceptionsOnly: true },
  ];

  /**
   * The marks rank a result exactly or (`ranked` false) not at all, on a connection of their own: never a wrong key;
   * so do the status lists a row of the re-synced date in the date order.
   */
  const marksRank = (db: Database.Database, ranked: boolean) => {
    const keyOrder = createKeyOrder(db);
    const keyRank = createKeyRank(db, keyOrder);
    const dateRank = createDateRank(keyOrder);
    for (const filter of MARKS_RANK) {
      const { params, exceptionsOnly } = toSqlFilter(settlementFilter.parse(filter));
      const ids = plainIds(filter, { column: 'amount', direction: 'asc' });
      const onDate = plainIds({ ...filter, from: DATES[2]!, to: DATES[2]! }, { column: 'date', direction: 'asc' });
      for (const rank of [0, ids.length >> 1, ids.length - 1]) {
        const found = keyRank.keyAtRank('amount', params, exceptionsOnly, () => rank);
        expect(found && found.key?.[1], `${JSON.stringify(filter)} at ${rank}`).toBe(ranked ? ids[rank] : null);
      }
      for (const rank of [0, onDate.length >> 1, onDate.length - 1]) {
        const found = dateRank.idAtRank(params, exceptionsOnly, dayNumber(DATES[2]!), rank, onDate.length);
        expect(found, `${JSON.stringify(filter)} on ${DATES[2]} at ${rank}`).toBe(ranked ? onDate[rank] : null);
      }
    }
  };

  it('answers exactly while a date is re-synced and after, with changed values and vanished records', () => {
    const date = DATES[2]!;
    const records = source.page(date, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w));
    // The re-sync drops 30 records (they vanish) and changes the amount of three (keys out of date until written).
    const changed = records
      .slice(30)
      .map((r, i) => (i % 500 === 7 ? { ...r, amount: r.amount + 1, settled_amount: r.settled_amount + 1 } : r));
    const { run } = cache.syncRuns.claim('settlements', { from: date, to: date, pg: null }, [date]);
    const ingest = cache.settlements.beginDate({ runId: run.id, date, pg: null });
    ingest.upsertPage(changed.slice(0, 700), 700);
    const check = () => {
      for (const sort of [
        { column: 'amount', direction: 'desc' },
        { column: 'utr', direction: 'asc' },
        // A value order's groups are read from the keys too, where they are current.
        { column: 'pg_status', direction: 'asc' },
      ] as const) {
        for (const filter of [
          range,
          { ...range, pg: 'payu' },
          { ...range, state: 'all' as const },
          { ...range, paymentMode: 'UPI' },
          { ...range, exceptionsOnly: true },
        ]) {
          const what = `${JSON.stringify(filter)} by ${sort.column}`;
          expect(
            allCachedRows(cache, filter, { ...filter, sort }).map((r) => r.id),
            what,
          ).toEqual(plainIds(filter, sort));
          const total = plainIds(filter, sort).length;
          for (const position of [1, total >> 1, total - 1, total]) {
            const page = cache.settlements.query({ ...filter, sort, position, limit: 40 });
            expect(
              page.rows.map((r) => r.id),
              `${what} at ${position}`,
            ).toEqual(plainIds(filter, sort, 40, position));
          }
        }
      }
    };
    check();
    marksRank(plain, false);
    ingest.upsertPage(changed.slice(700), changed.length);
    ingest.finish();
    cache.syncRuns.finish(run.id, 'completed');
    expect(plain.prepare('SELECT count(*) FROM settlements WHERE vanished_at IS NOT NULL').pluck().get()).toBe(30);
    check();
    marksRank(plain, false);
    expect(cache.settlements.sortKeys.writeOne()).toBe(date);
    expect(cache.settlements.sortKeys.writeOne()).toBeNull();
    marksRank(plain, true);
    // Current keys again, of the current records only: the vanished ones are read by scanning.
    const keyOrder = createKeyOrder(plain);
    const listed = keyOrder.lists(toSqlFilter(settlementFilter.parse({ from: date, to: date })).params)!.lists;
    const keyed = listed.flatMap(({ day, pg }) => {
      const list = keyOrder.sortLists.listsOf(0, [{ day, pg }])[0]!;
      return list === null ? [] : keyOrder.sortLists.scan(list, 0, 1, null, Infinity).ids;
    });
    expect(keyed.sort((a, b) => a - b)).toEqual(
      plain.prepare('SELECT id FROM settlements WHERE date = ? AND vanished_at IS NULL ORDER BY id').pluck().all(date),
    );
    check();
    // A vanished record that comes back unchanged is missing from the keys until they are written again.
    const back = cache.syncRuns.claim('settlements', { from: date, to: date, pg: null }, [date]).run;
    const again = cache.settlements.beginDate({ runId: back.id, date, pg: null });
    again.upsertPage(records.slice(0, 30), 30);
    check();
    marksRank(plain, false);
    again.upsertPage(changed, 30 + changed.length);
    again.finish();
    cache.syncRuns.finish(back.id, 'completed');
    expect(cache.settlements.sortKeys.writeOne()).toBe(date);
    check();
    marksRank(plain, true);
  });
});

describe('a page taken up where the one before stopped', () => {
  const sorts: SettlementSort[] = [
    { column: 'amount', direction: 'desc' },
    { column: 'settled_amount', direction: 'asc' },
    { column: 'utr', direction: 'asc' },
    { column: 'order_date', direction: 'desc' },
  ];
  const filters: SettlementFilter[] = [
    range,
    { ...range, pg: 'payu' },
    { ...range, paymentMode: 'UPI' },
    { ...range, exceptionsOnly: true },
  ];
  /**
   * A first page of each sort and filter, read now: each keeps its merge for the page after it. Fewer than the merges
   * kept (8) unless `all`: a next page keeps its own merge too, and past 8 the oldest, the one asked next, is dropped.
   */
  const firstPages = (all = false) =>
    (all ? sorts : sorts.slice(0, 2)).flatMap((sort) =>
      (all ? filters : filters.slice(0, 3)).map((filter) => ({
        sort,
        filter,
        page: cache.settlements.query({ ...filter, sort, limit: 40 }),
      })),
    );
  /** The page after each, by its cursor, equals the plain ORDER BY after that page's last row as the file is now. */
  const nextPagesMatch = (pages: ReturnType<typeof firstPages>) => {
    for (const { sort, filter, page } of pages) {
      const last = page.rows.at(-1)!;
      const column = sort.column as 'amount' | 'settled_amount' | 'utr' | 'order_date';
      const next = cache.settlements.query({ ...filter, sort, after: page.nextCursor!, limit: 40 });
      expect(
        next.rows.map((r) => r.id),
        `${JSON.stringify(filter)} by ${sort.column} ${sort.direction}`,
      ).toEqual(plainIds(filter, sort, 40, 0, { value: last[column] ?? '', id: last.id }));
    }
  };
  /** A date's records again with other amounts and times (keys written again after it): where rows sort changes. */
  const changed = (date: string, step: number) =>
    source.page(date, undefined, 0, PER_DAY).data.map((w, i) => {
      const r = settlementRecord.parse(w);
      return i % 3 === 0
        ? {
            ...r,
            amount: r.amount + step * (i + 1),
            settled_amount: r.settled_amount + step * (i + 1),
            utr: r.utr === null ? null : `${step}${r.utr}`,
            order_date: `2025-04-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
          }
        : r;
    });

  it('is the same page when asked again, and the page after it too', () => {
    for (const sort of sorts) {
      for (const filter of filters) {
        // The page after the first asked twice, from the same kept merge, then the one after it.
        const page = cache.settlements.query({ ...filter, sort, limit: 40 });
        const second = cache.settlements.query({ ...filter, sort, after: page.nextCursor!, limit: 40 });
        const again = cache.settlements.query({ ...filter, sort, after: page.nextCursor!, limit: 40 });
        const third = cache.settlements.query({ ...filter, sort, after: again.nextCursor!, limit: 40 });
        const what = `${JSON.stringify(filter)} by ${sort.column} ${sort.direction}`;
        expect(
          second.rows.map((r) => r.id),
          what,
        ).toEqual(plainIds(filter, sort, 40, 40));
        expect(
          again.rows.map((r) => r.id),
          what,
        ).toEqual(plainIds(filter, sort, 40, 40));
        expect(
          third.rows.map((r) => r.id),
          what,
        ).toEqual(plainIds(filter, sort, 40, 80));
      }
    }
  });

  it('is exact after more sorts than are kept', () => {
    const pages = firstPages(true);
    expect(pages.length).toBeGreaterThan(8);
    nextPagesMatch(pages);
    nextPagesMatch(pages);
  });

  it('reads afresh after this connection wrote the keys again between two pages', () => {
    const pages = firstPages();
    syncRunInto(cache, { [DATES[1]!]: changed(DATES[1]!, 7_919) }, 500);
    nextPagesMatch(pages);
  });

  it('reads afresh after another connection wrote the keys again between two pages', () => {
    const pages = firstPages();
    const other = openCache(file, { now: () => new Date(TEST_NOW) });
    try {
      syncRunInto(other, { [DATES[3]!]: changed(DATES[3]!, 104_729) }, 500);
    } finally {
      other.close();
    }
    nextPagesMatch(pages);
  });

  it('reads the range while a date is being synced between two pages, and the keys once written', () => {
    const date = DATES[0]!;
    const pages = firstPages();
    const { run } = cache.syncRuns.claim('settlements', { from: date, to: date, pg: null }, [date]);
    const ingest = cache.settlements.beginDate({ runId: run.id, date, pg: null });
    const records = changed(date, 15_485_863);
    ingest.upsertPage(records.slice(0, 700), 700);
    nextPagesMatch(pages);
    ingest.upsertPage(records.slice(700), records.length);
    ingest.finish();
    cache.syncRuns.finish(run.id, 'completed');
    const again = firstPages();
    expect(cache.settlements.sortKeys.writeOne()).toBe(date);
    nextPagesMatch(again);
  });
});
