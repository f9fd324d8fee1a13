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
import { useMemo } from 'react';
import { listSortOf } from '../../../shared/exports';
import { listStatusOf, payoutListFilter, payoutListMatches, type PayoutListFilter } from '../../../shared/payouts';
import { FilterSelect, optionsOf } from '../ui/FilterSelect';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { tableSortOf } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';

/** The recent lookups' table: its columns, sort, filter and saved views are kept under this id. */
const RECENT_TABLE = 'payouts.recent';
/** A view of the recent lookups: the latest check's status and a search (shared/payouts.ts checks both). */
const RECENT_FILTERS = payoutListFilter.shape;

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
  const views = useTableViews(RECENT_TABLE, RECENT_FILTERS);
  const filter = views.filters as PayoutListFilter;
  const all = useMemo(() => (recent.status === 'ready' ? recent.value : []), [recent]);
  const rows = useMemo(() => all.filter((l) => payoutListMatches(l, filter)), [all, filter]);
  return (
    <div className="screen payouts-screen">
      <OfflineBanner />
      <PageHeader title="Payouts" skipTo="the payout lists">
        <ExportButtons
          kind="payouts"
          request={(format) => {
            const sort = listSortOf('payouts', tableSortOf(RECENT_TABLE));
            const view = views.viewName();
            const f = views.filters as PayoutListFilter;
            return {
              kind: 'payouts',
              format,
              ...(f.status || f.search ? { filter: f } : {}),
              ...(sort ? { sort } : {}),
              ...(view ? { view } : {}),
            };
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
                lookups={rows}
                current={current}
                onOpen={open}
                empty={`No recent lookup is in this filter (${[filter.status, filter.search && `“${filter.search}”`].filter(Boolean).join(', ')}).`}
                filters={
                  <>
                    <FilterSelect
                      label="Status"
                      value={filter.status}
                      options={optionsOf(all, listStatusOf)}
                      onChange={(v) => views.setFilter('status', v)}
                    />
                    <label>
                      Find{' '}
                      <input
                        type="search"
                        className="input"
                        placeholder="Payout id, UTR or beneficiary"
                        value={filter.search ?? ''}
                        onChange={(e) => views.setFilter('search', e.target.value)}
                      />
                    </label>
                  </>
                }
                views={<SavedViewsMenu {...views.menu} />}
              />
            )}
          </section>
        </>
      )}
    </div>
  );
}
