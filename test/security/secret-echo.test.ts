/**
 * A hostile service that echoes the credentials it receives back in every form a server could: as they are, in the
 * request id, JSON-escaped, base64, the Basic header whole, URL-encoded, `\u`-escaped, base64url, and inside a
 * successful answer. Between the service and the sandbox sits a loopback proxy that rewrites the answers; the app's
 * IPC replies and its log must hold none of the secret's forms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core';
import { createLogger, createRedactor } from '../../electron/log';
import type { Sandbox } from '../../electron/sandbox/server';
import { secretForms } from '../../electron/secret-forms';
import { testClock } from '../support/clock';
import { call, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';

const KEY = 'merchant_echo';
// A quote, a backslash, base64 and URL metacharacters and a space: every escaping step changes it.
const SECRET = 'sk_"echo"\\+/ =&x9';
const BASIC = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;

type Echo = (secret: string) => { body: unknown; raw?: string };
const ECHOES: Record<string, Echo> = {
  'as it is, in the message': (s) => ({ body: { status: false, error: { code: 1, message: `bad secret ${s}` } } }),
  'in the request id': (s) => ({
    body: { status: false, error: { code: 1, message: 'refused' }, request_id: `req_${s}` },
  }),
  'JSON-escaped': (s) => ({
    body: {},
    raw: `{"status":false,"error":{"code":1,"message":"got ${JSON.stringify(s).slice(1, -1)}"}}`,
  }),
  'in base64': (s) => ({ body: { status: false, error: { code: 1, message: Buffer.from(s).toString('base64') } } }),
  'as the Basic header it came in': () => ({
    body: { status: false, error: { code: 1, message: `header: ${BASIC}` } },
  }),
  'URL-encoded': (s) => ({ body: { status: false, message: `https://x.test/?s=${encodeURIComponent(s)}` } }),
  'as \\u escapes': (s) => ({
    body: {},
    raw: `{"status":false,"error":{"code":1,"message":"${[...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}}`,
  }),
  'in base64url of key:secret, in a field of its own': (s) => ({
    body: { status: false, error: { code: 1, message: 'no', trace: Buffer.from(`${KEY}:${s}`).toString('base64url') } },
  }),
};

let sandbox: Sandbox;
let proxy: Server;
let proxyUrl: string;
let echo: Echo | null = null;
let dataDir: string;
let core: Core;
const logLines: string[] = [];

/** Forwards to the sandbox; with an echo armed, answers with it instead (or, for a success, puts it in the names). */
function startProxy(): Promise<void> {
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', sandbox.url);
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
        const parts: Buffer[] = [];
        up.on('data', (c: Buffer) => parts.push(c));
        up.on('end', () => {
          let text = Buffer.concat(parts).toString('utf8');
          const sent = String(req.headers.authorization ?? '');
          const secret = sent.startsWith('Basic ')
            ? Buffer.from(sent.slice(6), 'base64').toString('utf8').split(':').slice(1).join(':')
            : SECRET;
          if (echo) {
            const made = echo(secret);
            text = made.raw ?? JSON.stringify(made.body);
          } else if (req.url?.includes('beneficiary/fetch')) {
            // A successful answer whose names carry the secret back.
            text = text.replace(
              /"name":"[^"]*"/g,
              `"name":${JSON.stringify(`Asha ${secret} ${encodeURIComponent(secret)}`)}`,
            );
          }
          res.writeHead(up.statusCode ?? 502, { 'content-type': 'application/json' });
          res.end(text);
        });
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      const address = proxy.address();
      proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      resolve();
    }),
  );
}

function assertClean(label: string, text: string) {
  for (const form of secretForms(SECRET))
    expect(text, `${label} holds the form ${JSON.stringify(form)}`).not.toContain(form);
  expect(text).not.toContain(BASIC.slice(6));
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ key: KEY, secret: SECRET, settlementsPerDay: 5 });
  await startProxy();
  dataDir = mkdtempSync(join(tmpdir(), 'pc-echo-'));
  const redactor = createRedactor();
  core = createCore({
    appVersion: '0.0.0',
    dataDir,
    vault: memoryStore(),
    sandbox: null,
    log: createLogger('main', (line) => logLines.push(line), redactor),
    redactor,
    now: testClock(),
  });
  const profile = await ok(core, 'profiles.create', {
    name: 'Echo',
    environment: 'custom',
    baseUrl: proxyUrl,
    aiUrl: `${proxyUrl}/ai`,
    key: KEY,
    hashScheme: 'sha512',
  });
  await ok(core, 'credentials.set', { profileId: profile.id, secret: SECRET });
  await ok(core, 'profiles.activate', { id: profile.id });
});

afterAll(async () => {
  await core?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a service that echoes the secret', () => {
  it.each(Object.keys(ECHOES))('%s: no form reaches an IPC reply or the log', async (name) => {
    echo = ECHOES[name]!;
    try {
      const payoutId = sandbox.fixtures().payouts[0]!.id;
      const reply = await call(core, 'payouts.lookup', { payoutId, mode: 'normal' });
      assertClean(`reply to ${name}`, JSON.stringify(reply));
      // A call whose error crosses IPC as an error, with the service's request id appended.
      const fetched = await call(core, 'beneficiaries.fetch', { id: sandbox.fixtures().beneficiaries[0]!.id });
      expect(fetched.ok).toBe(false);
      assertClean(`error reply to ${name}`, JSON.stringify(fetched));
      const test = await call(core, 'credentials.test', {
        profileId: (await ok(core, 'profiles.list', undefined)).activeId,
      });
      assertClean(`connection test for ${name}`, JSON.stringify(test));
    } finally {
      echo = null;
    }
    assertClean('log', logLines.join('\n'));
  });

  it('in a successful answer: the data reaches the renderer without it', async () => {
    const id = sandbox.fixtures().beneficiaries[0]!.id;
    const value = await ok(core, 'beneficiaries.fetch', { id });
    expect(JSON.stringify(value)).toContain('Asha [redacted]');
    assertClean('beneficiary', JSON.stringify(value));
    assertClean('cached list', JSON.stringify(await ok(core, 'beneficiaries.list', {})));
    assertClean('log', logLines.join('\n'));
  });

  it('answers nested a hundred thousand levels deep are an unreadable answer, not an internal error', async () => {
    echo = () => ({ body: {}, raw: `{"status":false,"error":${'['.repeat(100_000)}${']'.repeat(100_000)}}` });
    try {
      const payoutId = sandbox.fixtures().payouts[0]!.id;
      const reply = await call(core, 'payouts.lookup', { payoutId, mode: 'normal' });
      expect(reply).toMatchObject({ ok: false, error: { code: 'API_INVALID_RESPONSE' } });
    } finally {
      echo = null;
    }
  });
});
