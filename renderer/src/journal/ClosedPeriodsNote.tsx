/**
 * The closed settlement periods a date range touches, for the Settlements screen: which dates are closed, and a
 * loud mark on any that changed after close (the Journal screen shows the difference). A query, made stale by the
 * end of each sync (query/main-events.ts).
 */
import { formatDateRange, formatIstInstant } from '../../../shared/format';
import { useClosedPeriods } from './journal-queries';
import './journal.css';

export function ClosedPeriodsNote({ from, to }: { from: string; to: string }) {
  const periods = useClosedPeriods({ from, to }).data ?? [];
  if (periods.length === 0) return null;
  return (
    <ul className="closed-periods" aria-label="Closed periods in these dates">
      {periods.map((p) => (
        <li key={p.id} className={p.state === 'changed' ? 'notice notice-warning' : 'notice'}>
          {formatDateRange(p.from, p.to)}{' '}
          {p.state === 'changed'
            ? `closed, changed after close: ${p.added} added, ${p.vanished} vanished, ${p.modified} changed (see Journal)`
            : `closed on ${formatIstInstant(p.closedAt)}`}
        </li>
      ))}
    </ul>
  );
}
