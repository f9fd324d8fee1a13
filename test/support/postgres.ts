/**
 * A private PostgreSQL cluster for the desk's tests: Debian's own server binaries (`initdb`, `pg_ctl`), a
 * temporary folder, 127.0.0.1 on a free port, password (SCRAM) logins only, removed afterwards. PostgreSQL refuses
 * to run as root, which CI is: there the cluster belongs to the `postgres` account the Debian package creates and
 * its commands run through `runuser`. No stand-in for PostgreSQL exists anywhere in the tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { requireSystem } from './system';

export const SUPERUSER = 'desk_super';
const SUPERUSER_PASSWORD = 'desk-super-test-password';

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .map(Number)
    .filter((v) => v >= 15)
    .sort((a, b) => b - a);
  return versions.length ? join(root, String(versions[0]), 'bin') : null;
}

/** Which account runs the server: ourselves, or `postgres` when we are root. */
function serverAccount(): { uid: number; gid: number; name: string } | null {
  if (process.getuid?.() !== 0) return null;
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) throw new Error('running as root, and there is no postgres account to run the server as');
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()), name: 'postgres' };
}

/** Whether the tests can start a cluster here; skips loudly on a laptop, fails under CI (requireSystem). */
export function postgresAvailable(): boolean {
  const bin = binDir();
  const problem =
    bin === null || !existsSync(join(bin, 'initdb'))
      ? 'no PostgreSQL 15+ server binaries in /usr/lib/postgresql (apt-get install postgresql)'
      : process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0
        ? 'running as root and no postgres account to run the server as'
        : null;
  return requireSystem('PostgreSQL', problem);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface TestCluster {
  host: string;
  port: number;
  /** With `tls`: the CA that signed the server's certificate (for `localhost` only), and another one. */
  caFile?: string;
  otherCaFile?: string;
  /** The superuser's connection settings (for set-up and for tampering as a superuser would). */
  superuser: { host: string; port: number; user: string; password: string; database: string };
  /** Stops the server at once (immediate: as a crash or a pulled cable looks to a client). */
  stop(): void;
  /** Starts it again on the same port and folder. */
  start(): void;
  /** Stops it and removes the folder. */
  destroy(): void;
}

/** A CA and a server certificate it signed for `localhost` (not for 127.0.0.1), and an unrelated CA, by openssl. */
function makeCertificates(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  for (const ca of ['ca', 'other-ca']) {
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=Desk test ${ca}`,
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.pem`,
    );
  }
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.ext',
    '-out',
    'server.pem',
  );
  chmodSync(join(dir, 'server.key'), 0o600);
}

export async function startCluster(options: { tls?: boolean } = {}): Promise<TestCluster> {
  const bin = binDir()!;
  const account = serverAccount();
  const dir = mkdtempSync(join(tmpdir(), 'desk-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`);
  if (options.tls) makeCertificates(dir);
  if (account) {
    for (const file of [dir, pwfile, ...(options.tls ? ['server.key', 'server.pem'].map((f) => join(dir, f)) : [])]) {
      chownSync(file, account.uid, account.gid);
    }
  }
  chmodSync(dir, 0o700);
  const run = (command: string, args: string[]) => {
    const [file, argv] = account
      ? ['runuser', ['-u', account.name, '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    return execFileSync(file, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  };
  run('initdb', [
    '-D',
    data,
    '-U',
    SUPERUSER,
    '--pwfile',
    pwfile,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  const tls = options.tls
    ? ` -c ssl=on -c ssl_cert_file=${join(dir, 'server.pem')} -c ssl_key_file=${join(dir, 'server.key')}`
    : '';
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=120${tls}`;
  const start = () => run('pg_ctl', ['-D', data, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', 'start']);
  const stop = () => {
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  start();
  return {
    host: '127.0.0.1',
    port,
    ...(options.tls ? { caFile: join(dir, 'ca.pem'), otherCaFile: join(dir, 'other-ca.pem') } : {}),
    superuser: { host: '127.0.0.1', port, user: SUPERUSER, password: SUPERUSER_PASSWORD, database: 'postgres' },
    stop,
    start,
    destroy() {
      try {
        stop();
      } catch {
        // Already stopped (a test stopped it and did not start it again).
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once a session waits on a lock in a statement like `statement` (SQL LIKE), as pg_stat_activity reports it:
 * read from a session of its own, as one inside a transaction keeps reading the same snapshot of the activity.
 */
export async function untilWaitingOnLock(connection: pg.ClientConfig, statement: string): Promise<void> {
  const watcher = new pg.Client(connection);
  await watcher.connect();
  try {
    for (;;) {
      const { rows } = await watcher.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1",
        [statement],
      );
      if (rows[0]!.n > 0) return;
    }
  } finally {
    await watcher.end();
  }
}
