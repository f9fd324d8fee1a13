/**
 * The desk from the command line on a real PostgreSQL: the server's administrator runs `desk init` (twice: no
 * change) and adds people; a person joins with their password on standard input (kept in the OS keychain); the
 * queue and a bulk action over it; exit codes for bad input and refusals; `desk init` cut by a stopped server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import { cliRunner } from '../support/cli';
import { postgresAvailable, startCluster, untilWaitingOnLock, type TestCluster } from '../support/postgres';
import { requireSystem } from '../support/system';
import { listenUncaught } from '../support/uncaught';
import { publishedException } from '../support/desk';
import { openDesk } from '../../electron/desk/desk';
import { DESK_INIT_LOCK } from '../../electron/desk/migrate';
import pg from 'pg';

const probe = await createKeytarStore('payout-console-desk-cli-probe').probe();
const ready = postgresAvailable() && requireSystem('the OS keychain', probe.available ? null : probe.reason);

describe.runIf(ready)('desk commands', () => {
  let cluster: TestCluster;
  let dir: string;
  let flags: string[];
  const database = 'postgres';

  beforeAll(async () => {
    cluster = await startCluster();
    dir = mkdtempSync(join(tmpdir(), 'pc-desk-cli-'));
    flags = ['--host', cluster.host, '--port', String(cluster.port), '--database', database, '--no-tls'];
  });
  afterAll(() => {
    cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets a desk up, adds its people, and lets a person join and work the queue', async () => {
    const admin = cliRunner(join(dir, 'admin'));
    const su = cluster.superuser;
    const first = await admin.runWithInput(`${su.password}\n`, 'desk', 'init', ...flags, '--user', su.user);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toMatch(/applied 1 \(people and roles\)/);
    const again = await admin.runWithInput(`${su.password}\n`, 'desk', 'init', ...flags, '--user', su.user, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: [] });

    const added = await admin.runWithInput(
      `${su.password}\nolga-first-password\n`,
      'desk',
      'add-person',
      'olga',
      '--role',
      'operator',
      ...flags,
      '--user',
      su.user,
    );
    expect(added).toMatchObject({ code: 0 });
    expect(added.stdout).toContain('olga is on the desk as operator');

    const badRole = await admin.runWithInput(
      `${su.password}\nx\n`,
      'desk',
      'add-person',
      'x',
      '--role',
      'boss',
      ...flags,
      '--user',
      su.user,
    );
    expect(badRole.code).toBe(2);

    const olga = cliRunner(join(dir, 'olga'));
    const wrong = await olga.runWithInput('not-her-password\n', 'desk', 'join', ...flags, '--user', 'olga');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused this login/);
    expect(wrong.stderr).not.toContain('not-her-password');
    const joined = await olga.runWithInput('olga-first-password\n', 'desk', 'join', ...flags, '--user', 'olga');
    expect(joined).toMatchObject({ code: 0 });
    expect(joined.stdout).toContain('as olga (operator');

    // Someone's sync published three exceptions; Olga's console sees them and resolves them in bulk.
    const publisher = await openDesk({
      connection: { host: cluster.host, port: cluster.port, database, user: 'olga', tls: 'none' },
      password: 'olga-first-password',
      console: 'elsewhere',
    });
    await publisher.exceptions.publish(
      '2026-06-12',
      [1, 2, 3].map((n) => publishedException(n)),
    );
    await publisher.close();

    const status = await olga.run('desk', 'status', '--json');
    expect(JSON.parse(status.stdout)).toMatchObject({
      mode: 'desk',
      person: 'olga',
      role: 'operator',
      reachable: true,
    });
    const q = await olga.run('exceptions', 'queue', '--state', 'open', '--json');
    expect(JSON.parse(q.stdout)).toMatchObject({ total: 3 });
    const resolved = await olga.run('exceptions', 'bulk', 'resolve', '--pg', 'cashfree', '--text', 'paid', '--json');
    expect(JSON.parse(resolved.stdout)).toMatchObject({ action: 'resolve', count: 2 });
    expect((await olga.run('exceptions', 'bulk', 'resolve', '--pg', 'cashfree')).code).toBe(2);
    const refused = await olga.run('exceptions', 'bulk', 'resolve', '--pg', 'cashfree', '--text', 'again');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/they are resolved/);
    const verified = await olga.run('desk', 'verify');
    expect(verified).toMatchObject({ code: 0 });
    expect(verified.stdout).toMatch(/chain is whole/);
    // `journal verify` checks the desk's chain beside the console's own.
    const both = await olga.run('journal', 'verify', '--json');
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout)).toMatchObject({ ok: true, desk: { ok: true, problems: [] } });

    // Olga may not add people, whatever the console would let her type.
    const notAdmin = await olga.runWithInput('x-password\n', 'desk', 'add-person', 'mallory', '--role', 'admin');
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toMatch(/takes the admin role/);
    expect((await olga.run('desk', 'leave')).code).toBe(0);
    expect(JSON.parse((await olga.run('desk', 'status', '--json')).stdout)).toMatchObject({ mode: 'local' });
  });

  it('says the desk cannot be reached when the server stops while `desk init` waits for another init', async () => {
    const admin = cliRunner(join(dir, 'admin-cut'));
    const su = cluster.superuser;
    // Another administrator's init in progress: this one waits on the lock, its statement in flight.
    const holder = new pg.Client(su);
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [DESK_INIT_LOCK]);
    const uncaught = listenUncaught();
    try {
      const init = admin.runWithInput(`${su.password}\n`, 'desk', 'init', ...flags, '--user', su.user);
      await untilWaitingOnLock(su, '%pg_advisory_lock%');
      cluster.stop();
      try {
        const cut = await init;
        expect(cut.code).toBe(1);
        expect(cut.stderr).toMatch(/cannot be reached/);
      } finally {
        cluster.start();
      }
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await holder.end().catch(() => undefined);
    }
  });
});
