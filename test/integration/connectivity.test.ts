/** Online / offline follows real requests of the active profile only. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { createProfileStore } from '../../electron/profiles/profile-store';
import type { Sandbox } from '../../electron/sandbox/server';
import { withEnvironmentSecret } from '../../electron/vault/env-secret';
import { memoryStore } from '../support/memory-store';
import type { Connectivity } from '../../shared/ipc/app';
import { EMBEDDED_SECRET, coreOnSandbox, ok } from '../support/core';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
let core: Core;
let downId: string;
const events: Connectivity[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
  const dataDir = mkdtempSync(join(tmpdir(), 'pc-conn-'));
  // Port 9 (discard) has nothing listening on loopback: a refused connection, i.e. unreachable.
  downId = createProfileStore({ dataDir, sandbox: { url: sandbox.url, key: 'test_key' } }).create({
    name: 'Down',
    environment: 'custom',
    baseUrl: 'http://127.0.0.1:9',
    aiUrl: 'http://127.0.0.1:9/ai',
    key: 'k',
  }).id;
  core = coreOnSandbox(sandbox, {
    dataDir,
    // The unreachable profile's secret comes from here, so no keychain is involved.
    vault: withEnvironmentSecret(memoryStore(), downId, 'down-secret'),
  });
  core.events.subscribe((event, payload) => {
    if (event === 'connectivity') events.push(payload as Connectivity);
  });
});
afterAll(() => sandbox.close());

describe('connectivity', () => {
  it('starts unknown, and a request of the active profile that is answered means online', async () => {
    expect(core.connectivity.current().state).toBe('unknown');
    expect((await core.credentials.testConnection('sandbox')).ok).toBe(true);
    expect(core.connectivity.current().state).toBe('online');
  });

  it('is not changed by testing a profile that is not active', async () => {
    expect(await core.credentials.testConnection(downId)).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(core.connectivity.current().state).toBe('online');
  });

  it('goes offline when the active profile cannot reach its service, and says why', async () => {
    await ok(core, 'profiles.activate', { id: downId });
    await core.credentials.testConnection(downId);
    expect(core.connectivity.current()).toMatchObject({
      state: 'offline',
      reason: expect.stringMatching(/Nothing is answering/),
    });
    expect(events.map((e) => e.state)).toEqual(['online', 'offline']);
  });
});

describe('connectivity per profile', () => {
  it('belongs to the active profile: a switch shows the new profile as not contacted yet, and back again', async () => {
    const seen: Connectivity[] = [];
    const stop = core.events.subscribe((event, payload) => {
      if (event === 'connectivity') seen.push(payload as Connectivity);
    });
    try {
      // The sandbox profile has answered; the unreachable one has not been asked since it was forgotten.
      await ok(core, 'profiles.activate', { id: 'sandbox' });
      expect((await core.credentials.testConnection('sandbox')).ok).toBe(true);
      const other = await ok(core, 'profiles.create', {
        name: 'Production desk',
        environment: 'production',
        baseUrl: 'https://payouts.example.com',
        aiUrl: 'https://payouts.example.com/ai',
        key: 'prod_key',
      });
      await ok(core, 'profiles.activate', { id: other.id });
      expect(await ok(core, 'app.connectivity', undefined)).toEqual({ state: 'unknown', since: null });
      expect(seen.at(-1)).toEqual({ state: 'unknown', since: null });
      await ok(core, 'profiles.activate', { id: 'sandbox' });
      expect(await ok(core, 'app.connectivity', undefined)).toMatchObject({ state: 'online' });
      expect(seen.at(-1)).toMatchObject({ state: 'online' });
    } finally {
      stop();
    }
  });

  it('starts again as not contacted yet when the profile address changes', async () => {
    const changed = await ok(core, 'profiles.update', {
      id: downId,
      fields: {
        name: 'Down',
        environment: 'custom',
        baseUrl: 'http://127.0.0.1:10',
        aiUrl: 'http://127.0.0.1:10/ai',
        key: 'k',
      },
    });
    await ok(core, 'profiles.activate', { id: changed.id });
    expect(await ok(core, 'app.connectivity', undefined)).toEqual({ state: 'unknown', since: null });
  });
});
