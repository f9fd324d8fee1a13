/**
 * Settlement sync against the real sandbox over loopback HTTP into a real SQLite file: several days,
 * cancel and resume (whole pages kept with their checkpoints), a write that fails mid-run, a re-sync after the API
 * changed and dropped records, one date failing while the others complete, reads with the sandbox gone, and no
 * trace of the secret in the cache's files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../electron/api';
import { openCache, type Cache } from '../../electron/cache/database';
import { PER_DAY as IDS_PER_DAY } from '../../electron/cache/settlement-ids';
import { SyncBusyError } from '../../electron/cache/sync-runs';
import { syncSettlements } from '../../electron/sync/settlement-sync';
import type { SettlementRecord } from '../../shared/api/settlements';
import { syncProgress, syncSummary, type SyncProgress } from '../../shared/sync';
import { hook } from '../support/sandbox-http';
import { openSandbox } from '../support/sandbox';
import { syncTestFile } from '../support/sync-test-file';

const PER_DAY = 1500;
const setup = syncTestFile({ settlementsPerDay: PER_DAY, folder: 'sync-settlements-' });
const { freshCache } = setup;

/** What the API serves for the setup.dates, read with the client's own sequential paging. */
async function served(days: string[], pg?: string): Promise<SettlementRecord[]> {
  const api = setup.sb.api();
  const out: SettlementRecord[] = [];
  for (const date of days) for await (const page of api.settlements.pages({ date, pg })) out.push(...page.data);
  return out;
}

function checksum(
  rows:
    | readonly SettlementRecord[]
    | readonly {
        pg_transaction_id: string;
        settlement_date: string;
        pg?: string;
        amount: number;
        settled_amount: number;
      }[],
) {
  return {
    count: rows.length,
    amount: rows.reduce((s, r) => s + r.amount, 0),
    settled: rows.reduce((s, r) => s + r.settled_amount, 0),
    keys: new Set(rows.map((r) => `${r.pg}|${r.pg_transaction_id}|${r.settlement_date}`)).size,
  };
}

function cached(cache: Cache, from: string, to: string) {
  const rows = cache.db
    .prepare(
      'SELECT pg, pg_transaction_id, settlement_date, amount, settled_amount FROM settlements WHERE vanished_at IS NULL AND date BETWEEN ? AND ?',
    )
    .all(from, to) as {
    pg: string;
    pg_transaction_id: string;
    settlement_date: string;
    amount: number;
    settled_amount: number;
  }[];
  return checksum(rows);
}

