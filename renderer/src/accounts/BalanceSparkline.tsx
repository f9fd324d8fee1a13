import { useId } from 'react';
import type { BalanceSnapshot } from '../../../shared/accounts';
import { formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';

const WIDTH = 180;
const HEIGHT = 40;
const PAD = 4;

/** The reading with the lowest (or highest) balance; the earliest one on a tie, so the words are stable. */
function extreme(snapshots: readonly BalanceSnapshot[], lower: boolean): BalanceSnapshot {
  return snapshots.reduce((best, s) =>
    (lower ? s.availableBalance < best.availableBalance : s.availableBalance > best.availableBalance) ? s : best,
  );
}

/**
 * Available balance over time as a line: no chart library, no axes, just the shape, with the figures that matter
 * (lowest, highest, latest) in words for screen readers and beside the line for everyone.
 */
export function BalanceSparkline({
  snapshots,
  currency,
  days,
}: {
  snapshots: readonly BalanceSnapshot[];
  currency: string;
  days: number;
}) {
  const titleId = useId();
  const first = snapshots[0];
  const last = snapshots.at(-1);
  if (!first || !last) return <p className="muted acct-sparkline-empty">No readings in the last {days} days yet.</p>;

  const low = extreme(snapshots, true);
  const high = extreme(snapshots, false);
  const t0 = Date.parse(first.takenAt);
  const span = Date.parse(last.takenAt) - t0;
  // Pixels only: the amounts themselves are compared and printed as exact paise.
  const range = high.availableBalance - low.availableBalance;
  const point = (s: BalanceSnapshot) => {
    const x = span === 0 ? WIDTH / 2 : PAD + ((Date.parse(s.takenAt) - t0) / span) * (WIDTH - 2 * PAD);
    const y =
      range === 0
        ? HEIGHT / 2
        : HEIGHT - PAD - ((s.availableBalance - low.availableBalance) / range) * (HEIGHT - 2 * PAD);
    return [x.toFixed(1), y.toFixed(1)] as const;
  };
  const [lastX, lastY] = point(last);
  const readings = snapshots.length === 1 ? '1 reading' : `${snapshots.length} readings`;
  const title =
    range === 0
      ? `Available balance over the last ${days} days: ${readings}, steady at ${formatMoney(low.availableBalance, currency)}.`
      : `Available balance over the last ${days} days: ${readings}, lowest ${formatMoney(low.availableBalance, currency)} ` +
        `on ${formatIstInstant(low.takenAt)}, highest ${formatMoney(high.availableBalance, currency)} on ` +
        `${formatIstInstant(high.takenAt)}, latest ${formatMoney(last.availableBalance, currency)}.`;

  return (
    <figure className="acct-sparkline">
      <svg
        role="img"
        aria-labelledby={titleId}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        className="acct-sparkline-chart"
      >
        <title id={titleId}>{title}</title>
        {snapshots.length > 1 && (
          <polyline className="acct-sparkline-line" points={snapshots.map((s) => point(s).join(',')).join(' ')} />
        )}
        <circle className="acct-sparkline-dot" cx={lastX} cy={lastY} r={2.5} />
      </svg>
      <figcaption className="muted acct-sparkline-caption" aria-hidden="true">
        {days} days · low <span className="money">{formatMoney(low.availableBalance, currency)}</span> · high{' '}
        <span className="money">{formatMoney(high.availableBalance, currency)}</span>
      </figcaption>
    </figure>
  );
}
