import type { PayoutLookup } from '../../../shared/payouts';
import { formatIstInstant, formatMoney } from '../ui/format';
import { TransferStatus } from './TransferStatus';
import { useRovingRows } from '../ui/use-roving-rows';

/** Latest lookups, one row per payout; ↑/↓ move between rows, Enter or a click opens one. */
export function LookupTable({
  label,
  lookups,
  current,
  onOpen,
}: {
  label: string;
  lookups: readonly PayoutLookup[];
  /** The payout on screen, marked in the list. */
  current: string | null;
  onOpen(payoutId: string): void;
}) {
  const rowProps = useRovingRows(lookups.length, (i) => {
    const l = lookups[i];
    if (l) onOpen(l.payoutId);
  });
  return (
    <table className="payout-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Payout</th>
          <th scope="col">Status</th>
          <th scope="col" className="money">
            Amount
          </th>
          <th scope="col">Beneficiary</th>
          <th scope="col">Last checked</th>
        </tr>
      </thead>
      <tbody>
        {lookups.map((l, i) => (
          <tr
            key={l.payoutId}
            {...rowProps(i)}
            aria-current={l.payoutId === current ? 'true' : undefined}
            className="payout-row"
          >
            <td className="mono">{l.payoutId}</td>
            <td>
              {l.error === null ? (
                <TransferStatus status={l.transferStatus} />
              ) : (
                <span className="error">{l.error}</span>
              )}
            </td>
            <td className="money">{l.amount === null ? '—' : formatMoney(l.amount)}</td>
            <td>{l.payout?.beneficiary?.name ?? '—'}</td>
            <td className="muted">{formatIstInstant(l.lookedUpAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
