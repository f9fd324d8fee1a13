import { useEffect } from 'react';
import type { RecentOrder } from '../../../shared/orders';
import { useApprovalPolicy } from '../approvals/approvals-queries';
import { ActionJournalPanel } from '../journal/ActionEntries';
import { loadableOf, useActiveProfileId } from '../query/ipc-query';
import { AsOf } from '../ui/AsOf';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState } from '../ui/states';
import { LookupForm, LookupStates, RecordLayout, RefreshButton, recentColumns, useStatusCheck } from './lookup-parts';
import { OrderActions } from './OrderActions';
import { OrderDetail, RefundAttempts } from './OrderDetail';
import { ProposeRefund } from './ProposeRefund';
import { useCachedOrder, useFetchOrder, useOrderActions, useOrderCheck, useRecentOrders } from './orders-queries';
import { useOrdersUi } from './orders-store';
import { RecentLookups, type RecentKind } from './RecentLookups';
import './orders.css';

const orderStatusOf = (o: RecentOrder) => o.order_status;
const RECENT: RecentKind<RecentOrder> = {
  table: 'orders.recent',
  noun: 'order',
  nouns: 'orders',
  rowKey: (o) => o.order_id,
  statusOf: orderStatusOf,
  columns: [
    { id: 'order', label: 'Order', mono: true, cell: (o) => o.order_id, sortValue: (o) => o.order_id },
    ...recentColumns(orderStatusOf),
  ],
};

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
  const status = useStatusCheck(check);
  const policy = useApprovalPolicy().data;
  // A desk console kept without the API secret cannot read orders: it proposes refunds of a typed amount.
  const secretless = policy?.mode === 'desk' && !policy.holdsSecret;
  const canAsk = offline === null && !secretless;

  function lookUp(id: string, ask = canAsk) {
    if (profileId === null) return;
    show(profileId, id);
    fetchOrder.reset();
    status.setNote(null);
    if (ask) fetchOrder.mutate({ id });
  }

  // Opened from a settlement record: look the order up once the screen is here (offline it shows the cache's copy).
  const askedFor = stored?.lookUp && orderId !== null ? orderId : null;
  const mutateFetch = fetchOrder.mutate;
  useEffect(() => {
    if (askedFor === null) return;
    lookedUp();
    if (canAsk) mutateFetch({ id: askedFor });
  }, [askedFor, canAsk, lookedUp, mutateFetch]);

  const view = cached.data ?? null;
  const fetchFailed = fetchOrder.isError && fetchOrder.variables?.id === orderId ? loadableOf(fetchOrder) : null;

  return (
    <div className="screen orders-screen">
      <OfflineBanner />
      <PageHeader title="Orders" asOf={view ? <AsOf at={view.fetchedAt} label="Read" /> : undefined}>
        {view && <RefreshButton busy={fetchOrder.isPending} onRefresh={() => lookUp(view.order.order_id, true)} />}
      </PageHeader>
      <LookupForm
        ariaLabel="Look up an order"
        noun="an order id"
        label="Order id"
        placeholder="ord_…"
        hint={
          secretless
            ? 'This console holds no API secret: enter the order id to propose its refund. / or Ctrl+F (⌘F on a Mac) jumps here.'
            : 'Fetches the order and its refund attempts. / or Ctrl+F (⌘F on a Mac) jumps here.'
        }
        offlineHint="Offline: shows the order as last read, from the cache."
        busy={fetchOrder.isPending}
        onLookUp={lookUp}
      />
      <LookupStates
        asked={orderId !== null}
        shown={view !== null}
        fetching={fetchOrder.isPending}
        cached={cached}
        failed={fetchFailed}
        onRetry={() => lookUp(orderId!, true)}
        loading={{ rows: 6, label: 'Loading the order' }}
        notInCache={
          secretless ? (
            <>
              This console holds no API secret, so it cannot read order {orderId} from the service. Propose a refund of
              a typed amount: the approver&apos;s console reads the order before it sends.
            </>
          ) : (
            <>Order {orderId} has not been read on this profile yet. Look it up while the service answers.</>
          )
        }
      />
      {secretless && orderId !== null && view === null && <ProposeRefund key={orderId} orderId={orderId} />}
      {view && (
        <RecordLayout detail={<OrderDetail view={view} />}>
          <OrderActions key={view.order.order_id} view={view} />
          <RefundAttempts view={view} />
          <ActionJournalPanel {...status.panel} entries={actions.data} offline={offline} />
        </RecordLayout>
      )}
      {!orderId && (
        <EmptyState title="Look up an order">
          Enter its id above, open one from the recent orders below, or use “Open order” on a settlement record.
        </EmptyState>
      )}
      <RecentLookups kind={RECENT} query={recentQuery} currentKey={orderId} onOpen={(o) => lookUp(o.order_id, false)} />
    </div>
  );
}
