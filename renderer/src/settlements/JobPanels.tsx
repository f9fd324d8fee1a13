/**
 * What the settlement sync is doing: a progress bar with Cancel while it runs, and afterwards what happened, in
 * words, until dismissed. (Exports show through exports/ExportControls.tsx.)
 */
import type { ReactNode } from 'react';
import { addDays } from '../../../shared/time';
import { formatCalendarDate, formatCount } from '../../../shared/format';
import { JobOutcome as Outcome, JobProgress, formatSeconds as seconds } from '../ui/JobStatus';
import { ErrorNotice } from '../ui/states';
import { ipcErrorOf } from '../query/ipc-query';
import { useChangesDialog } from './changes-store';
import type { Range } from './settlements-store';
import { useSyncCancel, useSyncDismiss, useSyncJob, useSyncStart } from './sync-queries';

const rangeText = (r: Pick<Range, 'from' | 'to' | 'pg'>) =>
  `${formatCalendarDate(r.from)}${r.to === r.from ? '' : ` to ${formatCalendarDate(r.to)}`}${r.pg ? ` (${r.pg})` : ''}`;

/** Dates as runs: 01/06/2026 to 30/06/2026, 03/07/2026; consecutive days are one run. */
function datesText(dates: readonly string[]): string {
  const runs: [string, string][] = [];
  for (const d of dates) {
    const last = runs.at(-1);
    if (last && addDays(last[1], 1) === d) last[1] = d;
    else runs.push([d, d]);
  }
  return runs
    .map(([a, b]) => (a === b ? formatCalendarDate(a) : `${formatCalendarDate(a)} to ${formatCalendarDate(b)}`))
    .join(', ');
}

export function SyncPanel() {
  const { job: sync, error: startError } = useSyncJob();
  const cancel = useSyncCancel();
  const forget = useSyncDismiss();
  const start = useSyncStart();
  const dismiss = () => {
    cancel.reset();
    forget();
  };
  const error = startError
    ? { error: startError, retry: start.start }
    : cancel.error
      ? { error: ipcErrorOf(cancel.error), retry: () => cancel.mutate(cancel.variables!) }
      : null;
  const showChanges = useChangesDialog((s) => s.show);

  let body: ReactNode = null;
  if (sync.phase === 'starting') body = <p className="muted job-line">Starting the sync…</p>;
  else if (sync.phase === 'running') {
    const p = sync.progress;
    const { jobId } = sync;
    const cancelling = cancel.isPending || (cancel.isSuccess && cancel.variables?.jobId === jobId);
    body = (
      <JobProgress
        label="Sync progress"
        value={p && p.dates > 0 ? p.datesDone : null}
        max={Math.max(1, p?.dates ?? 1)}
        cancelling={cancelling}
        onCancel={() => {
          if (!cancelling) cancel.mutate({ jobId });
        }}
      >
        Syncing {rangeText({ ...sync.request, pg: sync.request.pg ?? null })}
        {p && (
          <>
            : {formatCount(p.datesDone)} of {formatCount(p.dates)} dates · {formatCount(p.pages)} pages ·{' '}
            {formatCount(p.records)} records · {formatCount(Math.round(p.ratePerSec))} records/s
            {p.etaSeconds !== null && ` · about ${seconds(p.etaSeconds)} left`}
            {p.currentDate && ` · now ${formatCalendarDate(p.currentDate)}`}
          </>
        )}
      </JobProgress>
    );
  } else if (sync.phase === 'finished') {
    const s = sync.result.summary;
    if (s === null) {
      body = (
        <Outcome tone="error" onDismiss={dismiss}>
          The sync could not run: {sync.result.error ?? 'no reason was given.'}
        </Outcome>
      );
    } else {
      const failed = s.dates.filter((d) => d.status === 'failed');
      const changed = s.updated + s.vanished;
      const stored = (
        <>
          {formatCount(s.records)} records in {formatCount(s.pages)} pages,{' '}
          {changed > 0 ? (
            <button type="button" className="link-button" onClick={() => showChanges(s.runId)}>
              {formatCount(s.updated)} changed, {formatCount(s.vanished)} no longer returned
            </button>
          ) : (
            `${formatCount(s.updated)} changed, ${formatCount(s.vanished)} no longer returned`
          )}
        </>
      );
      const range = rangeText({ from: s.from, to: s.to, pg: s.pg });
      body = (
        <Outcome tone={s.status === 'completed' ? 'ok' : 'warning'} onDismiss={dismiss}>
          {s.status === 'completed' && (
            <p>
              Sync completed for {range}: {stored} ({seconds(s.ms / 1000)}
              {s.resumed ? ', resumed' : ''}).
            </p>
          )}
          {s.status === 'cancelled' && (
            <p>
              Sync cancelled for {range}. What was fetched is kept ({stored}); Sync again to continue where it stopped.
            </p>
          )}
          {s.status === 'partial' && (
            <p>
              Sync partly completed for {range}: {failed.length} of {s.dates.length} dates failed; the others are stored
              ({stored}). Sync again to retry the failed dates.
            </p>
          )}
          {s.empty.length > 0 && (
            <p data-testid="sync-empty-dates">
              The service returned no settlements for {s.empty.length === 1 ? '1 date' : `${s.empty.length} dates`}:{' '}
              {datesText(s.empty)}. Nothing is cached for {s.empty.length === 1 ? 'it' : 'them'}; dates before the
              service&rsquo;s history or without sales look like this.
            </p>
          )}
          {s.failures.length > 0 && (
            <ul className="stl-failures" aria-label="Dates that failed">
              {s.failures.map((f) => (
                <li key={f.error}>
                  {f.count === 1 ? formatCalendarDate(f.dates[0]!) : `${f.count} dates (${datesText(f.dates)})`}:{' '}
                  {f.error}
                </li>
              ))}
            </ul>
          )}
        </Outcome>
      );
    }
  }

  if (!body && !error) return null;
  return (
    <section aria-label="Sync" className="job">
      {error && <ErrorNotice error={error.error} onRetry={error.retry} />}
      {body}
    </section>
  );
}
