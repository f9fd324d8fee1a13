/**
 * The Settlements grid's exception states, one code path in both modes (treasury/exception-queue.ts): each
 * exception row carries its state (open, acknowledged, assigned, resolved), and "Exceptions only" leaves resolved
 * ones out — totals too, in every sort order — unless `includeResolved` asks for them. Alone, by the cache's own
 * workflow; on a desk, by the desk's states, so a resolve on console A leaves B's grid once the desk announces it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import type { SettlementQuery } from '../../shared/settlement-query';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, coreOnSandbox, nextEvent, ok, syncedThroughJob } from '../support/core';
import { createTestDesk, type TestDesk, deskConsole } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { startTestSandbox } from '../support/sandbox';

const DATE = addDays(TEST_TODAY, -3);
const EXCEPTIONS: SettlementQuery = { from: DATE, to: DATE, exceptionsOnly: true, limit: 1000 };
const BY_AMOUNT = { column: 'amount', direction: 'desc' } as const;

/** Every exception row of the grid, with and without resolved ones, in two orders, and the totals. */
async function grid(core: Core) {
  const shown = await ok(core, 'settlements.query', EXCEPTIONS);
  const all = await ok(core, 'settlements.query', { ...EXCEPTIONS, includeResolved: true });
  const byAmount = await ok(core, 'settlements.query', { ...EXCEPTIONS, sort: BY_AMOUNT });
  const totals = await ok(core, 'settlements.totals', { from: DATE, to: DATE, exceptionsOnly: true });
  const allTotals = await ok(core, 'settlements.totals', {
    from: DATE,
    to: DATE,
    exceptionsOnly: true,
    includeResolved: true,
  });
  return { shown: shown.rows, all: all.rows, byAmount: byAmount.rows, totals, allTotals };
}

describe('the grid of a profile alone on its cache', () => {
  let sandbox: Sandbox;
  let dir: string;
  let core: Core;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    dir = mkdtempSync(join(tmpdir(), 'pc-grid-states-'));
    core = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), osUser: 'asha' });
    await syncedThroughJob(core, { from: DATE, to: DATE });
  });
  afterAll(async () => {
    await core?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows each exception’s state and leaves a resolved one out of "Exceptions only" unless asked', async () => {
    const before = await grid(core);
    expect(before.shown.length).toBeGreaterThan(2);
    expect(before.shown.every((r) => r.exceptionState === 'open')).toBe(true);
    const plain = await ok(core, 'settlements.query', { from: DATE, to: DATE, limit: 50 });
    expect(plain.rows.filter((r) => r.exceptions.length === 0).every((r) => r.exceptionState === null)).toBe(true);

    const [resolved, assigned] = before.shown;
    await ok(core, 'settlements.exceptionAction', { recordId: resolved!.id, action: 'resolve', text: 'paid' });
    await ok(core, 'settlements.exceptionAction', { recordId: assigned!.id, action: 'assign', text: 'ravi' });

    const after = await grid(core);
    expect(after.shown.map((r) => r.id)).toEqual(before.shown.map((r) => r.id).filter((id) => id !== resolved!.id));
    expect(after.byAmount.map((r) => r.id).sort()).toEqual(after.shown.map((r) => r.id).sort());
    expect(after.all.map((r) => r.id)).toEqual(before.shown.map((r) => r.id));
    expect(after.all.find((r) => r.id === resolved!.id)!.exceptionState).toBe('resolved');
    expect(after.shown.find((r) => r.id === assigned!.id)!.exceptionState).toBe('assigned');
    expect(after.totals.count).toBe(before.totals.count - 1);
    expect(after.totals.amount).toBe(before.totals.amount - resolved!.amount);
    expect(after.allTotals).toEqual(before.totals);
  });
});

describe.runIf(postgresAvailable())('the grid of two consoles on one desk', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  const dirs: string[] = [];
  let a: Core;
  let b: Core;

  const joined = (name: string) => deskConsole(sandbox, cluster, desk, name, dirs);

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', ravi: 'operator' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    a = await joined('asha');
    b = await joined('ravi');
    await syncedThroughJob(a, { from: DATE, to: DATE });
    await syncedThroughJob(b, { from: DATE, to: DATE });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("leaves an exception resolved on A out of B's grid by the desk's state, and shows it when asked", async () => {
    const before = await grid(b);
    expect(before.shown.length).toBeGreaterThan(1);
    expect(before.shown.every((r) => r.exceptionState === 'open')).toBe(true);
    const target = before.shown[0]!;
    const onA = (await ok(a, 'settlements.query', EXCEPTIONS)).rows.find(
      (r) => r.pg === target.pg && r.pg_transaction_id === target.pg_transaction_id,
    )!;

    const heard = nextEvent(b, 'desk', (e) => e.topic === 'exceptions');
    await ok(a, 'settlements.exceptionAction', { recordId: onA.id, action: 'resolve', text: 'paid' });
    await heard;

    const after = await grid(b);
    expect(after.shown.map((r) => r.id)).toEqual(before.shown.map((r) => r.id).filter((id) => id !== target.id));
    expect(after.byAmount).toHaveLength(after.shown.length);
    expect(after.all.find((r) => r.id === target.id)!.exceptionState).toBe('resolved');
    expect(after.totals.count).toBe(before.totals.count - 1);
    // B's own workflow in its cache never saw the resolve: the grid read the desk's state.
    expect(
      b.cacheFor('sandbox').exceptions.stateOfKey([DATE, target.pg, target.pg_transaction_id, target.settlement_date]),
    ).toMatchObject({ state: 'open' });
    // A's grid, whose console acted, shows it at once.
    expect((await grid(a)).shown).toHaveLength(after.shown.length);
  });
});
