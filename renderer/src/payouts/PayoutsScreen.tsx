import { useEffect } from 'react';
import { activeProfileId, useAppInfo } from '../app-info-store';
import { AsOf } from '../ui/AsOf';
import { OfflineBanner } from '../ui/OfflineBanner';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { LookupForm } from './LookupForm';
import { LookupTable } from './LookupTable';
import { PayoutResult } from './PayoutResult';
import { PayoutTimeline } from './PayoutTimeline';
import { usePayouts } from './payouts-store';
import { WatchList } from './WatchList';
import './payouts.css';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';

export function PayoutsScreen() {
  const open = usePayouts((s) => s.open);
  const show = usePayouts((s) => s.show);
  const reloadHistory = usePayouts((s) => s.reloadHistory);
  const shown = usePayouts((s) => s.shown);
  const recent = usePayouts((s) => s.recent);
  const profileId = useAppInfo((s) => activeProfileId(s.state));

  useEffect(() => {
    void open(profileId);
  }, [open, profileId]);

  const current = shown?.payoutId ?? null;
  return (
    <div className="screen payouts-screen">
      <OfflineBanner />
      <header className="screen-head">
        <h1 className="screen-title">Payouts</h1>
        <div className="screen-actions">
          <ExportButtons kind="payouts" request={(format) => ({ kind: 'payouts', format })} />
        </div>
      </header>
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
        {shown && <PayoutTimeline history={shown.history} onRetry={() => void reloadHistory()} />}
      </div>

      {recent.status === 'loading' && <Skeleton rows={4} label="Loading recent lookups" />}
      {recent.status === 'failed' && (
        <ErrorNotice
          error={{ ...recent.error, message: `The recent lookups could not be read: ${recent.error.message}` }}
          onRetry={() => void open(profileId)}
        />
      )}
      {recent.status === 'ready' && (
        <>
          <WatchList recent={recent.value} current={current} />
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
                label="Recent lookups"
                lookups={recent.value}
                current={current}
                onOpen={(id) => void show(id)}
              />
            )}
          </section>
        </>
      )}
    </div>
  );
}
