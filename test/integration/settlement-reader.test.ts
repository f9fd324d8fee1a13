/**
 * The Settlements grid's reads in their worker thread (electron/cache/settlement-reader.ts), through the core's IPC
 * router on a real cache file: the same answers as the repository read directly on main, for every kind of filter;
 * main free while the worker walks; each write on main seen by the next read; a worker that stops is replaced; and
 * closing stops it. One date holds more records than the others together, so a search that walks reads all of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { createSettlementReader, startSettlementReadWorker } from '../../electron/cache/settlement-reader';
import type { Core } from '../../electron/core';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import type { Sandbox } from '../../electron/sandbox/server';
import { settlementRecord } from '../../shared/api/settlements';
import { SANDBOX_PROFILE_ID } from '../../shared/profiles';
import type { CachedSettlement, SettlementFilter, SettlementQuery } from '../../shared/settlement-query';
import { addDays } from '../../shared/time';
import { allCachedRows } from '../support/cache-rows';
import { TEST_NOW, TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, ok, syncedThroughJob } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { syncRunInto } from '../support/settlement-run';

const DATES = ['2025-06-02', '2025-06-03'];
const ROWS = [30_000, 500];
const range = { from: '2025-06-01', to: '2025-06-04' };
/** Every order id starts so: more matches than the key indexes are used for, so its reads walk every record. */
const WALKED: SettlementFilter = { ...range, search: 'ord_' };

