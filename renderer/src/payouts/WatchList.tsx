import type { PayoutLookup } from '../../../shared/payouts';
import { useIsOffline } from '../query/app-queries';
import { formatIstInstant } from '../ui/format';
import { useOfflineReason } from '../ui/offline';
import { EmptyState, ErrorNotice } from '../ui/states';
import { LookupTable } from './LookupTable';
import { useWatch, watched, WATCH_INTERVAL_MS } from './payouts-queries';
import { usePayoutsUi } from './payouts-store';
import { statusWords } from './TransferStatus';

/**
 * The recent lookups still pending, checked again every 30 s while the screen is open and the service answers.
 * The interval restarts after every refresh, manual or not, so two never run back to back.
 */
export function WatchList({
  recent,
  current,
  profileId,
}: {
  recent: readonly PayoutLookup[];
  current: string | null;
  profileId: string;
}) {
  const offline = useIsOffline();
  const offlineReason = useOfflineReason();
  const pending = watched(recent);
  const anything = pending.length > 0;
  const watch = useWatch(pending.length, offline);
  const show = usePayoutsUi((s) => s.show);
  const run = watch.data;
  const refreshing = watch.isFetching;
  const nextAt = !offline && anything && !refreshing ? new Date(watch.dataUpdatedAt + WATCH_INTERVAL_MS) : null;

  const schedule = offline
    ? 'Automatic refresh is paused while the service cannot be reached.'
    : refreshing
      ? 'Refreshing…'
      : nextAt
        ? `Next refresh at ${formatIstInstant(nextAt.toISOString())}.`
        : '';

  return (
    <section className="payout-panel" aria-labelledby="payout-watch-title">
      <header className="payout-panel-head">
        <h2 id="payout-watch-title">Watch list</h2>
        <span className="muted">{pending.length === 1 ? '1 pending' : `${pending.length} pending`}</span>
        <span className="spacer" />
        <span className="muted payout-watch-schedule" role="status">
          {run.refreshedAt && `Last refreshed ${formatIstInstant(run.refreshedAt)}. `}
          {schedule}
        </span>
        <button
          type="button"
          className="button"
          disabled={refreshing || !anything || offlineReason !== null}
          title={offlineReason ?? undefined}
          onClick={() => void watch.refetch()}
        >
          Refresh watch list
        </button>
      </header>
      {run.error && (
        <ErrorNotice
          error={{ ...run.error, message: `Some payouts could not be checked: ${run.error.message}` }}
          onRetry={() => void watch.refetch()}
        />
      )}
      {run.changes.length > 0 && (
        <ul className="notice payout-changes" aria-label="Changed on the last refresh">
          {run.changes.map((c) => (
            <li key={c.payoutId}>
              <span className="mono">{c.payoutId}</span> moved from {statusWords(c.from)} to{' '}
              <strong>{c.to === null ? 'a failed check' : statusWords(c.to)}</strong>.
            </li>
          ))}
        </ul>
      )}
      {anything ? (
        <LookupTable
          id="payouts.watch"
          label="Pending payouts"
          lookups={pending}
          current={current}
          onOpen={(payoutId) => show({ profileId, payoutId, mode: 'normal', asked: false })}
        />
      ) : (
        <EmptyState title="Nothing pending to watch">
          A payout you look up that is still pending is added here and checked every 30 seconds.
        </EmptyState>
      )}
    </section>
  );
}
