import { useEffect } from 'react';
import type { PayoutLookup } from '../../../shared/payouts';
import { useConnectivity } from '../connectivity-store';
import { formatIstInstant } from '../ui/format';
import { EmptyState, ErrorNotice } from '../ui/states';
import { LookupTable } from './LookupTable';
import { usePayouts, watched, WATCH_INTERVAL_MS } from './payouts-store';
import { statusWords } from './TransferStatus';

/**
 * The recent lookups still pending, checked again every 30 s while the screen is open and the service answers.
 * The timer restarts after every refresh, manual or not, so two never run back to back.
 */
export function WatchList({ recent, current }: { recent: readonly PayoutLookup[]; current: string | null }) {
  const watch = usePayouts((s) => s.watch);
  const refreshWatch = usePayouts((s) => s.refreshWatch);
  const setNextWatch = usePayouts((s) => s.setNextWatch);
  const show = usePayouts((s) => s.show);
  const offline = useConnectivity((s) => s.state?.state === 'offline');
  const pending = watched(recent);
  const anything = pending.length > 0;

  useEffect(() => {
    if (offline || !anything) return;
    setNextWatch(new Date(Date.now() + WATCH_INTERVAL_MS).toISOString());
    const timer = setTimeout(() => void refreshWatch(), WATCH_INTERVAL_MS);
    return () => {
      clearTimeout(timer);
      setNextWatch(null);
    };
  }, [offline, anything, watch.lastRefreshedAt, refreshWatch, setNextWatch]);

  const schedule = offline
    ? 'Automatic refresh is paused while the service cannot be reached.'
    : watch.refreshing
      ? 'Refreshing…'
      : watch.nextAt
        ? `Next refresh at ${formatIstInstant(watch.nextAt)}.`
        : '';

  return (
    <section className="payout-panel" aria-labelledby="payout-watch-title">
      <header className="payout-panel-head">
        <h2 id="payout-watch-title">Watch list</h2>
        <span className="muted">{pending.length === 1 ? '1 pending' : `${pending.length} pending`}</span>
        <span className="spacer" />
        <span className="muted payout-watch-schedule" role="status">
          {watch.lastRefreshedAt && `Last refreshed ${formatIstInstant(watch.lastRefreshedAt)}. `}
          {schedule}
        </span>
        <button
          type="button"
          className="button"
          disabled={watch.refreshing || !anything}
          onClick={() => void refreshWatch()}
        >
          Refresh watch list
        </button>
      </header>
      {watch.error && (
        <ErrorNotice
          error={{ ...watch.error, message: `Some payouts could not be checked: ${watch.error.message}` }}
          onRetry={() => void refreshWatch()}
        />
      )}
      {watch.changes.length > 0 && (
        <ul className="notice payout-changes" aria-label="Changed on the last refresh">
          {watch.changes.map((c) => (
            <li key={c.payoutId}>
              <span className="mono">{c.payoutId}</span> moved from {statusWords(c.from)} to{' '}
              <strong>{c.to === null ? 'a failed check' : statusWords(c.to)}</strong>.
            </li>
          ))}
        </ul>
      )}
      {anything ? (
        <LookupTable label="Pending payouts" lookups={pending} current={current} onOpen={(id) => void show(id)} />
      ) : (
        <EmptyState title="Nothing pending to watch">
          A payout you look up that is still pending is added here and checked every 30 seconds.
        </EmptyState>
      )}
    </section>
  );
}
