/**
 * IPC fuzz: for every channel of the contract, generated invalid and hostile payloads through the router exactly as
 * main registers it (the real core, a real data folder, the OS keychain where there is one). Each must come back as
 * INVALID_INPUT, with no handler side effect: the same profiles, the same bytes in the data folder, the same keychain
 * accounts, no vault or network call, no event, and nothing planted on the built-in prototypes.
 *
 * Deterministic: PAYOUT_FUZZ_SEED=<n> reproduces a run; every failure names its channel, index and kind.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core';
import { createLogger, createRedactor } from '../../electron/log';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import type { SecretStore } from '../../electron/vault/secret-store';
import { IPC_CHANNELS, type IpcChannel } from '../../shared/ipc/channels';
import { ipcContract } from '../../shared/ipc/contract';
import { memoryStore } from '../support/memory-store';
import { requireSystem } from '../support/system';
import { POLLUTION_MARKER, hostilePayload, notablePayloads } from './fuzz';
import {
  APP_ORIGIN,
  FUZZ_SEED,
  MAIN_FRAME,
  prng,
  prototypeFingerprint,
  recordingStore,
  recordingTransport,
  seedFor,
  stateOf,
  validInputs,
} from './support';
import { testClock } from '../support/clock';

/** Payloads per channel; the issue asks for at least 200. */
const PER_CHANNEL = 240;
/** A generator that keeps producing valid payloads is broken; give up rather than loop. */
const MAX_ATTEMPTS = PER_CHANNEL * 20;

const service = `payout-console-fuzz-${randomBytes(4).toString('hex')}`;
const keychainStore = createKeytarStore(service);
const probe = await keychainStore.probe();
const realKeychain = requireSystem(
  'the OS keychain (the fuzz then checks an in-memory store instead)',
  probe.available ? null : probe.reason,
);
const keychain: SecretStore = realKeychain ? keychainStore : memoryStore();

let dataDir: string;
let core: Core;
const vault = recordingStore(keychain);
const network = recordingTransport();
const events: unknown[] = [];
const logLines: string[] = [];
let profileId: string;
let prototypesBefore: string;
/** Kinds worth counting in the report, by the generator's description of the payload. */
const NOTABLE = {
  huge: /huge string/,
  deep: /deep nesting/,
  pollution: /__proto__|constructor|prototype/,
  bigArray: /big array/,
};
type Notable = keyof typeof NOTABLE;
const results: { channel: IpcChannel; rejected: number; discardedValid: number; notable: Record<Notable, number> }[] =
  [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pc-fuzz-'));
  const redactor = createRedactor();
  core = createCore({
    now: testClock(),
    appVersion: '0.0.0-fuzz',
    dataDir,
    vault: vault.store,
    sandbox: { url: 'http://127.0.0.1:9', key: 'test_key', secret: 'fuzz_sandbox_secret' },
    log: createLogger('main', (line) => logLines.push(line), redactor),
    redactor,
    transport: network.transport,
  });
  core.events.subscribe((event, payload) => events.push({ event, payload }));
  // Some state worth protecting: a custom profile, active, with a secret in the keychain.
  const created = await core.router.handle(
    'profiles.create',
    validInputs('x')['profiles.create'],
    MAIN_FRAME,
    APP_ORIGIN,
  );
  if (!created.ok) throw new Error(`setup: ${created.error.message}`);
  profileId = (created.value as { id: string }).id;
  await core.router.handle('profiles.activate', { id: profileId }, MAIN_FRAME, APP_ORIGIN);
  const set = await core.router.handle(
    'credentials.set',
    { profileId, secret: 'sk_fuzz_' + randomBytes(8).toString('hex') },
    MAIN_FRAME,
    APP_ORIGIN,
  );
  if (!set.ok) throw new Error(`setup: ${set.error.message}`);
  vault.calls.length = 0;
  // The set-up's own events (activating the profile announces its connectivity) are not the fuzz's.
  events.length = 0;
  prototypesBefore = prototypeFingerprint();
});

afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  if (realKeychain) for (const account of await keychainStore.accounts()) await keychainStore.delete(account);
});