describe('settlement sync', () => {
  it('syncs several days, page by page, with progress and a summary', async () => {
    const cache = freshCache();
    const days = setup.dates.slice(-4);
    const events: SyncProgress[] = [];
    const summary = await syncSettlements({
      api: setup.sb.api(),
      cache,
      from: days[0]!,
      to: days.at(-1)!,
      pageSize: 400,
      concurrency: 3,
      onProgress: (p) => events.push(syncProgress.parse(p)),
    });
    expect(syncSummary.parse(summary)).toEqual(summary);
    expect(summary).toMatchObject({
      status: 'completed',
      resumed: false,
      records: 4 * PER_DAY,
      pages: 4 * 4,
      updated: 0,
      vanished: 0,
    });
    expect(summary.dates.map((d) => [d.date, d.status, d.records, d.pages])).toEqual(
      days.map((d) => [d, 'completed', PER_DAY, 4]),
    );
    expect(cached(cache, days[0]!, days.at(-1)!)).toEqual(checksum(await served(days)));

    expect(events.length).toBeGreaterThan(2);
    expect(events.map((e) => e.records)).toEqual([...events.map((e) => e.records)].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ dates: 4, datesDone: 4, records: 4 * PER_DAY, currentDate: null });
    expect(events.some((e) => e.etaSeconds !== null)).toBe(true);
    expect(cache.settlements.totals({ from: days[0]!, to: days.at(-1)! }).asOf).not.toBeNull();
  });

  it('resumes a cancelled sync where it stopped: nothing twice, nothing missing', async () => {
    const cache = freshCache();
    const days = setup.dates.slice(-6, -3);
    const controller = new AbortController();
    const first = await syncSettlements({
      api: setup.sb.api(),
      cache,
      from: days[0]!,
      to: days.at(-1)!,
      pageSize: 250,
      concurrency: 2,
      signal: controller.signal,
      onProgress: (p) => p.records >= 2000 && controller.abort(),
    });
    expect(first.status).toBe('cancelled');
    expect(first.records).toBeGreaterThanOrEqual(2000);
    expect(first.records).toBeLessThan(3 * PER_DAY);
    expect(first.dates.some((d) => d.status === 'cancelled')).toBe(true);

    const second = await syncSettlements({
      api: setup.sb.api(),
      cache,
      from: days[0]!,
      to: days.at(-1)!,
      pageSize: 700,
    });
    expect(second).toMatchObject({ status: 'completed', resumed: true, runId: first.runId, records: 3 * PER_DAY });
    expect(cached(cache, days[0]!, days.at(-1)!)).toEqual(checksum(await served(days)));
  });

  it('a sync cancelled with pages in flight keeps whole pages with their checkpoints, then resumes', async () => {
    const cache = freshCache();
    const days = setup.dates.slice(-7, -5);
    const controller = new AbortController();
    const range = { api: setup.sb.api(), cache, from: days[0]!, to: days.at(-1)!, pageSize: 200 };
    const first = await syncSettlements({
      ...range,
      concurrency: 4,
      signal: controller.signal,
      onProgress: (p) => p.pages >= 5 && controller.abort(),
    });
    expect(first.status).toBe('cancelled');
    expect(first.records).toBeLessThan(2 * PER_DAY);
    // Each date's rows are exactly what its checkpoint says was stored (the next page starts with the last record
    // stored): no page half-written, none lost.
    const checkpoints = cache.syncRuns.dates(first.runId);
    expect(checkpoints.some((d) => d.nextOffset > 0)).toBe(true);
    for (const d of checkpoints) {
      expect(cached(cache, d.date, d.date).count).toBe(
        d.status === 'completed' ? PER_DAY : d.nextOffset + Math.sign(d.nextOffset),
      );
    }
    expect(await syncSettlements(range)).toMatchObject({ status: 'completed', resumed: true, records: 2 * PER_DAY });
    expect(cached(cache, days[0]!, days.at(-1)!)).toEqual(checksum(await served(days)));
  });

  it('a write that fails mid-run stops the sync with the cache’s error, keeps the pages before it, and resumes', async () => {
    const cache = freshCache();
    const date = setup.dates.at(-4)!;
    // The 1001st row of any date cannot be stored, as when the disk fills up. A TEMP trigger, on this connection
    // only: one in the file is not ours, and the sync refuses to write at all (cache-tamper.test.ts).
    cache.db.exec(`CREATE TEMP TRIGGER full_disk BEFORE INSERT ON settlements WHEN NEW.id % ${IDS_PER_DAY} >= 1000
                   BEGIN SELECT RAISE(ABORT, 'database or disk is full (test)'); END`);
    const sync = () =>
      syncSettlements({ api: setup.sb.api(), cache, from: date, to: date, pageSize: 300, concurrency: 4 });
    await expect(sync()).rejects.toThrow(/database or disk is full \(test\)/);
    expect(cache.syncRuns.recent(1)[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/disk is full/),
    });
    // Three pages of 300 overlapping by one record: 898 records, each page with its checkpoint (the next page asked
    // for starts at 897, with the last record stored), nothing of the 4th.
    const [checkpoint] = cache.syncRuns.dates(cache.syncRuns.recent(1)[0]!.id);
    expect(checkpoint).toMatchObject({ status: 'running', nextOffset: 897, pages: 3 });
    expect(cached(cache, date, date).count).toBe(898);

    cache.db.exec('DROP TRIGGER full_disk');
    expect(await sync()).toMatchObject({ status: 'completed', resumed: true, records: PER_DAY });
    expect(cached(cache, date, date)).toEqual(checksum(await served([date])));
  });

  it('a sync cancelled before it starts stores nothing and says so', async () => {
    const cache = freshCache();
    const summary = await syncSettlements({
      api: setup.sb.api(),
      cache,
      from: setup.dates[0]!,
      to: setup.dates[1]!,
      signal: AbortSignal.abort(),
    });
    expect(summary).toMatchObject({ status: 'cancelled', records: 0 });
    expect(summary.dates.map((d) => d.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('a re-sync updates changed records and marks the ones the API no longer returns', async () => {
    const cache = freshCache();
    const [d1, d2] = setup.dates.slice(-9, -7) as [string, string];
    await syncSettlements({ api: setup.sb.api(), cache, from: d1, to: d2 });
    const { body: report } = await hook<{
      changed: { pg_transaction_id: string; settlement_date: string; fields: string[] }[];
      removed: { pg_transaction_id: string; settlement_date: string }[];
    }>(setup.sb.sandbox.url, 'POST', 'settlements/mutate', { date: d2, count: 6, remove: 4 });
    expect(report.changed).toHaveLength(6);
    expect(report.removed).toHaveLength(4);

    const summary = await syncSettlements({ api: setup.sb.api(), cache, from: d1, to: d2 });
    expect(summary.resumed).toBe(false);
    expect(summary.dates).toEqual([
      expect.objectContaining({ date: d1, status: 'completed', updated: 0, vanished: 0, records: PER_DAY }),
      expect.objectContaining({ date: d2, status: 'completed', updated: 6, vanished: 4, records: PER_DAY - 4 }),
    ]);
    expect(cached(cache, d1, d2)).toEqual(checksum(await served([d1, d2])));

    const gone = cache.settlements.query({ from: d2, to: d2, state: 'vanished' }).rows;
    expect(gone.map((r) => `${r.pg_transaction_id}|${r.settlement_date}`).sort()).toEqual(
      report.removed.map((r) => `${r.pg_transaction_id}|${r.settlement_date}`).sort(),
    );
    expect(gone.every((r) => r.vanishedAt !== null)).toBe(true);
    const now = await served([d2]);
    for (const c of report.changed) {
      const row = cache.settlements
        .query({ from: d2, to: d2, search: c.pg_transaction_id })
        .rows.find((r) => r.settlement_date === c.settlement_date)!;
      const wire = now.find(
        (r) => r.pg_transaction_id === c.pg_transaction_id && r.settlement_date === c.settlement_date,
      )!;
      for (const field of c.fields) expect(row[field as 'utr']).toBe(wire[field as 'utr'] ?? null);
    }
  });

  it('an error on one date is recorded, the others complete, and the next sync finishes it', async () => {
    const cache = freshCache();
    const days = setup.dates.slice(-12, -9);
    await setup.sb.fault({ path: '/api/v2/settlement/fetch', kind: '500', count: 4 });
    const summary = await syncSettlements({
      api: setup.sb.api(),
      cache,
      from: days[0]!,
      to: days.at(-1)!,
      concurrency: 1,
    });
    expect(summary.status).toBe('partial');
    expect(summary.dates.map((d) => d.status)).toEqual(['failed', 'completed', 'completed']);
    expect(summary.dates[0]!.error).toMatch(/\w+ \w+/);
    expect(summary.dates[0]!.error).not.toMatch(/500|stack|Error:/);

    const retry = await syncSettlements({ api: setup.sb.api(), cache, from: days[0]!, to: days.at(-1)! });
    expect(retry).toMatchObject({ status: 'completed', resumed: true, records: 3 * PER_DAY });
    expect(cached(cache, days[0]!, days.at(-1)!)).toEqual(checksum(await served(days)));
  });

  it('syncs one gateway alone, and a later full sync of the date adds the rest without repeats', async () => {
    const cache = freshCache();
    const date = setup.dates.at(-13)!;
    const one = await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date, pg: 'payu' });
    expect(one).toMatchObject({ status: 'completed', pg: 'payu', records: PER_DAY / 4 });
    expect(cache.settlements.query({ from: date, to: date, limit: 1000 }).rows.every((r) => r.pg === 'payu')).toBe(
      true,
    );
    expect(cache.settlements.totals({ from: date, to: date, pg: 'payu' }).asOf).not.toBeNull();

    await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date });
    expect(cached(cache, date, date)).toEqual(checksum(await served([date])));
  });

  it('refuses a second sync into the same cache while one runs', async () => {
    const cache = freshCache();
    const other = openCache(cache.file);
    setup.closedAfterTest(other);
    const running = syncSettlements({
      api: setup.sb.api(),
      cache,
      from: setup.dates.at(-20)!,
      to: setup.dates.at(-18)!,
    });
    await expect(
      syncSettlements({ api: setup.sb.api(), cache: other, from: setup.dates.at(-17)!, to: setup.dates.at(-17)! }),
    ).rejects.toThrow(SyncBusyError);
    await expect(running).resolves.toMatchObject({ status: 'completed' });
    // The lock went with the finished sync: the other connection may write now.
    await expect(
      syncSettlements({ api: setup.sb.api(), cache: other, from: setup.dates.at(-17)!, to: setup.dates.at(-17)! }),
    ).resolves.toMatchObject({ status: 'completed' });
  });

  it('resumes a run marked running by a process that is still alive but holds no lock (pid reuse)', async () => {
    const cache = freshCache();
    const [from, to] = [setup.dates.at(-25)!, setup.dates.at(-24)!];
    const first = syncSettlements({ api: setup.sb.api(), cache, from, to, signal: AbortSignal.abort() });
    await expect(first).resolves.toMatchObject({ status: 'cancelled' });
    // As a crash leaves it, owned by a live process that is not a sync at all: this test's parent.
    const run = cache.syncRuns.recent(1)[0]!;
    cache.db.prepare(`UPDATE sync_runs SET status = 'running', owner_pid = ? WHERE id = ?`).run(process.ppid, run.id);

    const next = await syncSettlements({ api: setup.sb.api(), cache, from, to });
    expect(next).toMatchObject({ status: 'completed', resumed: true, records: 2 * PER_DAY });
    expect(cache.syncRuns.get(run.id)).toMatchObject({ status: 'completed' });
  });
});

