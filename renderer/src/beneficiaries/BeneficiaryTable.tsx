import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { CachedBeneficiary } from '../../../shared/beneficiaries';
import { formatIstInstant } from '../ui/format';
import { present, targetsOf } from './beneficiary-form';
import { MaskedAccount } from '../ui/MaskedAccount';
import { rowKeyTarget } from '../ui/use-roving-rows';

interface BeneficiaryTableProps {
  rows: CachedBeneficiary[];
  selectedId: string | null;
  onSelect(id: string, open?: boolean): void;
  /** Escape on a row: the screen closes the detail. */
  onEscape(): void;
}

/** How many rows PageUp and PageDown move: about one screenful of this table. */
const PAGE_STEP = 10;

/**
 * One tab stop for the whole table (roving tabindex on the selected row): arrows, Home/End and PageUp/PageDown
 * move the selection with focus, Enter opens the detail, Escape closes it.
 */
export function BeneficiaryTable({ rows, selectedId, onSelect, onEscape }: BeneficiaryTableProps) {
  const body = useRef<HTMLTableSectionElement>(null);
  const moved = useRef(false);
  const selectedIndex = Math.max(
    0,
    rows.findIndex((r) => r.beneficiary_id === selectedId),
  );

  // Focus follows the selection only when the keyboard moved it; a search or a refresh must not steal focus.
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    const row = body.current?.querySelector<HTMLElement>('tr[aria-selected="true"]');
    row?.focus();
    row?.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  function onKeyDown(event: KeyboardEvent<HTMLTableSectionElement>) {
    const target = rowKeyTarget(event.key, selectedIndex, rows.length, PAGE_STEP);
    if (target !== null) {
      event.preventDefault();
      const next = rows[target];
      if (next) {
        moved.current = true;
        onSelect(next.beneficiary_id);
      }
    } else if (event.key === 'Enter' && rows[selectedIndex]) {
      event.preventDefault();
      onSelect(rows[selectedIndex].beneficiary_id, true);
    } else if (event.key === 'Escape') {
      onEscape();
    }
  }

  return (
    <div className="bene-table-scroll">
      <table className="bene-table" aria-label="Cached beneficiaries">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Beneficiary id</th>
            <th scope="col">Bank account</th>
            <th scope="col">UPI address</th>
            <th scope="col" className="bene-col-more">
              Phone
            </th>
            <th scope="col" className="bene-col-more">
              Email
            </th>
            <th scope="col" className="bene-col-more">
              Fetched
            </th>
          </tr>
        </thead>
        <tbody ref={body} onKeyDown={onKeyDown}>
          {rows.map((b, i) => {
            const { bank, vpa } = targetsOf(b);
            const selected = i === selectedIndex;
            return (
              <tr
                key={b.beneficiary_id}
                tabIndex={selected ? 0 : -1}
                aria-selected={selected}
                data-id={b.beneficiary_id}
                onClick={() => onSelect(b.beneficiary_id, true)}
              >
                <td className="bene-cell-name">{b.name}</td>
                <td className="mono">{b.beneficiary_id}</td>
                <td className="mono">
                  {bank ? <MaskedAccount account={bank.account} ifsc={bank.ifsc} /> : <span className="muted">—</span>}
                </td>
                <td className="mono">{vpa ?? <span className="muted">—</span>}</td>
                <td className="mono bene-col-more">{present(b.phone) ?? <span className="muted">—</span>}</td>
                <td className="bene-col-more bene-cell-email" title={present(b.email) ?? undefined}>
                  {present(b.email) ?? <span className="muted">—</span>}
                </td>
                <td className="bene-col-more bene-cell-time">{formatIstInstant(b.fetchedAt)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