describe(`IPC fuzz (seed ${FUZZ_SEED}, ${PER_CHANNEL} invalid payloads per channel)`, () => {
  it.each(IPC_CHANNELS.map((c) => [c]))(
    `%s: ${PER_CHANNEL} invalid payloads, each INVALID_INPUT, no state change`,
    async (channel) => {
      const rng = prng(seedFor(channel));
      const schema = ipcContract[channel].input;
      const base = validInputs(profileId)[channel];
      // The generator mutates a valid input; make sure it is one, or "invalid" would mean nothing.
      expect(schema.safeParse(base).success).toBe(true);

      const before = await stateOf(core, keychain, dataDir);
      const failures: string[] = [];
      const notable: Record<Notable, number> = { huge: 0, deep: 0, pollution: 0, bigArray: 0 };
      let rejected = 0;
      let discardedValid = 0;
      const forced = notablePayloads(rng);
      for (let attempt = 0; rejected < PER_CHANNEL && attempt < MAX_ATTEMPTS; attempt++) {
        const payload = forced[attempt] ?? hostilePayload(rng, base);
        // Counted only when the schema itself rejects it: a payload that happens to be valid is not fuzz.
        if (schema.safeParse(payload.value).success) {
          discardedValid++;
          continue;
        }
        const index = rejected++;
        for (const [name, pattern] of Object.entries(NOTABLE))
          if (pattern.test(payload.kind)) notable[name as Notable]++;
        let reply: Awaited<ReturnType<Core['router']['handle']>>;
        try {
          reply = await core.router.handle(channel, payload.value, MAIN_FRAME, APP_ORIGIN);
        } catch (thrown) {
          failures.push(`#${index} (${payload.kind}): the router threw ${String(thrown).slice(0, 200)}`);
          continue;
        }
        const error = reply.ok ? null : reply.error;
        if (
          !error ||
          error.code !== 'INVALID_INPUT' ||
          typeof error.message !== 'string' ||
          !Array.isArray(error.details) ||
          error.details.length === 0
        ) {
          failures.push(`#${index} (${payload.kind}): ${JSON.stringify(reply).slice(0, 300)}`);
        }
      }
      results.push({ channel, rejected, discardedValid, notable });

      expect(failures).toEqual([]);
      expect(rejected).toBe(PER_CHANNEL);
      // No handler ran: no vault call, no request, no event, no log line, and nothing on disk or in the keychain moved.
      expect(vault.calls).toEqual([]);
      expect(network.requests).toEqual([]);
      expect(events).toEqual([]);
      expect(logLines).toEqual([]);
      expect(await stateOf(core, keychain, dataDir)).toBe(before);
      expect(prototypeFingerprint()).toBe(prototypesBefore);
      expect(POLLUTION_MARKER in {}).toBe(false);
    },
  );

  it('left the process working: a valid call still answers, every channel was fuzzed, and the counts add up', async () => {
    const info = await core.router.handle('app.info', undefined, MAIN_FRAME, APP_ORIGIN);
    expect(info).toMatchObject({ ok: true, value: { profile: { id: profileId } } });
    const status = await core.router.handle('credentials.status', { profileId }, MAIN_FRAME, APP_ORIGIN);
    expect(status).toMatchObject({ ok: true, value: { hasSecret: true } });

    expect(results.map((r) => r.channel)).toEqual([...IPC_CHANNELS]);
    const total = results.reduce((n, r) => n + r.rejected, 0);
    const lines = results.map(
      (r) =>
        `  ${r.channel.padEnd(20)} ${String(r.rejected).padStart(4)} rejected; of them ${r.notable.huge} huge strings ` +
        `(1-5 MB), ${r.notable.deep} nested 10,000 deep, ${r.notable.bigArray} 100k-element arrays, ` +
        `${r.notable.pollution} with __proto__/constructor/prototype keys; ${r.discardedValid} valid ones discarded`,
    );
    console.log(
      [
        `ipc fuzz (seed ${FUZZ_SEED}, keychain: ${realKeychain ? 'OS keychain' : 'in-memory'}):`,
        ...lines,
        `ipc fuzz: ${total} payloads over ${results.length} channels, all rejected as INVALID_INPUT`,
      ].join('\n'),
    );
    expect(total).toBe(PER_CHANNEL * IPC_CHANNELS.length);
    expect(Math.min(...results.map((r) => r.rejected))).toBeGreaterThanOrEqual(200);
    // Every channel met each hostile family, so a generator change cannot quietly drop one.
    for (const r of results) for (const count of Object.values(r.notable)) expect(count, r.channel).toBeGreaterThan(0);
  });
});
