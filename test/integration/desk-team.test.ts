/**
 * Two consoles on one desk (two desk connections in one process, as two people on two machines would hold them),
 * on a real PostgreSQL: live propagation, a simultaneous resolve, a bulk action cut by a stopped server, a closed
 * period, a schema newer than the console, and a journal tampered with by a superuser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../electron/desk/desk';
import { createTestDesk, listening, publishedException, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, untilWaitingOnLock, type TestCluster } from '../support/postgres';

const available = postgresAvailable();
const DATE = '2026-06-12';

describe.runIf(available)('a desk of two consoles', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let a: Desk;
  let b: Desk;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', omar: 'operator', arun: 'approver', vera: 'viewer' });
    a = await desk.open('olga', 'console-a');
    b = await desk.open('omar', 'console-b');
    await a.exceptions.publish(
      DATE,
      Array.from({ length: 20 }, (_, i) => publishedException(i + 1)),
    );
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    cluster?.destroy();
  });

  it('opens with the connections a queue read takes, so its first read makes none', async () => {
    const watcher = await desk.superuser();
    const sessions = async () =>
      (
        await watcher.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE application_name = $1 ORDER BY pid',
          ['payout-console console-c'],
        )
      ).rows.map((r) => r.pid);
    const c = await desk.open('olga', 'console-c');
    try {
      const opened = await sessions();
      expect(opened).toHaveLength(2);
      const page = await c.exceptions.queue({}, { offset: 0, limit: 10 });
      expect(page.total).toBe(20);
      expect(await sessions()).toEqual(opened);
    } finally {
      await c.close();
      await watcher.end();
    }
  });

  // How fast is the bench's (desk.propagation): here, only that the notice comes and the queue shows it.
  it("shows an assignment made on A on B's queue, announced live", async () => {
    const { heard, stop } = await listening(b, 'exceptions');
    const [row] = (await a.exceptions.queue({ pg: 'cashfree' }, { offset: 0, limit: 1 })).rows;
    await a.exceptions.act({ ...row!, version: row!.version }, 'assign', desk.who('omar'));
    await heard;
    const mine = await b.exceptions.queue({ assignedTo: 'me' }, { offset: 0, limit: 10 });
    await stop();
    expect(mine.rows).toHaveLength(1);
    expect(mine.rows[0]).toMatchObject({ pgTransactionId: row!.pgTransactionId, updatedBy: desk.who('olga') });
  });

  it("publishes one record without touching the date's others, and a whole date as the sync saw it", async () => {
    const total = async () => (await b.exceptions.queue({}, { offset: 0, limit: 1 })).total;
    expect(await total()).toBe(20);
    await a.exceptions.publish(DATE, [publishedException(21)], false);
    expect(await total()).toBe(21);
    // The date's whole set again, without record 21: it no longer breaks a rule.
    await a.exceptions.publish(
      DATE,
      Array.from({ length: 20 }, (_, i) => publishedException(i + 1)),
    );
    expect(await total()).toBe(20);
  });

  it('lets one of two simultaneous resolves win and tells the other by whom', async () => {
    const [row] = (await a.exceptions.queue({ state: 'open' }, { offset: 0, limit: 1 })).rows;
    const key = { ...row!, version: row!.version };
    const outcomes = await Promise.allSettled([
      a.exceptions.act(key, 'resolve', 'paid on 13/06'),
      b.exceptions.act(key, 'resolve', 'duplicate'),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = outcomes[0]!.status === 'fulfilled' ? desk.who('olga') : desk.who('omar');
    expect(lost[0]!.reason).toMatchObject({ code: 'DESK_CONFLICT', message: expect.stringContaining(winner) });
    const events = await a.exceptions.events(row!);
    expect(events.filter((e) => e.action === 'resolve')).toHaveLength(1);
  });

  it('refuses an action on a closed period, naming who closed it, until an approver reopens it', async () => {
    const approver = await desk.open('arun');
    try {
      await approver.periods.close('2026-06-01', '2026-06-30');
      const [row] = (await a.exceptions.queue({ state: 'open' }, { offset: 0, limit: 1 })).rows;
      const key = { ...row!, version: row!.version };
      await expect(a.exceptions.act(key, 'note', 'called the gateway')).rejects.toMatchObject({
        code: 'PERIOD_CLOSED',
        message: expect.stringContaining(desk.who('arun')),
      });
      await expect(
        a.exceptions.bulk({ action: 'resolve', filter: { state: 'open' }, text: 'month end' }),
      ).rejects.toMatchObject({ code: 'PERIOD_CLOSED' });
      const [period] = await approver.periods.list();
      await expect(approver.periods.reopen(period!.id, '')).rejects.toMatchObject({ code: 'BAD_INPUT' });
      await approver.periods.reopen(period!.id, 'late chargeback to post');
      await expect(a.exceptions.act(key, 'note', 'called the gateway')).resolves.toMatchObject({ count: 1 });
      const reopened = await a.journal.list({ kind: 'period', limit: 1 });
      expect(reopened[0]).toMatchObject({ event: 'period.reopened', person: desk.who('arun') });
    } finally {
      await approver.close();
    }
  });

  it('refuses to write to a desk whose schema is newer than the console, and still reads it', async () => {
    const su = await desk.superuser();
    try {
      await su.query("INSERT INTO desk.migrations (version, name) VALUES (999, 'from a newer console')");
      const c = await desk.open('olga');
      expect(c.status()).toMatchObject({ writable: false, readOnlyReason: expect.stringContaining('newer') });
      const page = await c.exceptions.queue({}, { offset: 0, limit: 5 });
      expect(page.total).toBeGreaterThan(0);
      await expect(
        c.exceptions.act({ ...page.rows[0]!, version: page.rows[0]!.version }, 'note', 'x'),
      ).rejects.toMatchObject({ code: 'DESK_SCHEMA_NEWER' });
      await c.close();
    } finally {
      await su.query('DELETE FROM desk.migrations WHERE version = 999');
      await su.end();
    }
  });
});

describe.runIf(available)('a desk whose server stops in the middle of a bulk resolve', () => {
  let cluster: TestCluster;
  let desk: TestDesk;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator' });
    const c = await desk.open('olga');
    await c.exceptions.publish(
      DATE,
      Array.from({ length: 10_000 }, (_, i) => publishedException(i + 1)),
    );
    await c.close();
  });
  afterAll(() => cluster?.destroy());

  it('leaves all or none applied, and says which', async () => {
    const c = await desk.open('olga');
    // Another session holds one of the 10,000 rows, so the bulk is inside its transaction when the server stops.
    const holder = await desk.superuser();
    holder.on('error', () => undefined); // the server is stopped under it
    await holder.query('BEGIN');
    await holder.query("SELECT 1 FROM desk.exceptions WHERE pg_transaction_id = 'TXN00010000' FOR UPDATE");
    const bulk = c.exceptions.bulk({ action: 'resolve', filter: { state: 'open' }, text: 'settled in June' });
    bulk.catch(() => undefined);
    // Wait until the bulk is waiting on that row lock.
    await untilWaitingOnLock({ ...cluster.superuser, database: desk.database }, '%act_on_exceptions%');
    cluster.stop();
    await expect(bulk).rejects.toMatchObject({ code: 'DESK_UNREACHABLE', message: expect.stringMatching(/none/) });
    await holder.end().catch(() => undefined);
    await c.close();
    cluster.start();

    const after = await desk.open('olga');
    try {
      const open = await after.exceptions.queue({ state: 'open' }, { offset: 0, limit: 1 });
      expect(open.total).toBe(10_000);
      const journal = await after.journal.list({ kind: 'exception' });
      expect(journal).toEqual([]);
      // The same bulk, uninterrupted: all 10,000 in one transaction and one journal entry.
      const done = await after.exceptions.bulk({
        action: 'resolve',
        filter: { state: 'open' },
        text: 'settled in June',
      });
      expect(done.count).toBe(10_000);
      expect((await after.exceptions.queue({ state: 'resolved' }, { offset: 0, limit: 1 })).total).toBe(10_000);
      const entries = await after.journal.list({ kind: 'exception' });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        event: 'exception.bulk',
        data: { count: 10_000, digest: done.digest, filter: { state: 'open' } },
      });
    } finally {
      await after.close();
    }
  });
});

describe.runIf(available)("a superuser's tampering with the desk journal", () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(() => cluster?.destroy());

  /** A desk with six journal entries, the head this console saw, and a superuser with the triggers off. */
  async function journaled() {
    const desk = await createTestDesk(cluster, { olga: 'operator' });
    const c = await desk.open('olga');
    for (let i = 0; i < 6; i++) {
      await c.journal.append({
        kind: 'export',
        event: 'export.completed',
        outcome: 'completed',
        summary: `export ${i}`,
      });
    }
    const seen = await c.journal.verify(null);
    expect(seen).toMatchObject({ ok: true, problems: [] });
    const su = await desk.superuser();
    await su.query("SET session_replication_role = 'replica'");
    return { c, su, seen };
  }

  const tamperings: [string, string, RegExp][] = [
    ['an edited summary', "UPDATE desk.journal SET summary = 'export of nothing' WHERE seq = 5", /changed after/],
    ['a deleted entry', 'DELETE FROM desk.journal WHERE seq = 5', /missing|does not follow/],
    [
      'two entries swapped',
      'UPDATE desk.journal SET seq = -seq WHERE seq IN (5, 6); UPDATE desk.journal SET seq = CASE seq WHEN -5 THEN 6 ELSE 5 END WHERE seq < 0',
      /does not follow|changed after/,
    ],
    [
      'an inserted entry',
      "UPDATE desk.journal SET seq = seq + 1000 WHERE seq >= 4; UPDATE desk.journal SET seq = seq - 999 WHERE seq >= 1000; INSERT INTO desk.journal SELECT 4, at, person, console, kind, event, outcome, 'forged', data, refers_to, prev_hash, repeat('f', 64) FROM desk.journal WHERE seq = 3",
      /does not follow|changed after/,
    ],
    ['the newest entries cut off', 'DELETE FROM desk.journal WHERE seq >= 6', /cut short/],
  ];
  it.each(tamperings)('catches %s', async (_what, sql, problem) => {
    const { c, su, seen } = await journaled();
    try {
      // Seq 1 is the set-up's person_added; the six exports follow.
      await su.query(sql);
      const result = await c.journal.verify(seen.head);
      expect(result.ok).toBe(false);
      expect(result.problems.join('\n')).toMatch(problem);
    } finally {
      await su.end();
      await c.close();
    }
  });
});

