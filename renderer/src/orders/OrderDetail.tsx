import { z } from 'zod';
import { ORDER_FIELDS, type OrderView, type StoredRefundAttempt } from '../../../shared/orders';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { FilterSelect, optionsOf } from '../ui/FilterSelect';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { ErrorNotice } from '../ui/states';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { formatIstInstant, formatIstWallClock } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';

const LABELS: Record<(typeof ORDER_FIELDS)[number], string> = {
  order_id: 'Order id',
  receipt_id: 'Receipt id',
  pg_transaction_id: 'Gateway transaction id',
  amount: 'Amount',
  currency: 'Currency',
  order_status: 'Status',
  unmapped_status: "Gateway's own status",
  pg: 'Gateway',
  method: 'Method',
  card_last_4: 'Card last four',
  card_issuer: 'Card issuer',
  customer: 'Customer',
  billing_address: 'Billing address',
  shipping_address: 'Shipping address',
  notes: 'Notes (udf1–udf10)',
  additional_charges: 'Additional charges',
  mdr: 'MDR',
  tpv: 'TPV',
  created_at: 'Created',
  updated_at: 'Updated',
};

/** An object's filled-in parts, one per line ("udf1: cart-16"); the service sends "" for many empty ones. */
function parts(value: object) {
  const filled = Object.entries(value).filter(([, v]) => v !== '' && v !== null && v !== undefined);
  if (filled.length === 0) return <span className="muted">empty</span>;
  return (
    <span className="order-parts">
      {filled.map(([k, v]) => (
        <span key={k}>
          <span className="muted">{k}</span> {typeof v === 'object' ? JSON.stringify(v) : String(v)}
        </span>
      ))}
    </span>
  );
}

function valueOf(view: OrderView, field: (typeof ORDER_FIELDS)[number]) {
  const o = view.order;
  const value = (o as Record<string, unknown>)[field];
  if (value === undefined) return <span className="order-missing">Not in the answer</span>;
  if (value === null || value === '') return <span className="muted">—</span>;
  if (field === 'amount' || field === 'additional_charges') return formatMoney(value as number, o.currency);
  if (field === 'created_at' || field === 'updated_at') return formatIstWallClock(String(value));
  if (Array.isArray(value)) return value.length ? JSON.stringify(value) : <span className="muted">none</span>;
  if (typeof value === 'object') return parts(value);
  return <span className={field.endsWith('_id') ? 'mono' : undefined}>{String(value)}</span>;
}

/** Every field the interface documents for an order; one the answer left out (Variant B) says so. */
export function OrderDetail({ view }: { view: OrderView }) {
  return (
    <section className="order-panel" aria-labelledby="order-detail-title">
      <header className="order-panel-head">
        <h2 id="order-detail-title">
          Order <span className="mono">{view.order.order_id}</span>
        </h2>
        <span className={`order-status order-status-${view.order.order_status}`}>{view.order.order_status}</span>
      </header>
      {view.missing.length > 0 && (
        <p className="order-variant-note" role="note">
          The service answered in its short form: {view.missing.length} of the {ORDER_FIELDS.length} documented fields
          were not sent and are marked “Not in the answer”.
        </p>
      )}
      <dl className="order-fields">
        {ORDER_FIELDS.slice(1).map((f) => (
          <div key={f} className="order-field">
            <dt>{LABELS[f]}</dt>
            <dd>{valueOf(view, f)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function refundColumns(currency: string): DataColumn<StoredRefundAttempt>[] {
  return [
    { id: 'id', label: 'Refund id', mono: true, cell: (r) => r.refund_id, sortValue: (r) => r.refund_id },
    {
      id: 'amount',
      label: 'Amount',
      numeric: true,
      cell: (r) => formatMoney(r.amount, currency),
      sortValue: (r) => r.amount,
    },
    { id: 'type', label: 'Type', optional: true, cell: (r) => r.type ?? '—', sortValue: (r) => r.type ?? null },
    { id: 'status', label: 'Status', cell: (r) => r.status, sortValue: (r) => r.status },
    { id: 'rrn', label: 'RRN', mono: true, optional: true, cell: (r) => r.rrn ?? '—', sortValue: (r) => r.rrn ?? null },
    {
      id: 'at',
      label: 'Attempted at',
      optional: true,
      cell: (r) => (r.attempted_at ? formatIstInstant(r.attempted_at) : '—'),
      sortValue: (r) => r.attempted_at ?? null,
    },
  ];
}

/** Any order's refund attempts: one table id, so a view (a status, a sort) serves every order. */
const REFUNDS_TABLE = 'orders.refunds';
const REFUND_FILTERS = { status: z.string().max(40) };

/** The refund attempts with the refundable balance: amount less successful and pending refunds. */
export function RefundAttempts({ view }: { view: OrderView }) {
  const currency = view.order.currency;
  const [sort, setSort] = useTableSort(REFUNDS_TABLE);
  const views = useTableViews(REFUNDS_TABLE, REFUND_FILTERS);
  const status = views.filters['status'] as string | undefined;
  const all = view.refunds ?? [];
  const rows = status ? all.filter((r) => r.status === status) : all;
  return (
    <section className="order-panel" aria-labelledby="order-refunds-title">
      <header className="order-panel-head">
        <h2 id="order-refunds-title">Refund attempts</h2>
      </header>
      {view.refunds === null ? (
        <ErrorNotice
          error={{ code: 'REFUNDS_UNLISTED', message: `The refund attempts could not be listed: ${view.refundsError}` }}
        />
      ) : (
        <>
          {view.refunds.length === 0 ? (
            <p className="muted">No refund attempts.</p>
          ) : (
            <DataTable
              id={REFUNDS_TABLE}
              label="Refund attempts"
              columns={refundColumns(currency)}
              rows={rows}
              rowKey={(r) => r.refund_id}
              sort={sort}
              onSort={setSort}
              state={rows.length === 0 ? { kind: 'empty', title: `No refund attempt is ${status}` } : undefined}
              filters={
                <FilterSelect
                  label="Status"
                  value={status}
                  options={optionsOf(all, (r) => r.status)}
                  onChange={(v) => views.setFilter('status', v)}
                />
              }
              views={<SavedViewsMenu {...views.menu} />}
            />
          )}
          {view.balance && (
            <p className="order-balance" data-testid="refundable">
              Refundable <strong>{formatMoney(view.balance.refundable, currency)}</strong>
              <span className="muted">
                {' '}
                = amount {formatMoney(view.balance.amount, currency)} − refunded{' '}
                {formatMoney(view.balance.refunded, currency)} − pending {formatMoney(view.balance.pending, currency)}
              </span>
            </p>
          )}
        </>
      )}
    </section>
  );
}
