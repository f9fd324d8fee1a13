/** "Test connection" names the exact failure: wrong secret, hash rejected, unreachable host, TLS, no secret. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core';
import { createLogger, createRedactor } from '../../electron/log';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { withEnvironmentSecret } from '../../electron/vault/env-secret';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import type { SecretStore } from '../../electron/vault/secret-store';
import type { ProfileFields } from '../../shared/profiles';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { testClock } from '../support/clock';

let sb: OpenSandbox;
let tls: Server;
let core: Core;
const ids: Record<string, string> = {};

/** A self-signed certificate for 127.0.0.1: what a misconfigured gateway or an intercepting proxy presents. */
function selfSignedTlsServer(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'pc-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (_req, res) => res.end('{}'),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  sb = await openSandbox();
  tls = await selfSignedTlsServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'pc-conntest-'));
  const tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  const store = createProfileStore({ dataDir, sandbox: null });
  const base = { environment: 'custom' as const, key: sb.key, baseUrl: sb.profile.baseUrl, aiUrl: sb.profile.aiUrl };
  const profiles: Record<string, [ProfileFields, string | null]> = {
    right: [{ ...base, name: 'Right' }, sb.secret],
    wrongSecret: [{ ...base, name: 'Wrong secret' }, 'not-the-secret'],
    wrongScheme: [{ ...base, name: 'Wrong scheme', hashScheme: 'hmac-sha256' }, sb.secret],
    unreachable: [
      { ...base, name: 'Unreachable', baseUrl: 'http://127.0.0.1:9', aiUrl: 'http://127.0.0.1:9/ai' },
      sb.secret,
    ],
    untrusted: [{ ...base, name: 'Untrusted TLS', baseUrl: tlsUrl, aiUrl: `${tlsUrl}/ai` }, sb.secret],
    noSecret: [{ ...base, name: 'No secret' }, null],
  };
  // Each profile's secret comes from the environment layer, so no keychain is needed; "No secret" falls
  // through to a keychain service that holds nothing.
  let vault: SecretStore = createKeytarStore(`payout-console-conntest-${process.pid}`);
  for (const [name, [fields, secret]] of Object.entries(profiles)) {
    ids[name] = store.create(fields).id;
    if (secret !== null) vault = withEnvironmentSecret(vault, ids[name], secret);
  }
  const redactor = createRedactor();
  core = createCore({
    now: testClock(),
    appVersion: '0.0.0',
    dataDir,
    vault,
    sandbox: null,
    log: createLogger('test', () => {}, redactor),
    redactor,
  });
});
afterAll(async () => {
  tls.close();
  await sb.close();
});

describe('test connection', () => {
  it('succeeds with the right key, secret and hash scheme', async () => {
    const r = await core.credentials.testConnection(ids.right!);
    expect(r).toMatchObject({
      ok: true,
      gateways: expect.arrayContaining(['razorpay']),
      failingGateways: ['easebuzz'],
    });
  });

  it.each([
    ['wrongSecret', 'wrong_secret', /rejected the credentials/],
    ['wrongScheme', 'hash_rejected', /hash/],
    ['unreachable', 'unreachable', /Nothing is answering/],
    ['untrusted', 'tls', /certificate could not be trusted/],
  ])('%s -> %s', async (profile, reason, message) => {
    const r = await core.credentials.testConnection(ids[profile]!);
    expect(r).toMatchObject({ ok: false, reason });
    expect(r.ok ? '' : r.message).toMatch(message);
  });

  it('without a secret says to set one (or that there is no keychain)', async () => {
    const r = await core.credentials.testConnection(ids.noSecret!);
    expect(r.ok).toBe(false);
    expect(['no_secret', 'keychain_unavailable']).toContain(r.ok ? '' : r.reason);
  });
});
