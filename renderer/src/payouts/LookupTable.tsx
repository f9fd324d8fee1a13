import { useState } from 'react';
import type { PayoutLookup } from '../../../shared/payouts';
import { DataTable, type DataColumn, type TableSort } from '../ui/DataTable';
import { formatIstInstant, formatMoney } from '../ui/format';
import { TransferStatus } from './TransferStatus';

const COLUMNS: DataColumn<PayoutLookup>[] = [
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
    id: 'checked',
    label: 'Last checked',
    optional: true,
    cell: (l) => <span className="muted">{formatIstInstant(l.lookedUpAt)}</span>,
    sortValue: (l) => l.lookedUpAt,
  },
];

/** Latest lookups, one row per payout, in the shared table: ↑/↓ move between rows, Enter or a click opens one. */
export function LookupTable({
  id,
  label,
  lookups,
  current,
  onOpen,
}: {
  /** The table's own name, under which its columns and density are remembered. */
  id: string;
  label: string;
  lookups: readonly PayoutLookup[];
  /** The payout on screen, marked in the list. */
  current: string | null;
  onOpen(payoutId: string): void;
}) {
  const [sort, setSort] = useState<TableSort | null>(null);
  return (
    <DataTable
      id={id}
      label={label}
      columns={COLUMNS}
      rows={lookups}
      rowKey={(l) => l.payoutId}
      sort={sort}
      onSort={setSort}
      currentKey={current}
      onOpen={(l) => onOpen(l.payoutId)}
    />
  );
}
