/**
 * The amount of a set of records split by what each line is (`lineKind`, shared/reconciliation.ts): sales, and the
 * refunds and chargebacks a batch nets out of them, signed, so the three add up to the amount shown beside them.
 * One compact line of text rather than three more figures, so the Settlements bar stays within two rows at 1280 wide.
 */
import { formatMoney } from '../../../shared/money';
import type { SettlementSums } from '../../../shared/settlement-query';

const PARTS = [
  ['Sales', 'sales'],
  ['Refunds', 'refunds'],
  ['Chargebacks', 'chargebacks'],
] as const;

export function AmountSplit({ sums }: { sums: Pick<SettlementSums, 'sales' | 'refunds' | 'chargebacks'> }) {
  return (
    <p className="stl-split" aria-label="Amount by kind">
      {PARTS.map(([label, key]) => (
        <span key={key} data-figure={key}>
          {label} <span className="money">{formatMoney(sums[key])}</span>
        </span>
      ))}
    </p>
  );
}