let sandbox: Sandbox;
let dir: string;
let core: Core;
let cache: Cache;
let file: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
  dir = mkdtempSync(join(tmpdir(), 'pc-settlement-reader-'));
  file = join(dir, 'cache', `${SANDBOX_PROFILE_ID}.sqlite`);
  // Filled before the core opens it, as a cache synced earlier is.
  const filling = openCache(file, { now: () => new Date(TEST_NOW) });
  const source = new SettlementSource(
    5,
    ROWS[0]!,
    GATEWAYS.map((g) => g.code),
  );
  syncRunInto(
    filling,
    Object.fromEntries(
      DATES.map((d, i) => [d, source.page(d, undefined, 0, ROWS[i]!).data.map((w) => settlementRecord.parse(w))]),
    ),
    5000,
  );
  await filling.close();
  core = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), osUser: 'asha' });
  cache = core.cacheFor(SANDBOX_PROFILE_ID);
});
afterAll(async () => {
  await core?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the grid shows read on main: the repository's page with the cache's own workflow states. */
function directPage(q: SettlementQuery) {
  const page = cache.settlements.query(q, 'local');
  return { ...page, rows: cache.exceptions.labelled(page.rows, 'local') };
}

/** The totals the rows themselves add up to. */
function sumsOf(rows: CachedSettlement[]) {
  return {
    count: rows.length,
    amount: rows.reduce((t, r) => t + r.amount, 0),
    fees: rows.reduce((t, r) => t + r.mer_service_fee, 0),
    settled: rows.reduce((t, r) => t + r.settled_amount, 0),
  };
}

const BY_PG = { column: 'pg', direction: 'asc' } as const;
const BY_AMOUNT = { column: 'amount', direction: 'desc' } as const;
/** The sorts each filter is read in: the date order, a column of few values and one of many. */
const SORTS = [undefined, BY_PG, BY_AMOUNT];

describe('grid reads in the worker', () => {
  const someUtr = () => allCachedRows(cache, range, { limit: 1 })[0]!.utr!;
  const filters = (): SettlementFilter[] => [
    range,
    WALKED,
    { ...range, search: someUtr() },
    { ...range, search: 'ORD_', pg: 'payu', paymentMode: 'UPI' },
    { ...range, pg: 'razorpay' },
    { ...range, exceptionsOnly: true },
    { ...range, exceptionsOnly: true, includeResolved: true, search: 'ord_' },
    { ...range, state: 'all' },
  ];

  it('answers pages, totals and charts as the repository does on main, for every kind of filter', async () => {
    for (const filter of filters()) {
      const label = JSON.stringify(filter);
      const totals = await ok(core, 'settlements.totals', filter);
      expect(totals, label).toEqual(cache.settlements.totals(filter, 'local'));
      expect(totals, label).toMatchObject(sumsOf(allCachedRows(cache, range, filter)));
      expect(totals.count, label).toBeGreaterThan(0);
      expect(await ok(core, 'settlements.aggregate', filter), label).toEqual(
        cache.settlements.aggregate(filter, 'local'),
      );
      for (const sort of SORTS) {
        const q = { ...filter, sort, limit: 50 };
        const page = await ok(core, 'settlements.query', q);
        expect(page, label).toEqual(directPage(q));
        const next = { ...q, after: page.nextCursor! };
        expect(await ok(core, 'settlements.query', next), label).toEqual(directPage(next));
      }
    }
  });

  it('sorts a search that walks the records by a column of many values, as a plain sort of its rows', async () => {
    // Past the search keys' limit the keys of the sort order are walked and each record checked for the text: the
    // statement that read both once named `exception_flags` ambiguously and was refused.
    const q = { ...WALKED, sort: BY_AMOUNT, limit: 50 };
    const page = await ok(core, 'settlements.query', q);
    const expected = allCachedRows(cache, range, { search: WALKED.search })
      .sort((a, b) => b.amount - a.amount || b.id - a.id)
      .slice(0, 50)
      .map((r) => r.id);
    expect(page.rows.map((r) => r.id)).toEqual(expected);
  });

  it('keeps main answering while it walks: another call is answered before the totals', async () => {
    // A worker's answer reaches main as a message, which main takes only after the microtasks the facets call is
    // answered in: the facets first, whatever the machine's load. A read on main would have walked all ROWS[0]
    // records inside the totals call, and answered it first.
    const order: string[] = [];
    const totals = call(core, 'settlements.totals', WALKED).then((r) => (order.push('totals'), r));
    const facets = call(core, 'settlements.facets', range).then((r) => (order.push('facets'), r));
    expect((await facets).ok).toBe(true);
    expect(order).toEqual(['facets']);
    expect(await totals).toEqual({ ok: true, value: cache.settlements.totals(WALKED, 'local') });
    expect(order).toEqual(['facets', 'totals']);
  });

  it('sees each write main commits: an exception acted on, a date synced', async () => {
    const exceptions: SettlementQuery = { ...range, exceptionsOnly: true, limit: 20 };
    const [first] = (await ok(core, 'settlements.query', exceptions)).rows;
    const before = await ok(core, 'settlements.totals', { ...range, exceptionsOnly: true });
    await ok(core, 'settlements.exceptionAction', { recordId: first!.id, action: 'resolve', text: 'paid' });
    expect((await ok(core, 'settlements.query', exceptions)).rows.map((r) => r.id)).not.toContain(first!.id);
    const withResolved = await ok(core, 'settlements.query', { ...exceptions, includeResolved: true });
    expect(withResolved.rows.find((r) => r.id === first!.id)?.exceptionState).toBe('resolved');
    expect((await ok(core, 'settlements.totals', { ...range, exceptionsOnly: true })).count).toBe(before.count - 1);

    const date = addDays(TEST_TODAY, -3);
    const day = { from: date, to: date };
    expect((await ok(core, 'settlements.totals', day)).count).toBe(0);
    await syncedThroughJob(core, day);
    const synced = await ok(core, 'settlements.totals', day);
    expect(synced.count).toBe(cache.settlements.totals(day).count);
    expect(synced.count).toBeGreaterThan(0);
  });
});

describe('the worker’s life', () => {
  it('fails the reads a stopped worker held with a sentence, and starts another on the next read', async () => {
    const started: Worker[] = [];
    const reader = createSettlementReader(file, {
      start: (data) => {
        const worker = startSettlementReadWorker(data);
        started.push(worker);
        return worker;
      },
    });
    try {
      // Stopped before it could even load its module: it never answers.
      const held = expect(reader.totals(WALKED, 'local')).rejects.toThrow(
        /^The settlement read stopped before it answered: its worker thread stopped/,
      );
      await started[0]!.terminate();
      await held;
      expect(await reader.totals(WALKED, 'local')).toEqual(cache.settlements.totals(WALKED, 'local'));
      expect(started).toHaveLength(2);
    } finally {
      await reader.close();
    }
  });

  it('says why a worker that cannot open the file failed', async () => {
    const reader = createSettlementReader(join(dir, 'missing.sqlite'));
    try {
      await expect(reader.totals(range, 'local')).rejects.toThrow(/its worker thread failed \(.+\)\. Read again/);
    } finally {
      await reader.close();
    }
  });

  it('stops with its cache: reads in flight fail, later ones are refused', async () => {
    const reader = createSettlementReader(file);
    const held = expect(reader.aggregate(WALKED, 'local')).rejects.toThrow(
      'The cache was closed before the settlement read answered.',
    );
    await reader.close();
    await held;
    await expect(reader.page({ ...range, limit: 5 }, 'local')).rejects.toThrow(/cache was closed/);
  });
});
