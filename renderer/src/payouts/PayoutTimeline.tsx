import type { PayoutLookup } from '../../../shared/payouts';
import type { Loadable } from '../loadable';
import { formatIstInstant } from '../../../shared/format';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { statusWords, TransferStatus } from './TransferStatus';

interface Entry {
  lookup: PayoutLookup;
  /** The status the previous answered check reported, when this one reports another. */
  changedFrom: string | null;
  first: boolean;
}

/** Oldest first in, newest first out, each answer compared with the answer before it. */
function entries(history: readonly PayoutLookup[]): Entry[] {
  let previous: string | null | undefined;
  const out = history.map((lookup): Entry => {
    const answered = lookup.error === null;
    const entry = {
      lookup,
      changedFrom:
        answered && previous !== undefined && previous !== lookup.transferStatus ? (previous ?? 'no status') : null,
      first: answered && previous === undefined,
    };
    if (answered) previous = lookup.transferStatus;
    return entry;
  });
  return out.reverse();
}

/** Every check of the payout, from the cache (so offline too), with the checks where its status moved marked. */
export function PayoutTimeline({ history, onRetry }: { history: Loadable<PayoutLookup[]>; onRetry(): void }) {
  const count = history.status === 'ready' ? history.value.length : null;
  return (
    <section className="payout-panel payout-timeline" aria-labelledby="payout-timeline-title">
      <header className="payout-panel-head">
        <h2 id="payout-timeline-title">History</h2>
        {count !== null && <span className="muted">{count === 1 ? '1 check' : `${count} checks`}</span>}
      </header>
      {history.status === 'loading' && <Skeleton rows={3} label="Loading the payout's history" />}
      {history.status === 'failed' && (
        <ErrorNotice
          error={{ ...history.error, message: `The history could not be read: ${history.error.message}` }}
          onRetry={onRetry}
        />
      )}
      {history.status === 'ready' && history.value.length === 0 && (
        <EmptyState title="No checks recorded">A check that gets an answer is kept here, with its time.</EmptyState>
      )}
      {history.status === 'ready' && history.value.length > 0 && (
        <ol className="payout-checks" aria-label="Checks of this payout, newest first">
          {entries(history.value).map(({ lookup, changedFrom, first }) => (
            <li key={lookup.id} className={`payout-check${changedFrom !== null ? ' payout-check-changed' : ''}`}>
              <span className="payout-check-time">{formatIstInstant(lookup.lookedUpAt)}</span>
              <span className="payout-check-what">
                {lookup.error === null ? (
                  <TransferStatus status={lookup.transferStatus} />
                ) : (
                  <span className="error">Failed: {lookup.error}</span>
                )}
                {changedFrom !== null && (
                  <strong className="payout-check-change">Changed from {statusWords(changedFrom)}</strong>
                )}
                {first && <span className="muted">First answer</span>}
                <span className="muted payout-check-mode">
                  {lookup.mode === 'advance' ? 'asked the gateway' : 'normal check'}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
