/**
 * Shown when the cache's most recent dates do not hold what their sync stored (`cache.integrity`: records that differ
 * from their digest, totals that differ from their records): the dates, what differs, and a re-fetch of those dates
 * from the service, which is the repair. Nothing is fixed from the cache's own data, and the banner stays until a
 * check after the re-fetch finds the dates whole.
 */
import { formatDdMmYyyy } from '../../../shared/format';
import { useOfflineReason } from '../ui/offline';
import { useCacheIntegrity } from './settlements-queries';
import { useRefetchDates } from './sync-queries';

export function IntegrityBanner() {
  const check = useCacheIntegrity().data;
  const refetch = useRefetchDates();
  const offline = useOfflineReason();
  if (!check || check.affectedDates.length === 0) return null;
  const dates = check.affectedDates;
  const these = dates.length === 1 ? 'this date' : 'these dates';
  return (
    <div className="notice notice-warning stl-integrity" role="alert">
      <div>
        <strong>The cache was changed outside the app</strong> on {dates.map(formatDdMmYyyy).join(', ')}: what is shown
        for {these} is not what the service sent. Fetch {these} again to replace it.
        <ul>
          {check.mismatches.map((m) => (
            <li key={`${m.date} ${m.kind} ${m.pg ?? ''}`}>{m.message}</li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        className="button"
        disabled={refetch.busy || offline !== null}
        title={offline ?? undefined}
        onClick={() => refetch.refetch(dates)}
      >
        {refetch.busy ? 'Syncing…' : `Re-fetch ${these}`}
      </button>
    </div>
  );
}
