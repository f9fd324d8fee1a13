/**
 * The sync's writer thread (electron/cache/settlement-writer.ts) against the real sandbox over loopback HTTP into real
 * SQLite files: it leaves the cache exactly as the caller's own connection does; a write that fails mid-run stops
 * the sync with the cache's own error and keeps every page before it with its checkpoint; a sync cancelled with
 * pages still waiting for the writer keeps whole pages only; each is then resumed to the service's records exactly;
 * and a writer thread that dies is the sync's error, not a hang.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { PER_DAY as IDS_PER_DAY } from '../../electron/cache/settlement-ids';
import { threadWriter } from '../../electron/cache/settlement-writer';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import type { SettlementRecord } from '../../shared/api/settlements';
import { TEST_NOW } from '../support/clock';
import { openSandbox, type OpenSandbox } from '../support/sandbox';

const PER_DAY = 1500;
let sb: OpenSandbox;
let dates: string[];
let dir: string;
const caches: Cache[] = [];

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  dates = sb.sandbox.fixtures().settlementDates;
  dir = mkdtempSync(join(tmpdir(), 'sync-writer-'));
});
afterEach(() => caches.splice(0).forEach((c) => c.close()));
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function freshCache(): Cache {
  const cache = openCache(join(dir, `cache-${++n}.sqlite`), { now: () => new Date(TEST_NOW) });
  caches.push(cache);
  return cache;
}

/** Every row of the tables a sync writes, in a stable order. */
function written(cache: Cache) {
  const all = (sql: string) => cache.db.prepare(sql).raw().all();
  return {
    settlements: all('SELECT * FROM settlements ORDER BY id'),
    rollup: all('SELECT * FROM settlement_rollup ORDER BY 1, 2, 3, 4, 5, 6'),
    manifests: all('SELECT * FROM settlement_manifests ORDER BY date, pg, run_id'),
    digests: all('SELECT * FROM settlement_digests ORDER BY date, pg'),
    days: all('SELECT * FROM settlement_days ORDER BY date, scope'),
    runDates: all('SELECT * FROM sync_run_dates ORDER BY run_id, date'),
    changes: all('SELECT * FROM settlement_changes ORDER BY id'),
  };
}

/** What the API serves for the date, read with the client's own sequential paging. */
async function served(date: string): Promise<SettlementRecord[]> {
  const out: SettlementRecord[] = [];
  for await (const page of sb.api().settlements.pages({ date })) out.push(...page.data);
  return out;
}

function keysOf(rows: readonly { pg?: string; pg_transaction_id: string; settlement_date: string }[]) {
  return rows.map((r) => `${r.pg}|${r.pg_transaction_id}|${r.settlement_date}`).sort();
}

function cachedKeys(cache: Cache, date: string) {
  return keysOf(
    cache.db
      .prepare('SELECT pg, pg_transaction_id, settlement_date FROM settlements WHERE date = ? AND vanished_at IS NULL')
      .all(date) as { pg: string; pg_transaction_id: string; settlement_date: string }[],
  );
}

it('leaves the cache exactly as a sync written on the caller’s connection does, a re-sync included', async () => {
  const days = dates.slice(-3);
  const [threaded, inline] = [freshCache(), freshCache()];
  for (const [cache, writer] of [
    [threaded, 'thread'],
    [inline, 'inline'],
  ] as const) {
    const range = { api: sb.api(), cache, from: days[0]!, to: days.at(-1)!, writer };
    expect(await syncSettlements({ ...range, pageSize: 400, concurrency: 3 })).toMatchObject({
      status: 'completed',
      records: 3 * PER_DAY,
    });
    // Pages cut differently the second time: every record is met again, compared and marked seen.
    expect(await syncSettlements({ ...range, pageSize: 700 })).toMatchObject({ status: 'completed', updated: 0 });
  }
  const [a, b] = [written(threaded), written(inline)];
  expect(a.settlements).toHaveLength(3 * PER_DAY);
  expect(a.manifests.length).toBeGreaterThan(0);
  expect(a).toEqual(b);
});

