/**
 * Where merchant secrets live: the OS keychain and nowhere else. This interface is what the rest of the
 * main process sees, so the keychain library is a one-file choice (see keytar-store.ts) and the core runs
 * in tests against a real keychain without Electron.
 */

export interface SecretStore {
  /** Whether a keychain answers; the reason is a sentence for the user when it does not. */
  probe(): Promise<{ available: true } | { available: false; reason: string }>;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when there was a secret to delete. */
  delete(account: string): Promise<boolean>;
  /** Accounts that hold a secret; never the secrets themselves. */
  accounts(): Promise<string[]>;
}

/** No keychain to talk to. The app refuses to keep the secret anywhere else, and says so. */
export class VaultUnavailableError extends Error {
  override name = 'VaultUnavailableError';
  readonly code = 'KEYCHAIN_UNAVAILABLE';
}
