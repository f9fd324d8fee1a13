/**
 * TLS to the desk, verify-full as the guide says: a server whose certificate the CA file vouches for, under the name
 * on it, is reached; another CA, or another name for the same server, is refused with a sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk } from '../../electron/desk/desk';
import { initDesk } from '../../electron/desk/migrate';
import { clientConfig } from '../../electron/desk/connection';
import pg from 'pg';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';

describe.runIf(postgresAvailable())('TLS to the desk', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster({ tls: true });
    const su = new pg.Client(cluster.superuser);
    await su.connect();
    await initDesk(su);
    await su.end();
  });
  afterAll(() => cluster?.destroy());

  const login = (host: string, caFile: string) => ({
    connection: {
      host,
      port: cluster.port,
      database: 'postgres',
      user: cluster.superuser.user,
      tls: 'verify-full' as const,
      caFile,
    },
    password: cluster.superuser.password,
    console: 'tls test',
  });

  it('reaches the server under the name on its certificate, over TLS', async () => {
    const desk = await openDesk(login('localhost', cluster.caFile!));
    expect(desk.status()).toMatchObject({ writable: true });
    await desk.close();
    const raw = new pg.Client(clientConfig(login('localhost', cluster.caFile!)));
    await raw.connect();
    const { rows } = await raw.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    await raw.end();
    expect(rows[0]).toEqual({ ssl: true });
  });

  it('refuses a server the CA file does not vouch for', async () => {
    await expect(openDesk(login('localhost', cluster.otherCaFile!))).rejects.toMatchObject({
      code: 'DESK_UNTRUSTED',
      message: expect.stringMatching(/not trusted/),
    });
  });

  it('refuses the same server under a name its certificate does not carry', async () => {
    await expect(openDesk(login('127.0.0.1', cluster.caFile!))).rejects.toMatchObject({ code: 'DESK_UNTRUSTED' });
  });
});
