/**
 * The settlements repository over a real SQLite file, fed with the sandbox's own records (no HTTP here;
 * the sync tests cover the wire): exceptions stored with the records, totals and aggregates equal to
 * direct sums, keyset pages without gaps or repeats for every sort, re-syncs that update and mark
 * vanished records, and the query plans of the main reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, openCacheReader, type Cache } from '../../electron/cache/database';
import { CursorError } from '../../electron/cache/cursor';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { RULE_IDS, checkRecord, lineKind, type LineKind, type RuleId } from '../../shared/reconciliation';
import {
  SETTLEMENT_SORT_COLUMNS,
  type CachedSettlement,
  type SettlementQuery,
  type SettlementSortColumn,
} from '../../shared/settlement-query';
import { syncRunInto } from '../support/settlement-run';
import { allCachedRows } from '../support/cache-rows';

const DATES = ['2025-03-09', '2025-03-10', '2025-03-11'];
const PER_DAY = 2400;
const source = new SettlementSource(
  7,
  PER_DAY,
  GATEWAYS.map((g) => g.code),
);
const recordsOf = (date: string): SettlementRecord[] =>
  source.page(date, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w));

let dir: string;
let cache: Cache;
let clock = new Date('2025-03-12T04:00:00.000Z');
const range = { from: DATES[0]!, to: DATES.at(-1)! };

/** A sync run over `dates` into the test's cache, pages of `pageSize`, records given per date. */
const syncRun = (dates: Record<string, SettlementRecord[]>, pageSize = 500) => syncRunInto(cache, dates, pageSize);

/** Every cached row of the range in the query's order. */
const allRows = (filter: Partial<SettlementQuery> = {}) => allCachedRows(cache, range, filter);

function jsSums(
  rows: readonly {
    amount: number;
    mer_service_fee: number;
    mer_service_tax: number;
    settled_amount: number;
    dispute_id: string | null;
  }[],
) {
  const ofKind = (kind: LineKind) => rows.filter((r) => lineKind(r) === kind).reduce((s, r) => s + r.amount, 0);
  return {
    count: rows.length,
    amount: rows.reduce((s, r) => s + r.amount, 0),
    fees: rows.reduce((s, r) => s + r.mer_service_fee, 0),
    taxes: rows.reduce((s, r) => s + r.mer_service_tax, 0),
    settled: rows.reduce((s, r) => s + r.settled_amount, 0),
    sales: ofKind('sale'),
    refunds: ofKind('refund'),
    chargebacks: ofKind('chargeback'),
  };
}

/** The chart's groups (date x gateway x payment mode) of `rows`, with their sums, in the cache's order. */
function jsGroups(rows: readonly CachedSettlement[]) {
  const groups = new Map<string, CachedSettlement[]>();
  for (const r of rows) {
    const key = `${r.date}|${r.pg}|${r.payment_mode}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, g]) => {
      const [date, pg, paymentMode] = key.split('|');
      return { date, pg, paymentMode, ...jsSums(g) };
    });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-settlements-'));
  cache = openCache(join(dir, 'cache.sqlite'), { now: () => clock });
  syncRun(Object.fromEntries(DATES.map((d) => [d, recordsOf(d)])));
});
afterAll(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('stored records', () => {
  it('every record once, with its date, in the order the API listed each date', () => {
    const rows = allRows({ sort: { column: 'date', direction: 'asc' } });
    const expected = DATES.flatMap((d) =>
      recordsOf(d).map((r) => ({
        date: d,
        pg_transaction_id: r.pg_transaction_id,
        settlement_date: r.settlement_date,
      })),
    );
    expect(
      rows.map((r) => ({ date: r.date, pg_transaction_id: r.pg_transaction_id, settlement_date: r.settlement_date })),
    ).toEqual(expected);
  });

  it('each record keeps its own exceptions, as the rules compute them', () => {
    const rows = allRows();
    const own = (r: { exceptions: { rule: RuleId }[] }) =>
      r.exceptions.filter((e) => e.rule !== 'duplicate_settlement');
    const byKey = new Map(rows.map((r) => [`${r.date}|${r.pg_transaction_id}|${r.settlement_date}`, r]));
    for (const date of DATES) {
      for (const record of recordsOf(date)) {
        const row = byKey.get(`${date}|${record.pg_transaction_id}|${record.settlement_date}`)!;
        expect(own(row)).toEqual(checkRecord(record));
      }
    }
    expect(rows.filter((r) => own(r).length > 0).length / rows.length).toBeGreaterThan(0.01);
  });

  it('"settled twice" marks every settlement of a transaction settled more than once, across dates', () => {
    const rows = allRows();
    const groups = new Map<string, CachedSettlement[]>();
    for (const r of rows.filter((r) => r.settled_amount !== 0)) {
      const key = `${r.pg}|${r.pg_transaction_id}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    const expected = [...groups.values()]
      .filter((g) => g.length > 1)
      .flat()
      .map((r) => r.id)
      .sort();
    const marked = rows.filter((r) => r.exceptions.some((e) => e.rule === 'duplicate_settlement'));
    expect(marked.map((r) => r.id).sort()).toEqual(expected);
    expect(new Set(marked.map((r) => r.date)).size).toBeGreaterThan(1);
    const sample = marked[0]!.exceptions.find((e) => e.rule === 'duplicate_settlement')!;
    expect(sample.values.times_settled).toBeGreaterThanOrEqual(2);
  });
});

