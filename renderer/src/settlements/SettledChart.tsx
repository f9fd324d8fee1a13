/**
 * Settled amount by day as stacked bars, split by gateway or by payment mode, drawn as inline SVG from the
 * aggregates of the same filter as the table. Sums are exact integer paise (sumMinor); only the bar heights
 * are fractions, of pixels. The figures behind the bars are also a table, for screen readers and for anyone
 * who wants the numbers.
 */
import { useId } from 'react';
import { formatMoney, sumMinor } from '../../../shared/money';
import type { SettlementAggregate } from '../../../shared/settlement-query';
import { addDays } from '../../../shared/time';
import { formatCalendarDate } from '../../../shared/format';
import type { ChartSplit } from './settlements-store';

const HEIGHT = 132;
const PLOT_TOP = 8;
const PLOT_BOTTOM = 112;
const SERIES_COLOURS = 6;

interface Day {
  date: string;
  bySeries: Map<string, number>;
  total: number;
}

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

/** The top of the axis: a round number of rupees (1, 2 or 5 times a power of ten) at or above the highest bar. */
export function axisTop(maxPaise: number): number {
  if (maxPaise <= 0) return 100;
  // Fine steps, so the tallest bar fills most of the chart (₹21L tops out at ₹25L, not ₹50L).
  for (let step = 100; ; step *= 10) {
    // Whole rupees only: below ₹10 the half steps (₹1.50, ₹2.50) are skipped.
    for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8])
      if (step * m >= maxPaise && (step * m) % 100 === 0) return step * m;
  }
}

function chartData(aggregate: SettlementAggregate, from: string, to: string, split: ChartSplit) {
  const parts = new Map<string, Map<string, number[]>>();
  const series = new Set<string>();
  for (const r of aggregate.byDate) {
    const key = split === 'pg' ? r.pg : r.paymentMode;
    series.add(key);
    const day = parts.get(r.date) ?? parts.set(r.date, new Map()).get(r.date)!;
    (day.get(key) ?? day.set(key, []).get(key)!).push(r.settled);
  }
  const days: Day[] = daysOf(from, to).map((date) => {
    const bySeries = new Map<string, number>();
    for (const [key, values] of parts.get(date) ?? []) bySeries.set(key, sumMinor(values));
    return { date, bySeries, total: sumMinor(bySeries.values()) };
  });
  return { days, series: [...series].sort() };
}

interface ChartProps {
  aggregate: SettlementAggregate;
  from: string;
  to: string;
  split: ChartSplit;
  onSplit(split: ChartSplit): void;
}

export function SettledChart({ aggregate, from, to, split, onSplit }: ChartProps) {
  const captionId = useId();
  const titleId = useId();
  const descId = useId();
  const { days, series } = chartData(aggregate, from, to, split);
  const top = axisTop(Math.max(0, ...days.map((d) => d.total)));
  const plot = PLOT_BOTTOM - PLOT_TOP;
  const slot = 100 / days.length;
  const barWidth = slot * 0.7;
  const labelEvery = Math.ceil(days.length / 14);
  const colour = (key: string) => `stl-series-${(series.indexOf(key) % SERIES_COLOURS) + 1}`;
  const splitName = split === 'pg' ? 'gateway' : 'payment mode';
  const highest = days.reduce((best, d) => (d.total > best.total ? d : best), days[0]!);
  const total = sumMinor(days.map((d) => d.total));

  return (
    <figure className="stl-chart" aria-labelledby={captionId}>
      <div className="stl-chart-head">
        <span id={captionId} className="stl-chart-caption">
          Settled amount by day
        </span>
        <div role="radiogroup" aria-label="Split the bars by" className="stl-segmented">
          {(['pg', 'paymentMode'] as const).map((value) => (
            <label key={value}>
              <input type="radio" name={`${titleId}-split`} checked={split === value} onChange={() => onSplit(value)} />
              {value === 'pg' ? 'By gateway' : 'By payment mode'}
            </label>
          ))}
        </div>
        <ul className="stl-legend" aria-label="Legend">
          {series.map((key) => (
            <li key={key}>
              <span className={`stl-swatch ${colour(key)}`} aria-hidden="true" />
              {key}
            </li>
          ))}
        </ul>
      </div>
      <div className="stl-chart-body">
        <div className="stl-axis" aria-hidden="true">
          <span>{formatMoney(top)}</span>
          <span>{formatMoney(top / 2)}</span>
          <span>{formatMoney(0)}</span>
        </div>
        <svg className="stl-chart-svg" width="100%" height={HEIGHT} role="img" aria-labelledby={`${titleId} ${descId}`}>
          <title id={titleId}>{`Settled amount by day and ${splitName}`}</title>
          <desc id={descId}>
            {`${days.length} days from ${formatCalendarDate(from)} to ${formatCalendarDate(to)}; ${formatMoney(total)} settled in all` +
              (highest.total > 0
                ? `; the most on ${formatCalendarDate(highest.date)}: ${formatMoney(highest.total)}.`
                : '.')}
          </desc>
          {[0, 0.5, 1].map((f) => (
            <line key={f} className="stl-gridline" x1="0" x2="100%" y1={PLOT_TOP + plot * f} y2={PLOT_TOP + plot * f} />
          ))}
          {days.map((d, i) => {
            let y = PLOT_BOTTOM;
            return (
              <g key={d.date}>
                {series.map((key) => {
                  const value = d.bySeries.get(key) ?? 0;
                  if (value <= 0) return null;
                  const h = (value / top) * plot;
                  y -= h;
                  return (
                    <rect
                      key={key}
                      className={colour(key)}
                      x={`${i * slot + (slot - barWidth) / 2}%`}
                      width={`${barWidth}%`}
                      y={y}
                      height={h}
                    >
                      <title>{`${formatCalendarDate(d.date)}, ${key}: ${formatMoney(value)}`}</title>
                    </rect>
                  );
                })}
                {i % labelEvery === 0 && (
                  <text className="stl-chart-label" x={`${i * slot + slot / 2}%`} y={HEIGHT - 4} textAnchor="middle">
                    {formatCalendarDate(d.date).slice(0, 5)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <details className="stl-chart-table">
        <summary>Figures behind the chart</summary>
        <table>
          <caption className="sr-only">Settled amount by day and {splitName}</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              {series.map((key) => (
                <th key={key} scope="col" className="money">
                  {key}
                </th>
              ))}
              <th scope="col" className="money">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{formatCalendarDate(d.date)}</th>
                {series.map((key) => (
                  <td key={key} className="money">
                    {formatMoney(d.bySeries.get(key) ?? 0)}
                  </td>
                ))}
                <td className="money">{formatMoney(d.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
