import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { RecentOrder } from '../../../shared/orders';
import { ActionJournalPanel } from '../journal/ActionEntries';
import { loadableOf, resultOf, useActiveProfileId } from '../query/ipc-query';
import { AsOf } from '../ui/AsOf';
import { z } from 'zod';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { FilterSelect, optionsOf } from '../ui/FilterSelect';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { FormField } from '../ui/FormField';
import { formatIstInstant, formatMoney } from '../ui/format';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { useFindShortcut } from '../ui/use-find-shortcut';
import { OrderActions } from './OrderActions';
import { OrderDetail, RefundAttempts } from './OrderDetail';
import { useCachedOrder, useFetchOrder, useOrderActions, useOrderCheck, useRecentOrders } from './orders-queries';
import { useOrdersUi } from './orders-store';
import './orders.css';

/** The recent orders' table: its columns, sort, filter and saved views are kept under this id. */
const RECENT_TABLE = 'orders.recent';
const RECENT_FILTERS = { status: z.string().max(40) };

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
  const [id, setId] = useState('');
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  useFindShortcut(input);
  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = id.trim();
    const problem =
      trimmed === '' ? 'Enter an order id.' : trimmed.length > 64 ? 'An order id is at most 64 characters.' : undefined;
    setError(problem);
    if (problem) return input.current?.focus();
    onLookUp(trimmed);
  }
  return (
    <form className="order-form" onSubmit={submit} noValidate aria-label="Look up an order">
      <FormField
        label="Order id"
        error={error}
        hint={
          offline
            ? 'Offline: shows the order as last read, from the cache.'
            : 'Fetches the order and its refund attempts. / or Ctrl+F (⌘F on a Mac) jumps here.'
        }
      >
        {(control) => (
          <input
            {...control}
            ref={input}
            data-search
            className="input mono"
            autoComplete="off"
            spellCheck={false}
            placeholder="ord_…"
            value={id}
            onChange={(e) => setId(e.target.value)}
          />
        )}
      </FormField>
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
  const recent = loadableOf(recentQuery);
  const [sort, setSort] = useTableSort(RECENT_TABLE);
  const recentViews = useTableViews(RECENT_TABLE, RECENT_FILTERS);
  const status = recentViews.filters['status'] as string | undefined;
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
  const all = useMemo(() => (recent.status === 'ready' ? recent.value : []), [recent]);
  const rows = useMemo(() => (status ? all.filter((o) => o.order_status === status) : all), [all, status]);

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
      <section className="order-panel" aria-labelledby="order-recent-title">
        <header className="order-panel-head">
          <h2 id="order-recent-title">Recent orders</h2>
        </header>
        {recent.status === 'loading' && <Skeleton rows={3} label="Loading recent orders" />}
        {recent.status === 'failed' && <ErrorNotice error={recent.error} onRetry={() => void recentQuery.refetch()} />}
        {recent.status === 'ready' &&
          (all.length === 0 ? (
            <p className="muted">Orders you look up are kept here, and read offline.</p>
          ) : (
            <DataTable
              id={RECENT_TABLE}
              label="Recent orders"
              columns={COLUMNS}
              rows={rows}
              rowKey={(o) => o.order_id}
              sort={sort}
              onSort={setSort}
              currentKey={orderId}
              onOpen={(o) => lookUp(o.order_id, false)}
              state={rows.length === 0 ? { kind: 'empty', title: `No recent order is ${status}` } : undefined}
              filters={
                <FilterSelect
                  label="Status"
                  value={status}
                  options={optionsOf(all, (o) => o.order_status)}
                  onChange={(v) => recentViews.setFilter('status', v)}
                />
              }
              views={<SavedViewsMenu {...recentViews.menu} />}
            />
          ))}
      </section>
    </div>
  );
}