describe('totals and aggregates', () => {
  const filters: Partial<SettlementQuery>[] = [
    {},
    { pg: 'payu' },
    { paymentMode: 'CC' },
    { orderStatus: 'failed' },
    { pgStatus: 'failed', pg: 'razorpay' },
    { exceptionsOnly: true },
    { rule: 'missing_utr' },
    { rule: 'duplicate_settlement' },
    { from: DATES[1]!, to: DATES[1]! },
  ];

  it('totals equal a sum of the records, from the rollup and from the records alike', () => {
    for (const filter of filters) {
      const expected = jsSums(allRows(filter));
      const { asOf, ...totals } = cache.settlements.totals({ ...range, ...filter });
      expect(totals, JSON.stringify(filter)).toEqual(expected);
      expect(asOf).toBe(clock.toISOString());
      // `search` matching every order id (a refund's is its sale's) forces the sum over the records themselves.
      const direct = cache.settlements.totals({ ...range, ...filter, search: 'ord_' });
      expect(direct, JSON.stringify(filter)).toEqual({ ...expected, asOf });
    }
  });

  it('aggregates by date x gateway x payment mode equal a grouping of the records', () => {
    for (const filter of [{}, { exceptionsOnly: true }, { pg: 'cashfree', orderStatus: 'success' }]) {
      const rows = allRows(filter);
      const expected = jsGroups(rows);
      for (const f of [filter, { ...filter, search: 'ord_' }]) {
        const agg = cache.settlements.aggregate({ ...range, ...f });
        expect(agg.byDate).toEqual(expected);
        expect(agg.total).toEqual(jsSums(rows));
      }
    }
  });

  it('a sum that a double could not hold exactly is refused, not rounded', () => {
    const huge = 2 ** 52;
    cache.db
      .prepare(
        `INSERT INTO settlement_rollup VALUES ('2030-01-01', 'payu', 'UPI', 'success', 'success', 0, 3, ?, 0, 0, 0, 0, 0)`,
      )
      .run(huge);
    cache.db
      .prepare(
        `INSERT INTO settlement_rollup VALUES ('2030-01-01', 'payu', 'CC', 'success', 'success', 0, 3, ?, 0, 0, 0, 0, 0)`,
      )
      .run(huge);
    expect(() => cache.settlements.totals({ from: '2030-01-01', to: '2030-01-01' })).toThrow(
      /too large to show exactly/,
    );
    cache.db.prepare(`DELETE FROM settlement_rollup WHERE date = '2030-01-01'`).run();
  });
});

