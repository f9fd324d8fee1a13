/** Payout accounts and balances for the UI and the CLI: asked of the API, every answer kept as snapshots. */
import type { AccountsOverview, BalanceSnapshot } from '../../shared/accounts';
import { computeHeadroom, type HeadroomReport } from '../../shared/headroom';
import type { Cache } from '../cache/database';
import type { Credentials } from '../profiles/credentials';

export function createAccountService(deps: { credentials: Credentials; cacheFor: (profileId: string) => Cache }) {
  /** Payable now per account, gateway and in total, against the pending payouts the cache knows; no service needed. */
  function headroom(profileId: string): HeadroomReport {
    const cache = deps.cacheFor(profileId);
    return computeHeadroom(cache.accounts.overview(), cache.payouts.pending(), cache.accounts.thresholds());
  }

  return {
    overview: (profileId: string): AccountsOverview => deps.cacheFor(profileId).accounts.overview(),

    async refresh(profileId: string, pg?: string): Promise<AccountsOverview> {
      const { accounts } = await deps.credentials.withApi(profileId, (api) => api.payouts.accounts(pg));
      const cache = deps.cacheFor(profileId);
      cache.accounts.recordAccounts(accounts);
      return cache.accounts.overview();
    },

    /** The balance operation's answer, recorded; returns the snapshots it added. */
    async checkBalance(profileId: string, filter: { pg?: string; accountNumber?: string }): Promise<BalanceSnapshot[]> {
      const { balances } = await deps.credentials.withApi(profileId, (api) =>
        api.payouts.balance({ pg: filter.pg, account_number: filter.accountNumber }),
      );
      return deps.cacheFor(profileId).accounts.recordBalances(balances);
    },

    headroom,

    setHeadroomThreshold(profileId: string, pg: string, threshold: number | null): HeadroomReport {
      deps.cacheFor(profileId).accounts.setThreshold(pg, threshold);
      return headroom(profileId);
    },

    history: (profileId: string, q: { pg?: string; accountNumber?: string; since?: string; limit?: number }) =>
      deps.cacheFor(profileId).accounts.snapshots(q.pg, q.accountNumber, q.since, q.limit),
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
