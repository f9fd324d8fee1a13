/** Payout accounts and balances for the UI and the CLI: asked of the API, every answer kept as snapshots. */
import type { AccountsOverview, BalanceSnapshot } from '../../shared/accounts';
import type { Cache } from '../cache/database';
import type { Credentials } from '../profiles/credentials';

export function createAccountService(deps: { credentials: Credentials; cacheFor: (profileId: string) => Cache }) {
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

    history: (profileId: string, q: { pg?: string; accountNumber?: string; since?: string; limit?: number }) =>
      deps.cacheFor(profileId).accounts.snapshots(q.pg, q.accountNumber, q.since, q.limit),
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
