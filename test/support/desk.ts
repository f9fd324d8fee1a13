/**
 * A desk on the private test cluster: a fresh database, `desk init` run as the server's administrator, and people
 * in each role, each a real login with a password. Consoles open it as those people, exactly as the app does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import type { SecretStore } from '../../electron/vault/secret-store';
import type { DeskRole } from '../../shared/desk';
import { openDesk, type Desk } from '../../electron/desk/desk';
import { initDesk } from '../../electron/desk/migrate';
import { scramVerifier } from '../../electron/desk/scram';
import { coreOnSandbox } from './core';
import { memoryStore } from './memory-store';
import type { TestCluster } from './postgres';

export const PASSWORD = 'correct horse battery staple';

let databases = 0;

export interface TestDesk {
  database: string;
  /** The server login of a person named in the set-up. */
  who(name: string): string;
  /** The superuser on this desk's database: set-up, tampering, and raw SQL checks. */
  superuser(): Promise<pg.Client>;
  /** A raw SQL session as a person (what psql would give them). */
  rawAs(login: string): Promise<pg.Client>;
  /** A console of a person: the desk as the app opens it; `onError` hears a connection the pool held idle lost. */
  open(login: string, console?: string, onError?: (e: Error) => void): Promise<Desk>;
  addPerson(login: string, role: DeskRole): Promise<void>;
}

export async function createTestDesk(cluster: TestCluster, people: Record<string, DeskRole>): Promise<TestDesk> {
  const n = ++databases;
  const database = `desk_${process.pid}_${n}`;
  const admin = new pg.Client(cluster.superuser);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const superuser = async () => {
    const c = new pg.Client({ ...cluster.superuser, database });
    await c.connect();
    return c;
  };
  const su = await superuser();
  await initDesk(su);
  // Logins are the server's, not one database's: each desk's people get its number, `alice` being `alice_3`.
  const who = (name: string) => `${name}_${n}`;
  const addPerson = async (name: string, role: DeskRole) => {
    const c = await superuser();
    try {
      await c.query('SELECT desk.add_person($1, $2, $3, $4)', [who(name), role, scramVerifier(PASSWORD), 'set-up']);
    } finally {
      await c.end();
    }
  };
  await su.end();
  for (const [name, role] of Object.entries(people)) await addPerson(name, role);
  const login = (name: string) => ({
    host: cluster.host,
    port: cluster.port,
    database,
    user: who(name),
    password: PASSWORD,
  });
  return {
    database,
    who,
    superuser,
    addPerson,
    async rawAs(name) {
      const c = new pg.Client(login(name));
      await c.connect();
      return c;
    },
    open: (name, console = `${name}-console`, onError) =>
      openDesk({
        connection: { host: cluster.host, port: cluster.port, database, user: who(name), tls: 'none' },
        password: PASSWORD,
        console,
        onError,
      }),
  };
}

/** A record that breaks a rule, as a sync publishes it; `n` makes its transaction id. */
export function publishedException(n: number, rules: string[] = ['dispute_open']) {
  return {
    pg: n % 2 ? 'cashfree' : 'razorpay',
    pgTransactionId: `TXN${String(n).padStart(8, '0')}`,
    settlementDate: '2026-06-12 12:00:00',
    rules,
    record: { amount: 10_000 + n, settled_amount: 9_800 + n, order_id: `ORD${n}` },
    orderId: `ORD${n}`,
    utr: `UTR${n}`,
    amountAtRisk: 10_000 + n,
  };
}

/**
 * Listens on `desk` until it hears `topic`: resolves once the LISTEN is in place (a notice sent before it would be
 * missed), with the notice to wait on — the test waits on the notice itself, not on a timer.
 */
export async function listening(
  desk: Desk,
  topic: string,
): Promise<{ heard: Promise<void>; stop: () => Promise<void> }> {
  let hear!: () => void;
  const heard = new Promise<void>((resolve) => (hear = resolve));
  const stop = await desk.listen((t) => {
    if (t === topic) hear();
  });
  return { heard, stop };
}

/**
 * A console of `name` on this desk: a core on the sandbox with its own data folder (pushed on `dirs` for the caller
 * to remove) and keychain, joined to the desk as the app joins one, named `<name>-laptop` in the journal.
 */
export async function deskConsole(
  sandbox: Sandbox,
  cluster: TestCluster,
  desk: TestDesk,
  name: string,
  dirs: string[],
  vault: SecretStore = memoryStore(),
): Promise<Core> {
  const dir = mkdtempSync(join(tmpdir(), `pc-desk-${name}-`));
  dirs.push(dir);
  const core = coreOnSandbox(sandbox, { dataDir: dir, vault, consoleName: `${name}-laptop` });
  await joinDesk(core, cluster, desk, name);
  return core;
}

/** Joins a console's built-in sandbox profile to the desk as `name`, as the app joins one. */
export const joinDesk = (core: Core, cluster: TestCluster, desk: TestDesk, name: string) =>
  core.desks.join(
    'sandbox',
    { host: cluster.host, port: cluster.port, database: desk.database, user: desk.who(name), tls: 'none' },
    PASSWORD,
  );

/**
 * Joins a console to the desk as `name` through a profile of its own on `serviceUrl` whose API secret is not stored
 * on it, as a desk that keeps the secret on approvers' consoles sets up an operator's; the profile's id.
 */
export async function joinWithoutSecret(
  core: Core,
  cluster: TestCluster,
  desk: TestDesk,
  name: string,
  service: { url: string; key: string },
): Promise<string> {
  const profile = core.profiles.create({
    name: 'Desk (no secret)',
    environment: 'custom',
    baseUrl: service.url,
    aiUrl: `${service.url}/ai`,
    key: service.key,
  });
  core.profiles.activate(profile.id);
  await core.desks.join(
    profile.id,
    { host: cluster.host, port: cluster.port, database: desk.database, user: desk.who(name), tls: 'none' },
    PASSWORD,
  );
  return profile.id;
}
