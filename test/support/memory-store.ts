/** A SecretStore in memory, for tests where the OS keychain is not the subject (it may not exist where they run). */
import type { SecretStore } from '../../electron/vault/secret-store';

export function memoryStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    probe: async () => ({ available: true }),
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
    accounts: async () => [...secrets.keys()],
  };
}
