import { useState, type FormEvent } from 'react';
import { typedReason } from '../../../shared/approvals';
import { confirmWord, useApprovalNeeded, useChargeReasonTimes } from '../approvals/approvals-queries';
import { FormField } from '../ui/FormField';
import { useConfirmedAction } from '../query/journaled-action';
import { checkRupees } from '../../../shared/rupees';
import { isCancelled, type RecentSubscription, type SubscriptionView } from '../../../shared/subscriptions';
import { ActionJournalPanel } from '../journal/ActionEntries';
import { useAppInfo } from '../query/app-queries';
import { loadableOf, resultOf, useActiveProfileId } from '../query/ipc-query';
import { AsOf } from '../ui/AsOf';
import { formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { MoneyConfirmDialog } from '../ui/MoneyConfirmDialog';
import { RupeesField } from '../ui/RupeesField';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState } from '../ui/states';
import {
  ActionsPanel,
  LookupForm,
  LookupStates,
  RecordLayout,
  RefreshButton,
  recentColumns,
  useStatusCheck,
} from '../orders/lookup-parts';
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
import { RecentLookups, type RecentKind } from '../orders/RecentLookups';
import { useSubscriptionsUi } from './subscriptions-store';
import '../orders/orders.css';

const subscriptionStatusOf = (s: RecentSubscription) => s.subscription_status;
const RECENT: RecentKind<RecentSubscription> = {
  table: 'subscriptions.recent',
  noun: 'subscription',
  nouns: 'subscriptions',
  rowKey: (s) => s.subscription_id,
  statusOf: subscriptionStatusOf,
  columns: [
    {
      id: 'id',
      label: 'Subscription',
      mono: true,
      cell: (s) => s.subscription_id,
      sortValue: (s) => s.subscription_id,
    },
    {
      id: 'receipt',
      label: 'Receipt id',
      mono: true,
      optional: true,
      cell: (s) => s.mer_reference_id ?? '—',
      sortValue: (s) => s.mer_reference_id,
    },
    ...recentColumns(subscriptionStatusOf),
  ],
};

