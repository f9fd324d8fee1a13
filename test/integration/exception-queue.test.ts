/**
 * The exception queue through the core's channels, one code path in both modes: a profile alone on its cache, and
 * two consoles (two cores, two data folders) joined to one desk on a real PostgreSQL — one person's sync makes the
 * date's exceptions appear on the other console, whose bulk action the first sees live.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, nextEvent, ok, syncedThroughJob } from '../support/core';
import { createTestDesk, type TestDesk, deskConsole } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { startTestSandbox } from '../support/sandbox';

const DATE = addDays(TEST_TODAY, -3);
const everything = { filter: {}, offset: 0, limit: 200 };

describe('the exception queue of a profile alone on its cache', () => {
  let sandbox: Sandbox;
  let dir: string;
  let core: Core;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    dir = mkdtempSync(join(tmpdir(), 'pc-queue-'));
    core = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), osUser: 'asha' });
    await syncedThroughJob(core, { from: DATE, to: DATE });
  });
  afterAll(async () => {
    await core?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every cached record that breaks a rule, with its state, totals and groups', async () => {
    const page = await ok(core, 'exceptions.queue', everything);
    expect(page.total).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.state === 'open' && r.rules.length > 0 && r.date === DATE)).toBe(true);
    expect(page.amountAtRisk).toBe(page.rows.reduce((s, r) => s + r.amountAtRisk, 0));
    expect(page.groups.reduce((s, g) => s + g.count, 0)).toBeGreaterThanOrEqual(page.total);
    expect(await ok(core, 'desk.status', {})).toEqual({ mode: 'local', person: 'asha' });
  });

  it('resolves a filtered set in one transaction with one journal entry holding its count, filter and digest', async () => {
    const before = await ok(core, 'exceptions.queue', everything);
    const pg = before.rows[0]!.pg;
    const target = await ok(core, 'exceptions.queue', { ...everything, filter: { pg, state: 'open' } });
    const done = await ok(core, 'exceptions.bulk', { action: 'resolve', filter: { pg, state: 'open' }, text: 'paid' });
    expect(done.count).toBe(target.total);
    const resolved = await ok(core, 'exceptions.queue', { ...everything, filter: { pg, state: 'resolved' } });
    expect(resolved.total).toBe(target.total);
    const unresolved = await ok(core, 'exceptions.queue', { ...everything, filter: { state: 'unresolved' } });
    expect(unresolved.total).toBe(before.total - target.total);
    const entries = core.journals.for('sandbox').journal.list({ kind: 'exception' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      event: 'exception.bulk',
      osUser: 'asha',
      data: { action: 'resolve', count: target.total, digest: done.digest, filter: { pg, state: 'open' } },
    });
    // Resolving them again is refused whole: they are resolved.
    const again = await call(core, 'exceptions.bulk', { action: 'resolve', filter: { pg }, text: 'paid' });
    expect(again).toMatchObject({ ok: false, error: { code: 'EXCEPTION_REFUSED' } });
  });

  it('journals a single action and refuses actions on a closed period, in local mode too', async () => {
    const [row] = (await ok(core, 'exceptions.queue', { ...everything, filter: { state: 'open' } })).rows;
    const { rows } = await ok(core, 'settlements.query', { from: DATE, to: DATE, exceptionsOnly: true, limit: 500 });
    const record = rows.find((r) => r.pg_transaction_id === row!.pgTransactionId)!;
    await ok(core, 'settlements.exceptionAction', { recordId: record.id, action: 'note', text: 'called the bank' });
    const [entry] = core.journals.for('sandbox').journal.list({ kind: 'exception', limit: 1 });
    expect(entry).toMatchObject({ event: 'exception.note', data: { key: { pgTransactionId: row!.pgTransactionId } } });

    core.journals.for('sandbox').periods.close({ from: DATE, to: DATE });
    const refused = await call(core, 'settlements.exceptionAction', { recordId: record.id, action: 'resolve' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PERIOD_CLOSED' } });
    const bulk = await call(core, 'exceptions.bulk', { action: 'acknowledge', filter: { state: 'open' }, text: 'x' });
    expect(bulk).toMatchObject({ ok: false, error: { code: 'PERIOD_CLOSED' } });
  });
});

describe.runIf(postgresAvailable())('the exception queue of two consoles on one desk', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  const dirs: string[] = [];
  let a: Core;
  let b: Core;

  const joined = (name: string) => deskConsole(sandbox, cluster, desk, name, dirs);

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', ravi: 'operator', arun: 'approver' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    a = await joined('asha');
    b = await joined('ravi');
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("shows one person's synced exceptions on a console that never synced the date", async () => {
    expect(await ok(b, 'exceptions.queue', everything)).toMatchObject({ total: 0 });
    await syncedThroughJob(a, { from: DATE, to: DATE });
    const local = await ok(a, 'settlements.query', { from: DATE, to: DATE, exceptionsOnly: true, limit: 500 });
    const onB = await ok(b, 'exceptions.queue', everything);
    expect(onB.total).toBe(local.rows.length);
    expect(onB.total).toBeGreaterThan(0);
    expect(await ok(b, 'desk.status', {})).toMatchObject({
      mode: 'desk',
      person: desk.who('ravi'),
      role: 'operator',
      reachable: true,
      writable: true,
    });
  });

  it("sends a bulk assignment on B to A's queue live, journaled once naming the person and console", async () => {
    const filter = { state: 'open' as const };
    const open = await ok(b, 'exceptions.queue', { ...everything, filter });
    const heard = nextEvent(a, 'desk', (e) => e.topic === 'exceptions');
    const done = await ok(b, 'exceptions.bulk', { action: 'assign', filter, text: desk.who('asha') });
    expect(done.count).toBe(open.total);
    await heard;
    const mine = await ok(a, 'exceptions.queue', { ...everything, filter: { assignedTo: 'me' } });
    expect(mine.total).toBe(open.total);
    const su = await desk.superuser();
    try {
      const { rows } = await su.query("SELECT person, console, data FROM desk.journal WHERE event = 'exception.bulk'");
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ person: desk.who('ravi'), console: 'ravi-laptop' });
      expect(JSON.parse((rows[0] as { data: string }).data)).toMatchObject({ count: open.total, digest: done.digest });
    } finally {
      await su.end();
    }
  });

  it("shows the desk's state in a record's detail and refuses assigning to someone not on the desk", async () => {
    const { rows } = await ok(a, 'settlements.query', { from: DATE, to: DATE, exceptionsOnly: true, limit: 1 });
    const detail = await ok(a, 'settlements.exception', { recordId: rows[0]!.id });
    expect(detail).toMatchObject({ assignee: desk.who('asha') });
    expect(detail.events.at(-1)!.text).toContain(desk.who('ravi'));
    const refused = await call(a, 'settlements.exceptionAction', {
      recordId: rows[0]!.id,
      action: 'assign',
      text: 'mallory',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'EXCEPTION_REFUSED' } });
  });

  it("binds every console with an approver's close, reopened only by an approver with a reason", async () => {
    const range = { from: DATE, to: DATE };
    const refused = await call(a, 'journal.closePeriod', range);
    expect(refused).toMatchObject({ ok: false, error: { code: 'DESK_ROLE' } });
    expect(await ok(a, 'journal.periods', undefined)).toEqual([]);

    const approver = await joined('arun');
    try {
      await syncedThroughJob(approver, range);
      const closed = await ok(approver, 'journal.closePeriod', range);
      const blocked = await call(b, 'exceptions.bulk', { action: 'acknowledge', filter: {}, text: 'x' });
      expect(blocked).toMatchObject({
        ok: false,
        error: { code: 'PERIOD_CLOSED', message: expect.stringContaining(desk.who('arun')) },
      });
      const noReason = await call(approver, 'journal.reopenPeriod', { id: closed.id });
      expect(noReason).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
      await ok(approver, 'journal.reopenPeriod', { id: closed.id, reason: 'a chargeback came late' });
      await expect(
        ok(b, 'exceptions.bulk', { action: 'acknowledge', filter: { state: 'open' }, text: 'x' }),
      ).resolves.toMatchObject({
        action: 'acknowledge',
      });
    } finally {
      await approver.close();
    }
  });

  it('keeps local reads working and refuses team actions with the reason while the desk is down', async () => {
    cluster.stop();
    try {
      const status = await ok(a, 'desk.status', {});
      expect(status).toMatchObject({ mode: 'desk', reachable: false });
      const refused = await call(a, 'exceptions.bulk', { action: 'acknowledge', filter: {}, text: 'x' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'DESK_UNREACHABLE' } });
      const cached = await ok(a, 'settlements.query', { from: DATE, to: DATE, limit: 5 });
      expect(cached.rows.length).toBeGreaterThan(0);
    } finally {
      cluster.start();
    }
  });

  it('publishes a date synced while the desk was down once it answers again, so everyone still sees it', async () => {
    const later = addDays(DATE, 1);
    const onB = async () =>
      (await ok(b, 'exceptions.queue', { ...everything, filter: { from: later, to: later } })).total;
    expect(await onB()).toBe(0);
    cluster.stop();
    try {
      await syncedThroughJob(a, { from: later, to: later });
    } finally {
      cluster.start();
    }
    const local = await ok(a, 'settlements.query', { from: later, to: later, exceptionsOnly: true, limit: 500 });
    expect(local.rows.length).toBeGreaterThan(0);
    expect(a.cacheFor('sandbox').exceptions.unpublishedDates()).toEqual([later]);
    // A's desk connection comes back on its own (its listener's retry), and publishes what waited: wait for that. A
    // marks the date published in its cache once the desk has committed it, so B may see the rows a moment before:
    // wait for both (the test's timeout bounds it).
    const unpublished = () => a.cacheFor('sandbox').exceptions.unpublishedDates();
    while ((await onB()) < local.rows.length || unpublished().length > 0) await sleep(50);
    expect(await onB()).toBe(local.rows.length);
    expect(unpublished()).toEqual([]);
  });
});
