/**
 * Payout accounts and balances of the active profile: the cached overview first (it needs no service), then a
 * refresh from the gateways; per account a balance check and the history behind its chart.
 */
import { create } from 'zustand';
import type { AccountsOverview, BalanceSnapshot } from '../../../shared/accounts';
import type { IpcError } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import { loaded, type Loadable } from '../loadable';
import { useCacheStatus } from '../cache-status-store';

export type OverviewAccount = AccountsOverview['accounts'][number];

/** How far back the chart of each account reaches. */
export const HISTORY_DAYS = 30;
const DAY_MS = 86_400_000;

/** The API speaks of rupees where an account names no currency. */
export const currencyOf = (account: Pick<OverviewAccount, 'currency'>): string =>
  (account.currency ?? 'INR').toUpperCase();

export const accountKey = (pg: string, accountNumber: string): string => `${pg}\u0000${accountNumber}`;

interface AccountsStore {
  overview: Loadable<AccountsOverview>;
  refreshing: boolean;
  /** The last refresh that failed as a whole (offline, credentials); gateway errors live in the overview. */
  refreshError: IpcError | null;
  checks: Partial<Record<string, Loadable<BalanceSnapshot>>>;
  histories: Partial<Record<string, Loadable<BalanceSnapshot[]>>>;
  /** Shows the cache at once, then refreshes unless the service is known to be unreachable. */
  open(refresh: boolean): Promise<void>;
  /** Every gateway, or only `pg`. */
  refresh(pg?: string): Promise<void>;
  checkBalance(pg: string, accountNumber: string): Promise<void>;
}

export const useAccounts = create<AccountsStore>()((set) => {
  // Answers that arrive after the screen was opened again (perhaps for another profile) are dropped.
  let generation = 0;
  const current = (g: number) => g === generation;

  async function loadHistory(g: number, pg: string, accountNumber: string): Promise<void> {
    const since = new Date(Date.now() - HISTORY_DAYS * DAY_MS).toISOString();
    const result = await settle(() => api.accounts.history({ pg, accountNumber, since, limit: 10_000 }));
    if (current(g)) set((s) => ({ histories: { ...s.histories, [accountKey(pg, accountNumber)]: loaded(result) } }));
  }

  /** Every account's history, or only those of gateway `pg` (a refresh of one gateway changes no other's). */
  async function loadHistories(g: number, overview: AccountsOverview, pg?: string): Promise<void> {
    const accounts = pg === undefined ? overview.accounts : overview.accounts.filter((a) => a.pg === pg);
    await Promise.all(accounts.map((a) => loadHistory(g, a.pg, a.accountNumber)));
  }

  async function refreshIn(g: number, pg?: string): Promise<void> {
    set({ refreshing: true });
    const result = await settle(() => api.accounts.refresh(pg === undefined ? {} : { pg }));
    if (!current(g)) return;
    if (result.ok) {
      set({ overview: { status: 'ready', value: result.value }, refreshing: false, refreshError: null });
      // The status bar's "balances" time moved; no event tells it.
      void useCacheStatus.getState().refresh();
      await loadHistories(g, result.value, pg);
    } else {
      set({ refreshing: false, refreshError: result.error });
    }
  }

  return {
    overview: { status: 'loading' },
    refreshing: false,
    refreshError: null,
    checks: {},
    histories: {},

    async open(refresh) {
      const g = ++generation;
      set({ overview: { status: 'loading' }, refreshing: false, refreshError: null, checks: {}, histories: {} });
      const overview = loaded(await settle(() => api.accounts.overview()));
      if (!current(g)) return;
      set({ overview });
      if (overview.status === 'ready') void loadHistories(g, overview.value);
      if (refresh) await refreshIn(g);
    },

    refresh: (pg) => refreshIn(generation, pg),

    async checkBalance(pg, accountNumber) {
      const g = generation;
      const key = accountKey(pg, accountNumber);
      const put = (value: Loadable<BalanceSnapshot>) => {
        if (current(g)) set((s) => ({ checks: { ...s.checks, [key]: value } }));
      };
      put({ status: 'loading' });
      const result = await settle(() => api.accounts.checkBalance({ pg, accountNumber }));
      if (!result.ok) return put({ status: 'failed', error: result.error });
      const snapshot = result.value.find((b) => b.pg === pg && b.accountNumber === accountNumber);
      put(
        snapshot
          ? { status: 'ready', value: snapshot }
          : {
              status: 'failed',
              error: { code: 'NO_BALANCE', message: `${pg} answered without a balance for this account.` },
            },
      );
      // The check is one more reading on the account's chart.
      if (snapshot) await loadHistory(g, pg, accountNumber);
    },
  };
});
