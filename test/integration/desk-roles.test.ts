/**
 * The desk on a real PostgreSQL: `desk init` is idempotent, and what each role may do is enforced by the database —
 * a person with psql and their own password is refused exactly what the console refuses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_MIGRATIONS } from '../../electron/desk/migrations';
import { initDesk } from '../../electron/desk/migrate';
import { createTestDesk, publishedException, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';

const available = postgresAvailable();

describe.runIf(available)('desk roles against raw SQL', () => {
  let cluster: TestCluster;
  let desk: TestDesk;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { vera: 'viewer', olga: 'operator', arun: 'approver', ada: 'admin' });
    const olga = await desk.open('olga');
    await olga.exceptions.publish('2026-06-12', [publishedException(1), publishedException(2)]);
    await olga.close();
  });
  afterAll(() => cluster?.destroy());

  it('applies every migration once: a second init changes nothing', async () => {
    const su = await desk.superuser();
    try {
      const again = await initDesk(su);
      expect(again.applied).toEqual([]);
      const { rows } = await su.query('SELECT version FROM desk.migrations ORDER BY version');
      expect(rows.map((r: { version: number }) => r.version)).toEqual(DESK_MIGRATIONS.map((m) => m.version));
    } finally {
      await su.end();
    }
  });

  it('tells each console its person and role', async () => {
    for (const [name, role] of [
      ['vera', 'viewer'],
      ['olga', 'operator'],
      ['arun', 'approver'],
      ['ada', 'admin'],
    ] as const) {
      const d = await desk.open(name);
      expect(d.status()).toMatchObject({ person: desk.who(name), role, writable: true });
      await d.close();
    }
  });

  const refusals: [string, string, string][] = [
    [
      'vera',
      'an exception action',
      `SELECT desk.act_on_exceptions('[{"date":"2026-06-12","pg":"cashfree","pgTransactionId":"TXN00000001","settlementDate":"2026-06-12 12:00:00"}]', 'resolve', 'x', NULL, 'psql', NULL)`,
    ],
    ['olga', 'writing the queue directly', "UPDATE desk.exceptions SET state = 'resolved'"],
    ['olga', 'deleting exceptions', 'DELETE FROM desk.exceptions'],
    [
      'olga',
      'writing the journal directly',
      "INSERT INTO desk.journal (seq, at, person, console, kind, event, outcome, summary, data, prev_hash, hash) VALUES (999, 'x', 'x', 'x', 'x', 'x', 'x', 'x', '{}', 'x', 'x')",
    ],
    ['olga', 'editing the journal', "UPDATE desk.journal SET summary = 'x'"],
    ['olga', 'closing a period', "SELECT desk.close_period('2026-06-01', '2026-06-30', 'psql')"],
    ['olga', 'adding a person', "SELECT desk.add_person('mallory', 'admin', 'SCRAM-SHA-256$4096:x$y:z', 'psql')"],
    [
      'olga',
      'the internal journal writer',
      "SELECT desk.journal_write('psql', 'exception', 'exception.bulk', 'done', 'x', '{}')",
    ],
    ['arun', 'adding a person', "SELECT desk.add_person('mallory', 'admin', 'SCRAM-SHA-256$4096:x$y:z', 'psql')"],
    ['arun', 'granting themselves admin', 'GRANT admin TO CURRENT_USER'],
    ['ada', 'deleting the journal', 'DELETE FROM desk.journal'],
    ['ada', 'emptying the journal', 'TRUNCATE desk.journal'],
  ];
  it.each(refusals)('refuses %s %s', async (name, _what, sql) => {
    const raw = await desk.rawAs(name);
    try {
      await expect(raw.query(sql)).rejects.toMatchObject({ code: expect.stringMatching(/^(42501|0LP01)$/) });
    } finally {
      await raw.end();
    }
  });

  it('lets each role do what it may, through the console', async () => {
    const olga = await desk.open('olga');
    const vera = await desk.open('vera');
    const arun = await desk.open('arun');
    try {
      const [row] = (await vera.exceptions.queue({}, { offset: 0, limit: 10 })).rows;
      await expect(vera.exceptions.act({ ...row!, version: row!.version }, 'acknowledge', null)).rejects.toMatchObject({
        code: 'DESK_ROLE',
        message: expect.stringContaining('operator'),
      });
      await expect(olga.exceptions.act({ ...row!, version: row!.version }, 'acknowledge', null)).resolves.toMatchObject(
        {
          count: 1,
        },
      );
      await expect(olga.periods.close('2026-05-01', '2026-05-31')).rejects.toMatchObject({ code: 'DESK_ROLE' });
      await expect(arun.periods.close('2026-05-01', '2026-05-31')).resolves.toBeGreaterThan(0);
      await expect(
        vera.journal.append({ kind: 'export', event: 'export.completed', outcome: 'completed', summary: 'x' }),
      ).resolves.toBeGreaterThan(0);
      const [entry] = await vera.journal.list({ limit: 1 });
      expect(entry).toMatchObject({ person: desk.who('vera'), console: 'vera-console', event: 'export.completed' });
    } finally {
      await Promise.all([olga.close(), vera.close(), arun.close()]);
    }
  });

  it('keeps the journal append-only even for its owner', async () => {
    const su = await desk.superuser();
    try {
      await su.query('SET ROLE desk_owner');
      await expect(su.query("UPDATE desk.journal SET summary = 'edited'")).rejects.toThrow(/append-only/);
      await expect(su.query('DELETE FROM desk.journal')).rejects.toThrow(/append-only/);
    } finally {
      await su.end();
    }
  });
});
