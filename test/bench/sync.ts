/**
 * End-to-end settlement sync against its ceilings, in the same run:
 *  - `ceiling.http_fetch`: a bare loopback fetch + JSON.parse of the same pages (1000 records, the largest
 *    the API allows), one request at a time as in the client group, measured before and after the sync
 *    and averaged; the rate with as many requests in flight as the sync uses is shown beside it;
 *  - the bare SQLite INSERT rate (cache.ts; shared when the cache group ran first);
 *  - `sync.end_to_end`: `syncSettlements` in a process of its own (so its peak RSS is its own), through the
 *    API client (auth, validation, exact money) into a fresh cache file, up to its answer; the search and sort keys
 *    the app writes after that answer are timed beside it (`search_keys_s`, `sort_keys_s`).
 * The sandbox runs in its own process too, as a remote API would: its page generation is not charged to
 * the sync. One date of `rows` records. Targets: at least 80% of the slower ceiling; peak RSS under 300 MB.
 *
 * Then over a real network's latency, a bounded run on a sandbox of its own (one date of `LATENCY_ROWS`) with its
 * `delay` fault armed on every settlement page:
 *  - `sync.latency_40ms`, `sync.latency_150ms`: `sync.end_to_end` at the default concurrency against the ceiling
 *    that latency allows, concurrency × page size ÷ round trip, where the round trip is a bare fetch of one page
 *    with the delay, one at a time (the delay plus the service's own time for a page); target ≥ 0.8. Beside it the
 *    same sync at each concurrency of `SWEEP` (`by_concurrency`: rows/s and its ratio to that concurrency's own
 *    ceiling), which is what the default is chosen from (docs/performance/sync-concurrency.md). Beside them, what binds
 *    when the network does not: the sync process's CPU a page at the default (`client_cpu_ms_per_page`, every thread's)
 *    and the rate it allows were the sync never waiting (`client_cpu_rows_per_s`, records ÷ that CPU time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SETTLEMENT_PAGE } from '../../shared/api/settlements';
import { SYNC_CONCURRENCY } from '../../shared/profiles';
import { firstLine } from '../support/child-process';
import { basicHeader } from '../support/sandbox-http';
import { sqliteCeiling } from './cache';
import { scratchDir } from './records';
import { bareSettlementPage } from './client';
import type { Bench } from './run';

const TARGET_RATIO = 0.8;
const RSS_TARGET_MB = 300;
const LATENCIES_MS = [40, 150] as const;
/** Records of the latency runs' date: 61 pages, a few seconds a run even one request at a time at 150 ms. */
const LATENCY_ROWS = 60_000;
const SWEEP = [1, 2, 4, 8] as const;
/** Bare fetches timed for a round trip: enough for a median, few enough to cost well under a second at 150 ms. */
const ROUND_TRIPS = 7;

async function lastLine(child: ChildProcess): Promise<string> {
  let last = '';
  for await (const line of createInterface({ input: child.stdout! })) last = line;
  const code = child.exitCode ?? (await new Promise((resolve) => child.once('exit', resolve)));
  if (code !== 0) throw new Error(`sync child exited with ${code}`);
  return last;
}

interface SyncChildResult {
  summary: { records: number; pages: number; ms: number; status: string };
  cpu_ms: number;
  peak_rss_mb: number;
  search_keys_ms: number;
  sort_keys_ms: number;
  peak_rss_mb_with_keys: number;
}

const key = 'bench_key';
const limit = SETTLEMENT_PAGE.maxLimit;

/** The sandbox in a process of its own with one date of `rows` records; its URL and the date. */
async function startSandbox(rows: number, secret: string) {
  const sandbox = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'electron/sandbox/cli.ts',
      '--port',
      '0',
      '--settlements-per-day',
      String(rows),
      '--key',
      key,
      '--secret-env',
      'BENCH_SANDBOX_SECRET',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_SANDBOX_SECRET: secret } },
  );
  try {
    const url = (await firstLine(sandbox)).split(' ').at(-1)!;
    const fixtures = (await (await fetch(`${url}/__sandbox/fixtures`)).json()) as { settlementDates: string[] };
    return { sandbox, url, date: fixtures.settlementDates.at(-1)! };
  } catch (error) {
    sandbox.kill();
    throw error;
  }
}

