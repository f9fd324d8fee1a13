/**
 * What a sync tells the desk about dates it could not fill: a range into the future is refused before anything
 * runs, dates before the service's history are named rather than passed off as "completed", and the same failure
 * on many dates (offline) is one line with a count.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import type { IpcEvent } from '../../shared/ipc/channels';
import { addDays } from '../../shared/time';
import { memoryStore } from '../support/memory-store';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, syncedThroughJob } from '../support/core';
import { hook } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
let core: Core;
const seen: IpcEvent[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 20 });
  core = coreOnSandbox(sandbox, { dataDir: mkdtempSync(join(tmpdir(), 'pc-sync-friction-')), vault: memoryStore() });
  core.events.subscribe((event) => seen.push(event));
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
});

async function syncToEnd(from: string, to: string) {
  return (await syncedThroughJob(core, { from, to })).summary!;
}

describe('sync friction', () => {
  it('refuses a range that reaches past today (IST), starting nothing', async () => {
    const before = seen.length;
    const answer = await call(core, 'sync.start', { from: addDays(TEST_TODAY, -1), to: addDays(TEST_TODAY, 1) });
    expect(answer).toMatchObject({ ok: false, error: { code: 'SYNC_FUTURE_DATES' } });
    expect(!answer.ok && answer.error.message).toContain(TEST_TODAY);
    expect(seen.slice(before)).not.toContain('syncProgress');
    // Today itself is fine.
    expect((await syncToEnd(TEST_TODAY, TEST_TODAY)).status).toBe('completed');
  });

  it('names the dates the service returned nothing for', async () => {
    const fixtures = (await hook(sandbox.url, 'GET', 'fixtures')).body as { settlementDates: string[] };
    const first = fixtures.settlementDates[0]!;
    const from = addDays(first, -3);
    const to = addDays(first, 1);
    const summary = await syncToEnd(from, to);
    expect(summary.status).toBe('completed');
    // Exactly the dates before the service's history: derived from the cache, not assumed.
    const cached = (d: string) => core.cacheFor('sandbox').settlements.totals({ from: d, to: d }).count;
    const empty = summary.dates.map((d) => d.date).filter((d) => cached(d) === 0);
    expect(empty).toEqual([addDays(first, -3), addDays(first, -2), addDays(first, -1)]);
    expect(summary.empty).toEqual(empty);
    expect(cached(first)).toBeGreaterThan(0);
  });

  it('groups dates that failed the same way into one line with a count', async () => {
    await sandbox.close();
    const from = addDays(TEST_TODAY, -9);
    const summary = await syncToEnd(from, addDays(TEST_TODAY, -5));
    expect(summary.status).toBe('partial');
    const failed = summary.dates.filter((d) => d.status === 'failed');
    expect(failed).toHaveLength(5);
    expect(summary.failures).toEqual([{ error: failed[0]!.error, count: 5, dates: failed.map((d) => d.date) }]);
  });
});
