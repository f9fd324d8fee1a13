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
import { EMBEDDED_SECRET, coreOnSandbox } from '../support/core';
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
    core.profiles.activate(downId);
    await core.credentials.testConnection(downId);
    expect(core.connectivity.current()).toMatchObject({
      state: 'offline',
      reason: expect.stringMatching(/Nothing is answering/),
    });
    expect(events.map((e) => e.state)).toEqual(['online', 'offline']);
  });
});
