/**
 * Payout accounts and balances of the active profile: the cached overview (it needs no service), a refresh from
 * the gateways that replaces it, per account a balance check and the history behind its chart.
 */
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountsOverview, BalanceSnapshot } from '../../../shared/accounts';
import { addDays, epochMsToIstDate } from '../../../shared/time';
import {
  ask,
  invalidateChannels,
  IpcFailure,
  ipcKey,
  useActiveProfileId,
  useIpcMutation,
  useIpcQuery,
} from '../query/ipc-query';

export type OverviewAccount = AccountsOverview['accounts'][number];

/** How far back the chart of each account reaches. */
export const HISTORY_DAYS = 30;

/** The API speaks of rupees where an account names no currency. */
export const currencyOf = (account: Pick<OverviewAccount, 'currency'>): string =>
  (account.currency ?? 'INR').toUpperCase();

export const useAccountsOverview = () => useIpcQuery('accounts.overview');

/**
 * The start of the chart: midnight IST, HISTORY_DAYS ago. A whole day rather than "now minus 30 days", so the
 * query's key stays the same all day and the chart is not read again on every render.
 */
function historySince(): string {
  return `${addDays(epochMsToIstDate(Date.now()), -HISTORY_DAYS)}T00:00:00+05:30`;
}

export function useBalanceHistory(pg: string, accountNumber: string) {
  const since = new Date(historySince()).toISOString();
  return useIpcQuery('accounts.history', { pg, accountNumber, since, limit: 10_000 });
}

const refreshKey = (profileId: string | null) => ['accounts.refresh', profileId];

/** True while any balance refresh of the active profile is on its way (the screen's, or one gateway's retry). */
export function useRefreshing(): boolean {
  return useIsMutating({ mutationKey: refreshKey(useActiveProfileId()) }) > 0;
}

/** Every gateway, or only `pg`; the answer is the new overview, shown at once. */
export function useBalanceRefresh() {
  const client = useQueryClient();
  const profileId = useActiveProfileId();
  return useMutation<AccountsOverview, IpcFailure, { pg?: string }>({
    mutationKey: refreshKey(profileId),
    mutationFn: (input) => ask('accounts.refresh', input),
    onSuccess: async (overview) => {
      client.setQueryData(ipcKey(profileId, 'accounts.overview'), overview);
      // The charts gained a point, and the status bar's "balances" time moved.
      await invalidateChannels(client, ['accounts.history', 'accounts.headroom', 'cache.status']);
    },
  });
}

/** One account's balance, asked of its gateway; the reading is also one more point on its chart. */
export function useBalanceCheck(pg: string, accountNumber: string) {
  const client = useQueryClient();
  return useMutation<BalanceSnapshot, IpcFailure, void>({
    mutationFn: async () => {
      const snapshots = await ask('accounts.checkBalance', { pg, accountNumber });
      const snapshot = snapshots.find((b) => b.pg === pg && b.accountNumber === accountNumber);
      if (!snapshot) {
        throw new IpcFailure({ code: 'NO_BALANCE', message: `${pg} answered without a balance for this account.` });
      }
      return snapshot;
    },
    onSuccess: () => invalidateChannels(client, ['accounts.history', 'accounts.headroom', 'cache.status']),
  });
}

/**
 * Payable now from the cache (main's arithmetic): read again once a minute as well, since payout checks made on
 * other screens change the pending payouts beside it, and the status bar shows its alert on every screen.
 */
export const useHeadroom = () => useIpcQuery('accounts.headroom', undefined, { refetchInterval: 60_000 });

export const useHeadroomThreshold = () =>
  useIpcMutation('accounts.setHeadroomThreshold', { invalidates: ['accounts.headroom'] });
