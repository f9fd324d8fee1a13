/**
 * The Batches view of the Settlements screen: the records of the range and gateway rolled up into the bank credits
 * they settle in (gateway, UTR, settlement time), with totals that tie to the records' totals for the same dates and
 * gateway. Opening a batch shows its records in the grid (its date, gateway and UTR; a batch still without a UTR by
 * the gateway's records of that date that have none).
 */
import { useMemo } from 'react';
import { formatMoney, sumMinor } from '../../../shared/money';
import { loadableOf } from '../query/ipc-query';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { formatCalendarDate, formatCount, formatIstWallClock } from '../../../shared/format';
import { AmountSplit } from './AmountSplit';
import { useBatches, type Batch } from './settlements-queries';
import { NO_FILTERS, hasFilters, useSettlements } from './settlements-store';
import { useSettlementsView } from './view-store';

/** The batches' table: its columns, sort and saved views are kept under this id. */
const BATCHES_TABLE = 'settlement-batches';
const NO_LIST_FILTERS = {};

const keyOf = (b: Batch) => `${b.date}|${b.pg}|${b.utr}|${b.settlementDate}`;

/** The time alone when the batch settled on its own date (the usual case), so eleven columns fit at 1280 wide. */
function settledAt(b: Batch): string {
  const full = formatIstWallClock(b.settlementDate);
  const [day, time] = full.split(', ');
  return time !== undefined && day === formatCalendarDate(b.date) ? time : full;
}

const COLUMNS: DataColumn<Batch>[] = [
  { id: 'date', label: 'Date', cell: (b) => formatCalendarDate(b.date), sortValue: (b) => b.date },
  { id: 'pg', label: 'Gateway', cell: (b) => b.pg, sortValue: (b) => b.pg },
  { id: 'utr', label: 'UTR', mono: true, cell: (b) => b.utr || 'UTR pending', sortValue: (b) => b.utr },
  {
    id: 'at',
    label: 'Settled at',
    cell: settledAt,
    sortValue: (b) => b.settlementDate,
    optional: true,
  },
  { id: 'records', label: 'Records', numeric: true, cell: (b) => formatCount(b.records), sortValue: (b) => b.records },
  { id: 'amount', label: 'Amount', numeric: true, cell: (b) => formatMoney(b.amount), sortValue: (b) => b.amount },
  {
    id: 'fees',
    label: 'Fees',
    numeric: true,
    cell: (b) => formatMoney(b.fees),
    sortValue: (b) => b.fees,
    optional: true,
  },
  {
    id: 'taxes',
    label: 'Taxes',
    numeric: true,
    cell: (b) => formatMoney(b.taxes),
    sortValue: (b) => b.taxes,
    optional: true,
  },
  {
    id: 'refunds',
    label: 'Refunds',
    numeric: true,
    cell: (b) => (b.refunds === null ? '—' : formatMoney(b.refunds)),
    sortValue: (b) => b.refunds ?? 0,
    optional: true,
    hiddenByDefault: true,
  },
  {
    id: 'chargebacks',
    label: 'Chargebacks',
    numeric: true,
    cell: (b) => (b.chargebacks === null ? '—' : formatMoney(b.chargebacks)),
    sortValue: (b) => b.chargebacks ?? 0,
    optional: true,
    hiddenByDefault: true,
  },
  {
    id: 'subvention',
    label: 'Subvention',
    numeric: true,
    cell: (b) => formatMoney(b.subvention),
    sortValue: (b) => b.subvention,
    optional: true,
    hiddenByDefault: true,
  },
  { id: 'settled', label: 'Settled', numeric: true, cell: (b) => formatMoney(b.settled), sortValue: (b) => b.settled },
  {
    id: 'exceptions',
    label: 'Exceptions',
    numeric: true,
    cell: (b) => (b.exceptions ? formatCount(b.exceptions) : ''),
    sortValue: (b) => b.exceptions,
    optional: true,
  },
];

/**
 * The batches' amount as sales, refunds and chargebacks; null when a batch of the desk's copy was published before
 * the desk kept them, so no partial figure is shown as the whole.
 */
function split(rows: readonly Batch[]) {
  if (rows.some((b) => b.refunds === null || b.chargebacks === null)) return null;
  const refunds = sumMinor(rows.map((b) => b.refunds!));
  const chargebacks = sumMinor(rows.map((b) => b.chargebacks!));
  return { sales: sumMinor(rows.map((b) => b.amount)) - refunds - chargebacks, refunds, chargebacks };
}

