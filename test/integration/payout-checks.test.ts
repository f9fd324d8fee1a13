/**
 * Bulk payout checks over real loopback HTTP against the sandbox, through the IPC channel the screen uses: 500
 * ids with faults injected end each with a result or a clear error and nothing is checked twice (counted on the
 * sandbox's own state); advance checks are paced and, while the service cannot be reached, queued in the cache
 * and run once it answers again; a run's results table exported as CSV, line for line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { createPayoutCheckService } from '../../electron/treasury/payout-checks';
import { hook } from '../support/sandbox-http';
import { EMBEDDED_SECRET, coreOnSandbox, nextEvent, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { readCsv } from '../support/export-files';
import { formatMinor } from '../../shared/money';
import { destinationText, payoutDestination } from '../../shared/payouts';
import { TEST_NOW } from '../support/clock';
import { sleep } from '../../electron/api/retry';

let sandbox: Sandbox;
let core: Core;
let dataDir: string;

const fault = async (body: Record<string, unknown>) => {
  const r = await hook(sandbox.url, 'POST', 'faults', body);
  if (r.http !== 200) throw new Error(`fault hook answered ${r.http}`);
};
const clearFaults = () => hook(sandbox.url, 'DELETE', 'faults');
const fetches = () => sandbox.fixtures().payoutFetches;
const PATH = '/api/v2/payout/fetch';
const PACE_MS = 40;

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-payout-checks-'));
  core = coreOnSandbox(sandbox, {
    dataDir,
    vault: memoryStore(),
    payoutCheckLimits: { advanceIntervalMs: 20 },
    exportTargets: { choose: async (name) => join(dataDir, name) },
  });
});
afterEach(async () => {
  await clearFaults();
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a bulk check of 500 ids with faults injected', () => {
  it('ends every id with a result or a clear error, and checks none twice', async () => {
    const known = sandbox.fixtures().payouts.map((p) => p.id);
    const unknown = Array.from({ length: 500 - known.length }, (_, i) => `TRF9${String(i).padStart(8, '0')}`);
    const ids = [...known, ...unknown];
    const before = fetches();
    // Early faults (answered before the handler runs), spread over the run; a burst of 503s outlasts the
    // client's four attempts for at least one id.
    await fault({ path: PATH, kind: '500', count: 6 });
    await fault({ path: PATH, kind: 'drop', count: 3 });
    await fault({ path: PATH, kind: 'delay', delayMs: 50, count: 10 });
    await fault({ path: PATH, kind: '429', count: 3 });
    await fault({ path: PATH, kind: '503', count: 16 });

    const run = await ok(core, 'payouts.check', { ids: [...ids, ...known.slice(0, 3)], mode: 'normal' });

    expect(run.items.map((i) => i.payoutId)).toEqual(ids);
    const after = fetches();
    for (const item of run.items) {
      const reached = (after[item.payoutId]?.normal ?? 0) - (before[item.payoutId]?.normal ?? 0);
      if (item.outcome === 'checked') {
        expect(item.lookup?.payout?.transfer_id).toBe(item.payoutId);
        expect(known).toContain(item.payoutId);
        expect(reached, item.payoutId).toBe(1);
      } else if (item.outcome === 'refused') {
        expect(item.error).toMatch(/not found/i);
        expect(unknown).toContain(item.payoutId);
        expect(reached, item.payoutId).toBe(1);
      } else {
        expect(item.outcome).toBe('failed');
        expect(item.error!.length, item.payoutId).toBeGreaterThan(20);
        expect(reached, item.payoutId).toBe(0);
      }
    }
    expect(run.counts.pending + run.counts.queued).toBe(0);
    expect(run.counts.failed).toBeGreaterThan(0);
    expect(run.counts.checked + run.counts.refused + run.counts.failed).toBe(500);
    // Each answer is in the payout's history once; the failed ones left it as it was.
    for (const item of run.items) {
      const history = await ok(core, 'payouts.history', { payoutId: item.payoutId });
      expect(history.map((l) => l.id)).toEqual(item.lookup ? [item.lookup.id] : []);
    }
    expect(await ok(core, 'payouts.checkRun', {})).toEqual(run);
  }, 120_000);
});

describe('advance checks', () => {
  it('start no closer together than the pace allows, on the clock the service is given', async () => {
    const profileId = core.profiles.active().id;
    // A clock that moves only when the service sleeps, to the time it slept until: each start is then read at its turn
    // exactly, where on the machine's clock a busy machine could read it milliseconds late.
    let clock = TEST_NOW;
    const starts: number[] = [];
    const service = createPayoutCheckService({
      payouts: {
        ...core.treasury.payouts,
        lookup: (p, id, mode) => {
          starts.push(clock);
          return core.treasury.payouts.lookup(p, id, mode);
        },
      },
      cacheFor: core.cacheFor,
      isOffline: () => false,
      events: core.events,
      now: () => clock,
      sleep: async (ms) => {
        const until = clock + ms;
        await sleep(1);
        clock = Math.max(clock, until);
      },
      limits: { concurrency: 4, advanceIntervalMs: PACE_MS },
    });
    const ids = sandbox.fixtures().payouts.map((p) => p.id);
    const run = await service.check(profileId, { ids, mode: 'advance' });
    expect(run.counts.checked).toBe(ids.length);
    expect(starts).toHaveLength(ids.length);
    const sorted = [...starts].sort((a, b) => a - b);
    sorted.slice(1).forEach((t, i) => expect(t - sorted[i]!).toBeGreaterThanOrEqual(PACE_MS));
  });

  it('are queued while the service cannot be reached and run, each once, when it answers again', async () => {
    const pending = sandbox
      .fixtures()
      .payouts.filter((p) => p.status === 'pending')
      .map((p) => p.id);
    const ids = [...pending, 'TRF000000000001'];
    const before = fetches();
    // Every attempt of every request is reset: the client gives up with "could not reach the service".
    await fault({ path: PATH, kind: 'drop', count: 1_000 });
    const run = await ok(core, 'payouts.check', { ids, mode: 'advance' });
    expect(run.counts.queued).toBe(ids.length);
    expect(run.items.every((i) => i.outcome === 'queued' && /when it can be reached again/.test(i.error ?? ''))).toBe(
      true,
    );
    expect(core.connectivity.current().state).toBe('offline');

    // A second run while offline queues at once, without a request.
    const again = await ok(core, 'payouts.check', { ids: [pending[0]!], mode: 'advance' });
    expect(again.counts.queued).toBe(1);

    await clearFaults();
    const drained = nextEvent(core, 'payoutCheckProgress', (p) => p.runId === run.id && p.finished);
    // Any answered request brings the profile back online; the queue runs then.
    await ok(core, 'payouts.lookup', { payoutId: 'TRF000000000002', mode: 'normal' });
    await drained;
    await nextEventOrSettled(again.id);

    const settled = (await ok(core, 'payouts.checkRun', { runId: run.id }))!;
    expect(settled.counts.queued).toBe(0);
    expect(settled.items.filter((i) => i.outcome === 'checked').map((i) => i.payoutId)).toEqual(pending);
    expect(settled.items.at(-1)).toMatchObject({ outcome: 'refused', payoutId: 'TRF000000000001' });
    const after = fetches();
    // The same id queued by two runs was fetched once, and answered both.
    for (const id of ids) expect((after[id]?.advance ?? 0) - (before[id]?.advance ?? 0), id).toBe(1);
    const second = (await ok(core, 'payouts.checkRun', { runId: again.id }))!;
    expect(second.items[0]!.lookup?.id).toBe(settled.items[0]!.lookup?.id);
  });
});

describe('the results table as an export', () => {
  it('writes one line per id of the run, with its outcome, route and reason', async () => {
    const known = sandbox.fixtures().payouts.map((p) => p.id);
    const run = await ok(core, 'payouts.check', { ids: [...known, 'TRF000000000404'], mode: 'normal' });
    const finished = nextEvent(core, 'exportFinished');
    const { file } = await ok(core, 'exports.start', { kind: 'payoutCheck', runId: run.id, format: 'csv' });
    expect(file).toMatch(new RegExp(`payout-check-${run.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    expect((await finished).status).toBe('completed');
    const [header, ...rows] = (await readCsv(file!)).records;
    const col = (name: string) => header!.indexOf(name);
    expect(rows.map((r) => [r[col('Payout id')], r[col('Outcome')]])).toEqual(
      run.items.map((i) => [i.payoutId, i.outcome]),
    );
    const notFound = rows.at(-1)!;
    expect(notFound[col('Not answered because')]).toMatch(/not found/i);
    for (const [n, item] of run.items.entries()) {
      if (item.outcome !== 'checked') continue;
      expect(rows[n]![col('Amount (INR)')]).toBe(formatMinor(item.lookup!.amount!));
      expect(rows[n]![col('Beneficiary account or UPI')]).toBe(
        destinationText(payoutDestination(item.lookup!.payout!)),
      );
    }
  });
});

/** Waits until a run has no queued item (its progress event may have come before this was called). */
async function nextEventOrSettled(runId: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const run = await ok(core, 'payouts.checkRun', { runId });
    if (run && run.counts.queued === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`run ${runId} still has queued items`);
}
