/**
 * Saved views in the settings file: per profile and per table, replaced by name, one default, kept across a
 * reopen and across another process's write (the CLI holds its own copy of the settings), a bad table's views left
 * out without costing the others, and the `views.*` channels on the active profile.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileError, createProfileStore } from '../../electron/profiles/profile-store';
import { MAX_VIEWS_PER_TABLE, type SavedView } from '../../shared/saved-views';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { EMBEDDED_SECRET, call, coreOnSandbox, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { testClock } from '../support/clock';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-views-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sandbox = { url: 'http://127.0.0.1:45678', key: 'test_key' };
const staging = {
  name: 'Staging',
  environment: 'custom' as const,
  baseUrl: 'https://staging.example.in',
  aiUrl: 'https://ai.staging.example.in',
  key: 'k',
};
const view = (name: string, pg: string | null = 'payu'): SavedView => ({
  name,
  state: { filters: { pg, exceptionsOnly: true }, sort: { column: 'mer_service_tax', direction: 'desc' }, hidden: [] },
});

describe('saved views in the settings file', () => {
  it('saves per profile and table, replaces by name whatever the case, and keeps them across a reopen', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    store.saveView('sandbox', 'settlements', view('Month end'));
    store.saveView('sandbox', 'settlements', view('Exceptions'));
    const replaced = store.saveView('sandbox', 'settlements', view('MONTH END', 'cashfree'));
    expect(replaced.views.map((v) => v.name)).toEqual(['MONTH END', 'Exceptions']);
    expect(replaced.views[0]!.state.filters.pg).toBe('cashfree');
    store.setDefaultView('sandbox', 'settlements', 'exceptions');

    const reopened = createProfileStore({ dataDir: dir, sandbox });
    expect(reopened.views('sandbox', 'settlements')).toEqual({ views: replaced.views, defaultName: 'Exceptions' });
    expect(reopened.views('sandbox', 'beneficiaries')).toEqual({ views: [], defaultName: null });
    expect(reopened.views('another-profile', 'settlements')).toEqual({ views: [], defaultName: null });
  });

  it('removing the default view clears the default; an unknown name is refused with its name', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    store.saveView('sandbox', 'payouts', view('Pending'));
    store.setDefaultView('sandbox', 'payouts', 'Pending');
    expect(store.removeView('sandbox', 'payouts', 'pending')).toEqual({ views: [], defaultName: null });
    const missing = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as ProfileError;
      }
      throw new Error('expected a refusal');
    };
    expect(missing(() => store.removeView('sandbox', 'payouts', 'Gone'))).toMatchObject({
      code: 'VIEW_NOT_FOUND',
      message: expect.stringContaining('"Gone"'),
    });
    expect(missing(() => store.setDefaultView('sandbox', 'payouts', 'Gone')).code).toBe('VIEW_NOT_FOUND');
  });

  it('refuses a view past the limit and keeps the ones saved', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    for (let i = 0; i < MAX_VIEWS_PER_TABLE; i++) store.saveView('sandbox', 'journal', view(`View ${i}`));
    expect(() => store.saveView('sandbox', 'journal', view('One more'))).toThrow(/remove one before saving "One more"/);
    // Replacing one still works at the limit.
    expect(store.saveView('sandbox', 'journal', view('View 3', null)).views).toHaveLength(MAX_VIEWS_PER_TABLE);
  });

  it("keeps another process's views: each write carries over what the file holds", () => {
    const app = createProfileStore({ dataDir: dir, sandbox });
    const cli = createProfileStore({ dataDir: dir, sandbox });
    app.saveView('sandbox', 'settlements', view('From the app'));
    // The CLI's copy was read before that save; its own write (a profile) must not drop the view.
    cli.create(staging);
    expect(createProfileStore({ dataDir: dir, sandbox }).views('sandbox', 'settlements').views).toHaveLength(1);
  });

  it('a removed profile takes its views with it', () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    const p = store.create(staging);
    store.saveView(p.id, 'settlements', view('Mine'));
    store.remove(p.id);
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).views).toEqual({});
  });

  it("leaves out one table's bad views, keeps the rest and the file as it was beside it", () => {
    const store = createProfileStore({ dataDir: dir, sandbox });
    store.saveView('sandbox', 'settlements', view('Good'));
    const file = join(dir, 'settings.json');
    const text = JSON.parse(readFileSync(file, 'utf8'));
    text.views.sandbox.payouts = { views: [{ name: '', state: 'not a state' }], defaultName: null };
    writeFileSync(file, JSON.stringify(text));

    const reopened = createProfileStore({ dataDir: dir, sandbox, now: () => new Date(testClock()()) });
    expect(reopened.views('sandbox', 'settlements').views.map((v) => v.name)).toEqual(['Good']);
    expect(reopened.views('sandbox', 'payouts').views).toEqual([]);
    expect(reopened.recovered()?.message).toMatch(/one table's saved views in the settings file could not be used/i);
    expect(readdirSync(dir).some((f) => f.startsWith('settings.json.unreadable-'))).toBe(true);
    expect(reopened.list().map((p) => p.id)).toEqual(['sandbox']);
  });
});

describe('the views.* channels', () => {
  let server: Sandbox;
  let core: Core;
  beforeEach(async () => {
    server = await startTestSandbox({ secret: EMBEDDED_SECRET });
    core = coreOnSandbox(server, { dataDir: dir, vault: memoryStore() });
  });
  afterEach(async () => {
    await core.close();
    await server.close();
  });

  it("save, list, default and remove act on the active profile's table", async () => {
    await ok(core, 'views.save', { table: 'settlements', view: view('Month end') });
    expect(await ok(core, 'views.setDefault', { table: 'settlements', name: 'month end' })).toMatchObject({
      defaultName: 'Month end',
    });
    expect((await ok(core, 'views.list', { table: 'settlements' })).views.map((v) => v.name)).toEqual(['Month end']);
    expect(await ok(core, 'views.remove', { table: 'settlements', name: 'Month end' })).toEqual({
      views: [],
      defaultName: null,
    });
  });

  it('refuses a bad name, table or state before anything is written', async () => {
    const bad = [
      { table: 'Settlements!', view: view('x') },
      { table: 'settlements', view: view(' ') },
      {
        table: 'settlements',
        view: { name: 'x', state: { filters: { pg: { nested: true } }, sort: null, hidden: [] } },
      },
    ];
    for (const input of bad) {
      const result = await call(core, 'views.save', input as never);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
    expect(readdirSync(dir)).not.toContain('settings.json');
  });
});
