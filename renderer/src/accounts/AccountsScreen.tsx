import { useEffect, useMemo, useRef } from 'react';
import { z } from 'zod';
import { useConnectivity } from '../query/app-queries';
import { loadableOf, useActiveProfileId } from '../query/ipc-query';
import { PageHeader } from '../ui/PageHeader';
import { useOfflineReason } from '../ui/offline';
import type { AccountsOverview, GatewayError } from '../../../shared/accounts';
import { formatMoney, sumMinor, type Minor } from '../../../shared/money';
import { AsOf } from '../ui/AsOf';
import { OfflineBanner } from '../ui/OfflineBanner';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { useFindShortcut } from '../ui/use-find-shortcut';
import {
  currencyOf,
  useAccountsOverview,
  useBalanceRefresh,
  useRefreshing,
  type OverviewAccount,
} from './accounts-queries';
import { GatewayCard } from './GatewayCard';
import { PAYABLE_TABLE, PayableNow } from './PayableNow';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useTableViews } from '../ui/table-views';
import { lowBalanceReason, useLowBalanceThreshold } from './low-balance';
import { ThresholdForm } from './ThresholdForm';
import './accounts.css';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';

/** A view of Accounts: the search over the cards, and the payable-now table's sort and columns. */
const VIEW_FILTERS = { search: z.string().max(100) };

interface Gateway {
  pg: string;
  accounts: OverviewAccount[];
  error: GatewayError | null;
}

function byGateway(overview: AccountsOverview): Gateway[] {
  const gateways = new Map<string, Gateway>();
  const of = (pg: string) => {
    let g = gateways.get(pg);
    if (!g) gateways.set(pg, (g = { pg, accounts: [], error: null }));
    return g;
  };
  for (const a of overview.accounts) of(a.pg).accounts.push(a);
  for (const e of overview.gatewayErrors) of(e.pg).error = e;
  return [...gateways.values()].sort((a, b) => a.pg.localeCompare(b.pg));
}

/** Available balance per currency over the gateways that answered, INR first; exact paise. */
function totals(gateways: readonly Gateway[]): { currency: string; total: Minor; accounts: number }[] {
  const per = new Map<string, Minor[]>();
  for (const g of gateways) {
    if (g.error) continue;
    for (const a of g.accounts) {
      if (a.latest) per.set(currencyOf(a), [...(per.get(currencyOf(a)) ?? []), a.latest.availableBalance]);
    }
  }
  return [...per.entries()]
    .map(([currency, values]) => ({ currency, total: sumMinor(values), accounts: values.length }))
    .sort((a, b) => (a.currency === 'INR' ? -1 : b.currency === 'INR' ? 1 : a.currency.localeCompare(b.currency)));
}

function matches(account: OverviewAccount, query: string): boolean {
  const q = query.trim().toLowerCase();
  return (
    q === '' ||
    account.pg.toLowerCase().includes(q) ||
    account.accountNumber.includes(q) ||
    (account.ifscCode ?? '').toLowerCase().includes(q)
  );
}

function Totals({ gateways }: { gateways: readonly Gateway[] }) {
  const rows = totals(gateways);
  const left = gateways.filter((g) => g.error).map((g) => g.pg);
  const [main, ...others] = rows;
  const accountCount = rows.reduce((n, r) => n + r.accounts, 0);
  return (
    <section className="accounts-totals" aria-labelledby="accounts-total-title">
      <h2 id="accounts-total-title">Total available</h2>
      {main ? (
        <p className="accounts-total-main money" data-testid="total-available">
          {formatMoney(main.total, main.currency)}
        </p>
      ) : (
        <p className="accounts-total-main muted">—</p>
      )}
      {others.map((r) => (
        <p key={r.currency} className="money accounts-total-other">
          {formatMoney(r.total, r.currency)}
        </p>
      ))}
      <p className="muted accounts-total-note">
        {accountCount === 1 ? '1 account' : `${accountCount} accounts`} across{' '}
        {gateways.length - left.length === 1 ? '1 gateway' : `${gateways.length - left.length} gateways`}
        {left.length > 0 && `; leaves out ${left.join(', ')} (no answer)`}.
      </p>
    </section>
  );
}

function LowBalanceSummary({ gateways, threshold }: { gateways: readonly Gateway[]; threshold: Minor | null }) {
  const low = gateways.flatMap((g) => g.accounts.filter((a) => lowBalanceReason(a, currencyOf(a), threshold)));
  if (low.length === 0) return null;
  return (
    <p className="notice notice-warning" role="status">
      <strong>{low.length === 1 ? '1 account is' : `${low.length} accounts are`} low on funds</strong>: see the cards
      marked “Low balance”.
    </p>
  );
}

