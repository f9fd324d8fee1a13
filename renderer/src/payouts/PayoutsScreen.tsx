import { ExportButtons, ExportStatus } from '../exports/ExportControls';
import { loadableOf, useActiveProfileId } from '../query/ipc-query';
import { AsOf } from '../ui/AsOf';
import { OfflineBanner } from '../ui/OfflineBanner';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { BulkCheck } from './BulkCheck';
import { LookupForm } from './LookupForm';
import { LookupTable } from './LookupTable';
import { PayoutResult } from './PayoutResult';
import { PayoutTimeline } from './PayoutTimeline';
import { useRecentLookups, useShownPayout } from './payouts-queries';
import { usePayoutsUi } from './payouts-store';
import { WatchList } from './WatchList';
import './payouts.css';
import { listSortOf } from '../../../shared/exports';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { currentViewName, useSavedViews, type ViewBinding } from '../ui/saved-views';
import { tableSortOf, useTableSorts } from '../ui/table-sorts';

/** The recent lookups' table: its columns, sort and saved views are kept under this id. */
const RECENT_TABLE = 'payouts.recent';

/** A saved view of the recent lookups: the list has no filters, so its sort and (by the menu) its columns. */
const recentViews: ViewBinding = {
  current: () => ({ filters: {}, sort: tableSortOf(RECENT_TABLE) }),
  apply: (state) => useTableSorts.getState().set(RECENT_TABLE, state.sort),
};

export function PayoutsScreen() {
  const shown = useShownPayout();
  const recentQuery = useRecentLookups();
  const recent = loadableOf(recentQuery);
  const show = usePayoutsUi((s) => s.show);
  const profileId = useActiveProfileId();
  const open = (payoutId: string) => {
    if (profileId !== null) show({ profileId, payoutId, mode: 'normal', asked: false });
  };

  const current = shown?.payoutId ?? null;
  useTableSorts((s) => s.sorts[RECENT_TABLE]);
  const views = useSavedViews(RECENT_TABLE, recentViews);
  return (
    <div className="screen payouts-screen">
      <OfflineBanner />
      <PageHeader title="Payouts" skipTo="the payout lists">
        <SavedViewsMenu table={RECENT_TABLE} binding={recentViews} views={views} />
        <ExportButtons
          kind="payouts"
          request={(format) => {
            const sort = listSortOf('payouts', tableSortOf(RECENT_TABLE));
            const view = currentViewName(RECENT_TABLE, recentViews, views.list.data?.views, views.appliedName);
            return { kind: 'payouts', format, ...(sort ? { sort } : {}), ...(view ? { view } : {}) };
          }}
        />
      </PageHeader>
      <ExportStatus kind="payouts" />
      <div className="payout-top">
        <div className="payout-main">
          <LookupForm />
          {shown ? (
            <PayoutResult shown={shown} />
          ) : (
            <EmptyState title="Look up a payout">
              Enter its transfer id above, or open one from the lists below. Every check is kept, so its history is here
              offline too.
            </EmptyState>
          )}
        </div>
        {shown && <PayoutTimeline history={shown.history} onRetry={shown.reloadHistory} />}
      </div>

      <BulkCheck />

      {recent.status === 'loading' && <Skeleton rows={4} label="Loading recent lookups" />}
      {recent.status === 'failed' && (
        <ErrorNotice
          error={{ ...recent.error, message: `The recent lookups could not be read: ${recent.error.message}` }}
          onRetry={() => void recentQuery.refetch()}
        />
      )}
      {recent.status === 'ready' && profileId !== null && (
        <>
          <WatchList recent={recent.value} current={current} profileId={profileId} />
          <section className="payout-panel" aria-labelledby="payout-recent-title">
            <header className="payout-panel-head">
              <h2 id="payout-recent-title">Recent lookups</h2>
              <span className="spacer" />
              <AsOf at={recent.value[0]?.lookedUpAt ?? null} label="Latest check" />
            </header>
            {recent.value.length === 0 ? (
              <EmptyState title="No lookups yet">
                Look up a payout by its id above; every check is kept here, and works offline.
              </EmptyState>
            ) : (
              <LookupTable
                id={RECENT_TABLE}
                label="Recent lookups"
                lookups={recent.value}
                current={current}
                onOpen={open}
              />
            )}
          </section>
        </>
      )}
    </div>
  );
}
