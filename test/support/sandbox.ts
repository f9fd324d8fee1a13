/**
 * Starts the real sandbox on 127.0.0.1 with a fresh random secret and gives a client configured for it,
 * plus the sandbox's fault hook. Every test file that talks HTTP uses this.
 */
import { randomBytes } from 'node:crypto';
import { createMerchantApi, type ApiClientOptions } from '../../electron/api';
import type { FaultKind } from '../../electron/sandbox/faults';
import { startSandbox } from '../../electron/sandbox/server';
import { hook } from './sandbox-http';

export interface Fault {
  path?: string;
  kind: FaultKind;
  count?: number;
  retryAfter?: number;
  delayMs?: number;
}

export async function openSandbox(options: { seed?: number; settlementsPerDay?: number } = {}) {
  const key = 'merchant_' + randomBytes(4).toString('hex');
  const secret = 'sk_' + randomBytes(16).toString('hex');
  const sandbox = await startSandbox({ port: 0, key, secret, ...options });
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
