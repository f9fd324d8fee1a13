/**
 * IPC fuzz, schema-valid mode: for every channel of the contract, hostile payloads that its input schema *accepts*
 * (a field at the edges of its kind: odd Unicode, 1-5 MB text, edge numbers, 100,000-item arrays; any hostile value
 * where the schema takes anything: 10,000-level nesting, BigInt, undefined, Maps; the schema's own keys set to
 * undefined), through the router as main registers it, on a real core and data folder with the built-in Sandbox
 * profile against a sandbox. These reach the handlers, so each may be answered or refused, but never as INTERNAL
 * (a bug, not an answer) or INVALID_OUTPUT, never with a validator's issue JSON for a message, and the router never
 * throws. The invalid-input fuzz (ipc-fuzz.test.ts) covers what the schemas refuse.
 *
 * Deterministic: PAYOUT_FUZZ_SEED=<n> reproduces a run; every failure names its channel, index and kind. Bounded:
 * at most PER_CHANNEL accepted payloads per channel, out of at most MAX_ATTEMPTS candidates.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { IPC_CHANNELS, type IpcChannel } from '../../shared/ipc/channels';
import { ipcContract } from '../../shared/ipc/contract';
import { EMBEDDED_SECRET, coreOnSandbox } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { POLLUTION_MARKER, schemaValidCandidate } from './fuzz';
import { APP_ORIGIN, FUZZ_SEED, MAIN_FRAME, prng, prototypeFingerprint, seedFor, validInputs } from './support';

/** Schema-valid payloads per channel. */
const PER_CHANNEL = 40;
/** Candidates per channel: a channel whose schema takes little (an id) accepts few; stop rather than loop. */
const MAX_ATTEMPTS = PER_CHANNEL * 15;
/** Channels whose handlers talk to the sandbox or write files take longer per call. */
const CHANNEL_MS = 120_000;

let sandbox: Sandbox;
let core: Core;
let dataDir: string;
let prototypesBefore: string;
const results: { channel: IpcChannel; accepted: number; answered: number; refused: Record<string, number> }[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 5 });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-fuzz-valid-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore() });
  prototypesBefore = prototypeFingerprint();
});
afterAll(async () => {
  await core?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The keys of a channel's input when it is an object schema: the generator also sets these, present or not. */
function keysOf(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** A validator's issue list (zod's JSON) as a message, instead of a sentence. */
function isIssueJson(message: string): boolean {
  try {
    return typeof JSON.parse(message) === 'object';
  } catch {
    return false;
  }
}

describe(`IPC fuzz, schema-valid hostile payloads (seed ${FUZZ_SEED}, up to ${PER_CHANNEL} per channel)`, () => {
  it.each(IPC_CHANNELS.map((c) => [c]))(
    '%s: schema-valid hostile payloads are answered or refused in words, never INTERNAL',
    async (channel) => {
      const rng = prng(seedFor(`valid:${channel}`));
      const schema = ipcContract[channel].input;
      const profileId = core.profiles.active().id;
      const base = validInputs(profileId)[channel];
      const keys = keysOf(schema);
      const failures: string[] = [];
      const refused: Record<string, number> = {};
      let accepted = 0;
      let answered = 0;
      for (let attempt = 0; accepted < PER_CHANNEL && attempt < MAX_ATTEMPTS; attempt++) {
        // The valid input itself first, then generated candidates the schema lets through.
        const payload =
          attempt === 0 ? { kind: 'the valid input', value: base } : schemaValidCandidate(rng, base, keys);
        if (!schema.safeParse(payload.value).success) continue;
        const index = accepted++;
        let reply: Awaited<ReturnType<Core['router']['handle']>>;
        try {
          reply = await core.router.handle(channel, payload.value, MAIN_FRAME, APP_ORIGIN);
        } catch (thrown) {
          failures.push(`#${index} (${payload.kind}): the router threw ${String(thrown).slice(0, 200)}`);
          continue;
        }
        if (reply.ok) {
          answered++;
          continue;
        }
        const { code, message } = reply.error;
        refused[code] = (refused[code] ?? 0) + 1;
        if (code === 'INTERNAL' || code === 'INVALID_OUTPUT' || typeof message !== 'string' || message === '') {
          failures.push(`#${index} (${payload.kind}): ${code} ${String(message).slice(0, 300)}`);
        } else if (isIssueJson(message)) {
          failures.push(`#${index} (${payload.kind}): ${code} with issue JSON for a message: ${message.slice(0, 200)}`);
        }
      }
      results.push({ channel, accepted, answered, refused });
      expect(failures).toEqual([]);
      expect(accepted).toBeGreaterThan(0);
      expect(prototypeFingerprint()).toBe(prototypesBefore);
      expect(POLLUTION_MARKER in {}).toBe(false);
    },
    CHANNEL_MS,
  );

  it('fuzzed every channel, and the process still answers', async () => {
    const info = await core.router.handle('app.info', undefined, MAIN_FRAME, APP_ORIGIN);
    expect(info).toMatchObject({ ok: true });
    expect(results.map((r) => r.channel)).toEqual([...IPC_CHANNELS]);
    const total = results.reduce((n, r) => n + r.accepted, 0);
    const codes: Record<string, number> = {};
    for (const r of results) for (const [code, n] of Object.entries(r.refused)) codes[code] = (codes[code] ?? 0) + n;
    console.log(
      `ipc fuzz, schema-valid (seed ${FUZZ_SEED}): ${total} payloads over ${results.length} channels; ` +
        `${results.reduce((n, r) => n + r.answered, 0)} answered, refused by code ${JSON.stringify(codes)}; 0 INTERNAL`,
    );
    expect(codes['INTERNAL'] ?? 0).toBe(0);
  });
});
