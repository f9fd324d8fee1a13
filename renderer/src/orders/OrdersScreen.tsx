import { useEffect, useState, type FormEvent } from 'react';
import type { RecentOrder } from '../../../shared/orders';
import { ActionJournalPanel } from '../journal/ActionEntries';
import { loadableOf, resultOf, useActiveProfileId } from '../query/ipc-query';
import { AsOf } from '../ui/AsOf';
import type { DataColumn } from '../ui/DataTable';
import { formatIstInstant, formatMoney } from '../ui/format';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { IdField, useIdField } from '../ui/IdField';
import { OrderActions } from './OrderActions';
import { OrderDetail, RefundAttempts } from './OrderDetail';
import { useCachedOrder, useFetchOrder, useOrderActions, useOrderCheck, useRecentOrders } from './orders-queries';
import { useOrdersUi } from './orders-store';
import { RecentLookups } from './RecentLookups';
import './orders.css';

/** The recent orders' table: its columns, sort, filter and saved views are kept under this id. */
const RECENT_TABLE = 'orders.recent';
const orderIdOf = (o: RecentOrder) => o.order_id;
const orderStatusOf = (o: RecentOrder) => o.order_status;

const COLUMNS: DataColumn<RecentOrder>[] = [
  { id: 'order', label: 'Order', mono: true, cell: (o) => o.order_id, sortValue: (o) => o.order_id },
  { id: 'status', label: 'Status', optional: true, cell: (o) => o.order_status, sortValue: (o) => o.order_status },
  {
    id: 'amount',
    label: 'Amount',
    numeric: true,
    optional: true,
    cell: (o) => formatMoney(o.amount, o.currency),
    sortValue: (o) => o.amount,
  },
  {
    id: 'read',
    label: 'Read',
    optional: true,
    cell: (o) => <span className="muted">{formatIstInstant(o.fetchedAt)}</span>,
    sortValue: (o) => o.fetchedAt,
  },
];

function LookupForm({ onLookUp, busy }: { onLookUp(id: string): void; busy: boolean }) {
  const offline = useOfflineReason();
  const field = useIdField('an order id');
  function submit(event: FormEvent) {
    event.preventDefault();
    const id = field.take();
    if (id !== undefined) onLookUp(id);
  }
  return (
    <form className="order-form" onSubmit={submit} noValidate aria-label="Look up an order">
      <IdField
        field={field}
        label="Order id"
        placeholder="ord_…"
        hint={
          offline
            ? 'Offline: shows the order as last read, from the cache.'
            : 'Fetches the order and its refund attempts. / or Ctrl+F (⌘F on a Mac) jumps here.'
        }
      />
      <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
        {offline ? 'Show cached' : busy ? 'Looking up…' : 'Look up'}
      </button>
    </form>
  );
}

export function OrdersScreen() {
  const profileId = useActiveProfileId();
  const stored = useOrdersUi((s) => s.shown);
  const show = useOrdersUi((s) => s.show);
  const lookedUp = useOrdersUi((s) => s.lookedUp);
  const orderId = stored?.profileId === profileId ? stored.orderId : null;
  const offline = useOfflineReason();
  const fetchOrder = useFetchOrder();
  const cached = useCachedOrder(orderId);
  const actions = useOrderActions(orderId);
  const check = useOrderCheck();
  const recentQuery = useRecentOrders();
  const [checkNote, setCheckNote] = useState<string | null>(null);

  function lookUp(id: string, ask = offline === null) {
    if (profileId === null) return;
    show(profileId, id);
    fetchOrder.reset();
    setCheckNote(null);
    if (ask) fetchOrder.mutate({ id });
  }

  // Opened from a settlement record: look the order up once the screen is here (offline it shows the cache's copy).
  const askedFor = stored?.lookUp && orderId !== null ? orderId : null;
  const mutateFetch = fetchOrder.mutate;
  useEffect(() => {
    if (askedFor === null) return;
    lookedUp();
    if (offline === null) mutateFetch({ id: askedFor });
  }, [askedFor, offline, lookedUp, mutateFetch]);

  async function checkStatus(attemptSeq: number) {
    const r = await resultOf(check.mutateAsync({ attemptSeq }));
    setCheckNote(r.ok ? r.value.check.summary : `The check did not answer: ${r.error.message}`);
  }

  const view = cached.data ?? null;
  const fetchFailed = fetchOrder.isError && fetchOrder.variables?.id === orderId ? loadableOf(fetchOrder) : null;

  return (
    <div className="screen orders-screen">
      <OfflineBanner />
      <PageHeader title="Orders" asOf={view ? <AsOf at={view.fetchedAt} label="Read" /> : undefined}>
        {view && (
          <button
            type="button"
            className="button"
            disabled={offline !== null || fetchOrder.isPending}
            title={offline ?? undefined}
            onClick={() => lookUp(view.order.order_id, true)}
          >
            Refresh
          </button>
        )}
      </PageHeader>
      <LookupForm onLookUp={lookUp} busy={fetchOrder.isPending} />
      {fetchFailed?.status === 'failed' && (
        <ErrorNotice error={fetchFailed.error} onRetry={() => lookUp(orderId!, true)} />
      )}
      {orderId !== null && !view && (fetchOrder.isPending || cached.isLoading) && (
        <Skeleton rows={6} label="Loading the order" />
      )}
      {orderId !== null && !view && !fetchOrder.isPending && cached.isSuccess && !fetchFailed && (
        <EmptyState title="Not in the cache">
          Order {orderId} has not been read on this profile yet. Look it up while the service answers.
        </EmptyState>
      )}
      {view && (
        <div className="order-layout">
          <div className="order-main">
            <OrderDetail view={view} />
          </div>
          <div className="order-side">
            <OrderActions key={view.order.order_id} view={view} />
            <RefundAttempts view={view} />
            <ActionJournalPanel
              note={checkNote}
              entries={actions.data}
              offline={offline}
              checking={check.isPending ? (check.variables?.attemptSeq ?? null) : null}
              onCheck={(seq) => void checkStatus(seq)}
            />
          </div>
        </div>
      )}
      {!orderId && (
        <EmptyState title="Look up an order">
          Enter its id above, open one from the recent orders below, or use “Open order” on a settlement record.
        </EmptyState>
      )}
      <RecentLookups
        table={RECENT_TABLE}
        noun="order"
        nouns="orders"
        query={recentQuery}
        columns={COLUMNS}
        rowKey={orderIdOf}
        statusOf={orderStatusOf}
        currentKey={orderId}
        onOpen={(o) => lookUp(o.order_id, false)}
      />
    </div>
  );
}
