import { asClause } from '../../../shared/messages';
import { missingUtrText, payoutDestination, type PayoutLookup } from '../../../shared/payouts';
import { MaskedAccount } from '../ui/MaskedAccount';
import { AsOf } from '../ui/AsOf';
import { formatIstWallClock } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { ErrorNotice, Skeleton } from '../ui/states';
import { useLookUp, type Shown } from './payouts-queries';
import { useOfflineReason } from '../ui/offline';
import { TransferStatus } from './TransferStatus';

/** The gateway's own reason for the payout, if it gave one. */
function gatewayReason(l: PayoutLookup): { message: string; code: string | null } | null {
  const message = l.gatewayErrorMessage ?? (l.payout?.error || null);
  return message ? { message, code: l.gatewayErrorCode } : null;
}

/** The payee and the route the money took: the account for IMPS / NEFT / RTGS, the UPI address for UPI. */
function Beneficiary({ payout }: { payout: NonNullable<PayoutLookup['payout']> }) {
  const b = payout.beneficiary;
  if (!b) return <>—</>;
  const to = payoutDestination(payout);
  return (
    <>
      {b.name ?? 'Unnamed'}
      {to?.kind === 'upi' && <span className="mono"> · {to.vpa}</span>}
      {to?.kind === 'account' && (
        <>
          {' · '}
          <MaskedAccount account={to.accountNumber} ifsc={to.ifsc} />
        </>
      )}
    </>
  );
}

function PayoutDetails({ lookup }: { lookup: PayoutLookup }) {
  const p = lookup.payout;
  const reason = gatewayReason(lookup);
  const failed = lookup.transferStatus === 'failed';
  return (
    <>
      <p className="payout-headline">
        <TransferStatus status={lookup.transferStatus} />
        {lookup.amount !== null && <strong className="money payout-amount">{formatMoney(lookup.amount)}</strong>}
      </p>
      {reason && (
        <p className="notice notice-error" role="alert">
          {failed ? 'The transfer failed: ' : 'The gateway reports: '}
          {asClause(reason.message)}
          {reason.code && <span className="mono"> (gateway code {reason.code})</span>}.
        </p>
      )}
      <dl className="payout-facts">
        <dt>UTR</dt>
        <dd>
          {lookup.utNo ? (
            <span className="mono">{lookup.utNo}</span>
          ) : (
            <span className="muted">{missingUtrText(lookup.transferStatus)}</span>
          )}
        </dd>
        <dt>Processed</dt>
        <dd>{lookup.processedAt ? formatIstWallClock(lookup.processedAt) : <span className="muted">Not yet</span>}</dd>
        <dt>Method</dt>
        <dd>{p?.method ? p.method.toUpperCase() : '—'}</dd>
        <dt>Fund source</dt>
        <dd>{p?.fund_source ?? '—'}</dd>
        <dt>Beneficiary</dt>
        <dd>{p ? <Beneficiary payout={p} /> : '—'}</dd>
        <dt>Transfer id</dt>
        <dd className="mono">{p?.transfer_id ?? lookup.payoutId}</dd>
        {p?.ack && (
          <>
            <dt>Acknowledgement</dt>
            <dd className="mono">{p.ack}</dd>
          </>
        )}
      </dl>
    </>
  );
}

/**
 * The payout on screen: its newest answer. When the check just asked for failed, or none was made, that is the
 * last answer the cache holds, labelled as such so an old status is never read as a new one.
 */
export function PayoutResult({ shown }: { shown: Shown }) {
  const { lookUp } = useLookUp();
  const offline = useOfflineReason();
  const { payoutId, fresh, mode } = shown;
  const retry = () => lookUp(payoutId, mode);
  const history = shown.history.status === 'ready' ? shown.history.value : [];
  const lastAnswered = history.findLast((l) => l.payout !== null) ?? null;
  const freshAnswer = fresh?.status === 'ready' && fresh.value.payout !== null ? fresh.value : null;
  // The newest answer wins: the watch list may have checked this payout again since it was looked up.
  const answer =
    fresh?.status === 'loading'
      ? null
      : ([freshAnswer, lastAnswered].filter((l) => l !== null).sort((a, b) => b.id - a.id)[0] ?? null);

  return (
    <section
      className="payout-panel payout-result"
      aria-labelledby="payout-result-title"
      aria-busy={fresh?.status === 'loading'}
    >
      <header className="payout-panel-head">
        <h2 id="payout-result-title">
          Payout <span className="mono">{payoutId}</span>
        </h2>
        <span className="spacer" />
        {fresh?.status !== 'loading' && (
          <button
            type="button"
            className="button"
            onClick={retry}
            disabled={offline !== null}
            title={offline ?? undefined}
          >
            {mode === 'advance' ? 'Ask the gateway again' : 'Check again'}
          </button>
        )}
      </header>
      {fresh?.status === 'loading' && <Skeleton rows={4} label="Looking up the payout" />}
      {fresh?.status === 'failed' && (
        <ErrorNotice
          error={{ ...fresh.error, message: `The lookup did not get an answer: ${fresh.error.message}` }}
          onRetry={retry}
        />
      )}
      {fresh?.status === 'ready' && fresh.value.error !== null && (
        <ErrorNotice
          error={{ code: 'LOOKUP_FAILED', message: `The lookup failed: ${fresh.value.error}` }}
          onRetry={retry}
        />
      )}
      {answer ? (
        <>
          <AsOf at={answer.lookedUpAt} label={freshAnswer ? 'Checked' : 'Last known answer, checked'} />
          <PayoutDetails lookup={answer} />
        </>
      ) : (
        fresh === null &&
        shown.history.status === 'ready' && (
          <p className="muted">No check of this payout got an answer yet. Press “Check again” to ask.</p>
        )
      )}
    </section>
  );
}