describe('keyset pages', () => {
  const valueOf = (r: CachedSettlement, column: SettlementSortColumn): string | number =>
    column === 'date' ? r.id : (r[column] ?? '');
  const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

  it('walk every sort column both ways with no gap and no repeat, ties broken by id', () => {
    const filter = { from: DATES[1]!, to: DATES[2]!, pg: 'razorpay' };
    const all = allRows(filter);
    expect(all.length).toBeGreaterThan(1000);
    for (const column of SETTLEMENT_SORT_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        const sign = direction === 'asc' ? 1 : -1;
        const expected = [...all]
          .sort((a, b) => sign * (compare(valueOf(a, column), valueOf(b, column)) || compare(a.id, b.id)))
          .map((r) => r.id);
        const walked: number[] = [];
        let after: string | undefined;
        do {
          const page = cache.settlements.query({ ...filter, sort: { column, direction }, limit: 97, after });
          walked.push(...page.rows.map((r) => r.id));
          after = page.nextCursor ?? undefined;
        } while (after);
        expect(walked, `${column} ${direction}`).toEqual(expected);
      }
    }
  });

  it('filters narrow exactly as their names say', () => {
    const all = allRows();
    const cases: [Partial<SettlementQuery>, (r: CachedSettlement) => boolean][] = [
      [{ pg: 'easebuzz' }, (r) => r.pg === 'easebuzz'],
      [{ paymentMode: 'NB' }, (r) => r.payment_mode === 'NB'],
      [{ orderStatus: 'failed' }, (r) => r.order_status === 'failed'],
      [{ pgStatus: 'failed' }, (r) => r.pg_status === 'failed'],
      [{ exceptionsOnly: true }, (r) => r.exceptions.length > 0],
      ...RULE_IDS.map((rule): [Partial<SettlementQuery>, (r: CachedSettlement) => boolean] => [
        { rule },
        (r) => r.exceptions.some((e) => e.rule === rule),
      ]),
    ];
    for (const [filter, keep] of cases) expect(allRows(filter), JSON.stringify(filter)).toEqual(all.filter(keep));
    expect(cache.settlements.exceptions({ ...range, limit: 1000 }).rows).toEqual(
      all.filter((r) => r.exceptions.length > 0).slice(0, 1000),
    );
    const someUtr = all.find((r) => r.utr)!.utr!;
    const someOrder = all[5]!.order_id!;
    expect(allRows({ search: someUtr.slice(0, 9) }).map((r) => r.id)).toContain(all.find((r) => r.utr === someUtr)!.id);
    expect(allRows({ search: someOrder.toLowerCase() }).map((r) => r.order_id)).toContain(someOrder);
    expect(allRows({ search: '%' })).toEqual([]);
  });

  it('refuses a cursor of another sort, or one that is not a cursor', () => {
    const page = cache.settlements.query({ ...range, limit: 10 });
    expect(() =>
      cache.settlements.query({ ...range, sort: { column: 'amount', direction: 'desc' }, after: page.nextCursor! }),
    ).toThrow(CursorError);
    expect(() => cache.settlements.query({ ...range, after: 'bm90IGEgY3Vyc29y' })).toThrow(CursorError);
  });
});

