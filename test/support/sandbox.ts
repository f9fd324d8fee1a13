/**
 * Starts the real sandbox on 127.0.0.1 with a fresh random secret and the tests' fixed clock, and gives a client
 * configured for it, plus the sandbox's fault hook. Every test file that talks HTTP uses this.
 */
import { randomBytes } from 'node:crypto';
import { createMerchantApi, type ApiClientOptions } from '../../electron/api';
import type { FaultKind } from '../../electron/sandbox/faults';
// eslint-disable-next-line no-restricted-imports -- the one place tests start a sandbox, with the tests' clock
import { startSandbox, type SandboxOptions } from '../../electron/sandbox/server';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { testClock } from './clock';
import { hook } from './sandbox-http';

export interface Fault {
  path?: string;
  kind: FaultKind;
  count?: number;
  retryAfter?: number;
  delayMs?: number;
}

/** The sandbox as every test starts it: on a free loopback port, with the tests' clock unless one is given. */
export function startTestSandbox(options: SandboxOptions = {}) {
  return startSandbox({ port: 0, ...options, now: options.now ?? testClock() });
}

export async function openSandbox(options: { seed?: number; settlementsPerDay?: number; now?: () => number } = {}) {
  const key = 'merchant_' + randomBytes(4).toString('hex');
  const secret = 'sk_' + randomBytes(16).toString('hex');
  const now = options.now ?? testClock();
  const sandbox = await startTestSandbox({ key, secret, ...options, now });
  const profile = { baseUrl: sandbox.url, aiUrl: sandbox.url + '/ai', key, hashScheme: 'sha512' as const };

  const faults = async (method: 'POST' | 'DELETE', body?: Fault) => {
    const answer = await hook(sandbox.url, method, 'faults', body);
    if (answer.http !== 200) throw new Error(`fault hook answered ${answer.http}: ${JSON.stringify(answer.body)}`);
  };

  const clients: { close(): void }[] = [];
  return {
    sandbox,
    key,
    secret,
    profile,
    /** The sandbox's clock: give the same one to whatever works on its data. */
    now,
    /** A client for this sandbox; no real waiting between retries unless `sleep` is given. */
    api(overrides: Partial<ApiClientOptions> = {}) {
      const api = createMerchantApi({ profile, secret: () => secret, sleep: async () => {}, ...overrides });
      clients.push(api);
      return api;
    },
    fault: (f: Fault) => faults('POST', f),
    clearFaults: () => faults('DELETE'),
    async close() {
      clients.forEach((c) => c.close());
      await sandbox.close();
    },
  };
}
export type OpenSandbox = Awaited<ReturnType<typeof openSandbox>>;

/** A custom profile named `name` in `dataDir` that points at this sandbox (its secret is for the caller to supply). */
export function sandboxProfile(sb: OpenSandbox, dataDir: string, name = 'Desk'): string {
  return createProfileStore({ dataDir, sandbox: null }).create({
    name,
    environment: 'custom',
    baseUrl: sb.profile.baseUrl,
    aiUrl: sb.profile.aiUrl,
    key: sb.key,
  }).id;
}
