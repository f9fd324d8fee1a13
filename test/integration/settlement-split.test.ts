/**
 * Sales, refunds and chargebacks apart in the Settlements totals (issue 31 #5): a week synced from the sandbox over
 * loopback HTTP, read through the rollup (no filter, a gateway, exceptions only), the batches (a UTR) and the records
 * (an order id), each equal to a direct SQL sum over the rows, and again after the rollup and the batches were edited
 * behind the app's back and the dates synced again. Sales + refunds + chargebacks is the amount every time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import type { SettlementFilter } from '../../shared/settlement-query';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { openSandbox, type OpenSandbox } from '../support/sandbox';

const PER_DAY = 600;
const TO = addDays(TEST_TODAY, -2);
const FROM = addDays(TO, -6);

let sb: OpenSandbox;
let dir: string;
let cache: Cache;

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  dir = mkdtempSync(join(tmpdir(), 'split-'));
  cache = openCache(join(dir, 'cache.sqlite'));
  expect((await syncSettlements({ api: sb.api(), cache, from: FROM, to: TO })).status).toBe('completed');
});
afterAll(async () => {
  cache?.close();
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The split summed here by SQL over the current rows `where` selects, by the rule of `lineKind`. */
function sqlSplit(where: string, ...params: unknown[]) {
  return cache.db
    .prepare(
      `SELECT ifnull(sum(CASE WHEN amount >= 0 THEN amount END), 0) AS sales,
              ifnull(sum(CASE WHEN amount < 0 AND trim(ifnull(dispute_id, '')) = '' THEN amount END), 0) AS refunds,
              ifnull(sum(CASE WHEN amount < 0 AND trim(ifnull(dispute_id, '')) <> '' THEN amount END), 0) AS chargebacks,
              ifnull(sum(amount), 0) AS amount
       FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL AND (${where})`,
    )
    .get(FROM, TO, ...params) as { sales: number; refunds: number; chargebacks: number; amount: number };
}

/** A UTR of a batch with a refund in it, and the order id of a refund, found in the cached rows. */
function searched() {
  const one = (sql: string) => cache.db.prepare(sql).pluck().get(FROM, TO) as string;
  return {
    utr: one(`SELECT utr FROM settlements WHERE date BETWEEN ? AND ? AND amount < 0 AND utr IS NOT NULL LIMIT 1`),
    orderId: one(`SELECT order_id FROM settlements WHERE date BETWEEN ? AND ? AND amount < 0 AND order_id IS NOT NULL
                  AND dispute_id IS NULL LIMIT 1`),
  };
}

/** Each filter with the rows it selects in SQL and whether the rollup answers it. */
function cases() {
  const pg = cache.db
    .prepare('SELECT pg FROM settlements WHERE amount < 0 ORDER BY pg LIMIT 1')
    .pluck()
    .get() as string;
  const { utr, orderId } = searched();
  const like = (column: string) => `lower(substr(${column}, 1, length(?))) = lower(?)`;
  return [
    { name: 'no filter', filter: {}, where: '1', params: [], rollup: true },
    { name: 'a gateway', filter: { pg }, where: 'pg = ?', params: [pg], rollup: true },
    {
      name: 'exceptions only',
      filter: { exceptionsOnly: true },
      where: 'exception_flags <> 0',
      params: [],
      rollup: true,
    },
    {
      name: "a batch's UTR",
      filter: { search: utr },
      where: `${like('utr')} OR ${like('order_id')} OR ${like('pg_transaction_id')}`,
      params: [utr, utr, utr, utr, utr, utr],
      rollup: false,
    },
    {
      name: 'an order id',
      filter: { search: orderId },
      where: `${like('utr')} OR ${like('order_id')} OR ${like('pg_transaction_id')}`,
      params: [orderId, orderId, orderId, orderId, orderId, orderId],
      rollup: false,
    },
  ] satisfies { name: string; filter: Partial<SettlementFilter>; where: string; params: unknown[]; rollup: boolean }[];
}

