/** Settlement syncs started over IPC: background jobs with progress events, one per profile, cancel and resume. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RECENT_DATES } from '../../electron/cache/settlement-verify';
import type { Sandbox } from '../../electron/sandbox/server';
import { memoryStore } from '../support/memory-store';
import type { IpcEvent } from '../../shared/ipc/channels';
import { addDays } from '../../shared/time';
import type { Core } from '../../electron/core';
import { EMBEDDED_SECRET, call, coreOnSandbox, datesWithoutKeys, nextEvent, ok } from '../support/core';
import { startTestSandbox } from '../support/sandbox';
import { TEST_TODAY } from '../support/clock';

let sandbox: Sandbox;
let core: Core;
const events: { event: IpcEvent; payload: Record<string, unknown> }[] = [];
const today = TEST_TODAY;

const finishedEvent = (jobId: string) => nextEvent(core, 'syncFinished', (p) => p.jobId === jobId);

async function start(from: string, to: string): Promise<string> {
  return (await ok(core, 'sync.start', { from, to })).jobId;
}

beforeAll(async () => {
  // The built-in profile talks to its embedded sandbox; big days make a sync long enough to cancel.
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 20_000 });
  core = coreOnSandbox(sandbox, {
    dataDir: mkdtempSync(join(tmpdir(), 'pc-ipc-sync-')),
    vault: memoryStore(),
  });
  core.events.subscribe((event, payload) => events.push({ event, payload: payload as Record<string, unknown> }));
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
});

describe('sync over IPC', () => {
  it('runs in the background, reports progress, refuses a second sync of the same profile, and can be cancelled', async () => {
    const jobId = await start(addDays(today, -6), addDays(today, -1));
    // The keys of the dates it stored are written after it ends: in by the time the next test syncs.
    const keysIn = nextEvent(core, 'syncKeysWritten');
    const again = await call(core, 'sync.start', { from: addDays(today, -2), to: addDays(today, -1) });
    expect(again).toMatchObject({ ok: false, error: { code: 'SYNC_RUNNING' } });

    const done = finishedEvent(jobId);
    await nextEvent(core, 'syncProgress', (p) => p.records > 0);
    expect(await call(core, 'sync.cancel', { jobId })).toEqual({
      ok: true,
      value: { cancelled: true },
    });
    const finished = await done;
    expect(finished).toMatchObject({ jobId, profileId: 'sandbox', summary: { status: 'cancelled' } });
    const progress = events.filter((e) => e.event === 'syncProgress' && e.payload.jobId === jobId);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.payload).toMatchObject({ dates: 6, profileId: 'sandbox' });
    await keysIn;
  });

  // 120,000 records: the timeout only guards against a hang, on a loaded machine too.
  it('resumes the cancelled range and ends with every record exactly once', { timeout: 120_000 }, async () => {
    const from = addDays(today, -6);
    const to = addDays(today, -1);
    const keysIn = nextEvent(core, 'syncKeysWritten', (p) => p.profileId === 'sandbox');
    const jobId = await start(from, to);
    const finished = await finishedEvent(jobId);
    expect(finished.summary).toMatchObject({ status: 'completed', resumed: true });
    const totals = core.cacheFor('sandbox').settlements.totals({ from, to });
    expect(totals.count).toBe(6 * 20_000);
    // The search and sort keys follow the answer, in the background, and the page is told when every synced date has
    // them (Settings shows the cache's size, which they change).
    await keysIn;
    expect(datesWithoutKeys(core, 'sandbox')).toBe(0);
    const sorted = core
      .cacheFor('sandbox')
      .db.prepare('SELECT count(*) FROM settlement_sorted_days WHERE date BETWEEN ? AND ?')
      .pluck();
    expect(sorted.get(from, to)).toBe(6);
    const told = events.map((e) => e.event);
    const end = events.findIndex((e) => e.event === 'syncFinished' && e.payload.jobId === jobId);
    expect(told.lastIndexOf('syncKeysWritten')).toBeGreaterThan(end);
  });

  it("checks the cache's recent dates off main: the screens' check is not main's verifier", async () => {
    const { verifier } = core.cacheFor('sandbox').settlements;
    const onMain = vi.spyOn(verifier, 'verify');
    const found = await ok(core, 'cache.integrity', undefined);
    expect(onMain).not.toHaveBeenCalled();
    onMain.mockRestore();
    expect(found).toMatchObject({ dates: 6, records: 6 * 20_000, mismatches: [] });
    expect(found).toEqual(await verifier.verify(verifier.dates().slice(-RECENT_DATES)));
  });

  it('a finished job can no longer be cancelled', async () => {
    expect(await call(core, 'sync.cancel', { jobId: 'no-such-job' })).toEqual({
      ok: true,
      value: { cancelled: false },
    });
  });
});
