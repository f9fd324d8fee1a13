/**
 * A console whose profile holds no API secret reconciles from the desk's copy of the settlement batches, on a real
 * PostgreSQL: console A (the sandbox profile, with its secret) syncs and imports the sandbox's bank statement;
 * console B (a profile of its own on the same sandbox, no secret stored) joined to the same desk sees the same
 * batches and the same matches, and is told plainly that a batch's records are on the consoles that sync. A re-sync
 * that changes a date replaces the date's batches on the desk; a date synced while the desk was down is published
 * once it answers; the CLI's `settlements batches` lists the desk's copy too; a viewer may not publish, through the
 * console or raw SQL. Migration 10 applies to a desk at version 9.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { BatchRow } from '../../electron/cache/reconciliation';
import type { Sandbox } from '../../electron/sandbox/server';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, ok, syncedThroughJob } from '../support/core';
import { PASSWORD, createTestDesk, deskConsole, joinWithoutSecret, type TestDesk } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { startTestSandbox } from '../support/sandbox';
import { hook } from '../support/sandbox-http';
import { cliRunner } from '../support/cli';
import { requireSystem } from '../support/system';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import { initDesk } from '../../electron/desk/migrate';

const TO = addDays(TEST_TODAY, -3);
const FROM = addDays(TO, -1);
const PERIOD = { from: FROM, to: TO };
const ACCOUNT = 'HDFC current';

const keychain = await createKeytarStore('payout-console-desk-batches-probe').probe();

const net = (batches: readonly { settled: number }[]) => batches.reduce((t, b) => t + b.settled, 0);

describe.runIf(postgresAvailable())("a console without the API secret reconciles from the desk's batches", () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  const dirs: string[] = [];
  const cores: Core[] = [];
  let a: Core;
  let b: Core;
  let bProfile: string;

  /** The desk's rows as the server's administrator reads them. */
  const asSuperuser = async <R extends object>(sql: string, params: unknown[] = []): Promise<R[]> => {
    const su = await desk.superuser();
    try {
      return (await su.query<R>(sql, params)).rows;
    } finally {
      await su.end();
    }
  };
  const report = (core: Core) => ok(core, 'recon.report', { account: ACCOUNT, ...PERIOD });

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', ravi: 'operator', omar: 'operator', vera: 'viewer' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    a = await deskConsole(sandbox, cluster, desk, 'asha', dirs);
    cores.push(a);
    await syncedThroughJob(a, PERIOD);
    const statement = await hook<{ csv: string }>(sandbox.url, 'POST', 'statement', {
      ...PERIOD,
      discrepancies: { missing: 1, short: 1, split: 0, orphan: 1 },
    });
    expect(statement.http).toBe(200);
    await ok(a, 'recon.importStatement', {
      fileName: 'hdfc.csv',
      content: Buffer.from(statement.body.csv).toString('base64'),
      account: ACCOUNT,
    });

    // B: a profile of its own on the same sandbox, whose secret was never stored on this console.
    const dir = mkdtempSync(join(tmpdir(), 'pc-desk-nosecret-'));
    dirs.push(dir);
    b = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), consoleName: 'ravi-laptop' });
    cores.push(b);
    bProfile = await joinWithoutSecret(b, cluster, desk, 'ravi', { url: sandbox.url, key: 'test_key' });
  });
  afterAll(async () => {
    await Promise.all(cores.map((c) => c.close()));
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('applies migrations 10 and 12 to a desk without them, and desk init again changes nothing', async () => {
    const older = await createTestDesk(cluster, {});
    const su = await older.superuser();
    try {
      // The desk as a console of version 9 left it.
      await su.query('DROP TABLE desk.settlement_batches');
      await su.query('DROP FUNCTION desk.publish_batches(date, jsonb, text, text[])');
      await su.query('DELETE FROM desk.migrations WHERE version IN (10, 12)');
      expect((await initDesk(su)).applied).toEqual([
        { version: 10, name: 'settlement batches' },
        { version: 12, name: 'gateway-scoped publish' },
      ]);
      expect((await initDesk(su)).applied).toEqual([]);
    } finally {
      await su.end();
    }
  });

  it("shows B, which cannot sync, A's batches and the same matches, worked out on B and never written", async () => {
    expect((await b.credentials.status(bProfile)).hasSecret).toBe(false);
    expect(b.cacheFor(bProfile).reconciliation.batches(FROM, TO)).toEqual([]);
    const onA = (await ok(a, 'recon.batches', PERIOD)).batches;
    expect(onA.length).toBeGreaterThan(0);
    expect((await ok(b, 'recon.batches', PERIOD)).batches).toEqual(onA);

    const ra = await report(a);
    const rb = await report(b);
    expect(ra.batches.some((x) => x.state === 'matched')).toBe(true);
    expect(rb.batchTotals).toEqual(ra.batchTotals);
    expect(rb.creditTotals).toEqual(ra.creditTotals);
    expect(rb.batches).toEqual(ra.batches);
    expect(rb.credits).toEqual(ra.credits);
    // Automatic matches are each console's reading, not desk state: the desk holds matches made by hand only.
    expect(await asSuperuser('SELECT id FROM desk.recon_matches')).toEqual([]);

    // The desk's figures are bigint paise, each date's net A's to the paisa.
    const types = await asSuperuser<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'desk' AND table_name = 'settlement_batches'
          AND column_name IN ('amount', 'fees', 'taxes', 'subvention', 'settled') ORDER BY column_name`,
    );
    expect(types.map((t) => t.data_type)).toEqual(['bigint', 'bigint', 'bigint', 'bigint', 'bigint']);
    for (const date of [FROM, TO]) {
      const [row] = await asSuperuser<{ settled: string }>(
        'SELECT sum(settled)::text AS settled FROM desk.settlement_batches WHERE date = $1',
        [date],
      );
      expect(row!.settled).toBe(String(net(onA.filter((x) => x.date === date))));
    }
  });

  it("matches by hand on B against the desk's batch, and says plainly where a batch's records are", async () => {
    const rb = await report(b);
    const batch = rb.batches.find((x) => x.matchId === null)!;
    const credit = rb.credits.find((c) => c.state === 'unmatched')!;
    expect(batch).toBeDefined();
    expect(credit).toBeDefined();
    const key = { date: batch.date, pg: batch.pg, utr: batch.utr, settlementDate: batch.settlementDate };
    const { matchId } = await ok(b, 'recon.matchByHand', {
      account: ACCOUNT,
      batch: key,
      lineIds: [credit.id],
      note: 'bank merged two credits',
      reason: 'the rest came in a second credit',
    });
    expect((await report(a)).batches.find((x) => x.matchId === matchId)).toMatchObject({ ...key, state: 'manual' });
    const [entry] = await asSuperuser<{ data: string }>(
      "SELECT data FROM desk.journal WHERE event = 'recon.match_by_hand'",
    );
    expect(JSON.parse(entry!.data)).toMatchObject({ settled: batch.settled, credited: credit.amount });

    const plainly = {
      ok: false,
      error: { code: 'RECORDS_NOT_HELD', message: expect.stringContaining("it has the desk's batch totals") },
    };
    expect(await call(b, 'recon.batchRecords', { batch: key, offset: 0, limit: 10 })).toMatchObject(plainly);
    expect(await call(b, 'recon.exportTally', { account: ACCOUNT, ...PERIOD })).toMatchObject(plainly);
    // The reconciliation workbook is the report's, so B writes it from the desk's batches.
    const exported = await ok(b, 'recon.export', { account: ACCOUNT, ...PERIOD });
    expect(exported.files.length).toBeGreaterThan(0);
    // A, which syncs, opens the records.
    const records = (await ok(a, 'recon.batchRecords', { batch: key, offset: 0, limit: 1000 })).records;
    expect(records).toHaveLength(batch.records);
  });

  it("replaces a date's batches when a re-sync changed it: B sees the new figures, none twice, journaled once", async () => {
    const published = async () =>
      (
        await asSuperuser<{ n: number }>(
          "SELECT count(*)::int AS n FROM desk.journal WHERE event = 'batches.published'",
        )
      )[0]!.n;
    const entriesBefore = await published();
    // An unchanged date published again writes nothing.
    await syncedThroughJob(a, { from: TO, to: TO });
    expect(await published()).toBe(entriesBefore);

    const mutated = await hook(sandbox.url, 'POST', 'settlements/mutate', { date: TO, count: 0, remove: 1 });
    expect(mutated.http).toBe(200);
    const before = (await ok(b, 'recon.batches', { from: TO, to: TO })).batches;
    await syncedThroughJob(a, { from: TO, to: TO });
    const onA: BatchRow[] = (await ok(a, 'recon.batches', { from: TO, to: TO })).batches;
    expect(net(onA)).not.toBe(net(before));
    const onB = (await ok(b, 'recon.batches', { from: TO, to: TO })).batches;
    expect(onB).toEqual(onA);
    expect(await published()).toBe(entriesBefore + 1);
    const [entry] = await asSuperuser<{ person: string; console: string; data: string }>(
      "SELECT person, console, data FROM desk.journal WHERE event = 'batches.published' ORDER BY seq DESC LIMIT 1",
    );
    expect(entry).toMatchObject({ person: desk.who('asha'), console: 'asha-laptop' });
    expect(JSON.parse(entry!.data)).toMatchObject({
      date: TO,
      batches: onA.length,
      settled: net(onA),
      settledBefore: net(before),
    });
  });

  it('publishes a date synced while the desk was down once it answers again', async () => {
    const later = addDays(TO, 1);
    const onB = async () => (await ok(b, 'recon.batches', { from: later, to: later })).batches;
    expect(await onB()).toEqual([]);
    cluster.stop();
    try {
      await syncedThroughJob(a, { from: later, to: later });
      // B's batches are the desk's: while it is down B has none to show, and says why.
      const down = await call(b, 'recon.batches', { from: later, to: later });
      expect(down).toMatchObject({ ok: false, error: { code: 'DESK_UNREACHABLE' } });
    } finally {
      cluster.start();
    }
    const onA = (await ok(a, 'recon.batches', { from: later, to: later })).batches;
    expect(onA.length).toBeGreaterThan(0);
    expect(a.cacheFor('sandbox').exceptions.unpublishedDates()).toEqual([later]);
    // A's desk connection comes back on its own (its listener's retry) and publishes what waited: wait for that.
    while (a.cacheFor('sandbox').exceptions.unpublishedDates().length > 0) await sleep(50);
    expect(await onB()).toEqual(onA);
  });

  it.runIf(requireSystem('the OS keychain', keychain.available ? null : keychain.reason))(
    "lists the desk's batches with `settlements batches` for a profile whose secret is not on this console, and refuses `export tally`",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pc-desk-nosecret-cli-'));
      dirs.push(dir);
      const cli = cliRunner(dir);
      const added = await cli.run(
        'profiles',
        'add',
        '--name',
        'Desk (no secret)',
        '--base-url',
        sandbox.url,
        '--ai-url',
        `${sandbox.url}/ai`,
        '--key',
        'test_key',
        '--env',
        'custom',
      );
      expect(added.code).toBe(0);
      expect((await cli.run('profiles', 'use', 'Desk (no secret)')).code).toBe(0);
      const flags = ['--host', cluster.host, '--port', String(cluster.port), '--database', desk.database, '--no-tls'];
      const joined = await cli.runWithInput(`${PASSWORD}\n`, 'desk', 'join', ...flags, '--user', desk.who('ravi'));
      expect(joined).toMatchObject({ code: 0 });
      const listed = await cli.run('--json', 'settlements', 'batches', '--from', FROM, '--to', TO);
      expect(listed.code).toBe(0);
      const onA = (await ok(a, 'recon.batches', PERIOD)).batches;
      expect(onA.length).toBeGreaterThan(0);
      expect((JSON.parse(listed.stdout) as { batches: BatchRow[] }).batches).toEqual(onA);
      // Tally's GST split is summed from records: refused (exit 1) with where they are.
      const tally = await cli.run('export', 'tally', '--from', FROM, '--to', TO, '--out', join(dir, 'tally.xml'));
      expect(tally.code).toBe(1);
      expect(tally.stderr).toContain("it has the desk's batch totals, not their records");
    },
  );

  it("a console that synced one gateway of a date publishes that gateway's batches and exceptions, not the others'", async () => {
    const onA: BatchRow[] = (await ok(a, 'recon.batches', { from: FROM, to: FROM })).batches;
    const gateways = [...new Set(onA.map((b) => b.pg))];
    expect(gateways.length).toBeGreaterThan(1);
    const [one] = gateways;
    const exceptionsByGateway = () =>
      asSuperuser<{ pg: string; n: number }>(
        'SELECT pg, count(*)::int AS n FROM desk.exceptions WHERE date = $1 AND cardinality(rules) > 0 GROUP BY pg ORDER BY pg',
        [FROM],
      );
    const exceptionsBefore = await exceptionsByGateway();
    expect(exceptionsBefore.length).toBeGreaterThan(1);

    // O has the secret and a cache of its own, and syncs the one gateway of the date, never the others.
    const o = await deskConsole(sandbox, cluster, desk, 'omar', dirs);
    cores.push(o);
    await syncedThroughJob(o, { from: FROM, to: FROM, pg: one });
    expect(o.cacheFor('sandbox').settlements.gatewaysHeldWhole(FROM)).toEqual([one]);

    const onDesk = await asSuperuser<{ pg: string; n: number; settled: string }>(
      'SELECT pg, count(*)::int AS n, sum(settled)::text AS settled FROM desk.settlement_batches WHERE date = $1 GROUP BY pg ORDER BY pg',
      [FROM],
    );
    const fromA = gateways.sort().map((pg) => {
      const of = onA.filter((b) => b.pg === pg);
      return { pg, n: of.length, settled: String(net(of)) };
    });
    expect(onDesk).toEqual(fromA);
    expect(await exceptionsByGateway()).toEqual(exceptionsBefore);

    // The function refuses a batch of a gateway the call does not name, so a partial copy cannot slip through.
    const raw = await desk.rawAs('omar');
    try {
      const other = onA.find((b) => b.pg !== one)!;
      await expect(
        raw.query('SELECT desk.publish_batches($1, $2, $3, $4)', [FROM, JSON.stringify([other]), 'psql', [one]]),
      ).rejects.toThrow(`A batch of ${other.pg} was sent with the batches of ${one} only.`);
    } finally {
      await raw.end();
    }
  });

  it("refuses a viewer's publish through raw SQL, and a viewer's sync publishes its exceptions only", async () => {
    const raw = await desk.rawAs('vera');
    try {
      await expect(raw.query("SELECT desk.publish_batches($1, '[]', 'psql')", [FROM])).rejects.toThrow(
        /permission denied/,
      );
      await expect(raw.query('DELETE FROM desk.settlement_batches')).rejects.toThrow(/permission denied/);
    } finally {
      await raw.end();
    }
    const operator = await desk.rawAs('ravi');
    try {
      await expect(operator.query('UPDATE desk.settlement_batches SET settled = 0')).rejects.toThrow(
        /permission denied/,
      );
    } finally {
      await operator.end();
    }
    const desksBatches = await asSuperuser('SELECT * FROM desk.settlement_batches WHERE date = $1', [FROM]);
    const viewer = await deskConsole(sandbox, cluster, desk, 'vera', dirs);
    cores.push(viewer);
    await syncedThroughJob(viewer, { from: FROM, to: FROM });
    // Not left waiting to retry a publish its role refuses, and the desk's batches are as they were.
    expect(viewer.cacheFor('sandbox').exceptions.unpublishedDates()).toEqual([]);
    expect(await asSuperuser('SELECT * FROM desk.settlement_batches WHERE date = $1', [FROM])).toEqual(desksBatches);
  });
});