it('a write that fails mid-run stops the sync with the cache’s error, keeps the pages before it, and resumes', async () => {
  const cache = freshCache();
  const date = dates.at(-4)!;
  // Persistent, so the writer thread's own connection meets it: the 1001st row of any date cannot be stored.
  cache.db.exec(`CREATE TRIGGER full_disk BEFORE INSERT ON settlements WHEN NEW.id % ${IDS_PER_DAY} >= 1000
                 BEGIN SELECT RAISE(ABORT, 'database or disk is full (test)'); END`);
  const sync = () =>
    syncSettlements({ api: sb.api(), cache, from: date, to: date, pageSize: 300, concurrency: 4, writer: 'thread' });
  await expect(sync()).rejects.toThrow(/database or disk is full \(test\)/);
  expect(cache.syncRuns.recent(1)[0]).toMatchObject({
    status: 'failed',
    error: expect.stringMatching(/disk is full/),
  });
  // Three pages of 300 overlapping by one record: 898 records, each page with its checkpoint (the next page asked
  // for starts at 897, with the last record stored), nothing of the 4th.
  const [checkpoint] = cache.syncRuns.dates(cache.syncRuns.recent(1)[0]!.id);
  expect(checkpoint).toMatchObject({ status: 'running', nextOffset: 897, pages: 3 });
  expect(cachedKeys(cache, date)).toHaveLength(898);

  cache.db.exec('DROP TRIGGER full_disk');
  expect(await sync()).toMatchObject({ status: 'completed', resumed: true, records: PER_DAY });
  expect(cachedKeys(cache, date)).toEqual(keysOf(await served(date)));
});

it('a sync cancelled while pages wait for the writer keeps whole pages with their checkpoints, then resumes', async () => {
  const cache = freshCache();
  const days = dates.slice(-7, -5);
  const controller = new AbortController();
  let pages = 0;
  const range = { api: sb.api(), cache, from: days[0]!, to: days.at(-1)!, pageSize: 200, writer: 'thread' as const };
  const first = await syncSettlements({
    ...range,
    concurrency: 4,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.pages > pages) pages = p.pages;
      if (pages >= 5) controller.abort();
    },
  });
  expect(first.status).toBe('cancelled');
  expect(first.records).toBeLessThan(2 * PER_DAY);
  // Each date's rows are exactly what its checkpoint says was stored (the next page starts with the last record
  // stored): no page half-written, none lost.
  const checkpoints = cache.syncRuns.dates(first.runId);
  expect(checkpoints.some((d) => d.nextOffset > 0)).toBe(true);
  for (const d of checkpoints) {
    expect(cachedKeys(cache, d.date)).toHaveLength(
      d.status === 'completed' ? PER_DAY : d.nextOffset + Math.sign(d.nextOffset),
    );
  }
  expect(await syncSettlements(range)).toMatchObject({ status: 'completed', resumed: true, records: 2 * PER_DAY });
  for (const date of days) expect(cachedKeys(cache, date)).toEqual(keysOf(await served(date)));
});

it('a writer thread that dies is the error of what was posted to it, not a wait without end', async () => {
  const cache = freshCache();
  const failures: Error[] = [];
  const writer = threadWriter(
    { file: cache.file, nativeBinding: undefined },
    () => new Date(TEST_NOW),
    (e) => failures.push(e),
    () =>
      new Worker(`require('node:worker_threads').parentPort.once('message', () => process.exit(7));`, { eval: true }),
  );
  const { run } = cache.syncRuns.claim('settlements', { from: dates[0]!, to: dates[0]!, pg: null }, [dates[0]!]);
  writer.beginDate({ runId: run.id, date: dates[0]!, pg: null }).newPass();
  await expect(writer.done()).rejects.toThrow(/writer thread stopped before it wrote every page/);
  expect(failures).toHaveLength(1);
  await writer.close();
  cache.syncRuns.finish(run.id, 'failed');
});