const FIGURES = [
  ['Amount', 'amount'],
  ['Fees', 'fees'],
  ['Taxes', 'taxes'],
  ['Settled', 'settled'],
] as const;

export function BatchesView() {
  const range = useSettlements((s) => s.range);
  const filters = useSettlements((s) => s.filters);
  const setRange = useSettlements((s) => s.setRange);
  const setFilters = useSettlements((s) => s.setFilters);
  const setView = useSettlementsView((s) => s.setView);
  const query = useBatches(range);
  const batches = loadableOf(query);
  const [sort, setSort] = useTableSort(BATCHES_TABLE);
  // Its views hold the sort and columns: the dates and gateway are the Settlements screen's own.
  const views = useTableViews(BATCHES_TABLE, NO_LIST_FILTERS);
  const rows = useMemo(() => query.data?.batches ?? [], [query.data]);
  const totals = useMemo(
    () => ({
      batches: rows.length,
      records: rows.reduce((t, b) => t + b.records, 0),
      amount: sumMinor(rows.map((b) => b.amount)),
      fees: sumMinor(rows.map((b) => b.fees)),
      taxes: sumMinor(rows.map((b) => b.taxes)),
      settled: sumMinor(rows.map((b) => b.settled)),
      split: split(rows),
    }),
    [rows],
  );
  // The batches are whole bank credits: only the dates and the gateway narrow them.
  const recordFilters = hasFilters(filters);

  const open = (b: Batch) => {
    setRange({ from: b.date, to: b.date, pg: b.pg });
    setFilters(b.utr ? { ...NO_FILTERS, search: b.utr } : { ...NO_FILTERS, rule: 'missing_utr' });
    setView('records');
  };

  return (
    <section aria-label="Batches" className="stl-batches">
      <p className="muted stl-batches-note">
        A batch is one bank credit: a gateway&apos;s records settled under one UTR at one time. Enter or a click shows
        its records in the grid.
        {recordFilters && ' The record filters below do not narrow batches; only the dates and the gateway do.'}
      </p>
      {batches.status === 'ready' && (
        <dl className="stl-batch-totals" aria-label="Batch totals">
          <div>
            <dt>Batches</dt>
            <dd>{formatCount(totals.batches)}</dd>
          </div>
          <div>
            <dt>Records</dt>
            <dd>{formatCount(totals.records)}</dd>
          </div>
          {FIGURES.map(([label, key]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd className="money">{formatMoney(totals[key])}</dd>
            </div>
          ))}
        </dl>
      )}
      {batches.status === 'ready' &&
        rows.length > 0 &&
        (totals.split ? (
          <AmountSplit sums={totals.split} />
        ) : (
          <p className="muted stl-split">
            Sales, refunds and chargebacks: not on the desk&apos;s copy of some of these batches yet (published by an
            earlier version); they show once a console that syncs publishes those dates again.
          </p>
        ))}
      <DataTable
        id={BATCHES_TABLE}
        label="Batches"
        columns={COLUMNS}
        rows={rows}
        rowKey={keyOf}
        sort={sort}
        onSort={setSort}
        onOpen={open}
        views={<SavedViewsMenu {...views.menu} />}
        state={
          batches.status === 'loading'
            ? { kind: 'loading', label: 'Loading the batches' }
            : batches.status === 'failed'
              ? { kind: 'error', error: batches.error, retry: () => void query.refetch() }
              : rows.length === 0
                ? { kind: 'empty', title: 'No batches on these dates: Sync to fetch the settlements.' }
                : { kind: 'ready' }
        }
      />
    </section>
  );
}

/** Records or batches: beside the totals, two buttons (one pressed), each a tab stop. */
export function ViewSwitch() {
  const view = useSettlementsView((s) => s.view);
  const setView = useSettlementsView((s) => s.setView);
  return (
    <div role="group" aria-label="Show" className="stl-view-switch">
      {(
        [
          ['records', 'Records'],
          ['batches', 'Batches'],
        ] as const
      ).map(([v, label]) => (
        <button key={v} type="button" className="button" aria-pressed={view === v} onClick={() => setView(v)}>
          {label}
        </button>
      ))}
    </div>
  );
}
