/**
 * Profiles joined to their secrets. The secret is read from the keychain when a request is made and kept
 * only for that request; what leaves this module is whether a secret exists, never the secret.
 */
import { createMerchantApi, ApiError, type MerchantApi } from '../api';
import type { RequestEvent } from '../api/client';
import type { Transport } from '../api/transport';
import {
  originOf,
  secretInput,
  type ConnectionTestResult,
  type Profile,
  type ProfileFields,
} from '../../shared/profiles';
import { VaultUnavailableError, type SecretStore } from '../vault/secret-store';
import { ProfileError, type ProfileStore } from './profile-store';

export class CredentialError extends Error {
  override name = 'CredentialError';
  constructor(
    readonly code: 'NO_SECRET' | 'SECRET_INVALID' | 'SECRET_NOT_HELD',
    message: string,
  ) {
    super(message);
  }
}

/** A secret's life, for the journal: what happened to it, never its value. */
export type CredentialEvent =
  | { event: 'secret.set' | 'secret.replaced' | 'secret.deleted'; profileId: string }
  | { event: 'secret.tested'; profileId: string; result: ConnectionTestResult };

export interface CredentialsOptions {
  /** Told of every secret set, replaced, deleted or tested, after the fact. */
  onEvent?: (e: CredentialEvent) => void;
  profiles: ProfileStore;
  vault: SecretStore;
  /** The embedded sandbox's own secret: the built-in profile needs none from the user. */
  sandboxSecret: string | null;
  transport?: Transport;
  /** Told every secret read or stored here, for the logger's redaction. */
  onSecret?: (secret: string) => void;
  /** Every request outcome of every client made here, with the profile it was made for (connectivity, logs). */
  onRequest?: (event: RequestEvent, profileId: string) => void;
  now?: () => number;
}

