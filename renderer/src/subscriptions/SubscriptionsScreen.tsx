import { useState, type FormEvent } from 'react';
import { useConfirmedAction } from '../query/journaled-action';
import { checkRupees } from '../../../shared/rupees';
import { isCancelled, type RecentSubscription, type SubscriptionView } from '../../../shared/subscriptions';
import { ActionJournalPanel } from '../journal/ActionEntries';
import { useAppInfo } from '../query/app-queries';
import { loadableOf, resultOf, useActiveProfileId } from '../query/ipc-query';
import { AsOf } from '../ui/AsOf';
import type { DataColumn } from '../ui/DataTable';
import { formatIstInstant, formatMoney } from '../ui/format';
import { MoneyConfirmDialog } from '../ui/MoneyConfirmDialog';
import { RupeesField } from '../ui/RupeesField';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { IdField, useIdField } from '../ui/IdField';
import {
  useCachedSubscription,
  useCancelSubscription,
  useChargeSubscription,
  useFetchSubscription,
  useRecentSubscriptions,
  useRecordCharge,
  useSubscriptionActions,
  useSubscriptionCheck,
} from './subscriptions-queries';
import { RecentLookups } from '../orders/RecentLookups';
import { useSubscriptionsUi } from './subscriptions-store';
import '../orders/orders.css';

/** The recent subscriptions' table: its columns, sort, filter and saved views are kept under this id. */
const RECENT_TABLE = 'subscriptions.recent';
const subscriptionIdOf = (s: RecentSubscription) => s.subscription_id;
const subscriptionStatusOf = (s: RecentSubscription) => s.subscription_status;

const COLUMNS: DataColumn<RecentSubscription>[] = [
  { id: 'id', label: 'Subscription', mono: true, cell: (s) => s.subscription_id, sortValue: (s) => s.subscription_id },
  {
    id: 'receipt',
    label: 'Receipt id',
    mono: true,
    optional: true,
    cell: (s) => s.mer_reference_id ?? '—',
    sortValue: (s) => s.mer_reference_id,
  },
  {
    id: 'status',
    label: 'Status',
    optional: true,
    cell: (s) => s.subscription_status,
    sortValue: (s) => s.subscription_status,
  },
  {
    id: 'amount',
    label: 'Amount',
    numeric: true,
    optional: true,
    cell: (s) => formatMoney(s.amount, s.currency),
    sortValue: (s) => s.amount,
  },
  {
    id: 'read',
    label: 'Read',
    optional: true,
    cell: (s) => <span className="muted">{formatIstInstant(s.fetchedAt)}</span>,
    sortValue: (s) => s.fetchedAt,
  },
];

function LookupForm({ onLookUp, busy }: { onLookUp(id: string, by: 'id' | 'receipt'): void; busy: boolean }) {
  const offline = useOfflineReason();
  const field = useIdField('an id');
  const [by, setBy] = useState<'id' | 'receipt'>('id');
  function submit(event: FormEvent) {
    event.preventDefault();
    const id = field.take();
    if (id !== undefined) onLookUp(id, by);
  }
  return (
    <form className="order-form" onSubmit={submit} noValidate aria-label="Look up a subscription">
      <IdField
        field={field}
        label={by === 'id' ? 'Subscription id' : 'Merchant receipt id'}
        placeholder={by === 'id' ? 'sub_…' : 'subrcpt_…'}
        hint={
          offline
            ? 'Offline: shows the subscription as last read, from the cache.'
            : 'By its id, or by your receipt id.'
        }
      />
      <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
        {offline ? 'Show cached' : busy ? 'Looking up…' : 'Look up'}
      </button>
      <fieldset className="subscription-by">
        <legend className="muted">Which id</legend>
        <label>
          <input type="radio" name="by" checked={by === 'id'} onChange={() => setBy('id')} /> By subscription id
        </label>
        <label>
          <input type="radio" name="by" checked={by === 'receipt'} onChange={() => setBy('receipt')} /> By receipt id
        </label>
      </fieldset>
    </form>
  );
}

