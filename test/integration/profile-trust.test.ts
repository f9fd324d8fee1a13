/**
 * What a profile may point the stored secret at, and what the settings file is trusted with: a change of service
 * removes the secret before any request can carry it there; a settings file cannot make a profile built in or claim
 * the built-in profile's id; one bad profile costs only itself; addresses are stored as parsed; names show what
 * they are. Through the IPC router on a real data folder, with a listener on loopback standing in for a hostile host.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { createProfileStore } from '../../electron/profiles/profile-store';
import type { Sandbox } from '../../electron/sandbox/server';
import type { SecretStore } from '../../electron/vault/secret-store';
import { profileFields } from '../../shared/profiles';
import { call, coreOnSandbox, EMBEDDED_SECRET, ok } from '../support/core';
import { TEST_NOW } from '../support/clock';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
let elsewhere: Server;
let elsewhereUrl: string;
/** Authorization headers that reached the other host. */
const received: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ key: 'merchant', secret: 'sk_live_trusted', settlementsPerDay: 5 });
  elsewhere = createServer((req, res) => {
    received.push(String(req.headers.authorization ?? ''));
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"who are you"}');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
  const address = elsewhere.address();
  elsewhereUrl = `http://127.0.0.2:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => elsewhere?.close(resolve));
  await sandbox?.close();
});

let dir: string;
let core: Core;
let vault: SecretStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-trust-'));
  vault = memoryStore();
  core = coreOnSandbox(sandbox, { dataDir: dir, vault });
  received.length = 0;
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const fields = (baseUrl: string) => ({
  name: 'Merchant',
  environment: 'custom' as const,
  baseUrl,
  aiUrl: `${baseUrl}/ai`,
  key: 'merchant',
  hashScheme: 'sha512' as const,
});

async function profileWithSecret(): Promise<string> {
  const created = await ok(core, 'profiles.create', fields(sandbox.url));
  await ok(core, 'credentials.set', { profileId: created.id, secret: 'sk_live_trusted' });
  expect(await ok(core, 'credentials.test', { profileId: created.id })).toMatchObject({ ok: true });
  return created.id;
}

describe('a stored secret stays with its service', () => {
  it('moving the profile to another host removes the secret first: the new host never sees it', async () => {
    const id = await profileWithSecret();
    const updated = await ok(core, 'profiles.update', { id, fields: fields(elsewhereUrl) });
    expect(updated).toMatchObject({ baseUrl: elsewhereUrl, secretRemoved: true });
    expect(await ok(core, 'credentials.status', { profileId: id })).toMatchObject({ hasSecret: false });
    expect(await ok(core, 'credentials.test', { profileId: id })).toMatchObject({ ok: false, reason: 'no_secret' });
    expect(received).toEqual([]);
    expect(await vault.get(id)).toBeNull();
  });

  it.each([
    ['the AI address alone', (u: string) => ({ ...fields(sandbox.url), aiUrl: `${u}/ai` })],
    ['the port alone', () => fields(sandbox.url.replace(/:\d+$/, ':1'))],
  ])('%s counts as another service', async (_label, change) => {
    const id = await profileWithSecret();
    expect(await ok(core, 'profiles.update', { id, fields: change(elsewhereUrl) })).toMatchObject({
      secretRemoved: true,
    });
    expect(await vault.get(id)).toBeNull();
  });

  it('a new path, name or key on the same service keeps the secret', async () => {
    const id = await profileWithSecret();
    const same = { ...fields(`${sandbox.url}/`), name: 'Renamed', key: 'merchant' };
    expect(await ok(core, 'profiles.update', { id, fields: same })).toMatchObject({ secretRemoved: false });
    expect(await vault.get(id)).toBe('sk_live_trusted');
  });

  it('when the keychain cannot delete the secret, the new address is not saved', async () => {
    const id = await profileWithSecret();
    vault.delete = async () => {
      throw Object.assign(new Error('The keychain is locked.'), { code: 'KEYCHAIN_UNAVAILABLE' });
    };
    const reply = await call(core, 'profiles.update', { id, fields: fields(elsewhereUrl) });
    expect(reply).toMatchObject({ ok: false, error: { code: 'KEYCHAIN_UNAVAILABLE' } });
    const stored = (await ok(core, 'profiles.list', undefined)).profiles.find((p) => p.id === id);
    expect(stored?.baseUrl).toBe(sandbox.url);
    expect(received).toEqual([]);
  });
});

describe('the settings file is not trusted with what only main decides', () => {
  const settingsFile = () => join(dir, 'settings.json');
  const stored = (profiles: unknown[]) =>
    writeFileSync(settingsFile(), JSON.stringify({ version: 1, activeProfileId: 'p-good', profiles }));
  // A function: the listener's address is known only once beforeAll has run.
  const good = () => ({ id: 'p-good', builtIn: false, ...fields(elsewhereUrl) });

  it('a profile marked builtIn in the file is an ordinary profile and never gets the embedded secret', async () => {
    await core.close();
    stored([{ ...good(), builtIn: true }]);
    core = coreOnSandbox(sandbox, { dataDir: dir, vault });
    const listed = (await ok(core, 'profiles.list', undefined)).profiles.find((p) => p.id === 'p-good');
    expect(listed?.builtIn).toBe(false);
    expect(await ok(core, 'credentials.test', { profileId: 'p-good' })).toMatchObject({ reason: 'no_secret' });
    expect(received.join()).not.toContain(Buffer.from(`merchant:${EMBEDDED_SECRET}`).toString('base64'));
    expect(received).toEqual([]);
  });

  it("a stored profile cannot take the built-in profile's id", async () => {
    await core.close();
    stored([{ ...good(), id: 'sandbox', builtIn: true }, good()]);
    core = coreOnSandbox(sandbox, { dataDir: dir, vault });
    const { profiles } = await ok(core, 'profiles.list', undefined);
    expect(profiles.filter((p) => p.id === 'sandbox')).toEqual([
      expect.objectContaining({ builtIn: true, baseUrl: sandbox.url }),
    ]);
  });

  it('one invalid profile is left out; the others stay and the file is kept aside as it was', () => {
    const bad = { ...good(), id: 'p-bad', name: 'Bad', baseUrl: 'ftp://x' };
    const second = { ...good(), id: 'p-second', name: 'Second' };
    stored([good(), bad, second, { ...good(), name: 'Same id twice' }]);
    const original = readFileSync(settingsFile(), 'utf8');
    const store = createProfileStore({ dataDir: dir, sandbox: null, now: () => new Date(TEST_NOW) });
    expect(store.list().map((p) => p.id)).toEqual(['p-good', 'p-second']);
    const aside = store.recovered();
    expect(aside?.message).toMatch(/^2 profiles in the settings file could not be used and were left out/);
    expect(readFileSync(aside!.movedTo, 'utf8')).toBe(original);
    expect(store.active().id).toBe('p-good');
  });

  it.runIf(process.platform !== 'win32')('writes the settings file 0600 in a 0700 data folder', async () => {
    await ok(core, 'profiles.create', fields(elsewhereUrl));
    expect(statSync(settingsFile()).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toContain('settings.json');
  });
});

describe('addresses and names as they are', () => {
  const parse = (over: Record<string, string>) => profileFields.safeParse({ ...fields('https://a.example'), ...over });

  it.each([
    ['http:\\\\127.0.0.1:8080\\pay\\', 'http://127.0.0.1:8080/pay'],
    ['HTTPS://API.Example.IN:443/v2/', 'https://api.example.in/v2'],
    ['https://api．example．in', 'https://api.example.in'],
    ['https://аpple.com', 'https://xn--pple-43d.com'],
    ['  https://api.example.in//  ', 'https://api.example.in'],
  ])('%j is stored as %j', (typed, storedAs) => {
    const parsed = parse({ baseUrl: typed });
    expect(parsed.success && parsed.data.baseUrl).toBe(storedAs);
  });

  it.each([
    'http://10.0.0.1',
    'https://user:pw@a.example',
    'https://a.example/?x=1',
    'javascript:alert(1)',
    'https://',
  ])('refuses %j', (typed) => {
    expect(parse({ baseUrl: typed }).success).toBe(false);
  });

  it.each(['Pay\u202Eouts', 'Pay\u0000outs', 'Pay\u200Douts', 'Pay\nouts', 'Pay\u2028outs'])(
    'refuses the name %j',
    (name) => {
      const parsed = parse({ name });
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toContain('control characters or invisible formatting');
    },
  );
});
