/**
 * Totals and charts that walk the records, read in slices of ids with turns of the event loop between them
 * (electron/cache/walk-slices.ts), in a real SQLite cache: one date of more records than a slice, so its groups
 * come from two slices. Every answer is compared with the same sums made in JavaScript over every row, and a write
 * between two slices must not leave the answer half before it and half after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { WALK_SLICE_IDS, allSteps, inTurns } from '../../electron/cache/walk-slices';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementRecord } from '../../shared/api/settlements';
import { lineKind } from '../../shared/reconciliation';
import type { CachedSettlement, SettlementFilter } from '../../shared/settlement-query';
import { allCachedRows } from '../support/cache-rows';
import { TEST_NOW } from '../support/clock';
import { syncRunInto } from '../support/settlement-run';

const DATES = ['2025-06-02', '2025-06-03'];
/** The first date has a slice and a half of records; the second, a few. */
const ROWS = [Math.floor(WALK_SLICE_IDS * 1.5), 500];

let dir: string;
let cache: Cache;
const range = { from: '2025-06-01', to: '2025-06-04' };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-walk-'));
  cache = openCache(join(dir, 'cache.sqlite'), { now: () => new Date(TEST_NOW) });
  const source = new SettlementSource(
    5,
    ROWS[0]!,
    GATEWAYS.map((g) => g.code),
  );
  syncRunInto(
    cache,
    Object.fromEntries(
      DATES.map((d, i) => [d, source.page(d, undefined, 0, ROWS[i]!).data.map((w) => settlementRecord.parse(w))]),
    ),
    5000,
  );
});
afterAll(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const SPLIT_OF = { sale: 'sales', refund: 'refunds', chargeback: 'chargebacks' } as const;

/** The sums the totals and every chart group should hold, from the rows themselves. */
function expectedOf(rows: CachedSettlement[]) {
  const add = (into: Record<string, number>, r: CachedSettlement) => {
    into.count! += 1;
    into.amount! += r.amount;
    into.fees! += r.mer_service_fee;
    into.taxes! += r.mer_service_tax;
    into.settled! += r.settled_amount;
    into[SPLIT_OF[lineKind(r)]]! += r.amount;
  };
  const zero = () => ({ count: 0, amount: 0, fees: 0, taxes: 0, settled: 0, sales: 0, refunds: 0, chargebacks: 0 });
  const total = zero();
  const groups = new Map<string, Record<string, number | string>>();
  for (const r of rows) {
    add(total, r);
    const key = [r.date, r.pg, r.payment_mode].join('|');
    const group =
      groups.get(key) ?? groups.set(key, { date: r.date, pg: r.pg, paymentMode: r.payment_mode, ...zero() }).get(key)!;
    add(group as Record<string, number>, r);
  }
  const byDate = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, g]) => g);
  return { total, byDate };
}

describe('a walk in slices', () => {
  const filters: SettlementFilter[] = [
    // Every order id starts so (a refund's is its sale's): more matches than the key indexes are used for, so the
    // records are walked.
    { ...range, search: 'ord_' },
    { ...range, search: 'ORD_', pg: 'payu', paymentMode: 'UPI' },
    // Vanished records too: the rollup counts only current ones.
    { ...range, state: 'all' },
  ];

  it('gives the sums of every matching row, a group split between two slices added up once', async () => {
    expect(ROWS[0]!).toBeGreaterThan(WALK_SLICE_IDS);
    for (const filter of filters) {
      const { total, byDate } = expectedOf(allCachedRows(cache, range, filter));
      expect(total.count, JSON.stringify(filter)).toBeGreaterThan(0);
      const totals = await cache.settlements.totalsInTurns(filter);
      expect(totals).toMatchObject(total);
      expect(totals).toEqual(cache.settlements.totals(filter));
      const aggregate = await cache.settlements.aggregateInTurns(filter);
      expect(aggregate.total).toEqual(total);
      expect(aggregate.byDate).toEqual(byDate);
      expect(aggregate).toEqual(cache.settlements.aggregate(filter));
    }
  });

  it('starts again in one read when a write lands between two slices', async () => {
    const filter = { ...range, search: 'pay_' };
    const first = cache.db.prepare('SELECT min(id) FROM settlements').pluck().get() as number;
    // Queued before the read starts, so it runs in the read's first turn, after the first slice (the record's).
    setImmediate(() => cache.db.prepare('UPDATE settlements SET amount = amount + 100 WHERE id = ?').run(first));
    const totals = await cache.settlements.totalsInTurns(filter);
    const truth = cache.db
      .prepare(
        "SELECT count(*) AS count, sum(amount) AS amount FROM settlements WHERE vanished_at IS NULL AND pg_transaction_id LIKE 'pay\\_%' ESCAPE '\\'",
      )
      .get() as { count: number; amount: number };
    expect({ count: totals.count, amount: totals.amount }).toEqual(truth);
  });
});

describe('steps', () => {
  function* twoSteps(log: string[]) {
    log.push('first');
    yield;
    log.push('second');
    return 'answer';
  }

  it('in turns: what was queued meanwhile runs between two steps', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('meanwhile'));
    expect(await inTurns(twoSteps(log))).toBe('answer');
    expect(log).toEqual(['first', 'meanwhile', 'second']);
  });

  it('all at once: nothing runs between them', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('meanwhile'));
    expect(allSteps(twoSteps(log))).toBe('answer');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['first', 'second', 'meanwhile']);
  });
});