/** `syncSettlements` of `date` in a process of its own (test/support/settlement-sync-child.ts), into `file`. */
async function syncInChild(
  url: string,
  secret: string,
  file: string,
  date: string,
  concurrency?: number,
): Promise<SyncChildResult> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/support/settlement-sync-child.ts',
      '--base-url',
      url,
      '--key',
      key,
      '--secret-env',
      'BENCH_SECRET',
      '--file',
      file,
      '--from',
      date,
      '--to',
      date,
      ...(concurrency === undefined ? [] : ['--concurrency', String(concurrency)]),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_SECRET: secret } },
  );
  return JSON.parse(await lastLine(child)) as SyncChildResult;
}

export const syncBenches: Bench = {
  group: 'sync',
  defaultRows: 1_000_000,
  async *run({ rows }) {
    yield* endToEnd(rows);
    yield* overLatency();
  },
};

async function* endToEnd(rows: number) {
  const secret = `bench_${randomBytes(8).toString('hex')}`;
  const { sandbox, url, date } = await startSandbox(rows, secret);
  const scratch = scratchDir();
  try {
    const auth = basicHeader(key, secret);
    const bare = (offset: number) => bareSettlementPage(url, auth, key, date, offset, limit);
    /** Rows a second fetching every page, `inFlight` requests at a time. */
    const fetchAll = async (inFlight: number) => {
      const t = performance.now();
      let n = 0;
      for (let offset = 0; offset < rows; offset += limit * inFlight) {
        const batch = Array.from({ length: inFlight }, (_, k) => offset + k * limit).filter((o) => o < rows);
        n += (await Promise.all(batch.map(bare))).reduce((a, b) => a + b, 0);
      }
      return n / ((performance.now() - t) / 1000);
    };
    await bare(0);
    const httpBefore = await fetchAll(1);
    const httpConcurrentRate = await fetchAll(SYNC_CONCURRENCY.default);

    const sqliteRate = sqliteCeiling(rows);
    const { summary, peak_rss_mb, search_keys_ms, sort_keys_ms, peak_rss_mb_with_keys } = await syncInChild(
      url,
      secret,
      join(scratch.dir, 'cache.sqlite'),
      date,
    );
    // Measured again after the sync, and averaged: the machine's load may change during a long run.
    const httpAfter = await fetchAll(1);
    const httpRate = (httpBefore + httpAfter) / 2;
    yield {
      bench: 'ceiling.http_fetch',
      group: 'sync',
      rows,
      rows_per_s: Math.round(httpRate),
      before_rows_per_s: Math.round(httpBefore),
      after_rows_per_s: Math.round(httpAfter),
      concurrent_rows_per_s: Math.round(httpConcurrentRate),
      concurrency: SYNC_CONCURRENCY.default,
      sandbox: 'separate process',
    };
    const rate = summary.records / (summary.ms / 1000);
    const keysMs = search_keys_ms + sort_keys_ms;
    const slower = httpRate <= sqliteRate ? 'ceiling.http_fetch' : 'ceiling.sqlite_insert';
    const ceiling = Math.min(httpRate, sqliteRate);
    yield {
      bench: 'sync.end_to_end',
      rows: summary.records,
      status: summary.status,
      rows_per_s: Math.round(rate),
      peak_rss_mb,
      ceiling: slower,
      ceiling_rows_per_s: Math.round(ceiling),
      http_ceiling_rows_per_s: Math.round(httpRate),
      sqlite_ceiling_rows_per_s: Math.round(sqliteRate),
      ratio: Number((rate / ceiling).toFixed(3)),
      target_ratio: TARGET_RATIO,
      rss_target_mb: RSS_TARGET_MB,
      concurrency: SYNC_CONCURRENCY.default,
      // Written after the sync has answered, the search keys then the sort keys, sorted in a worker (see find.search
      // and find.sort for what they buy): each kind's time, and the ratio had the sync waited for the search keys (as
      // it did before they moved after the answer) and for all of them (issue 33).
      search_keys_s: Number((search_keys_ms / 1000).toFixed(1)),
      ratio_with_search_keys: Number((summary.records / ((summary.ms + search_keys_ms) / 1000) / ceiling).toFixed(3)),
      sort_keys_s: Number((sort_keys_ms / 1000).toFixed(1)),
      ratio_with_search_and_sort_keys: Number((summary.records / ((summary.ms + keysMs) / 1000) / ceiling).toFixed(3)),
      peak_rss_mb_with_keys,
      pass: summary.records === rows && rate / ceiling >= TARGET_RATIO && peak_rss_mb < RSS_TARGET_MB,
    };
  } finally {
    sandbox.kill();
    scratch.remove();
  }
}