function SubscriptionLookupForm({
  onLookUp,
  busy,
}: {
  onLookUp(id: string, by: 'id' | 'receipt'): void;
  busy: boolean;
}) {
  const [by, setBy] = useState<'id' | 'receipt'>('id');
  return (
    <LookupForm
      ariaLabel="Look up a subscription"
      noun="an id"
      label={by === 'id' ? 'Subscription id' : 'Merchant receipt id'}
      placeholder={by === 'id' ? 'sub_…' : 'subrcpt_…'}
      hint="By its id, or by your receipt id."
      offlineHint="Offline: shows the subscription as last read, from the cache."
      busy={busy}
      onLookUp={(id) => onLookUp(id, by)}
    >
      <fieldset className="subscription-by">
        <legend className="muted">Which id</legend>
        <label>
          <input type="radio" name="by" checked={by === 'id'} onChange={() => setBy('id')} /> By subscription id
        </label>
        <label>
          <input type="radio" name="by" checked={by === 'receipt'} onChange={() => setBy('receipt')} /> By receipt id
        </label>
      </fieldset>
    </LookupForm>
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

type Pending =
  | { kind: 'cancel'; requestKey: string }
  | { kind: 'charge'; requestKey: string; amount: number; reason: string | undefined };

function SubscriptionActions({ view }: { view: SubscriptionView }) {
  const s = view.subscription;
  const offline = useOfflineReason();
  const environment = useAppInfo().data?.profile.environment ?? null;
  const cancel = useCancelSubscription();
  const charge = useChargeSubscription();
  const { pending, ask, drop, outcome, confirm } = useConfirmedAction<Pending>();
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string>();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const busy = cancel.isPending || charge.isPending;
  const times = useChargeReasonTimes();
  const cancelNeedsApproval = useApprovalNeeded('subscription.cancel', null);
  const chargeNeedsApproval = useApprovalNeeded(
    'subscription.charge',
    pending?.kind === 'charge' ? pending.amount : null,
  );
  const typedMinor = checkRupees(typed);
  // Far above the subscription's own amount (the policy's multiple), a charge needs its reason typed.
  const reasonNeeded = typedMinor.ok && typedMinor.minor > s.amount * times;
  const cancelled = isCancelled(s.subscription_status);
  const notActive =
    s.subscription_status.toLowerCase() === 'active'
      ? null
      : `It is ${s.subscription_status}; only an active subscription can be charged.`;

  function askCharge(event: FormEvent) {
    event.preventDefault();
    const check = checkRupees(typed);
    setTypedError(check.ok ? undefined : check.reason);
    const why = reason.trim() === '' ? undefined : typedReason.safeParse(reason);
    const problem =
      reasonNeeded && !why
        ? `More than ${times === 1 ? '' : `${times} times `}the subscription's own amount of ${formatMoney(s.amount, s.currency)}: type why.`
        : why && !why.success
          ? `The reason ${why.error.issues[0]!.message}.`
          : undefined;
    setReasonError(problem);
    if (check.ok && !problem) {
      ask({ kind: 'charge', requestKey: crypto.randomUUID(), amount: check.minor, reason: why?.data });
    }
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
            ...(p.reason ? { reason: p.reason } : {}),
          }),
    );
    if (done) {
      setTyped('');
      setReason('');
    }
  }

  return (
    <ActionsPanel id="subscription-actions-title" outcome={outcome}>
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
        <FormField
          label={reasonNeeded ? 'Reason for the charge (needed)' : 'Reason for the charge'}
          error={reasonError}
          hint={`Needed above ${formatMoney(s.amount * times, s.currency)}; the approver and the journal read it.`}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              maxLength={500}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonError(undefined);
              }}
            />
          )}
        </FormField>
        <button
          type="submit"
          className="button"
          disabled={offline !== null || busy || notActive !== null}
          title={offline ?? notActive ?? undefined}
        >
          Charge…
        </button>
      </form>
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
          confirmLabel={
            pending.kind === 'cancel'
              ? confirmWord(cancelNeedsApproval, 'Cancel subscription')
              : confirmWord(chargeNeedsApproval, 'Charge')
          }
          busy={busy}
          onConfirm={() => void send()}
          onCancel={() => {
            if (!busy) drop();
          }}
        >
          {pending.kind === 'cancel' && <p>No further charges will be made under it.</p>}
          {pending.kind === 'charge' && pending.reason && <p>Reason: {pending.reason}</p>}
        </MoneyConfirmDialog>
      )}
    </ActionsPanel>
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
  const status = useStatusCheck(check);

  function lookUp(id: string, by: 'id' | 'receipt', ask = offline === null) {
    if (profileId === null) return;
    show({ profileId, id, by });
    fetchOne.reset();
    status.setNote(null);
    if (ask) fetchOne.mutate({ id, by });
  }

  async function recordCharge(attemptSeq: number, charged: boolean) {
    const r = await resultOf(record.mutateAsync({ attemptSeq, charged }));
    status.setNote(r.ok ? r.value.summary : `Not recorded: ${r.error.message}`);
  }

  const fetchFailed = fetchOne.isError && fetchOne.variables?.id === shown?.id ? loadableOf(fetchOne) : null;

  return (
    <div className="screen subscriptions-screen">
      <OfflineBanner />
      <PageHeader title="Subscriptions" asOf={view ? <AsOf at={view.fetchedAt} label="Read" /> : undefined}>
        {view && (
          <RefreshButton
            busy={fetchOne.isPending}
            onRefresh={() => lookUp(view.subscription.subscription_id, 'id', true)}
          />
        )}
      </PageHeader>
      <SubscriptionLookupForm onLookUp={(id, by) => lookUp(id, by)} busy={fetchOne.isPending} />
      <LookupStates
        asked={shown !== null}
        shown={view !== null}
        fetching={fetchOne.isPending}
        cached={cached}
        failed={fetchFailed}
        onRetry={() => shown && lookUp(shown.id, shown.by, true)}
        loading={{ rows: 5, label: 'Loading the subscription' }}
        notInCache={<>{shown?.id} has not been read on this profile yet. Look it up while the service answers.</>}
      />
      {view && (
        <RecordLayout detail={<SubscriptionDetail view={view} />}>
          <SubscriptionActions key={view.subscription.subscription_id} view={view} />
          <ActionJournalPanel
            {...status.panel}
            entries={actions.data}
            offline={offline}
            // The interface lists no charges: what the gateway shows is the desk's to record.
            settle={(attempt) =>
              attempt.event === 'subscription.charge' && (
                <span className="action-settle">
                  {([true, false] as const).map((charged) => (
                    <button
                      key={String(charged)}
                      type="button"
                      className="button"
                      disabled={record.isPending}
                      onClick={() => void recordCharge(attempt.seq, charged)}
                    >
                      {charged ? 'Gateway shows it charged' : 'Gateway shows no charge'}
                    </button>
                  ))}
                </span>
              )
            }
          />
        </RecordLayout>
      )}
      {!shown && (
        <EmptyState title="Look up a subscription">
          Enter its id or your receipt id above, or open one from the recent subscriptions below.
        </EmptyState>
      )}
      <RecentLookups
        kind={RECENT}
        query={recentQuery}
        currentKey={view?.subscription.subscription_id ?? null}
        onOpen={(s) => lookUp(s.subscription_id, 'id', false)}
      />
    </div>
  );
}