export function createCredentials({
  profiles,
  vault,
  sandboxSecret,
  transport,
  onSecret,
  onRequest,
  onEvent,
  now = Date.now,
}: CredentialsOptions) {
  const secretFor = (profileId: string) => async (): Promise<string> => {
    const p = profiles.get(profileId);
    if (p.builtIn && sandboxSecret !== null) return sandboxSecret;
    const secret = await vault.get(p.id);
    if (secret === null)
      throw new CredentialError('NO_SECRET', `No secret is stored for the profile "${p.name}". Set it in Settings.`);
    // A secret stored in an earlier run reaches the redactor only here, when it is read for a request.
    onSecret?.(secret);
    return secret;
  };

  function api(profileId: string): MerchantApi {
    const p = profiles.get(profileId);
    return createMerchantApi({
      profile: { baseUrl: p.baseUrl, aiUrl: p.aiUrl, key: p.key, hashScheme: p.hashScheme },
      secret: secretFor(p.id),
      transport,
      onEvent: onRequest && ((event) => onRequest(event, p.id)),
    });
  }

  /**
   * Two safe calls: payout accounts proves the Basic credentials (key and secret); a currency lookup, a
   * body-signed call, proves the profile's hash scheme, which payout accounts never exercises.
   */
  async function connectionTest(profileId: string): Promise<ConnectionTestResult> {
    const client = api(profileId);
    const started = now();
    try {
      const { accounts } = await client.payouts.accounts();
      await client.paymentInfo.currency('INR', 'USD');
      const entries = Object.entries(accounts);
      return {
        ok: true,
        ms: now() - started,
        gateways: entries.map(([pg]) => pg),
        failingGateways: entries.filter(([, g]) => !g.status).map(([pg]) => pg),
      };
    } catch (e) {
      return connectionFailure(e);
    } finally {
      client.close();
    }
  }

  return {
    secretFor,
    api,
    /** One call sequence on a client of the profile, closed afterwards whatever happens. */
    async withApi<T>(profileId: string, run: (client: MerchantApi) => Promise<T>): Promise<T> {
      const client = api(profileId);
      try {
        return await run(client);
      } finally {
        client.close();
      }
    },
    async status(
      profileId: string,
    ): Promise<{ hasSecret: boolean; keychainAvailable: boolean; keychainProblem?: string }> {
      const p = profiles.get(profileId);
      const probe = await vault.probe();
      if (p.builtIn && sandboxSecret !== null)
        return {
          hasSecret: true,
          keychainAvailable: probe.available,
          keychainProblem: probe.available ? undefined : probe.reason,
        };
      if (!probe.available) return { hasSecret: false, keychainAvailable: false, keychainProblem: probe.reason };
      return { hasSecret: (await vault.get(p.id)) !== null, keychainAvailable: true };
    },
    async set(profileId: string, secret: string): Promise<void> {
      const p = profiles.get(profileId);
      if (p.builtIn)
        throw new ProfileError('PROFILE_BUILT_IN', 'The built-in Sandbox profile uses the embedded sandbox secret.');
      const parsed = secretInput.safeParse(secret);
      if (!parsed.success)
        throw new CredentialError('SECRET_INVALID', `The secret ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
      onSecret?.(parsed.data);
      const replacing = (await vault.get(p.id)) !== null;
      await vault.set(p.id, parsed.data);
      onEvent?.({ event: replacing ? 'secret.replaced' : 'secret.set', profileId: p.id });
    },
    async remove(profileId: string): Promise<boolean> {
      const p = profiles.get(profileId);
      if (p.builtIn) return false;
      const deleted = await vault.delete(p.id);
      if (deleted) onEvent?.({ event: 'secret.deleted', profileId: p.id });
      return deleted;
    },
    /**
     * Changes a profile. A secret belongs to the service it was entered for: when the scheme, host or port of either
     * address changes, the stored secret is deleted before the new addresses are saved (and if the keychain cannot
     * delete it, nothing is saved), so no request ever carries it to a host the user did not enter it for. The user
     * enters the secret again for the new service.
     */
    async updateProfile(
      profileId: string,
      fields: ProfileFields,
    ): Promise<{ profile: Profile; secretRemoved: boolean }> {
      const current = profiles.get(profileId);
      const next = profiles.prepareUpdate(profileId, fields);
      const moved =
        originOf(current.baseUrl) !== originOf(next.baseUrl) || originOf(current.aiUrl) !== originOf(next.aiUrl);
      const secretRemoved = moved && (await vault.delete(profileId));
      return { profile: profiles.update(profileId, fields), secretRemoved };
    },
    /** Deletes the profile and its secret; the secret first, so no orphan stays in the keychain. */
    async removeProfile(profileId: string): Promise<void> {
      const p = profiles.get(profileId);
      if (!p.builtIn) await vault.delete(p.id);
      profiles.remove(p.id);
    },
    /** The connection test (above), journaled with its result. */
    async testConnection(profileId: string): Promise<ConnectionTestResult> {
      const result = await connectionTest(profileId);
      onEvent?.({ event: 'secret.tested', profileId, result });
      return result;
    },
  };
}
export type Credentials = ReturnType<typeof createCredentials>;

function connectionFailure(e: unknown): ConnectionTestResult {
  if (e instanceof CredentialError) return { ok: false, reason: 'no_secret', message: e.message };
  if (e instanceof VaultUnavailableError) return { ok: false, reason: 'keychain_unavailable', message: e.message };
  if (!(e instanceof ApiError)) throw e;
  const reason = ((): Exclude<ConnectionTestResult, { ok: true }>['reason'] => {
    switch (e.kind) {
      case 'auth':
        return e.httpStatus === 401 || e.httpStatus === 403 ? 'wrong_secret' : 'hash_rejected';
      case 'network':
        return 'unreachable';
      case 'timeout':
        return 'timeout';
      case 'tls':
        return 'tls';
      case 'invalid_response':
        return 'unexpected_response';
      default:
        return 'service_error';
    }
  })();
  return { ok: false, reason, message: e.userMessage };
}