describe('paging edge cases (a scripted API)', () => {
  const records = (date: string, total: number): SettlementRecord[] =>
    Array.from({ length: total }, (_, i) => ({
      order_id: `ord_${i}`,
      pg_transaction_id: `pay_${date}_${i}`,
      order_date: `${date} 01:00:00`,
      utr: `utr${i}`,
      settlement_date: `${date} 12:00:00`,
      order_status: 'success',
      pg_status: 'success',
      payment_mode: 'UPI',
      amount: 1000 + i,
      mer_service_fee: 0,
      mer_service_tax: 0,
      merchant_subvention_amount: 0,
      cgst: 0,
      igst: 0,
      sgst: 0,
      settled_amount: 1000 + i,
      dispute_id: null,
      description: null,
      pg: 'scripted',
    }));

  /** The scripted API's answer: `size` records from `offset`, the last page when none follow. */
  const pageOf = (all: SettlementRecord[], offset: number, size = 1000) => {
    const data = all.slice(offset, offset + size);
    return { data, is_last_page: offset + data.length >= all.length, request_id: 'r' };
  };

  it('an API that pages shorter than asked loses nothing', async () => {
    const cache = freshCache();
    const all = records('2025-05-01', 2345);
    let asked = 0;
    const api = {
      settlements: {
        page: async ({ offset = 0 }: { offset?: number }) => {
          asked++;
          return pageOf(all, offset, 300);
        },
      },
    };
    const summary = await syncSettlements({
      api,
      cache,
      from: '2025-05-01',
      to: '2025-05-01',
      pageSize: 1000,
      concurrency: 4,
    });
    expect(summary).toMatchObject({ status: 'completed', records: all.length });
    expect(cached(cache, '2025-05-01', '2025-05-01')).toEqual(checksum(all));
    // Pages of 300 overlapping by one: 8 of them, each answer with at most one request asked while it was written,
    // and the three guesses made before the first came back short (guessing on would ask over twice that).
    const pages = Math.ceil((all.length - 1) / 299);
    expect(asked).toBeLessThanOrEqual(2 * pages + 3);
  });

  it('a fault of the cache stops the run, marks it failed and is thrown', async () => {
    const cache = freshCache();
    const api = {
      settlements: {
        page: async () => {
          cache.db.exec('DROP TABLE settlement_rollup');
          return { data: records('2025-05-02', 3), is_last_page: true, request_id: 'r' };
        },
      },
    };
    await expect(syncSettlements({ api, cache, from: '2025-05-02', to: '2025-05-02' })).rejects.toThrow(
      /settlement_rollup/,
    );
    expect(cache.syncRuns.recent(1)[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/settlement_rollup/),
    });
  });

  it('a failed request past a last page that came back is not an error', async () => {
    const cache = freshCache();
    const all = records('2025-05-03', 1500);
    // The requests past the end fail once the last page has been handed back: the event itself, not a pause.
    let lastServed!: () => void;
    const served = new Promise<void>((resolve) => (lastServed = resolve));
    const api = {
      settlements: {
        page: async ({ offset = 0 }: { offset?: number }) => {
          if (offset >= 2000) {
            await served;
            throw new ApiError({
              kind: 'unavailable',
              operation: 'settlement.fetch',
              message: 'x',
              userMessage: 'Down.',
            });
          }
          const page = pageOf(all, offset);
          if (page.is_last_page) queueMicrotask(lastServed);
          return page;
        },
      },
    };
    const summary = await syncSettlements({ api, cache, from: '2025-05-03', to: '2025-05-03', concurrency: 4 });
    expect(summary).toMatchObject({ status: 'completed', records: 1500 });
  });

  it('asks for the next page before writing the one that came back, never more than the window at once', async () => {
    const cache = freshCache();
    const all = records('2025-05-05', 3000);
    // What the cache held of the date when each request went out, and the most requests out at once.
    const storedWhenAsked = new Map<number, number>();
    let out = 0;
    let mostOut = 0;
    const api = {
      settlements: {
        page: async ({ offset = 0 }: { offset?: number }) => {
          storedWhenAsked.set(offset, cached(cache, '2025-05-05', '2025-05-05').count);
          mostOut = Math.max(mostOut, ++out);
          await new Promise((resolve) => setImmediate(resolve));
          out--;
          return pageOf(all, offset);
        },
      },
    };
    const summary = await syncSettlements({ api, cache, from: '2025-05-05', to: '2025-05-05', concurrency: 1 });
    expect(summary).toMatchObject({ status: 'completed', records: 3000 });
    expect(mostOut).toBe(1);
    // One page at a time, and still each request is on its way while the page before it is written: the second
    // page is asked for with nothing of the first stored yet, the third with the first alone.
    expect([...storedWhenAsked]).toEqual([
      [0, 0],
      [999, 0],
      [1998, 1000],
      [2997, 1999],
    ]);
  });

  it('a sync of one date fills the window at once: the slots no other date wants guess at its next pages', async () => {
    const cache = freshCache();
    const all = records('2025-05-06', 3500);
    const asked: number[] = [];
    let out = 0;
    let outAtFirstAnswer = 0;
    const api = {
      settlements: {
        page: async ({ offset = 0 }: { offset?: number }) => {
          asked.push(offset);
          out++;
          await new Promise((resolve) => setImmediate(resolve));
          if (offset === 0) outAtFirstAnswer = out;
          out--;
          return pageOf(all, offset);
        },
      },
    };
    const summary = await syncSettlements({ api, cache, from: '2025-05-06', to: '2025-05-06', concurrency: 4 });
    expect(summary).toMatchObject({ status: 'completed', records: 3500 });
    expect(cached(cache, '2025-05-06', '2025-05-06')).toEqual(checksum(all));
    // Four out before the first answer: the first page and three guesses, each page asked once.
    expect(outAtFirstAnswer).toBe(4);
    expect(asked.slice(0, 4)).toEqual([0, 999, 1998, 2997]);
    expect(new Set(asked).size).toBe(asked.length);
  });

  it('a small date guessed at loses nothing, and a service that refuses offsets past the end fails no date', async () => {
    const cache = freshCache();
    const small = records('2025-05-07', 300);
    const big = records('2025-05-08', 2500);
    const refused: string[] = [];
    const api = {
      settlements: {
        page: async ({ date, offset = 0 }: { date: string; offset?: number }) => {
          const all = date === '2025-05-07' ? small : big;
          if (offset > 0 && offset >= all.length) {
            // Refused at once, before the pages in front of it come back: the sync cannot yet know it asked too far.
            refused.push(`${date}@${offset}`);
            throw new ApiError({ kind: 'api', operation: 'settlement.fetch', message: 'x', userMessage: 'Bad.' });
          }
          await new Promise((resolve) => setImmediate(resolve));
          return pageOf(all, offset);
        },
      },
    };
    for (const [date, all] of [
      ['2025-05-07', small],
      ['2025-05-08', big],
    ] as const) {
      const summary = await syncSettlements({ api, cache, from: date, to: date, concurrency: 4 });
      expect(summary).toMatchObject({ status: 'completed', records: all.length });
      expect(cached(cache, date, date)).toEqual(checksum(all));
    }
    // Only guesses past each date's end were refused, and nothing past a refusal was asked again.
    expect(refused).toEqual(['2025-05-07@999', '2025-05-07@1998', '2025-05-07@2997', '2025-05-08@2997']);
  });

  it('a page asked ahead that fails fails its date once the pages before it show it was needed', async () => {
    const cache = freshCache();
    const all = records('2025-05-09', 2500);
    const api = {
      settlements: {
        page: async ({ offset = 0 }: { offset?: number }) => {
          if (offset === 999)
            throw new ApiError({
              kind: 'unavailable',
              operation: 'settlement.fetch',
              message: 'x',
              userMessage: 'Down.',
            });
          await new Promise((resolve) => setImmediate(resolve));
          return pageOf(all, offset);
        },
      },
    };
    const summary = await syncSettlements({ api, cache, from: '2025-05-09', to: '2025-05-09', concurrency: 4 });
    expect(summary).toMatchObject({ status: 'partial', records: 1000 });
    expect(cache.syncRuns.recent(1)[0]).toMatchObject({ status: 'partial' });
    expect(JSON.stringify(summary)).toContain('Down.');
  });

  it('requests asked ahead of a last page are called off when it comes back, not waited for', async () => {
    const cache = freshCache();
    const all = records('2025-05-04', 2500);
    let calledOff = 0;
    const api = {
      settlements: {
        page: async ({ offset = 0 }: { offset?: number }, options?: { signal?: AbortSignal }) => {
          if (offset >= all.length) {
            // A slow network's answer, which only a cancel ends: a sync waiting for it would never finish.
            await new Promise((_, reject) =>
              options?.signal?.addEventListener('abort', () => {
                calledOff++;
                reject(
                  new ApiError({
                    kind: 'cancelled',
                    operation: 'settlement.fetch',
                    message: 'cancelled',
                    userMessage: 'Cancelled.',
                  }),
                );
              }),
            );
          }
          return pageOf(all, offset, 500);
        },
      },
    };
    const summary = await syncSettlements({
      api,
      cache,
      from: '2025-05-04',
      to: '2025-05-04',
      pageSize: 500,
      concurrency: 4,
    });
    expect(summary).toMatchObject({ status: 'completed', records: 2500 });
    expect(calledOff).toBeGreaterThan(0);
  });
});

