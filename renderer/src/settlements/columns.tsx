/**
 * The settlements table's columns. Money comes first after the date and gateway, so the figures a desk
 * reconciles are on screen without scrolling sideways; identifiers and the two wall-clock times follow.
 */
import type { ReactNode } from 'react';
import { RULES, type RuleId } from '../../../shared/reconciliation';
import type { CachedSettlement, SettlementSortColumn } from '../../../shared/settlement-query';
import { formatCalendarDate, formatIstWallClock } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';

/** Table-width names of the rules; the filter menu and the detail panel use the full sentences of RULES. */
export const RULE_SHORT: Readonly<Record<RuleId, string>> = {
  settled_amount_mismatch: 'Settled ≠ formula',
  tax_breakdown_mismatch: 'Tax split off',
  failed_but_settled: 'Failed, settled',
  missing_utr: 'No UTR',
  dispute_open: 'Dispute open',
  duplicate_settlement: 'Settled twice',
};

export interface Column {
  id: string;
  label: string;
  /** Shown instead of the label where the column is too narrow for it; the label stays its accessible name. */
  abbr?: string;
  width: number;
  sort?: SettlementSortColumn;
  numeric?: boolean;
  mono?: boolean;
  cell(row: CachedSettlement): ReactNode;
}

const none = (
  <span className="muted" aria-label="none">
    —
  </span>
);

function ExceptionMarker({ row }: { row: CachedSettlement }) {
  if (row.exceptions.length === 0) return row.vanishedAt ? <span className="stl-tag">gone</span> : null;
  const rules = row.exceptions.map((e) => RULES[e.rule]).join('; ');
  return (
    <span className="stl-flag" title={rules} aria-label={`${row.exceptions.length} exceptions: ${rules}`}>
      ⚠{row.exceptions.length > 1 ? row.exceptions.length : ''}
    </span>
  );
}

function RulesBroken({ row }: { row: CachedSettlement }) {
  return (
    <span className="stl-rules" title={row.exceptions.map((e) => RULES[e.rule]).join('; ')}>
      {row.exceptions.map((e) => RULE_SHORT[e.rule]).join(', ')}
    </span>
  );
}

const money = (pick: (row: CachedSettlement) => number) => (row: CachedSettlement) => formatMoney(pick(row));

const REST: Column[] = [
  { id: 'date', label: 'Date', width: 104, sort: 'date', cell: (r) => formatCalendarDate(r.date) },
  { id: 'pg', label: 'Gateway', width: 84, sort: 'pg', cell: (r) => r.pg },
  { id: 'payment_mode', label: 'Mode', width: 68, sort: 'payment_mode', cell: (r) => r.payment_mode },
  { id: 'amount', label: 'Amount', width: 112, sort: 'amount', numeric: true, cell: money((r) => r.amount) },
  { id: 'fee', label: 'Fee', width: 92, sort: 'mer_service_fee', numeric: true, cell: money((r) => r.mer_service_fee) },
  { id: 'tax', label: 'Tax', width: 84, sort: 'mer_service_tax', numeric: true, cell: money((r) => r.mer_service_tax) },
  {
    id: 'settled',
    label: 'Settled',
    width: 112,
    sort: 'settled_amount',
    numeric: true,
    cell: money((r) => r.settled_amount),
  },
  // Beside the money, so the bank credit a record settled in is on screen at 1280 px wide.
  { id: 'utr', label: 'UTR', width: 118, sort: 'utr', mono: true, cell: (r) => r.utr ?? none },
  { id: 'order_status', label: 'Order status', width: 96, sort: 'order_status', cell: (r) => r.order_status },
  { id: 'pg_status', label: 'Gateway status', width: 120, sort: 'pg_status', cell: (r) => r.pg_status },
  { id: 'order_id', label: 'Order ID', width: 124, sort: 'order_id', mono: true, cell: (r) => r.order_id ?? none },
  {
    id: 'pg_transaction_id',
    label: 'Gateway txn ID',
    width: 130,
    sort: 'pg_transaction_id',
    mono: true,
    cell: (r) => r.pg_transaction_id,
  },
  {
    id: 'settlement_date',
    label: 'Settled at',
    width: 206,
    sort: 'settlement_date',
    // The one timestamp format, as the detail shows it (the API sends IST wall-clock text).
    cell: (r) => formatIstWallClock(r.settlement_date),
  },
  {
    id: 'order_date',
    label: 'Ordered at',
    width: 206,
    sort: 'order_date',
    cell: (r) => formatIstWallClock(r.order_date),
  },
];

const MARKER: Column = {
  id: 'exceptions',
  label: 'Exceptions',
  abbr: '⚠',
  width: 40,
  cell: (row) => <ExceptionMarker row={row} />,
};
const RULES_BROKEN: Column = {
  id: 'exceptions',
  label: 'Rules broken',
  width: 200,
  cell: (row) => <RulesBroken row={row} />,
};

/** The exception's workflow state: the cache's own, or the desk's on a desk (treasury/exception-queue.ts). */
const STATE: Column = {
  id: 'exception_state',
  label: 'State',
  width: 104,
  cell: (row) => row.exceptionState ?? none,
};

/**
 * With "exceptions only" the first columns name the rules each row broke and its workflow state; otherwise the
 * first is a marker.
 */
export const COLUMNS: Readonly<Record<'normal' | 'exceptions', readonly Column[]>> = {
  normal: [MARKER, ...REST],
  exceptions: [RULES_BROKEN, STATE, ...REST],
};