export function AccountsScreen() {
  const overviewQuery = useAccountsOverview();
  const overview = loadableOf(overviewQuery);
  const refresh = useBalanceRefresh();
  const refreshing = useRefreshing();
  const refreshError = refresh.error?.error ?? null;
  const profileId = useActiveProfileId();
  const connectivity = useConnectivity();
  const offline = useOfflineReason();
  const [threshold, saveThreshold] = useLowBalanceThreshold(profileId);
  const views = useTableViews(PAYABLE_TABLE, VIEW_FILTERS);
  const query = (views.filters['search'] as string | undefined) ?? '';
  const setQuery = (text: string) => views.setFilter('search', text);
  const search = useRef<HTMLInputElement>(null);
  useFindShortcut(search);

  // Opening the screen asks the gateways once (per profile), unless the service is known to be unreachable:
  // the cache is shown meanwhile, and a refresh would only fail again.
  const knownOffline = connectivity?.state === 'offline';
  const { mutate } = refresh;
  useEffect(() => {
    if (profileId !== null && !knownOffline) mutate({});
    // Only a new profile asks again; going online later leaves the refresh to the desk.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [profileId, mutate]);

  const gateways = useMemo(() => (overview.status === 'ready' ? byGateway(overview.value) : []), [overview]);
  const shown = gateways
    .map((g) => ({ ...g, accounts: g.accounts.filter((a) => matches(a, query)) }))
    .filter((g) => g.accounts.length > 0 || (g.error !== null && g.pg.includes(query.trim().toLowerCase())));

  return (
    <div className="screen accounts-screen">
      <OfflineBanner />
      <PageHeader title="Accounts & balances" asOf={overview.status === 'ready' && <AsOf at={overview.value.asOf} />}>
        <SavedViewsMenu {...views.menu} />
        <ExportButtons kind="balances" request={(format) => ({ kind: 'balances', format })} />
        <button
          type="button"
          className="button button-primary"
          disabled={refreshing || overview.status === 'loading' || offline !== null}
          title={offline ?? undefined}
          aria-busy={refreshing}
          onClick={() => refresh.mutate({})}
        >
          {refreshing ? 'Refreshing…' : 'Refresh balances'}
        </button>
      </PageHeader>
      <ExportStatus kind="balances" />
      {refreshing && (
        <div className="accounts-progress" role="progressbar" aria-label="Asking the gateways for balances" />
      )}
      {refreshError && (
        <ErrorNotice
          error={{ ...refreshError, message: `The balances could not be refreshed: ${refreshError.message}` }}
          onRetry={() => refresh.mutate({})}
        />
      )}

      {overview.status === 'loading' && <Skeleton rows={6} label="Loading accounts" />}
      {overview.status === 'failed' && (
        <ErrorNotice
          error={{ ...overview.error, message: `The cached accounts could not be read: ${overview.error.message}` }}
          onRetry={() => void overviewQuery.refetch()}
        />
      )}
      {overview.status === 'ready' && gateways.length === 0 && !refreshing && (
        <EmptyState title="No payout accounts yet">
          {overview.value.asOf === null
            ? 'Press “Refresh balances” to ask the gateways for their payout accounts.'
            : 'The gateways reported no payout accounts for this merchant.'}
        </EmptyState>
      )}
      {overview.status === 'ready' && gateways.length > 0 && (
        <>
          <div className="accounts-summary">
            <Totals gateways={gateways} />
            <div className="accounts-tools">
              <ThresholdForm key={profileId ?? ''} threshold={threshold} onSave={saveThreshold} />
              <div className="field">
                <label htmlFor="accounts-find">Find account</label>
                <input
                  id="accounts-find"
                  ref={search}
                  data-search
                  type="search"
                  className="input"
                  placeholder="Gateway, digits or IFSC"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                />
              </div>
            </div>
          </div>
          <PayableNow />
          <LowBalanceSummary gateways={gateways} threshold={threshold} />
          {shown.length === 0 ? (
            <EmptyState title={`No account matches “${query.trim()}”`}>
              Search by gateway, any digits of the account number, or IFSC; clear the search to see every account.
            </EmptyState>
          ) : (
            <div className="acct-gateway-list">
              {shown.map((g) => (
                <GatewayCard key={g.pg} pg={g.pg} accounts={g.accounts} error={g.error} threshold={threshold} />
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
}
