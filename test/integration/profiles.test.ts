/** Profiles as settings in a real data folder. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileError, createProfileStore } from '../../electron/profiles/profile-store';
import { SYNC_CONCURRENCY } from '../../shared/profiles';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-profiles-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sandbox = { url: 'http://127.0.0.1:45678', key: 'test_key' };
const prod = {
  name: 'Production',
  environment: 'production' as const,
  baseUrl: 'https://api.payments.example.in/',
  aiUrl: 'https://ai.payments.example.in',
  key: 'live_merchant_key',
};

function thrown(f: () => unknown): ProfileError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileError);
    return e as ProfileError;
  }
  throw new Error('expected a ProfileError');
}

describe('profile store', () => {
  it('starts with the built-in Sandbox profile pointing at the live embedded sandbox, active', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    expect(store.list()).toEqual([
      expect.objectContaining({
        id: 'sandbox',
        builtIn: true,
        environment: 'sandbox',
        baseUrl: sandbox.url,
        aiUrl: `${sandbox.url}/ai`,
      }),
    ]);
    expect(store.active().id).toBe('sandbox');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('creates, persists, updates, activates and removes', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    const p = store.create(prod);
    expect(p).toMatchObject({
      ...prod,
      baseUrl: 'https://api.payments.example.in',
      hashScheme: 'sha512',
      builtIn: false,
    });
    store.activate(p.id);

    const reopened = createProfileStore({ dataDir: dir, sandbox: { ...sandbox, url: 'http://127.0.0.1:50000' } });
    expect(reopened.active()).toEqual(p);
    expect(reopened.get('sandbox').baseUrl).toBe('http://127.0.0.1:50000');

    const updated = reopened.update(p.id, { ...prod, name: 'Prod (HDFC)', hashScheme: 'hmac-sha256' });
    expect(updated).toMatchObject({ id: p.id, name: 'Prod (HDFC)', hashScheme: 'hmac-sha256' });
    reopened.remove(p.id);
    expect(reopened.list().map((x) => x.id)).toEqual(['sandbox']);
    expect(reopened.active().id).toBe('sandbox');
  });

  it('keeps no secret and no built-in profile in the settings file', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    store.create(prod);
    const text = readFileSync(join(dir, 'settings.json'), 'utf8');
    expect(text).not.toMatch(/secret/i);
    expect(JSON.parse(text).profiles).toHaveLength(1);
  });

  it.each([
    [{ ...prod, name: '  ' }, /name: must not be empty/],
    [{ ...prod, baseUrl: 'http://api.payments.example.in' }, /baseUrl: must be an https/],
    [{ ...prod, baseUrl: 'https://user:pw@api.example.in' }, /baseUrl/],
    [{ ...prod, aiUrl: 'javascript:alert(1)' }, /aiUrl/],
    [{ ...prod, key: '' }, /key: must not be empty/],
    [{ ...prod, environment: 'staging' }, /environment/],
    [{ ...prod, hashScheme: 'md5' }, /hashScheme/],
  ])('refuses an invalid profile %#', (fields, message) => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    const e = thrown(() => store.create(fields as typeof prod));
    expect(e.code).toBe('PROFILE_INVALID');
    expect(e.message).toMatch(message);
    expect(store.list()).toHaveLength(1);
  });

  it("keeps a profile's pages at once, reads one stored before the setting as the default, refuses what the client cannot keep open", () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    expect(store.active().syncConcurrency).toBe(SYNC_CONCURRENCY.default);
    const p = store.create({ ...prod, syncConcurrency: 2 });
    expect(createProfileStore({ dataDir: dir, sandbox }).get(p.id).syncConcurrency).toBe(2);
    for (const bad of [0, 9, 2.5, Number.NaN]) {
      expect(() => store.update(p.id, { ...prod, syncConcurrency: bad }), String(bad)).toThrow(
        'syncConcurrency: must be a whole number of pages from 1 to 8',
      );
    }
    // A settings file written before the setting existed: its profiles sync at the default.
    const file = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.json'))!,
    );
    const outline = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    for (const stored of outline.profiles) delete stored['syncConcurrency'];
    writeFileSync(file, JSON.stringify(outline));
    expect(createProfileStore({ dataDir: dir, sandbox }).get(p.id).syncConcurrency).toBe(SYNC_CONCURRENCY.default);
  });

  it('allows plain http only to this machine', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    expect(
      store.create({
        ...prod,
        name: 'Local',
        environment: 'custom',
        baseUrl: 'http://127.0.0.1:8080',
        aiUrl: 'http://localhost:8080/ai',
      }).baseUrl,
    ).toBe('http://127.0.0.1:8080');
  });

  it('refuses duplicate names, unknown ids and changes to the built-in profile', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    store.create(prod);
    expect(thrown(() => store.create({ ...prod, name: 'production' })).code).toBe('PROFILE_NAME_TAKEN');
    expect(thrown(() => store.get('nope')).code).toBe('PROFILE_NOT_FOUND');
    expect(thrown(() => store.remove('sandbox')).code).toBe('PROFILE_BUILT_IN');
    expect(thrown(() => store.update('sandbox', prod)).code).toBe('PROFILE_BUILT_IN');
  });

  it('moves an unreadable settings file aside, says where, and starts fresh', () => {
    writeFileSync(join(dir, 'settings.json'), '{"version":1,"profiles":[{"id":');
    const store = createProfileStore({ dataDir: dir, sandbox, now: () => new Date('2026-11-22T10:00:00Z') });
    expect(store.recovered()?.movedTo).toBe(join(dir, 'settings.json.unreadable-2026-11-22T10-00-00-000Z'));
    expect(readFileSync(store.recovered()!.movedTo, 'utf8')).toContain('"version":1');
    expect(store.list().map((p) => p.id)).toEqual(['sandbox']);
  });

  it('leaves no temporary file behind after a write', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    store.create(prod);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });
});