describe('offline and secrets', () => {
  it('reads work with the sandbox stopped, and no file of the cache holds the secret', async () => {
    const own = await openSandbox({ settlementsPerDay: 800 });
    const cache = freshCache();
    const days = own.sandbox.fixtures().settlementDates.slice(-3);
    await syncSettlements({ api: own.api(), cache, from: days[0]!, to: days.at(-1)! });
    await own.close();

    const totals = cache.settlements.totals({ from: days[0]!, to: days.at(-1)! });
    expect(totals.count).toBe(3 * 800);
    expect(cache.settlements.aggregate({ from: days[0]!, to: days.at(-1)! }).total.count).toBe(3 * 800);
    expect(
      cache.settlements.query({ from: days[0]!, to: days.at(-1)!, exceptionsOnly: true }).rows.length,
    ).toBeGreaterThan(0);

    const needles = [own.secret, Buffer.from(`${own.key}:${own.secret}`).toString('base64')].map((s) => Buffer.from(s));
    const files = ['', '-wal', '-shm'].map((suffix) => cache.file + suffix);
    expect(existsSync(files[1]!)).toBe(true);
    const scan = () =>
      files
        .filter(existsSync)
        .flatMap((f) => needles.filter((needle) => readFileSync(f).includes(needle)).map(() => f));
    expect(scan()).toEqual([]);
    cache.close();
    expect(scan()).toEqual([]);
  });
});