/**
 * The sync over each latency of `LATENCIES_MS`: the sandbox's `delay` fault on every settlement page (armed for
 * more requests than the runs make, cleared after), against concurrency × page size ÷ round trip.
 */
async function* overLatency() {
  const secret = `bench_${randomBytes(8).toString('hex')}`;
  const { sandbox, url, date } = await startSandbox(LATENCY_ROWS, secret);
  const scratch = scratchDir();
  const auth = basicHeader(key, secret);
  const path = '/api/v2/settlement/fetch';
  const faults = (method: 'POST' | 'DELETE', body?: object) =>
    fetch(`${url}/__sandbox/faults`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }).then((res) => {
      if (!res.ok) throw new Error(`arming the delay fault: HTTP ${res.status}`);
    });
  try {
    let run = 0;
    for (const delayMs of LATENCIES_MS) {
      await faults('DELETE');
      await faults('POST', { path, kind: 'delay', delayMs, count: 1_000_000 });
      // The round trip a page takes at this latency, one request at a time: the median of a few, spread over the date.
      const trips: number[] = [];
      for (let k = 0; k < ROUND_TRIPS; k++) {
        const t = performance.now();
        await bareSettlementPage(url, auth, key, date, ((k * LATENCY_ROWS) / ROUND_TRIPS) | 0, limit);
        trips.push(performance.now() - t);
      }
      const roundTripMs = trips.sort((a, b) => a - b)[ROUND_TRIPS >> 1]!;
      const ceilingAt = (concurrency: number) => (concurrency * limit) / (roundTripMs / 1000);
      const byConcurrency: Record<string, { rows_per_s: number; ceiling_rows_per_s: number; ratio: number }> = {};
      let cpu = { ms: 0, pages: 0 };
      for (const concurrency of new Set([...SWEEP, SYNC_CONCURRENCY.default])) {
        const { summary, cpu_ms } = await syncInChild(
          url,
          secret,
          join(scratch.dir, `latency-${run++}.sqlite`),
          date,
          concurrency,
        );
        if (summary.status !== 'completed' || summary.records !== LATENCY_ROWS) {
          throw new Error(
            `sync over ${delayMs} ms at concurrency ${concurrency}: ${summary.status}, ${summary.records} records`,
          );
        }
        const rate = summary.records / (summary.ms / 1000);
        if (concurrency === SYNC_CONCURRENCY.default) cpu = { ms: cpu_ms, pages: summary.pages };
        byConcurrency[concurrency] = {
          rows_per_s: Math.round(rate),
          ceiling_rows_per_s: Math.round(ceilingAt(concurrency)),
          ratio: Number((rate / ceilingAt(concurrency)).toFixed(3)),
        };
      }
      const chosen = byConcurrency[SYNC_CONCURRENCY.default]!;
      yield {
        bench: `sync.latency_${delayMs}ms`,
        rows: LATENCY_ROWS,
        delay_ms: delayMs,
        round_trip_ms: Number(roundTripMs.toFixed(1)),
        page_size: limit,
        concurrency: SYNC_CONCURRENCY.default,
        rows_per_s: chosen.rows_per_s,
        ceiling: 'concurrency × page size ÷ round trip',
        ceiling_rows_per_s: chosen.ceiling_rows_per_s,
        ratio: chosen.ratio,
        target_ratio: TARGET_RATIO,
        client_cpu_ms_per_page: Number((cpu.ms / cpu.pages).toFixed(1)),
        client_cpu_rows_per_s: Math.round(LATENCY_ROWS / (cpu.ms / 1000)),
        by_concurrency: byConcurrency,
        pass: chosen.ratio >= TARGET_RATIO,
      };
    }
  } finally {
    sandbox.kill();
    scratch.remove();
  }
}