describe.runIf(available)("the queue's planner statistics", () => {
  let cluster: TestCluster;
  let desk: TestDesk;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', vera: 'viewer' });
  });
  afterAll(() => cluster?.destroy());

  it('are made again at once after a publish that writes a large part of the queue, not after a small one', async () => {
    const su = await desk.superuser();
    const c = await desk.open('vera');
    // Read as the server keeps them: ANALYZEs asked for (not autovacuum's), and the rows the planner knows of.
    const statistics = async () =>
      (
        await su.query<{ analyzed: number; known: number }>(
          `SELECT s.analyze_count::int AS analyzed, c.reltuples::int AS known
             FROM pg_stat_user_tables AS s JOIN pg_class AS c ON c.oid = s.relid
            WHERE s.relid = 'desk.exceptions'::regclass`,
        )
      ).rows[0]!;
    try {
      expect(await statistics()).toEqual({ analyzed: 0, known: -1 });
      // A viewer's sync publishes too.
      await c.exceptions.publish(
        DATE,
        Array.from({ length: 300 }, (_, i) => publishedException(i + 1)),
      );
      expect(await statistics()).toEqual({ analyzed: 1, known: 300 });
      // 40 more are under a tenth of 300 plus 50: autovacuum's rule, left to it.
      await c.exceptions.publish(
        DATE,
        Array.from({ length: 40 }, (_, i) => publishedException(301 + i)),
        false,
      );
      expect(await statistics()).toEqual({ analyzed: 1, known: 300 });
      await c.exceptions.publish(
        '2026-06-13',
        Array.from({ length: 200 }, (_, i) => publishedException(1001 + i)),
      );
      expect(await statistics()).toEqual({ analyzed: 2, known: 540 });
    } finally {
      await c.close();
      await su.end();
    }
  });
});
