/**
 * The chart's sums per UTR batch and payment mode (settlement_batch_modes, migration 28) over sandbox-shaped data
 * moved at random, into a real SQLite file: several payment modes in every batch, UTR-pending batches whose UTR is
 * filled in later (their records move to another batch), records re-settled under a new UTR, records that vanish and
 * come back, and transactions settled twice (the duplicate rule's deltas across dates). After every page of every
 * sync, every re-sync's close, and a recompute, the table equals a direct SQL GROUP BY over the current records, and
 * a UTR search's chart, read from the table, equals a direct SQL GROUP BY over its matches; the check of the cache
 * finds an edit of the table, which a recompute repairs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { ruleBit } from '../../electron/cache/settlement-rows';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { Rng } from '../../electron/sandbox/random';
import { settlementRecord, type SettlementRecord } from '../../shared/api/settlements';
import { formatCalendarDate } from '../../shared/format';
import { batchModesOfRecords, chartOfSearch, storedBatchModes } from '../support/batch-mode-truth';
import { TEST_NOW, testClock } from '../support/clock';

const DATES = ['2025-03-09', '2025-03-10', '2025-03-11', '2025-03-12'];
const PER_DAY = 1200;
const range = { from: DATES[0]!, to: DATES.at(-1)! };
const source = new SettlementSource(
  23,
  PER_DAY,
  GATEWAYS.map((g) => g.code),
);
const rng = new Rng(0xba7c4);
const clock = testClock(TEST_NOW);

let dir: string;
let cache: Cache;
/** How many of the charts checked came from the table: most, or the test holds little. */
let chartsFromBatches = 0;

/** What the API serves for the date now, mutations applied. */
const recordsOf = (date: string): SettlementRecord[] =>
  source.page(date, undefined, 0, PER_DAY).data.map((w) => settlementRecord.parse(w));

/** The table against the records, and the chart of a few UTR searches (whole, and 6-character starts) against theirs. */
function expectCharts(when: string) {
  expect(storedBatchModes(cache.db), when).toEqual(batchModesOfRecords(cache.db));
  const utrs = cache.db
    .prepare(`SELECT DISTINCT utr FROM settlements WHERE vanished_at IS NULL AND utr <> '' ORDER BY utr`)
    .pluck()
    .all() as string[];
  for (const utr of [rng.pick(utrs), rng.pick(utrs)]) {
    for (const search of [utr, utr.slice(0, 6)]) {
      // From the batches exactly when its totals are: while a vanished record of the UTR is still among the search
      // keys, the keys count more matches than the batches hold records, and both walk the matches.
      const plan = (read: 'totals' | 'aggregate') => cache.settlements.explain(read, { ...range, search, limit: 1 });
      const fromBatches = /^SEARCH settlement_batches /.test(plan('totals')[0]!);
      expect(plan('aggregate')[0], search).toMatch(fromBatches ? /^SEARCH settlement_batch_modes / : /^CO-ROUTINE/);
      chartsFromBatches += Number(fromBatches);
      const truth = chartOfSearch(cache.db, range.from, range.to, search);
      expect(truth.length, search).toBeGreaterThan(0);
      expect(cache.settlements.aggregate({ ...range, search }).byDate, `${when}: ${search}`).toEqual(truth);
    }
  }
}

/** One sync run over `dates`, in pages of a random size, the charts checked after every page and every close. */
function syncChecked(dates: string[]) {
  const { run } = cache.syncRuns.claim('settlements', { from: dates[0]!, to: dates.at(-1)!, pg: null }, dates);
  for (const date of dates) {
    const ingest = cache.settlements.beginDate({ runId: run.id, date, pg: null });
    const records = recordsOf(date);
    const pageSize = rng.int(150, 500);
    for (let offset = 0; offset < records.length; offset += pageSize) {
      const page = records.slice(offset, offset + pageSize);
      ingest.upsertPage(page, offset + page.length);
      expectCharts(`${date}, page at ${offset}`);
    }
    ingest.finish();
    expectCharts(`${date} closed`);
  }
  cache.syncRuns.finish(run.id, 'completed');
  while (cache.settlements.searchKeys.writeOne() !== null);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-batch-modes-'));
  cache = openCache(join(dir, 'cache.sqlite'), { now: () => new Date(clock()) });
});
afterAll(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the chart's sums per UTR batch and payment mode", () => {
  it('equal the records after every page, through UTRs filled in, re-settlements, vanished records and re-syncs', () => {
    syncChecked(DATES);
    const modesPerBatch = cache.db
      .prepare(`SELECT count(*) FROM settlement_batch_modes GROUP BY date, pg, utr`)
      .pluck()
      .all() as number[];
    expect(Math.min(...modesPerBatch)).toBeGreaterThan(1);
    const duplicates = cache.db
      .prepare('SELECT count(*) FROM settlements WHERE exception_flags & ? <> 0')
      .pluck()
      .get(ruleBit('duplicate_settlement')) as number;
    expect(duplicates).toBeGreaterThan(0);

    let filled = 0;
    let moved = 0;
    let vanished = 0;
    let restored = 0;
    for (let round = 0; round < 6; round++) {
      const dates = DATES.filter(() => rng.chance(0.5));
      if (dates.length === 0) dates.push(rng.pick(DATES));
      for (const date of dates) {
        filled += rng.chance(0.5) ? source.fillPendingUtrs(date).length : 0;
        const report = source.mutate(date, rng.int(5, 40), rng.int(0, 30), rng.int(0, 10));
        moved += report.changed.length;
        vanished += report.removed.length;
        restored += report.restored.length;
      }
      syncChecked(dates);
    }
    // The run moved records every way the test means: derived from what the sandbox reported, never assumed.
    expect({ filled: filled > 0, moved: moved > 0, vanished: vanished > 0, restored: restored > 0 }).toEqual({
      filled: true,
      moved: true,
      vanished: true,
      restored: true,
    });
    expect(cache.db.prepare('SELECT count(*) FROM settlements WHERE vanished_at IS NOT NULL').pluck().get()).toBe(
      vanished - restored,
    );
    expect(chartsFromBatches).toBeGreaterThan(0);
  });

  it('are made again from the records by the recompute, which repairs an edit the check of the cache finds', async () => {
    const before = storedBatchModes(cache.db);
    for (const date of DATES) cache.db.transaction(() => cache.settlements.verifier.recomputeDate(date))();
    expect(storedBatchModes(cache.db)).toEqual(before);
    expectCharts('recomputed');
    const { verifier } = cache.settlements;
    expect((await verifier.verify(verifier.dates())).mismatches).toEqual([]);

    const date = DATES[1]!;
    cache.db
      .prepare(
        `UPDATE settlement_batch_modes SET count = count + 1, amount = amount + 100
         WHERE (date, pg, utr, payment_mode) IN (SELECT date, pg, utr, payment_mode FROM settlement_batch_modes
                                                 WHERE date = ? AND utr <> '' LIMIT 1)`,
      )
      .run(date);
    const found = await verifier.verify(verifier.dates());
    expect(found.mismatches.map((m) => [m.date, m.kind])).toEqual([[date, 'batch_modes']]);
    expect(found.mismatches[0]!.message).toMatch(
      new RegExp(
        `^The bank batches' sums by payment mode of ${formatCalendarDate(date)} count .+; its records add up to `,
      ),
    );
    cache.db.transaction(() => verifier.recomputeDate(date))();
    expect(storedBatchModes(cache.db)).toEqual(before);
    expect((await verifier.verify(verifier.dates())).mismatches).toEqual([]);
  });
});