function expectSplitsTie(): void {
  for (const c of cases()) {
    const filter = { from: FROM, to: TO, ...c.filter };
    const t = cache.settlements.totals(filter);
    const expected = sqlSplit(c.where, ...c.params);
    expect({ case: c.name, sales: t.sales, refunds: t.refunds, chargebacks: t.chargebacks, amount: t.amount }).toEqual({
      case: c.name,
      ...expected,
    });
    expect(t.sales + t.refunds + t.chargebacks).toBe(t.amount);
    // The figures the rollup holds are what it answers from; a search reads the batches or the records instead.
    expect({
      case: c.name,
      rollup: cache.settlements.explain('totals', filter).some((d) => /settlement_rollup/.test(d)),
    }).toEqual({ case: c.name, rollup: c.rollup });
    const aggregate = cache.settlements.aggregate(filter).total;
    expect({ case: c.name, ...aggregate }).toEqual({ case: c.name, ...t, asOf: undefined });
  }
}

describe('the totals split sales, refunds and chargebacks', () => {
  it('holds refunds and chargebacks in the week the test reads', () => {
    const all = sqlSplit('1');
    expect(all.refunds).toBeLessThan(0);
    expect(all.chargebacks).toBeLessThan(0);
    expect(searched().utr).toBeTruthy();
  });

  it('equals SQL over the rows for every filter, from the rollup, the batches and the records alike', () => {
    expectSplitsTie();
  });

  it("gives each batch's refunds and chargebacks as the Batches view reads them, equal to SQL over its records", () => {
    const batches = cache.reconciliation.batches(FROM, TO);
    const withRefunds = batches.filter((b) => b.refunds !== 0 || b.chargebacks !== 0);
    expect(withRefunds.length).toBeGreaterThan(0);
    for (const b of batches) {
      const expected = sqlSplit(
        "date = ? AND pg = ? AND coalesce(utr, '') = ? AND settlement_date = ?",
        b.date,
        b.pg,
        b.utr,
        b.settlementDate,
      );
      expect({ batch: b.utr, refunds: b.refunds, chargebacks: b.chargebacks, amount: b.amount }).toEqual({
        batch: b.utr,
        refunds: expected.refunds,
        chargebacks: expected.chargebacks,
        amount: expected.amount,
      });
    }
  });

  it('a rollup and batches edited behind the app are found by verify, and repaired to the rows by a re-sync', async () => {
    const tampered = addDays(TO, -3);
    cache.db
      .prepare('UPDATE settlement_rollup SET refunds = refunds - 700, chargebacks = chargebacks + 5 WHERE date = ?')
      .run(tampered);
    cache.db.prepare('UPDATE settlement_batches SET refunds = refunds + 11 WHERE date = ?').run(tampered);
    const found = await cache.settlements.verifier.verify([tampered]);
    expect(found.mismatches.map((m) => m.kind).sort()).toEqual(['batches', 'rollup']);
    expect(cache.settlements.totals({ from: FROM, to: TO }).refunds).not.toBe(sqlSplit('1').refunds);

    expect((await syncSettlements({ api: sb.api(), cache, from: tampered, to: tampered })).status).toBe('completed');
    expect((await cache.settlements.verifier.verify([tampered])).mismatches).toEqual([]);
    // Each group's figures are its rows' again, not the edit carried forward by deltas.
    const stored = cache.db
      .prepare(
        `SELECT pg, payment_mode, order_status, pg_status, exception_flags, refunds, chargebacks FROM settlement_rollup
         WHERE date = ? AND count > 0 ORDER BY 1, 2, 3, 4, 5`,
      )
      .all(tampered);
    const ofRows = cache.db
      .prepare(
        `SELECT pg, payment_mode, order_status, pg_status, exception_flags,
                sum(CASE WHEN amount < 0 AND dispute_id IS NULL THEN amount ELSE 0 END) AS refunds,
                sum(CASE WHEN amount < 0 AND dispute_id IS NOT NULL THEN amount ELSE 0 END) AS chargebacks
         FROM settlements WHERE date = ? AND vanished_at IS NULL
         GROUP BY pg, payment_mode, order_status, pg_status, exception_flags ORDER BY 1, 2, 3, 4, 5`,
      )
      .all(tampered);
    expect(stored).toEqual(ofRows);
    expectSplitsTie();
  });
});