function SubscriptionDetail({ view }: { view: SubscriptionView }) {
  const s = view.subscription;
  const rows: [string, string][] = [
    ['Status', s.subscription_status],
    ['Receipt id', s.mer_reference_id ?? '—'],
    ['Amount', formatMoney(s.amount, s.currency)],
    ['Initial amount', s.initial_amount == null ? '—' : formatMoney(s.initial_amount, s.currency)],
    ['Gateway', s.pg ?? '—'],
    ['Customer', [s.customer?.name, s.customer?.email, s.customer?.phone].filter(Boolean).join(', ') || '—'],
    ['Plan', s.plan ? `${s.plan.id} · ${s.plan.title} · ${formatMoney(s.plan.amount, s.plan.currency)}` : '—'],
  ];
  return (
    <section className="order-panel" aria-labelledby="subscription-detail-title">
      <header className="order-panel-head">
        <h2 id="subscription-detail-title">
          Subscription <span className="mono">{s.subscription_id}</span>
        </h2>
        <span className="spacer" />
        <span className="muted">Read {formatIstInstant(view.fetchedAt)}</span>
      </header>
      <dl className="order-fields">
        {rows.map(([label, value]) => (
          <div key={label} className="order-field">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

type Pending = { kind: 'cancel'; requestKey: string } | { kind: 'charge'; requestKey: string; amount: number };

function SubscriptionActions({ view }: { view: SubscriptionView }) {
  const s = view.subscription;
  const offline = useOfflineReason();
  const environment = useAppInfo().data?.profile.environment ?? null;
  const cancel = useCancelSubscription();
  const charge = useChargeSubscription();
  const { pending, ask, drop, outcome, confirm } = useConfirmedAction<Pending>();
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string>();
  const busy = cancel.isPending || charge.isPending;
  const cancelled = isCancelled(s.subscription_status);
  const notActive =
    s.subscription_status.toLowerCase() === 'active'
      ? null
      : `It is ${s.subscription_status}; only an active subscription can be charged.`;

  function askCharge(event: FormEvent) {
    event.preventDefault();
    const check = checkRupees(typed);
    setTypedError(check.ok ? undefined : check.reason);
    if (check.ok) ask({ kind: 'charge', requestKey: crypto.randomUUID(), amount: check.minor });
  }

  async function send() {
    const done = await confirm((p) =>
      p.kind === 'cancel'
        ? cancel.mutateAsync({ requestKey: p.requestKey, id: s.subscription_id })
        : charge.mutateAsync({
            requestKey: p.requestKey,
            id: s.subscription_id,
            amount: p.amount,
            currency: s.currency,
          }),
    );
    if (done) setTyped('');
  }

  return (
    <section className="order-panel" aria-labelledby="subscription-actions-title">
      <header className="order-panel-head">
        <h2 id="subscription-actions-title">Actions</h2>
      </header>
      <div className="order-actions">
        <button
          type="button"
          className="button"
          disabled={offline !== null || busy}
          title={offline ?? (cancelled ? 'Already cancelled: the service will say so (1035).' : undefined)}
          onClick={() => ask({ kind: 'cancel', requestKey: crypto.randomUUID() })}
        >
          Cancel subscription…
        </button>
      </div>
      <form className="order-partial" onSubmit={askCharge} noValidate aria-label="Ad hoc charge">
        <RupeesField
          label={`Ad hoc charge, in ${s.currency === 'INR' ? 'rupees' : s.currency}`}
          value={typed}
          onChange={(value) => {
            setTyped(value);
            setTypedError(undefined);
          }}
          error={typedError}
          inWords={s.currency}
          hint="Charged under the standing instruction."
          placeholder="499.00"
        />
        <button
          type="submit"
          className="button"
          disabled={offline !== null || busy || notActive !== null}
          title={offline ?? notActive ?? undefined}
        >
          Charge…
        </button>
      </form>
      {outcome && (
        <p className={outcome.ok ? 'order-outcome ok' : 'order-outcome error'} role="status">
          {outcome.text}
        </p>
      )}
      {pending && (
        <MoneyConfirmDialog
          title={pending.kind === 'cancel' ? 'Cancel this subscription?' : 'Charge under this subscription?'}
          subject={
            <>
              Subscription <span className="mono">{s.subscription_id}</span>
              {s.customer?.name ? ` · ${s.customer.name}` : ''}
            </>
          }
          amount={pending.kind === 'charge' ? pending.amount : null}
          currency={s.currency}
          environment={environment}
          confirmLabel={pending.kind === 'cancel' ? 'Cancel subscription' : 'Charge'}
          busy={busy}
          onConfirm={() => void send()}
          onCancel={() => {
            if (!busy) drop();
          }}
        >
          {pending.kind === 'cancel' && <p>No further charges will be made under it.</p>}
        </MoneyConfirmDialog>
      )}
    </section>
  );
}

export function SubscriptionsScreen() {
  const profileId = useActiveProfileId();
  const stored = useSubscriptionsUi((s) => s.shown);
  const show = useSubscriptionsUi((s) => s.show);
  const shown = stored?.profileId === profileId ? stored : null;
  const offline = useOfflineReason();
  const fetchOne = useFetchSubscription();
  const cached = useCachedSubscription(shown);
  const view = cached.data ?? null;
  const actions = useSubscriptionActions(view?.subscription.subscription_id ?? null);
  const check = useSubscriptionCheck();
  const record = useRecordCharge();
  const recentQuery = useRecentSubscriptions();
  const [checkNote, setCheckNote] = useState<string | null>(null);

  function lookUp(id: string, by: 'id' | 'receipt', ask = offline === null) {
    if (profileId === null) return;
    show({ profileId, id, by });
    fetchOne.reset();
    setCheckNote(null);
    if (ask) fetchOne.mutate({ id, by });
  }

  async function checkStatus(attemptSeq: number) {
    const r = await resultOf(check.mutateAsync({ attemptSeq }));
    setCheckNote(r.ok ? r.value.check.summary : `The check did not answer: ${r.error.message}`);
  }

  async function recordCharge(attemptSeq: number, charged: boolean) {
    const r = await resultOf(record.mutateAsync({ attemptSeq, charged }));
    setCheckNote(r.ok ? r.value.summary : `Not recorded: ${r.error.message}`);
  }

  const fetchFailed = fetchOne.isError && fetchOne.variables?.id === shown?.id ? loadableOf(fetchOne) : null;

  return (
    <div className="screen subscriptions-screen">
      <OfflineBanner />
      <PageHeader title="Subscriptions" asOf={view ? <AsOf at={view.fetchedAt} label="Read" /> : undefined}>
        {view && (
          <button
            type="button"
            className="button"
            disabled={offline !== null || fetchOne.isPending}
            title={offline ?? undefined}
            onClick={() => lookUp(view.subscription.subscription_id, 'id', true)}
          >
            Refresh
          </button>
        )}
      </PageHeader>
      <LookupForm onLookUp={(id, by) => lookUp(id, by)} busy={fetchOne.isPending} />
      {fetchFailed?.status === 'failed' && (
        <ErrorNotice error={fetchFailed.error} onRetry={() => shown && lookUp(shown.id, shown.by, true)} />
      )}
      {shown && !view && (fetchOne.isPending || cached.isLoading) && (
        <Skeleton rows={5} label="Loading the subscription" />
      )}
      {shown && !view && !fetchOne.isPending && cached.isSuccess && !fetchFailed && (
        <EmptyState title="Not in the cache">
          {shown.id} has not been read on this profile yet. Look it up while the service answers.
        </EmptyState>
      )}
      {view && (
        <div className="order-layout">
          <div className="order-main">
            <SubscriptionDetail view={view} />
          </div>
          <div className="order-side">
            <SubscriptionActions key={view.subscription.subscription_id} view={view} />
            <ActionJournalPanel
              note={checkNote}
              entries={actions.data}
              offline={offline}
              checking={check.isPending ? (check.variables?.attemptSeq ?? null) : null}
              onCheck={(seq) => void checkStatus(seq)}
              // The interface lists no charges: what the gateway shows is the desk's to record.
              settle={(attempt) =>
                attempt.event === 'subscription.charge' && (
                  <span className="action-settle">
                    <button
                      type="button"
                      className="button"
                      disabled={record.isPending}
                      onClick={() => void recordCharge(attempt.seq, true)}
                    >
                      Gateway shows it charged
                    </button>
                    <button
                      type="button"
                      className="button"
                      disabled={record.isPending}
                      onClick={() => void recordCharge(attempt.seq, false)}
                    >
                      Gateway shows no charge
                    </button>
                  </span>
                )
              }
            />
          </div>
        </div>
      )}
      {!shown && (
        <EmptyState title="Look up a subscription">
          Enter its id or your receipt id above, or open one from the recent subscriptions below.
        </EmptyState>
      )}
      <RecentLookups
        table={RECENT_TABLE}
        noun="subscription"
        nouns="subscriptions"
        query={recentQuery}
        columns={COLUMNS}
        rowKey={subscriptionIdOf}
        statusOf={subscriptionStatusOf}
        currentKey={view?.subscription.subscription_id ?? null}
        onOpen={(s) => lookUp(s.subscription_id, 'id', false)}
      />
    </div>
  );
}
