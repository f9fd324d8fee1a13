/**
 * Payout status for the UI and the CLI: every lookup is recorded in the profile's cache, the failed ones
 * too (with the reason), so a payout's history shows each check and when its status changed.
 */
import type { PayoutLookup, PayoutLookupMode } from '../../shared/payouts';
import { ApiError } from '../api/errors';
import type { Cache } from '../cache/database';
import type { Credentials } from '../profiles/credentials';

export function createPayoutService(deps: { credentials: Credentials; cacheFor: (profileId: string) => Cache }) {
  return {
    /**
     * Looks the payout up and records the answer. A check the service refused (not found) is recorded with
     * its reason and returned; one that never got an answer (offline) is not a fact about the payout: it is
     * thrown and leaves the history as it was.
     */
    async lookup(profileId: string, payoutId: string, mode: PayoutLookupMode): Promise<PayoutLookup> {
      const payouts = deps.cacheFor(profileId).payouts;
      try {
        const r = await deps.credentials.withApi(profileId, (api) => api.payouts.fetchPayout(payoutId, mode));
        const gatewayError =
          r.error_code === undefined && r.error_message === undefined
            ? undefined
            : { code: r.error_code === undefined ? null : String(r.error_code), message: r.error_message ?? null };
        return payouts.recordLookup({ payoutId, mode, payout: r.payout, gatewayError });
      } catch (e) {
        if (e instanceof ApiError && e.kind === 'api') {
          return payouts.recordLookup({ payoutId, mode, error: e.userMessage });
        }
        throw e;
      }
    },
    history: (profileId: string, payoutId: string) => deps.cacheFor(profileId).payouts.history(payoutId),
    recent: (profileId: string, limit?: number) => deps.cacheFor(profileId).payouts.recent(limit),
  };
}
export type PayoutService = ReturnType<typeof createPayoutService>;
