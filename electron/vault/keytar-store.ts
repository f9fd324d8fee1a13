/**
 * The SecretStore on the OS keychain through keytar: Keychain on macOS, Credential Vault on Windows,
 * Secret Service (gnome-keyring, KWallet) on Linux. keytar is N-API, so one build serves Node and Electron.
 *
 * keytar's upstream is archived. Its maintained drop-in, `@napi-rs/keyring`, exposes the same functions at
 * `@napi-rs/keyring/keytar`: switching is the import below and nothing else.
 */
import keytar from 'keytar';
import { VaultUnavailableError, type SecretStore } from './secret-store';

const NO_KEYCHAIN =
  'No OS keychain is available, so the secret cannot be stored. Payout Console keeps merchant secrets only in the ' +
  'keychain, never in a file. On Linux, install and unlock a Secret Service such as gnome-keyring, then try again.';

const LOCKED = 'The OS keychain is locked, so the secret cannot be read or stored. Unlock it and try again.';

/** keytar's own errors say which D-Bus or keychain call failed; they never contain the secret. */
function unavailable(e: unknown): VaultUnavailableError {
  const detail = e instanceof Error ? e.message : String(e);
  return new VaultUnavailableError(`${/locked/i.test(detail) ? LOCKED : NO_KEYCHAIN} (${detail})`);
}

export function createKeytarStore(service: string): SecretStore {
  const guard = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (e) {
      throw unavailable(e);
    }
  };
  return {
    async probe() {
      try {
        await keytar.findCredentials(service);
        return { available: true };
      } catch (e) {
        return { available: false, reason: unavailable(e).message };
      }
    },
    get: (account) => guard(() => keytar.getPassword(service, account)),
    set: (account, secret) => guard(() => keytar.setPassword(service, account, secret)),
    delete: (account) => guard(() => keytar.deletePassword(service, account)),
    accounts: () => guard(async () => (await keytar.findCredentials(service)).map((c) => c.account)),
  };
}
