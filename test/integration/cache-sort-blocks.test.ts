/**
 * The sort keys' packed blocks (sort-keys.ts, migration 26) at their edges: lists of exactly 256 and 257 keys, ids
 * past 2^24 from their date's first (4 bytes an id, not 3), classes past code 255 (2 bytes a class, not 1), text
 * ids in mixed case and past ASCII, whose order must stay SQLite's. Every read is held to a plain ORDER BY on a second
 * connection, and every count before a place to a plain count.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { toSqlFilter } from '../../electron/cache/settlement-filter';
import { PER_DAY, dateOfId, dayNumber } from '../../electron/cache/settlement-ids';
import { createKeyOrder } from '../../electron/cache/settlement-key-order';
import { createKeyRank } from '../../electron/cache/settlement-key-rank';
import { decodeMarkCounts, type SortKey } from '../../electron/cache/sort-keys';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import {
  KEYED_SORT_COLUMNS,
  settlementFilter,
  type SettlementFilter,
  type SettlementSort,
} from '../../shared/settlement-query';
import { TEST_NOW } from '../support/clock';
import { expectEveryPagePlain, plainIds } from '../support/plain-order';
import { syncRunInto } from '../support/settlement-run';

/** Two gateways' lists of 256 and 257 keys, text ids of every kind; then a date of wide ids and wide classes. */
const NARROW = '2025-03-10';
const WIDE = '2025-03-11';
const range = { from: NARROW, to: WIDE };
const SIZES = { payu: 256, cashfree: 257 } as const;
/** Ids that order differently by case, by accent, past the BMP, or as empty text beside null. */
const TEXTS = ['a', 'A', 'é', 'É', 'e', 'z', 'Z', 'ß', '日本', '😀', 'ﬀ', '_', '', 'a😀', 'a\uffff', 'Ä'];

/** Records of another seed a date: none settled twice across the two dates, whose rule would key the first again. */
const parsed = (date: string, seed: number): SettlementRecord[] =>
  new SettlementSource(seed, 1200, ['payu', 'cashfree'])
    .page(date, undefined, 0, 1200)
    .data.map((w) => settlementRecord.parse(w));

