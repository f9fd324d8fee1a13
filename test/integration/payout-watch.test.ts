/**
 * The watch list in main, on a clock the test moves: rounds check the pending payouts (normal, or advance when the
 * desk turned it on), notice a status change and a payout going overdue once each, push both as the `payoutWatch`
 * event and as an OS notification (one per round that found something; the OS side is main's Electron
 * Notification, here a recorder in its place), and send nothing while the service cannot be reached.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { DEFAULT_TURNAROUND } from '../../shared/payout-ageing';
import { watchNoticeText, type WatchState } from '../../shared/payout-watch';
import { WATCH_NOTIFICATION_TITLE, notifyWatchNews } from '../../electron/treasury/watch-notifications';
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
/** What the OS was asked to show, in order. */
const shown: { title: string; body: string }[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, now });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-payout-watch-'));
  core = coreOnSandbox(sandbox, {
    dataDir,
    vault: memoryStore(),
    now,
    osNotifications: { isSupported: () => true, show: (n) => shown.push(n) },
  });
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
    // A quiet round is not announced.
    expect(shown).toEqual([]);
  });

  it('notices each pending payout once when the clock passes its expected time', async () => {
    // Every method is due within 40 minutes of first sight (the NEFT batch is at most 30 minutes away).
    moved += 45 * MIN;
    const state = await ok(core, 'payouts.watchNow', {});
    expect(state.overdue).toBe(pending.length);
    expect(state.fresh.map((n) => [n.kind, n.payoutId]).sort()).toEqual(pending.map((id) => ['overdue', id]).sort());
    for (const n of state.fresh) expect(Date.parse(n.expectedBy!)).toBeLessThan(now());
    // The round's news, once, as one OS notification.
    expect(shown).toEqual([{ title: WATCH_NOTIFICATION_TITLE, body: watchNoticeText(state.fresh) }]);
    expect(shown[0]!.body).toContain(`${state.fresh[0]!.payoutId} is overdue`);
    const again = await ok(core, 'payouts.watchNow', {});
    expect(again.fresh).toEqual([]);
    expect(again.notices).toHaveLength(pending.length);
    expect(shown).toHaveLength(1);
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
    expect(shown.at(-1)).toEqual({ title: WATCH_NOTIFICATION_TITLE, body: watchNoticeText(second.fresh) });
    expect(shown.at(-1)!.body).toMatch(/is now success \(was pending\)/);
    expect(shown).toHaveLength(2);
  });

  it('shows nothing where the OS has no notifications, while the status bar still gets the news', async () => {
    const unsupported: unknown[] = [];
    const stop = notifyWatchNews(core.events, { isSupported: () => false, show: (n) => unsupported.push(n) });
    try {
      const news = { kind: 'overdue', payoutId: 'TRF1', at: '', from: null, to: null, expectedBy: '' } as const;
      const state = { ...(await ok(core, 'payouts.watch', {})), fresh: [news] };
      core.events.emit('payoutWatch', state);
      expect(unsupported).toEqual([]);
      // The core's own subscriber, on an OS that has them, did show it.
      expect(shown.at(-1)).toEqual({ title: WATCH_NOTIFICATION_TITLE, body: 'TRF1 is overdue.' });
    } finally {
      stop();
    }
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