describe('query plans', () => {
  const plan = (read: 'query' | 'totals' | 'aggregate', q: SettlementQuery) =>
    cache.settlements.explain(read, q).join(' | ');

  it('the default page is a rowid range, in order, with no sort step', () => {
    const p = plan('query', range);
    expect(p).toMatch(/SEARCH settlements USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
    expect(p).not.toMatch(/TEMP B-TREE|SCAN/);
  });

  it('a filtered page is still a rowid range; exceptions only read their own index', () => {
    expect(plan('query', { ...range, pg: 'payu', paymentMode: 'UPI', orderStatus: 'success' })).toMatch(
      /^SEARCH settlements USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)$/,
    );
    expect(plan('query', { ...range, exceptionsOnly: true })).toMatch(
      /^SEARCH settlements USING INDEX settlements_exceptions/,
    );
    expect(plan('query', { ...range, rule: 'dispute_open', sort: { column: 'date', direction: 'asc' } })).toMatch(
      /^SEARCH settlements USING INDEX settlements_exceptions/,
    );
  });

  it("a search's page in date order walks only the dates whose keys are not current, a day at a time", () => {
    for (const direction of ['desc', 'asc'] as const) {
      // Each day's records are read by its own rowid range inside the loop over the days: a page's bound on the ids
      // pushed into the walk once made SQLite read every record of the range by rowid instead (200 ms a search page
      // at 580,000 records, issue 33).
      expect(plan('query', { ...range, search: 'ord_', sort: { column: 'date', direction } })).toMatch(
        /\| RIGHT \| SCAN days \| USING INDEX sqlite_autoindex_settlement_keyed_days_1 FOR IN-OPERATOR \| SEARCH s USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\) \|/,
      );
    }
  });

  it("a search's page in date order reads its matches' rows in the list's order until the page is full: no sort", () => {
    for (const direction of ['desc', 'asc'] as const) {
      // The matching ids sorted (ints), then a row per id in that order: reading and sorting every match's row cost a
      // first page of 64 rows of a 5,000-record batch 9–14 ms against 5 (issue 33).
      const p = plan('query', { ...range, search: 'ord_', sort: { column: 'date', direction } });
      expect(p).toMatch(/^MATERIALIZE ordered \|/);
      expect(p).toMatch(/\| SCAN ordered \| SEARCH settlements USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
    }
  });

  it('another sort reads the range once and keeps the top rows', () => {
    expect(plan('query', { ...range, sort: { column: 'amount', direction: 'desc' } })).toMatch(
      /^SEARCH settlements USING INTEGER PRIMARY KEY .*USE TEMP B-TREE FOR ORDER BY$/,
    );
  });

  it('totals and aggregates read the rollup by its key, not the records', () => {
    for (const read of ['totals', 'aggregate'] as const) {
      for (const q of [range, { ...range, pg: 'payu', exceptionsOnly: true }]) {
        const p = plan(read, q);
        expect(p).toMatch(/SEARCH settlement_rollup USING PRIMARY KEY \(date>\? AND date<\?\)/);
        expect(p).not.toMatch(/settlements /);
      }
    }
    // A search seeks its matches in the keys of each date, then reads each matching record by its id: an order id's
    // start is no UTR's, so its totals cannot come from the batches.
    expect(plan('totals', { ...range, search: 'ord_' })).toMatch(
      /SEARCH k USING PRIMARY KEY \(day=\? AND key>\? AND key<\?\).*SEARCH settlements USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
    );
  });

  it('a search only UTRs match sums its UTR batches, not its records, to the same figures (issue 33)', () => {
    const utr = allRows().find((r) => r.utr)!.utr!;
    for (const search of [utr, utr.slice(0, 6)]) {
      const matches = allRows({ search });
      // Every match is by its UTR: the case the batches answer.
      expect(matches.every((r) => r.utr?.startsWith(search))).toBe(true);
      const p = plan('totals', { ...range, search });
      expect(p).toMatch(/settlement_batches/);
      expect(p).not.toMatch(/settlements /);
      expect(cache.settlements.totals({ ...range, search })).toMatchObject(jsSums(matches));
      // The chart from the batches' sums by payment mode, read by the date range of their key.
      const chart = plan('aggregate', { ...range, search });
      expect(chart).toMatch(/SEARCH settlement_batch_modes USING PRIMARY KEY \(date>\? AND date<\?\)/);
      expect(chart).not.toMatch(/settlements |settlement_keys|\bk\b/);
      const agg = cache.settlements.aggregate({ ...range, search });
      expect(agg.byDate).toEqual(jsGroups(matches));
      expect(agg.total).toEqual(jsSums(matches));
    }
    // Narrowed by what a batch does not hold (a payment mode), the records are read again.
    for (const read of ['totals', 'aggregate'] as const) {
      expect(plan(read, { ...range, search: utr, paymentMode: 'UPI' })).not.toMatch(/settlement_batch/);
    }
    // An order id's start is no UTR's: its chart walks its matches.
    expect(plan('aggregate', { ...range, search: 'ord_' })).not.toMatch(/settlement_batch/);
  });

  it('the grid\'s "Exceptions only" sums the rollup less its resolved exceptions, not every exception (issue 33)', () => {
    const exceptions = allRows({ exceptionsOnly: true });
    // Every exception of one chart group (which then has none left) and every fifth of the rest.
    const [first] = exceptions;
    const sameGroup = (r: CachedSettlement) =>
      r.date === first!.date && r.pg === first!.pg && r.payment_mode === first!.payment_mode;
    const resolved = exceptions.filter((r, i) => sameGroup(r) || i % 5 === 0);
    const ids = new Set(resolved.map((r) => r.id));
    for (const r of resolved) cache.exceptions.act({ recordId: r.id, action: 'resolve', text: 'paid' });
    cache.exceptions.replaceDeskStates(
      resolved.map((r) => [r.date, r.pg, r.pg_transaction_id, r.settlement_date, 'resolved', null] as const),
    );
    try {
      const filters: Partial<SettlementQuery>[] = [
        { exceptionsOnly: true },
        { exceptionsOnly: true, paymentMode: first!.payment_mode, pg: first!.pg },
        { rule: first!.exceptions[0]!.rule },
        { exceptionsOnly: true, orderStatus: 'success', from: DATES[1]! },
      ];
      for (const source of ['local', 'desk'] as const) {
        for (const filter of filters) {
          const q = { ...range, ...filter };
          const rows = allRows(filter).filter((r) => !ids.has(r.id));
          const what = `${source} ${JSON.stringify(filter)}`;
          expect(cache.settlements.totals(q, source), what).toEqual({ ...jsSums(rows), asOf: clock.toISOString() });
          const agg = cache.settlements.aggregate(q, source);
          expect(agg.byDate, what).toEqual(jsGroups(rows));
          expect(agg.total, what).toEqual(jsSums(rows));
          for (const read of ['totals', 'aggregate'] as const) {
            const p = cache.settlements.explain(read, q, source).join(' | ');
            expect(p).toMatch(/SEARCH settlement_rollup USING PRIMARY KEY \(date>\? AND date<\?\)/);
            // Each resolved state's record by its key, never a walk of the exceptions or of the records.
            expect(p).toMatch(
              /SEARCH s USING INDEX settlements_exception_figures \(exception_flags=\? AND date=\? AND pg=\? AND pg_transaction_id=\? AND settlement_date=\?\)/,
            );
            expect(p).not.toMatch(/settlements_exceptions |SCAN settlements|SCAN s\b/);
          }
        }
      }
      // A group with every exception resolved is no group of the chart.
      const ofGroup = cache.settlements.aggregate({ ...range, exceptionsOnly: true }, 'local').byDate;
      expect(
        ofGroup.some((g) => g.date === first!.date && g.pg === first!.pg && g.paymentMode === first!.payment_mode),
      ).toBe(false);
    } finally {
      cache.db.prepare('DELETE FROM settlement_exception_states').run();
      cache.exceptions.replaceDeskStates([]);
    }
  });
});