let dir: string;
let cache: Cache;
let plain: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-sort-blocks-'));
  const file = join(dir, 'cache.sqlite');
  cache = openCache(file, { now: () => new Date(TEST_NOW) });
  const narrow = (['payu', 'cashfree'] as const).flatMap((pg) =>
    parsed(NARROW, 41)
      .filter((r) => r.pg === pg)
      .slice(0, SIZES[pg])
      .map((r, i) => ({
        ...r,
        // Repeats, so ties are broken by id; null beside '' for the order id.
        order_id: i % 17 === 0 ? null : `${TEXTS[i % TEXTS.length]}${i % 5}`,
        utr: i % 13 === 0 ? null : `${TEXTS[(i * 7) % TEXTS.length]}-${pg}`,
      })),
  );
  syncRunInto(cache, { [NARROW]: narrow }, 200);
  // Classes numbered past 255 before the wide date's: its payment modes are new, so its classes are too.
  const insert = cache.db.prepare(
    `INSERT INTO settlement_sort_classes (mode_code, order_status_code, pg_status_code, exception_flags)
     VALUES (-1, -1, -1, ?)`,
  );
  for (let i = 0; i < 300; i++) insert.run(i);
  const wide = parsed(WIDE, 43).map((r, i) => ({ ...r, payment_mode: `WIDE-${i % 3}` }));
  syncRunInto(cache, { [WIDE]: wide }, 500);
  // Every other record of the wide date moved past 2^24 from its date's first id, and its keys written again.
  const lo = dayNumber(WIDE) * PER_DAY;
  cache.db
    .prepare(`UPDATE settlements SET id = id + ${2 ** 24} WHERE id BETWEEN ? AND ? AND (id - ?) % 2 = 1`)
    .run(lo, lo + PER_DAY - 1, lo);
  cache.db.prepare('DELETE FROM settlement_sorted_days WHERE date = ?').run(WIDE);
  expect(cache.settlements.sortKeys.writeOne()).toBe(WIDE);
  plain = new Database(file, { readonly: true });
});
afterAll(() => {
  plain.close();
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEYED_SORTS: SettlementSort[] = KEYED_SORT_COLUMNS.flatMap((column) =>
  (['asc', 'desc'] as const).map((direction) => ({ column, direction })),
);
const FILTERS: SettlementFilter[] = [
  range,
  { from: NARROW, to: NARROW, pg: 'cashfree' },
  { ...range, pg: 'payu' },
  { ...range, paymentMode: 'WIDE-1' },
  { ...range, exceptionsOnly: true },
];

describe('sort keys packed in blocks', () => {
  it('packs ids in 3 bytes and classes in 1, and 4 and 2 where a date needs them', () => {
    const widths = (date: string) =>
      plain
        .prepare(
          `SELECT DISTINCT length(ids) * 2 / length(classes) FROM settlement_sort_blocks WHERE day = ? ORDER BY 1`,
        )
        .pluck()
        .all(dayNumber(date));
    // Bytes an id over bytes a class, doubled: 3 / 1 and 4 / 2.
    expect(widths(NARROW)).toEqual([6]);
    expect(widths(WIDE)).toEqual([4]);
    expect(plain.prepare('SELECT max(code) FROM settlement_sort_classes').pluck().get()).toBeGreaterThan(255);
  });

  it('keeps lists of 256 and 257 keys whole, in blocks of at most 256 starting at the marks', () => {
    const keyOrder = createKeyOrder(plain);
    const { params } = toSqlFilter(settlementFilter.parse({ from: NARROW, to: NARROW }));
    const found = keyOrder.lists(params)!;
    for (let col = 0; col < KEYED_SORT_COLUMNS.length; col++) {
      const sizes = found.lists.map(({ day, pg }) => {
        const list = keyOrder.sortLists.listsOf(col, [{ day, pg }])[0]!;
        const lengths = plain
          .prepare(
            `SELECT length(classes) FROM settlement_sort_blocks WHERE col = ? AND day = ? AND pg_code = ? ORDER BY block`,
          )
          .pluck()
          .all(col, day, pg) as number[];
        // Each block starts at its mark: the marks' ordinals are the blocks' running lengths.
        expect(list.n).toEqual(lengths.reduce((n, length) => [...n, n.at(-1)! + length], [0]));
        for (const length of lengths) expect(length).toBeLessThanOrEqual(256);
        for (const length of lengths.slice(1, -1)) expect(length).toBe(256);
        return lengths.reduce((sum, length) => sum + length, 0);
      });
      expect(sizes.sort()).toEqual([256, 257]);
    }
  });

  it('reads every page in SQLite’s order, text ids in any case and script included', () => {
    expectEveryPagePlain(cache, plain, FILTERS, KEYED_SORTS);
  });

  it('jumps to the rows either side of every block edge, and pages on from there', () => {
    for (const filter of FILTERS) {
      for (const sort of KEYED_SORTS) {
        const total = plainIds(plain, filter, sort).length;
        for (const position of [1, 255, 256, 257, 512, 513, total - 1, total].filter((p) => p > 0 && p <= total)) {
          const what = `${JSON.stringify(filter)} by ${sort.column} ${sort.direction} at ${position}`;
          const page = cache.settlements.query({ ...filter, sort, position, limit: 30 });
          expect(
            page.rows.map((r) => r.id),
            what,
          ).toEqual(plainIds(plain, filter, sort, 30, position));
          const next = page.nextCursor
            ? cache.settlements.query({ ...filter, sort, after: page.nextCursor, limit: 30 }).rows.map((r) => r.id)
            : [];
          expect(next, what).toEqual(plainIds(plain, filter, sort, 30, position + 30));
        }
      }
    }
  });

  it('counts a filter’s keys before any place across blocks: the marks’ counts and the block’s classes', () => {
    const keyOrder = createKeyOrder(plain);
    const lists = keyOrder.sortLists;
    for (const filter of [{ ...range, paymentMode: 'WIDE-1' }, { ...range, exceptionsOnly: true }, range]) {
      const { params, exceptionsOnly } = toSqlFilter(settlementFilter.parse(filter));
      const found = keyOrder.lists(params)!;
      const wanted = lists.wanted({ ...found.codes, ruleBit: params.ruleBit, exceptionsOnly });
      for (const column of ['amount', 'order_id', 'settlement_date'] as const) {
        const col = KEYED_SORT_COLUMNS.indexOf(column);
        const sort = { column, direction: 'asc' } as const;
        for (const { day, pg } of found.lists) {
          const list = lists.listsOf(col, [{ day, pg }])[0]!;
          if (list === null) continue;
          const date = dateOfId(day * PER_DAY);
          const pgName = plain
            .prepare('SELECT value FROM settlement_sort_codes WHERE code = ?')
            .pluck()
            .get(pg) as string;
          // The list as SQLite orders it, and the records of it the filter keeps.
          const every = plainIds(plain, { from: date, to: date, pg: pgName }, sort);
          const kept = new Set(plainIds(plain, { ...filter, from: date, to: date, pg: pgName }, sort));
          expect(list.n.at(-1)).toBe(every.length);
          for (const n of new Set([0, 1, ...list.n.flatMap((start) => [start - 1, start, start + 1])])) {
            if (n < 0 || n >= every.length) continue;
            const [id] = lists.scan(list, n, 1, null, 1).ids;
            expect(id).toBe(every[n]);
            const key: SortKey = lists.keys(col, [id!])[0]!;
            const seek = lists.seek(list, key);
            expect(seek.n).toBe(n);
            const counted =
              wanted === null
                ? seek.n
                : decodeMarkCounts(list.counts, wanted).kept[seek.block]! +
                  lists.keptBefore(list, seek.block, seek.at, wanted);
            expect(counted, `${column} ${JSON.stringify(filter)} at ${n}`).toBe(
              every.slice(0, n).filter((x) => kept.has(x)).length,
            );
          }
        }
      }
    }
  });

  it('ranks every place by the marks alone, reading nothing but a block or two', () => {
    const keyRank = createKeyRank(plain, createKeyOrder(plain), { readFew: 0, guidedCuts: 6 });
    for (const filter of FILTERS) {
      const { params, exceptionsOnly } = toSqlFilter(settlementFilter.parse(filter));
      for (const column of ['amount', 'utr', 'order_id'] as const) {
        const ids = plainIds(plain, filter, { column, direction: 'asc' });
        for (const rank of [0, 1, 255, 256, 257, ids.length >> 1, ids.length - 1].filter((r) => r < ids.length)) {
          const found = keyRank.keyAtRank(column, params, exceptionsOnly, () => rank);
          expect(found?.key?.[1], `${JSON.stringify(filter)} by ${column} at ${rank}`).toBe(ids[rank]);
        }
      }
    }
  });
});
