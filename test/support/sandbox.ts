/**
 * Starts the real sandbox on 127.0.0.1 with a fresh random secret and gives a client configured for it,
 * plus the sandbox's fault hook. Every test file that talks HTTP uses this.
 */
import { randomBytes } from 'node:crypto';
import { createMerchantApi, type ApiClientOptions } from '../../electron/api';
import { startSandbox } from '../../electron/sandbox/server';

export interface Fault {
  path?: string;
  kind: '429' | '500' | '503' | 'delay' | 'drop' | 'malformed' | 'variant-b';
  count?: number;
  retryAfter?: number;
  delayMs?: number;
}

export async function openSandbox(options: { seed?: number; settlementsPerDay?: number } = {}) {
  const key = 'merchant_' + randomBytes(4).toString('hex');
  const secret = 'sk_' + randomBytes(16).toString('hex');
  const sandbox = await startSandbox({ port: 0, key, secret, ...options });
  const profile = { baseUrl: sandbox.url, aiUrl: sandbox.url + '/ai', key, hashScheme: 'sha512' as const };

  const hook = async (method: 'POST' | 'DELETE', body?: Fault) => {
    const res = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`fault hook answered ${res.status}: ${await res.text()}`);
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
    fault: (f: Fault) => hook('POST', f),
    clearFaults: () => hook('DELETE'),
    async close() {
      clients.forEach((c) => c.close());
      await sandbox.close();
    },
  };
}
export type OpenSandbox = Awaited<ReturnType<typeof openSandbox>>;
