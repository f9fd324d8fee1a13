import type { CachedBeneficiary } from '../../../shared/beneficiaries';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { useTableSort } from '../ui/table-sorts';
import { formatIstInstant } from '../../../shared/format';
import { MaskedAccount } from '../ui/MaskedAccount';
import { present, targetsOf } from './beneficiary-form';

/** The table's id: its columns, sort and saved views are kept under it. */
export const BENEFICIARY_TABLE = 'beneficiaries';

const none = <span className="muted">—</span>;

const COLUMNS: DataColumn<CachedBeneficiary>[] = [
  {
    id: 'name',
    label: 'Name',
    cell: (b) => (
      <span className="bene-cell-name">
        {b.name}
        {b.bankDetailsChangedAt && (
          <span
            className="bene-changed-badge"
            title={`Bank details changed ${formatIstInstant(b.bankDetailsChangedAt)}`}
          >
            Changed
          </span>
        )}
      </span>
    ),
    sortValue: (b) => b.name,
  },
  { id: 'id', label: 'Beneficiary id', mono: true, cell: (b) => b.beneficiary_id, sortValue: (b) => b.beneficiary_id },
  {
    id: 'bank',
    label: 'Bank account',
    mono: true,
    optional: true,
    cell: (b) => {
      const { bank } = targetsOf(b);
      return bank ? <MaskedAccount account={bank.account} ifsc={bank.ifsc} /> : none;
    },
    sortValue: (b) => targetsOf(b).bank?.account ?? null,
  },
  {
    id: 'vpa',
    label: 'UPI address',
    mono: true,
    optional: true,
    cell: (b) => targetsOf(b).vpa ?? none,
    sortValue: (b) => targetsOf(b).vpa ?? null,
  },
  {
    id: 'phone',
    label: 'Phone',
    mono: true,
    optional: true,
    cell: (b) => present(b.phone) ?? none,
    sortValue: (b) => present(b.phone) ?? null,
  },
  {
    id: 'email',
    label: 'Email',
    optional: true,
    cell: (b) => <span title={present(b.email) ?? undefined}>{present(b.email) ?? none}</span>,
    sortValue: (b) => present(b.email) ?? null,
  },
  {
    id: 'fetched',
    label: 'Fetched',
    optional: true,
    cell: (b) => <span className="bene-cell-time">{formatIstInstant(b.fetchedAt)}</span>,
    sortValue: (b) => b.fetchedAt,
  },
];

interface BeneficiaryTableProps {
  rows: readonly CachedBeneficiary[];
  selectedId: string | null;
  onSelect(id: string, open?: boolean): void;
  /** Escape on a row: the screen closes the detail. */
  onEscape(): void;
}

/**
 * The cached beneficiaries in the shared table: one tab stop, arrows, Home/End and Page Up/Down move the
 * selection, Enter or a click opens the detail, Escape closes it. A header sorts the rows loaded so far.
 */
export function BeneficiaryTable({ rows, selectedId, onSelect, onEscape }: BeneficiaryTableProps) {
  const [sort, setSort] = useTableSort(BENEFICIARY_TABLE);
  return (
    <DataTable
      id={BENEFICIARY_TABLE}
      label="Cached beneficiaries"
      columns={COLUMNS}
      rows={rows}
      rowKey={(b) => b.beneficiary_id}
      sort={sort}
      onSort={setSort}
      selectedKey={selectedId}
      onSelect={(id) => onSelect(id)}
      onOpen={(b) => onSelect(b.beneficiary_id, true)}
      onEscape={onEscape}
    />
  );
}
