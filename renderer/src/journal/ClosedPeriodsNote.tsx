/**
 * The closed settlement periods a date range touches, for the Settlements screen: which dates are closed, and a
 * loud mark on any that changed after close (the Journal screen shows the difference). Read again after each sync.
 */
import { useEffect, useState } from 'react';
import type { IpcOutput } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import './journal.css';

type Periods = IpcOutput<'journal.periods'>;

export function ClosedPeriodsNote({ from, to }: { from: string; to: string }) {
  const [periods, setPeriods] = useState<Periods>([]);
  useEffect(() => {
    let current = true;
    const read = async () => {
      const result = await settle(() => api.journal.periods({ from, to }));
      if (current && result.ok) setPeriods(result.value);
    };
    void read();
    const stop = api.on.syncFinished(() => void read());
    return () => {
      current = false;
      stop();
    };
  }, [from, to]);
  if (periods.length === 0) return null;
  return (
    <ul className="closed-periods" aria-label="Closed periods in these dates">
      {periods.map((p) => (
        <li key={p.id} className={p.state === 'changed' ? 'notice notice-warning' : 'notice'}>
          {p.from === p.to ? p.from : `${p.from} to ${p.to}`}{' '}
          {p.state === 'changed'
            ? `closed, changed after close: ${p.added} added, ${p.vanished} vanished, ${p.modified} changed (see Journal)`
            : `closed on ${p.closedAtIst} IST`}
        </li>
      ))}
    </ul>
  );
}
