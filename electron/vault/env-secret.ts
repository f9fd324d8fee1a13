/**
 * For unattended runs (`--secret-env VAR`): one profile's secret comes from the environment instead of the
 * keychain. Everything else, and every write, still goes to the keychain underneath.
 */
import type { SecretStore } from './secret-store';

export function withEnvironmentSecret(store: SecretStore, account: string, secret: string): SecretStore {
  return {
    probe: () => store.probe(),
    get: async (a) => (a === account ? secret : store.get(a)),
    set: (a, s) => store.set(a, s),
    delete: (a) => store.delete(a),
    accounts: () => store.accounts(),
  };
}
