/**
 * Settlement sync over a slow network: the sandbox's `delay` fault on every page, so that several pages are always
 * in flight. What the pipeline stores must not depend on how long pages take or in which order they come back, and
 * a cancel with pages in flight (and pages asked ahead of a last page, called off when it came back) must leave each
 * date at a checkpoint the next sync resumes from.
 */
import { describe, expect, it } from 'vitest';
import type { Cache } from '../../electron/cache/database';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import { syncTestFile } from '../support/sync-test-file';

const PER_DAY = 2500;
const PAGE = 300;
const PATH = '/api/v2/settlement/fetch';
const setup = syncTestFile({ settlementsPerDay: PER_DAY, folder: 'sync-latency-' });

/** Every stored column of every record, and what each date's checkpoint says, in id order. */
function contents(cache: Cache) {
  return {
    records: cache.db.prepare('SELECT * FROM settlements ORDER BY id').all(),
    dates: cache.db
      .prepare('SELECT date, status, next_offset, pages, records, last_key FROM sync_run_dates ORDER BY date')
      .all(),
  };
}

describe('settlement sync over latency', () => {
  it('stores exactly what a sync without the delay stores, pages arriving in any order', async () => {
    const days = setup.dates.slice(-3);
    const range = { from: days[0]!, to: days.at(-1)!, pageSize: PAGE };
    const plain = setup.freshCache();
    expect(await syncSettlements({ api: setup.sb.api(), cache: plain, ...range })).toMatchObject({
      status: 'completed',
      records: 3 * PER_DAY,
    });

    // Different delays, so that pages asked in order come back out of it: held, then stored in offset order.
    const delayed = setup.freshCache();
    for (const delayMs of [30, 5, 20, 0]) await setup.sb.fault({ path: PATH, kind: 'delay', delayMs, count: 1 });
    await setup.sb.fault({ path: PATH, kind: 'delay', delayMs: 10, count: 1000 });
    try {
      expect(await syncSettlements({ api: setup.sb.api(), cache: delayed, ...range, concurrency: 8 })).toMatchObject({
        status: 'completed',
        records: 3 * PER_DAY,
      });
    } finally {
      await setup.sb.clearFaults();
    }
    expect(contents(delayed)).toEqual(contents(plain));
  });

  it('a cancel with pages in flight leaves each date resumable, and the resumed cache is the plain one', async () => {
    const days = setup.dates.slice(-6, -4);
    const range = { from: days[0]!, to: days.at(-1)!, pageSize: PAGE };
    const plain = setup.freshCache();
    await syncSettlements({ api: setup.sb.api(), cache: plain, ...range });

    const cache = setup.freshCache();
    const controller = new AbortController();
    await setup.sb.fault({ path: PATH, kind: 'delay', delayMs: 20, count: 1000 });
    try {
      const first = await syncSettlements({
        api: setup.sb.api(),
        cache,
        ...range,
        // Two in flight: a date of nine pages cancelled after its second cannot finish on what was already asked,
        // however fast those answers come back (six in flight once let a loaded machine complete it).
        concurrency: 2,
        signal: controller.signal,
        // Past the first date's last page (its read-ahead called off), into the second date's.
        onProgress: (p) => p.records > PER_DAY + PAGE && controller.abort(),
      });
      expect(first.status).toBe('cancelled');
      expect(first.dates.map((d) => d.status)).toEqual(['completed', 'cancelled']);
      const [, stopped] = cache.syncRuns.dates(first.runId);
      // The stored records are exactly those before the checkpoint: the next page starts with the last one stored.
      const stored = cache.db.prepare('SELECT COUNT(*) AS n FROM settlements WHERE date = ?').get(days[1]) as {
        n: number;
      };
      expect(stopped!.nextOffset).toBeGreaterThan(0);
      expect(stored.n).toBe(stopped!.nextOffset + 1);
    } finally {
      await setup.sb.clearFaults();
    }
    expect(await syncSettlements({ api: setup.sb.api(), cache, ...range })).toMatchObject({
      status: 'completed',
      resumed: true,
    });
    expect(contents(cache).records).toEqual(contents(plain).records);
  });
});
