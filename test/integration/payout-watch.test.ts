/**
 * The watch list in main, on a clock the test moves: rounds check the pending payouts (normal, or advance when the
 * desk turned it on), notice a status change and a payout going overdue once each, push both as the `payoutWatch`
 * event, and send nothing while the service cannot be reached.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { DEFAULT_TURNAROUND } from '../../shared/payout-ageing';
import type { WatchState } from '../../shared/payout-watch';
import { testClock } from '../support/clock';
import { EMBEDDED_SECRET, coreOnSandbox, nextEvent, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { hook } from '../support/sandbox-http';

let sandbox: Sandbox;
let core: Core;
let dataDir: string;
let pending: string[];
// The core's clock: the tests' clock plus what the test moved it by.
const base = testClock();
let moved = 0;
const now = () => base() + moved;
const MIN = 60_000;

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, now });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-payout-watch-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore(), now });
  pending = sandbox
    .fixtures()
    .payouts.filter((p) => p.status === 'pending')
    .map((p) => p.id);
  for (const payoutId of pending) await ok(core, 'payouts.lookup', { payoutId, mode: 'normal' });
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const advanceFetches = () => pending.map((id) => sandbox.fixtures().payoutFetches[id]?.advance ?? 0);

describe('the watch list in main', () => {
  it('watches the pending payouts and, before their time, notices nothing', async () => {
    expect(pending.length).toBeGreaterThan(0);
    await ok(core, 'payouts.saveSettings', {
      turnaround: { ...DEFAULT_TURNAROUND, impsMinutes: 10, upiMinutes: 10, rtgsMinutes: 10, neftCreditMinutes: 10 },
      watchAdvance: false,
    });
    const event = nextEvent(core, 'payoutWatch');
    const state = await ok(core, 'payouts.watchNow', {});
    expect(await event).toEqual(state);
    expect(state).toMatchObject({ watching: pending.length, overdue: 0, advance: false, paused: null, fresh: [] });
    expect(advanceFetches().every((n) => n === 0)).toBe(true);
  });

  it('notices each pending payout once when the clock passes its expected time', async () => {
    // Every method is due within 40 minutes of first sight (the NEFT batch is at most 30 minutes away).
    moved += 45 * MIN;
    const state = await ok(core, 'payouts.watchNow', {});
    expect(state.overdue).toBe(pending.length);
    expect(state.fresh.map((n) => [n.kind, n.payoutId]).sort()).toEqual(pending.map((id) => ['overdue', id]).sort());
    for (const n of state.fresh) expect(Date.parse(n.expectedBy!)).toBeLessThan(now());
    const again = await ok(core, 'payouts.watchNow', {});
    expect(again.fresh).toEqual([]);
    expect(again.notices).toHaveLength(pending.length);
  });

  it('uses advance checks only once the desk turns them on, one per payout per round, and notices the change', async () => {
    const before = advanceFetches();
    const settings = await ok(core, 'payouts.settings', {});
    await ok(core, 'payouts.saveSettings', { ...settings, watchAdvance: true });
    const first = await ok(core, 'payouts.watchNow', {});
    expect(first.advance).toBe(true);
    expect(advanceFetches()).toEqual(before.map((n) => n + 1));
    // The sandbox settles a pending payout on its second advance fetch.
    const second: WatchState = await ok(core, 'payouts.watchNow', {});
    expect(advanceFetches()).toEqual(before.map((n) => n + 2));
    expect(second.fresh.map((n) => [n.kind, n.payoutId, n.from, n.to]).sort()).toEqual(
      pending.map((id) => ['status', id, 'pending', 'success']).sort(),
    );
    expect(second).toMatchObject({ watching: 0, overdue: 0 });
  });

  it('sends nothing while the service cannot be reached, and says so', async () => {
    const others = sandbox
      .fixtures()
      .payouts.filter((p) => p.status === 'success')
      .map((p) => p.id);
    // A payout the console last saw pending puts it back on the list: an older answer from the cache.
    const watchedAgain = others[0]!;
    core.cacheFor(core.profiles.active().id).payouts.recordLookup({
      payoutId: watchedAgain,
      mode: 'normal',
      payout: { transfer_id: watchedAgain, transfer_status: 'pending', amount: 100 },
    });
    await hook(sandbox.url, 'POST', 'faults', { path: '/api/v2/payout/fetch', kind: 'drop', count: 100 });
    const offline = await ok(core, 'payouts.watchNow', {});
    expect(offline.paused).toMatch(/reach/i);
    const dropsLeft = (await hook<{ faults: { remaining: number }[] }>(sandbox.url, 'GET', 'faults')).body.faults;
    const quiet = await ok(core, 'payouts.watchNow', {});
    expect(quiet.paused).toMatch(/cannot be reached/);
    // The second round sent nothing: the faults armed were not used.
    expect((await hook<{ faults: { remaining: number }[] }>(sandbox.url, 'GET', 'faults')).body.faults).toEqual(
      dropsLeft,
    );
    await hook(sandbox.url, 'DELETE', 'faults');
  });
});
