import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_TURNAROUND, formatAge, payoutAge, type PayoutAge } from '../../../shared/payout-ageing';
import type { PayoutLookup } from '../../../shared/payouts';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { useTableSort } from '../ui/table-sorts';
import { formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { usePayoutSettings } from './payouts-queries';
import { TransferStatus } from './TransferStatus';

type Row = PayoutLookup & { age: PayoutAge };

const COLUMNS: DataColumn<Row>[] = [
  { id: 'payout', label: 'Payout', mono: true, cell: (l) => l.payoutId, sortValue: (l) => l.payoutId },
  {
    id: 'status',
    label: 'Status',
    optional: true,
    cell: (l) =>
      l.error === null ? <TransferStatus status={l.transferStatus} /> : <span className="error">{l.error}</span>,
    sortValue: (l) => l.transferStatus ?? l.error,
  },
  {
    id: 'amount',
    label: 'Amount',
    numeric: true,
    optional: true,
    cell: (l) => (l.amount === null ? '—' : formatMoney(l.amount)),
    sortValue: (l) => l.amount,
  },
  {
    id: 'beneficiary',
    label: 'Beneficiary',
    optional: true,
    cell: (l) => l.payout?.beneficiary?.name ?? '—',
    sortValue: (l) => l.payout?.beneficiary?.name ?? null,
  },
  {
    id: 'method',
    label: 'Method',
    optional: true,
    cell: (l) => l.payout?.method?.toUpperCase() ?? '—',
    sortValue: (l) => l.payout?.method ?? null,
  },
  {
    id: 'firstSeen',
    label: 'First seen',
    optional: true,
    // Age says the same at a glance; the column chooser shows the time.
    hiddenByDefault: true,
    cell: (l) => (l.age.firstSeenAt ? <span className="muted">{formatIstInstant(l.age.firstSeenAt)}</span> : '—'),
    sortValue: (l) => l.age.firstSeenAt,
  },
  {
    id: 'age',
    label: 'Age',
    numeric: true,
    optional: true,
    cell: (l) => (l.age.ageMs === null ? '—' : formatAge(l.age.ageMs)),
    sortValue: (l) => l.age.ageMs,
  },
  {
    id: 'expected',
    label: 'Expected by',
    optional: true,
    cell: (l) =>
      l.age.expectedBy === null ? (
        '—'
      ) : l.age.overdue ? (
        <strong className="error payout-overdue">Overdue since {formatIstInstant(l.age.expectedBy)}</strong>
      ) : (
        formatIstInstant(l.age.expectedBy)
      ),
    // Overdue first when sorted ascending: a desk sorts to chase them.
    sortValue: (l) => (l.age.expectedBy === null ? null : `${l.age.overdue ? 0 : 1}${l.age.expectedBy}`),
  },
  {
    id: 'checked',
    label: 'Last checked',
    optional: true,
    cell: (l) => <span className="muted">{formatIstInstant(l.lookedUpAt)}</span>,
    sortValue: (l) => l.lookedUpAt,
  },
];

/** The time, moved on once a minute: ages and "overdue" stay current while the list is open. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Latest lookups, one row per payout, in the shared table: ↑/↓ move between rows, Enter or a click opens one. */
export function LookupTable({
  id,
  label,
  lookups,
  current,
  onOpen,
  empty,
  filters,
  views,
}: {
  /** The table's own name, under which its columns and density are remembered. */
  id: string;
  label: string;
  lookups: readonly PayoutLookup[];
  /** The payout on screen, marked in the list. */
  current: string | null;
  onOpen(payoutId: string): void;
  /** What an empty list says (a filter that matches nothing). */
  empty?: string;
  /** The list's filters and saved views menu, as DataTable takes them. */
  filters?: ReactNode;
  views?: ReactNode;
}) {
  const [sort, setSort] = useTableSort(id);
  const settings = usePayoutSettings();
  const turnaround = settings.data?.turnaround ?? DEFAULT_TURNAROUND;
  const now = useMinuteClock();
  const rows = useMemo(
    () => lookups.map((l): Row => ({ ...l, age: payoutAge(l, now, turnaround) })),
    [lookups, turnaround, now],
  );
  return (
    <DataTable
      id={id}
      label={label}
      columns={COLUMNS}
      rows={rows}
      rowClass={(l) => (l.age.overdue ? 'payout-row-overdue' : undefined)}
      rowKey={(l) => l.payoutId}
      sort={sort}
      onSort={setSort}
      currentKey={current}
      onOpen={(l) => onOpen(l.payoutId)}
      state={rows.length === 0 && empty ? { kind: 'empty', title: empty } : undefined}
      filters={filters}
      views={views}
    />
  );
}
