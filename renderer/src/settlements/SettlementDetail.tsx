/**
 * Everything the cache holds about one settlement record: its fields, the fields the API sent beyond the
 * contract, the rules it broke with the values that broke them, and when a re-sync stopped finding it.
 * A side panel beside the grid, not over it: the rows around the record stay in view (a modal covered them at
 * 1280 px). Escape or Close returns to the grid, on the row it came from.
 */
import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigation } from '../navigation/navigation-store';
import { useOrdersUi } from '../orders/orders-store';
import { useActiveProfileId } from '../query/ipc-query';
import { ExceptionWorkflow } from './ExceptionWorkflow';
import { RULES, MONEY_VALUE_NAMES } from '../../../shared/reconciliation';
import type { CachedSettlement } from '../../../shared/settlement-query';
import { FIELD_LABELS, fieldLabel } from '../../../shared/settlement-changes';
import { formatCalendarDate, formatIstInstant, formatIstWallClock } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';

function exceptionValue(key: string, value: number | string | null): ReactNode {
  if (value === null) return <span className="muted">none</span>;
  if (typeof value === 'number' && MONEY_VALUE_NAMES.has(key)) return formatMoney(value);
  return String(value);
}

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts stl-facts">
      {items.map(([label, value]) => (
        <div key={label} className="stl-fact">
          <dt>{label}</dt>
          <dd>{value ?? <span className="muted">none</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

export function SettlementDetail({ row, onClose }: { row: CachedSettlement; onClose(): void }) {
  const titleId = useId();

  const mono = (text: string | null) => (text === null ? null : <span className="mono">{text}</span>);
  const profileId = useActiveProfileId();
  const showOrder = useOrdersUi((s) => s.show);
  const openScreen = useNavigation((s) => s.open);
  // The record's order on the Orders screen: looked up there (or read from the cache offline).
  const orderLink = (orderId: string | null) =>
    orderId === null || profileId === null ? null : (
      <span className="stl-order-link">
        {mono(orderId)}{' '}
        <button
          type="button"
          className="button"
          onClick={() => {
            showOrder(profileId, orderId, true);
            onClose();
            openScreen('orders');
          }}
        >
          Open order
        </button>
      </span>
    );
  const extra = Object.entries(row.extra ?? {});

  return (
    <aside
      className="stl-detail"
      aria-labelledby={titleId}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        event.preventDefault();
        onClose();
      }}
    >
      <div className="stl-detail-head">
        <h2 id={titleId}>
          Settlement <span className="mono">{row.pg_transaction_id}</span>
        </h2>
        <button type="button" className="button" autoFocus onClick={onClose}>
          Close
        </button>
      </div>

      {row.vanishedAt && (
        <p className="notice notice-warning">
          The API stopped returning this record on {formatIstInstant(row.vanishedAt)}. It is kept here and left out of
          current figures.
        </p>
      )}

      <section aria-label="Exceptions">
        <h3>Exceptions</h3>
        {row.exceptions.length === 0 ? (
          <p className="muted">This record breaks no reconciliation rule.</p>
        ) : (
          row.exceptions.map((e) => (
            <div key={e.rule} className="stl-exception">
              <p className="stl-exception-rule">{RULES[e.rule]}</p>
              <Facts
                items={Object.entries(e.values).map(([k, v]): [string, ReactNode] => [
                  fieldLabel(k),
                  exceptionValue(k, v),
                ])}
              />
            </div>
          ))
        )}
        {row.exceptions.length > 0 && !row.vanishedAt && <ExceptionWorkflow recordId={row.id} date={row.date} />}
      </section>

      <section aria-label="Record">
        <h3>Record</h3>
        <Facts
          items={[
            [FIELD_LABELS.date, formatCalendarDate(row.date)],
            [FIELD_LABELS.pg, row.pg],
            [FIELD_LABELS.payment_mode, row.payment_mode],
            [FIELD_LABELS.pg_transaction_id, mono(row.pg_transaction_id)],
            [FIELD_LABELS.order_id, orderLink(row.order_id)],
            [FIELD_LABELS.utr, mono(row.utr)],
            [FIELD_LABELS.settlement_date, formatIstWallClock(row.settlement_date)],
            [FIELD_LABELS.order_date, formatIstWallClock(row.order_date)],
            [FIELD_LABELS.order_status, row.order_status],
            [FIELD_LABELS.pg_status, row.pg_status],
            [FIELD_LABELS.dispute_id, mono(row.dispute_id)],
            [FIELD_LABELS.description, row.description],
          ]}
        />
      </section>

      <section aria-label="Amounts">
        <h3>Amounts</h3>
        <Facts
          items={(
            [
              'amount',
              'mer_service_fee',
              'mer_service_tax',
              'cgst',
              'sgst',
              'igst',
              'merchant_subvention_amount',
              'settled_amount',
            ] as const
          ).map((k) => [FIELD_LABELS[k], <span className="money">{formatMoney(row[k])}</span>])}
        />
      </section>

      {extra.length > 0 && (
        <section aria-label="Other fields from the API">
          <h3>Other fields from the API</h3>
          <Facts
            items={extra.map(([k, v]): [string, ReactNode] => [k, <span className="mono">{JSON.stringify(v)}</span>])}
          />
        </section>
      )}
    </aside>
  );
}
