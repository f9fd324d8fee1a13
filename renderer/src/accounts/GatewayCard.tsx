import { headroomOf } from '../../../shared/headroom';
import { useId } from 'react';
import type { GatewayError } from '../../../shared/accounts';
import type { Minor } from '../../../shared/money';
import { AsOf } from '../ui/AsOf';
import { formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { Skeleton } from '../ui/states';
import { BalanceSparkline } from './BalanceSparkline';
import { useOfflineReason } from '../ui/offline';
import { loadableOf } from '../query/ipc-query';
import {
  HISTORY_DAYS,
  currencyOf,
  useBalanceCheck,
  useBalanceHistory,
  useBalanceRefresh,
  useRefreshing,
  type OverviewAccount,
} from './accounts-queries';
import { lowBalanceReason } from './low-balance';
import { accountLabel } from '../../../shared/accounts';
import { MaskedAccount } from '../ui/MaskedAccount';

const money = (minor: Minor | null | undefined, currency: string) =>
  minor === null || minor === undefined ? '—' : formatMoney(minor, currency);

function BalanceCheck({ account }: { account: OverviewAccount }) {
  const check = useBalanceCheck(account.pg, account.accountNumber);
  const offline = useOfflineReason();
  const busy = check.isPending;
  // A check made in an earlier visit (or before going offline) comes from the cache.
  const reading = check.isSuccess ? check.data : check.isIdle ? account.checked : null;
  return (
    <div className="acct-check">
      <button
        type="button"
        className="button"
        disabled={busy || offline !== null}
        title={offline ?? undefined}
        aria-label={busy ? undefined : `Check balance of ${account.pg} ${accountLabel(account.accountNumber)}`}
        onClick={() => check.mutate()}
      >
        {busy ? 'Checking…' : 'Check balance'}
      </button>
      <span role="status" className="acct-check-outcome">
        {reading && (
          <>
            Balance now <strong className="money">{formatMoney(reading.availableBalance, currencyOf(account))}</strong>
            <span className="muted"> · checked {formatIstInstant(reading.takenAt)}</span>
          </>
        )}
        {check.isError && <span className="error">The balance check failed: {check.error.message}</span>}
      </span>
    </div>
  );
}

function AccountHistory({ account }: { account: OverviewAccount }) {
  const history = loadableOf(useBalanceHistory(account.pg, account.accountNumber));
  if (history.status === 'loading') return <Skeleton rows={2} label="Loading balance history" />;
  if (history.status === 'failed') {
    return <p className="muted acct-sparkline-empty">The balance history could not be read: {history.error.message}</p>;
  }
  return <BalanceSparkline snapshots={history.value} currency={currencyOf(account)} days={HISTORY_DAYS} />;
}

function AccountBlock({ account, threshold }: { account: OverviewAccount; threshold: Minor | null }) {
  const currency = currencyOf(account);
  const latest = account.latest;
  const low = lowBalanceReason(account, currency, threshold);
  // Available − minimum (and + overdraft), as the Payable now table sums it: available already excludes the hold.
  const payable = latest
    ? headroomOf({
        available: latest.availableBalance,
        minimum: latest.minimumBalance,
        overdraft: latest.overdraft,
      })
    : null;
  const name = `${account.pg} ${accountLabel(account.accountNumber)}`;
  return (
    <article className={`acct-card${low ? ' acct-low' : ''}`} aria-label={name}>
      <header className="acct-head">
        <MaskedAccount account={account.accountNumber} className="acct-number" />
        {low && <span className="tag acct-low-tag">Low balance</span>}
      </header>
      <div className="acct-body">
        <div>
          <p className="acct-available">
            <span className="acct-fact-label">Available</span>
            <strong className="money acct-available-amount">{money(latest?.availableBalance, currency)}</strong>
          </p>
          <dl className="acct-facts">
            <dt>Account balance</dt>
            <dd className="money">{money(latest?.accountBalance, currency)}</dd>
            <dt>Minimum balance</dt>
            <dd className="money">{money(latest?.minimumBalance, currency)}</dd>
            <dt>On hold</dt>
            <dd className="money">{money(latest?.holdFund, currency)}</dd>
            <dt>Overdraft</dt>
            <dd className="money">{money(latest?.overdraft, currency)}</dd>
            <dt>Payable now</dt>
            <dd className="money">{money(payable?.payable, currency)}</dd>
            <dt>With overdraft</dt>
            <dd className="money">{money(payable?.payableWithOverdraft, currency)}</dd>
            <dt>Transaction limit</dt>
            <dd className="money">{money(account.transactionLimit, currency)}</dd>
            <dt>IFSC</dt>
            <dd className="mono">{account.ifscCode ?? '—'}</dd>
            <dt>Type</dt>
            <dd>{account.accountType ?? '—'}</dd>
            <dt>Currency</dt>
            <dd>{account.currency ?? 'INR (not stated)'}</dd>
          </dl>
        </div>
        <AccountHistory account={account} />
      </div>
      {low && latest && (
        <p className="notice notice-warning">
          Available {formatMoney(latest.availableBalance, currency)} is below{' '}
          {low.kind === 'minimum' ? 'the minimum balance' : 'your alert threshold'} of{' '}
          {formatMoney(low.limit, currency)}.
        </p>
      )}
      <footer className="acct-foot">
        <BalanceCheck account={account} />
        {latest ? <AsOf at={latest.takenAt} label="Balance as of" /> : <span className="muted">No balance yet</span>}
      </footer>
    </article>
  );
}

function GatewayErrorNotice({ error, hasAccounts }: { error: GatewayError; hasAccounts: boolean }) {
  const refresh = useBalanceRefresh();
  const refreshing = useRefreshing();
  const offline = useOfflineReason();
  return (
    <div className="notice notice-error error-notice" role="alert">
      <span>
        {error.pg} did not return its accounts: {error.message}
        {error.code && <span className="mono"> ({error.code})</span>}. Reported {formatIstInstant(error.at)}.
        {hasAccounts && ' The accounts below are as last reported and are left out of the total.'}
      </span>
      <button
        type="button"
        className="button"
        disabled={refreshing || offline !== null}
        title={offline ?? undefined}
        onClick={() => refresh.mutate({ pg: error.pg })}
      >
        Try again
      </button>
    </div>
  );
}

/** One gateway's payout accounts; a gateway that answered with its own error says so here, the others unaffected. */
export function GatewayCard({
  pg,
  accounts,
  error,
  threshold,
}: {
  pg: string;
  accounts: readonly OverviewAccount[];
  error: GatewayError | null;
  threshold: Minor | null;
}) {
  const titleId = useId();
  return (
    <section className={`acct-gateway${error ? ' acct-gateway-failed' : ''}`} aria-labelledby={titleId}>
      <header className="acct-gateway-head">
        <h2 id={titleId}>{pg}</h2>
        <span className="muted">
          {accounts.length === 0
            ? 'No accounts reported'
            : accounts.length === 1
              ? '1 account'
              : `${accounts.length} accounts`}
        </span>
      </header>
      {error && <GatewayErrorNotice error={error} hasAccounts={accounts.length > 0} />}
      {accounts.map((a) => (
        <AccountBlock key={a.accountNumber} account={a} threshold={threshold} />
      ))}
    </section>
  );
}
