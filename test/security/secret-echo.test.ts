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
import { call, nextEvent, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { filesUnder } from './support';

const KEY = 'merchant_echo';
// A quote, a backslash, base64 and URL metacharacters, a space and an accent (NFD changes it): every escaping step
// changes it. Long enough that either half of it is a piece (12 characters) of its own.
const SECRET = 'Rz3/kQ9+vT2/Lm8xW4pA7nB0= sk_"échø"\\&x9';
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
  // Issue 32: forms that parse or decode back to the secret without showing any form of it in the raw text.
  '\\/-escaped, as PHP writes JSON': (s) => ({
    body: {},
    raw: `{"status":false,"error":{"code":1,"message":${JSON.stringify(`got ${s}`).replace(/\//g, '\\/')}}}`,
  }),
  'percent-encoded, every byte': (s) => ({
    body: { status: false, message: [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('') },
  }),
  'percent-encoded with mixed-case escapes': (s) => ({
    body: {
      status: false,
      message: [...Buffer.from(s)]
        .map((b, i) => `%${b.toString(16).padStart(2, '0')[i % 2 ? 'toUpperCase' : 'toLowerCase']()}`)
        .join(''),
    },
  }),
  'URL-encoded twice': (s) => ({ body: { status: false, message: encodeURIComponent(encodeURIComponent(s)) } }),
  'decomposed (NFD)': (s) => ({ body: { status: false, error: { code: 1, message: `bad ${s.normalize('NFD')}` } } }),
  'a prefix of 12 characters': (s) => ({
    body: { status: false, error: { code: 1, message: `bad ${s.slice(0, 12)}…` } },
  }),
  'split across two fields': (s) => ({
    body: { status: false, error: { code: 1, message: s.slice(0, 17) }, request_id: s.slice(17) },
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
            // `\/`-escaped, as PHP writes JSON: the raw text shows no form of a secret that has a `/`.
            text = text.replace(
              /"name":"[^"]*"/g,
              `"name":${JSON.stringify(`Asha ${secret} ${encodeURIComponent(secret)}`).replace(/\//g, '\\/')}`,
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

/** The texts a reader could make of `text`: as it is, JSON-unescaped, percent-decoded up to three times, in NFC. */
function readings(text: string): string[] {
  const out = [text, text.replace(/\\\//g, '/')];
  let decoded = text;
  for (let i = 0; i < 3; i++) {
    decoded = Buffer.from(
      decoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
    out.push(decoded);
  }
  return out.flatMap((t) => [t, t.normalize('NFC')]);
}

function assertClean(label: string, text: string) {
  for (const form of secretForms(SECRET))
    expect(text, `${label} holds the form ${JSON.stringify(form)}`).not.toContain(form);
  expect(text).not.toContain(BASIC.slice(6));
  // Any 12 characters of the secret, in any reading: a prefix, half of a split, a decoded or composed copy.
  const secret = SECRET.normalize('NFC');
  for (const reading of readings(text)) {
    for (let i = 0; i + 12 <= secret.length; i++) {
      expect(reading, `${label} holds ${JSON.stringify(secret.slice(i, i + 12))}`).not.toContain(
        secret.slice(i, i + 12),
      );
    }
  }
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

  it('nothing in the data folder holds it: settings, the cache and its journal, logs, exports', async () => {
    for (const kind of ['beneficiaries', 'payouts'] as const) {
      const finished = nextEvent(core, 'exportFinished');
      await ok(core, 'exports.start', { kind, format: 'csv' });
      expect(await finished).toMatchObject({ status: 'completed' });
    }
    const files = filesUnder(dataDir);
    expect(files.some((f) => f.path.endsWith('.csv'))).toBe(true);
    for (const file of files) assertClean(file.path, file.bytes.toString('utf8'));
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