describe('re-syncing a date', () => {
  const date = DATES[2]!;

  it('stores nothing twice when the API says the same again', () => {
    const before = cache.settlements.totals(range);
    const [result] = syncRun({ [date]: recordsOf(date) });
    expect(result).toMatchObject({ inserted: 0, updated: 0, unchanged: PER_DAY, vanished: 0 });
    expect(cache.settlements.totals(range)).toEqual({ ...before, asOf: clock.toISOString() });
  });

  it('updates changed records, marks vanished ones, and keeps every sum in step', () => {
    clock = new Date('2025-03-13T04:00:00.000Z');
    const records = recordsOf(date);
    const changed = new Set([3, 40, 41, 900]);
    const removed = new Set([7, 8, 1500]);
    const next = records
      .map((r, i) =>
        changed.has(i) ? { ...r, utr: `NEWUTR${i}`, order_status: i === 900 ? 'refunded' : r.order_status } : r,
      )
      .filter((_, i) => !removed.has(i));
    const [result] = syncRun({ [date]: next });
    expect(result).toMatchObject({ inserted: 0, updated: changed.size, vanished: removed.size });

    const current = allRows({ from: date, to: date });
    expect(current).toHaveLength(PER_DAY - removed.size);
    expect(
      current
        .filter((r) => r.utr?.startsWith('NEWUTR'))
        .map((r) => r.utr)
        .sort(),
    ).toEqual([...changed].map((i) => `NEWUTR${i}`).sort());
    const gone = allRows({ from: date, to: date, state: 'vanished' });
    expect(gone.map((r) => r.pg_transaction_id).sort()).toEqual(
      [...removed].map((i) => records[i]!.pg_transaction_id).sort(),
    );
    expect(gone.every((r) => r.vanishedAt === clock.toISOString())).toBe(true);
    expect(allRows({ from: date, to: date, state: 'all' })).toHaveLength(PER_DAY);

    for (const filter of [{}, { orderStatus: 'refunded' }, { exceptionsOnly: true }, { state: 'vanished' as const }]) {
      expect(cache.settlements.totals({ ...range, ...filter }), JSON.stringify(filter)).toMatchObject(
        jsSums(allRows(filter)),
      );
    }
  });

  it('counts a vanished record again when it comes back, and a record sent twice in one run once', () => {
    const records = recordsOf(date);
    const [result] = syncRun({ [date]: [...records.slice(0, 600), ...records.slice(500)] }, 300);
    expect(result).toMatchObject({ inserted: 0, repeated: 100, vanished: 0 });
    expect(allRows({ from: date, to: date })).toHaveLength(PER_DAY);
    expect(allRows({ from: date, to: date, state: 'vanished' })).toEqual([]);
    expect(cache.settlements.totals({ from: date, to: date })).toMatchObject(jsSums(records));
  });

  it("a search's totals and chart from its UTR batches are asked again after a write, on the reader's connection too", () => {
    const reader = openCacheReader(join(dir, 'cache.sqlite'), { now: () => clock });
    try {
      const records = recordsOf(date);
      const utr = records.find((r) => r.utr)!.utr!;
      const search = { ...range, search: utr };
      const fromBatches = () => cache.settlements.explain('totals', search)[0]!.startsWith('SEARCH settlement_batches');
      expect(fromBatches()).toBe(true);
      for (const read of [reader.settlements, cache.settlements]) {
        expect(read.totals(search)).toMatchObject(jsSums(allRows({ search: utr })));
        expect(read.aggregate(search).total).toMatchObject(jsSums(allRows({ search: utr })));
      }
      // A record of another batch whose order id starts with the UTR: the batches no longer hold every match.
      const other = records.findIndex((r) => r.utr !== utr);
      syncRun({ [date]: records.map((r, i) => (i === other ? { ...r, order_id: `${utr}-7` } : r)) });
      const matches = allRows({ search: utr });
      expect(matches.some((r) => r.utr !== utr)).toBe(true);
      expect(fromBatches()).toBe(false);
      for (const read of [reader.settlements, cache.settlements]) {
        expect(read.totals(search)).toMatchObject(jsSums(matches));
        expect(read.aggregate(search).byDate).toEqual(jsGroups(matches));
      }
    } finally {
      reader.close();
      syncRun({ [date]: recordsOf(date) });
    }
  });
});

describe('as of', () => {
  it('is null for dates never synced, and the oldest sync time of a range', () => {
    expect(cache.settlements.totals({ from: '2024-01-01', to: '2024-01-31' }).asOf).toBeNull();
    expect(cache.settlements.query({ from: DATES[2]!, to: DATES[2]! }).asOf).toBe('2025-03-13T04:00:00.000Z');
    expect(cache.settlements.aggregate(range).asOf).toBe('2025-03-12T04:00:00.000Z');
  });
});
