import { listStatusOf, payoutListFilter, payoutListMatches, type PayoutLookup } from '../../../shared/payouts';
import { FilterSelect, optionsOf } from '../ui/FilterSelect';
import { formatIstInstant } from '../../../shared/format';
import { useOfflineReason } from '../ui/offline';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { EmptyState, ErrorNotice } from '../ui/states';
import { useTableViews } from '../ui/table-views';
import { ipcErrorOf } from '../query/ipc-query';
import { LookupTable } from './LookupTable';
import { useWatchNow, useWatchState, watched } from './payouts-queries';
import { usePayoutsUi } from './payouts-store';
import { statusWords } from './TransferStatus';

/** The watch list's table and its views: a pending status (checked as the recent lookups' status is). */
const WATCH_TABLE = 'payouts.watch';
const WATCH_FILTERS = { status: payoutListFilter.shape.status };

/**
 * The recent lookups still pending, as main's watch list sees them: main checks them again every 30 s on any
 * screen (treasury/payout-watch.ts); this shows its state and what it noticed, and asks for a round now.
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
  const offlineReason = useOfflineReason();
  const pending = watched(recent);
  const anything = pending.length > 0;
  const state = useWatchState();
  const now = useWatchNow();
  const show = usePayoutsUi((s) => s.show);
  const w = state.data;
  const views = useTableViews(WATCH_TABLE, WATCH_FILTERS);
  const status = views.filters['status'] as string | undefined;
  const shown = status ? pending.filter((l) => payoutListMatches(l, { status })) : pending;

  const schedule = offlineReason
    ? 'Paused while the service cannot be reached: main checks again once it answers.'
    : w?.paused
      ? w.paused
      : now.isPending
        ? 'Checking…'
        : w?.nextCheckAt
          ? `Checked again every 30 s on any screen${w.advance ? ' (advance checks)' : ''}.`
          : '';

  return (
    <section className="payout-panel" aria-labelledby="payout-watch-title">
      <header className="payout-panel-head">
        <h2 id="payout-watch-title">Watch list</h2>
        <span className="muted">
          {pending.length === 1 ? '1 pending' : `${pending.length} pending`}
          {w && w.overdue > 0 && <strong className="error">, {w.overdue} overdue</strong>}
        </span>
        <span className="spacer" />
        <span className="muted payout-watch-schedule" role="status">
          {w?.lastCheckedAt && `Last checked ${formatIstInstant(w.lastCheckedAt)}. `}
          {schedule}
        </span>
        <button
          type="button"
          className="button"
          disabled={now.isPending || !anything || offlineReason !== null}
          title={offlineReason ?? undefined}
          onClick={() => now.mutate({})}
        >
          Refresh watch list
        </button>
      </header>
      {now.isError && <ErrorNotice error={ipcErrorOf(now.error)} onRetry={() => now.mutate({})} />}
      {w && w.notices.length > 0 && (
        <ul className="notice payout-changes watch-notices" aria-label="What the watch list noticed">
          {w.notices.slice(0, 5).map((n) => (
            <li key={`${n.kind}-${n.payoutId}-${n.at}`} className={`watch-notice-${n.kind}`}>
              <span className="muted">{formatIstInstant(n.at)}</span> <span className="mono">{n.payoutId}</span>{' '}
              {n.kind === 'status' ? (
                <>
                  moved from {statusWords(n.from ?? '')} to <strong>{statusWords(n.to ?? '')}</strong>.
                </>
              ) : (
                <>
                  is <strong className="error">overdue</strong>: expected by{' '}
                  {n.expectedBy ? formatIstInstant(n.expectedBy) : '—'}.
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {anything ? (
        <LookupTable
          id={WATCH_TABLE}
          label="Pending payouts"
          lookups={shown}
          current={current}
          onOpen={(payoutId) => show({ profileId, payoutId, mode: 'normal', asked: false })}
          empty={`No pending payout is ${status}.`}
          filters={
            <FilterSelect
              label="Status"
              value={status}
              options={optionsOf(pending, listStatusOf)}
              onChange={(v) => views.setFilter('status', v)}
            />
          }
          views={<SavedViewsMenu {...views.menu} />}
        />
      ) : (
        <EmptyState title="Nothing pending to watch">
          A payout you look up that is still pending is added here; main checks it every 30 seconds on any screen.
        </EmptyState>
      )}
    </section>
  );
}
