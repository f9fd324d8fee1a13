/**
 * What the screen's background jobs are doing: the settlement sync and the export. Each shows a progress bar
 * with Cancel while it runs, and afterwards what happened, in words, until dismissed.
 */
import type { ReactNode } from 'react';
import { ErrorNotice } from '../ui/states';
import { formatCalendarDate } from '../ui/format';
import { useSettlements, type Range } from './settlements-store';

const count = new Intl.NumberFormat('en-IN');

const seconds = (s: number) => (s < 90 ? `${Math.max(1, Math.round(s))} s` : `${Math.round(s / 60)} min`);

const rangeText = (r: Pick<Range, 'from' | 'to' | 'pg'>) =>
  `${formatCalendarDate(r.from)}${r.to === r.from ? '' : ` to ${formatCalendarDate(r.to)}`}${r.pg ? ` (${r.pg})` : ''}`;

/** A progress bar (indeterminate while `value` is null), what is happening, and Cancel. */
function JobProgress(props: {
  label: string;
  value: number | null;
  max: number;
  children: ReactNode;
  cancelling: boolean;
  onCancel(): void;
}) {
  return (
    <div className="stl-job-progress">
      <progress aria-label={props.label} value={props.value ?? undefined} max={props.max} />
      <span className="stl-job-text">{props.children}</span>
      <button type="button" className="button" disabled={props.cancelling} onClick={props.onCancel}>
        {props.cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
    </div>
  );
}

function Outcome({
  tone,
  children,
  onDismiss,
}: {
  tone: 'ok' | 'warning' | 'error';
  children: ReactNode;
  onDismiss(): void;
}) {
  return (
    <div className={`notice stl-outcome stl-outcome-${tone}`} role={tone === 'ok' ? 'status' : 'alert'}>
      <div className="stl-outcome-text">{children}</div>
      <button type="button" className="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

export function SyncPanel() {
  const sync = useSettlements((s) => s.sync);
  const error = useSettlements((s) => s.syncError);
  const cancelSync = useSettlements((s) => s.cancelSync);
  const dismiss = useSettlements((s) => s.dismissSync);

  let body: ReactNode = null;
  if (sync.phase === 'starting') body = <p className="muted stl-job-line">Starting the sync…</p>;
  else if (sync.phase === 'running') {
    const p = sync.progress;
    body = (
      <JobProgress
        label="Sync progress"
        value={p && p.dates > 0 ? p.datesDone : null}
        max={Math.max(1, p?.dates ?? 1)}
        cancelling={sync.cancelling}
        onCancel={() => void cancelSync()}
      >
        Syncing {rangeText(sync.request)}
        {p && (
          <>
            : {count.format(p.datesDone)} of {count.format(p.dates)} dates · {count.format(p.pages)} pages ·{' '}
            {count.format(p.records)} records · {count.format(Math.round(p.ratePerSec))} records/s
            {p.etaSeconds !== null && ` · about ${seconds(p.etaSeconds)} left`}
            {p.currentDate && ` · now ${formatCalendarDate(p.currentDate)}`}
          </>
        )}
      </JobProgress>
    );
  } else if (sync.phase === 'finished') {
    const s = sync.summary;
    if (s === null) {
      body = (
        <Outcome tone="error" onDismiss={dismiss}>
          The sync could not run: {sync.error ?? 'no reason was given.'}
        </Outcome>
      );
    } else {
      const failed = s.dates.filter((d) => d.status === 'failed');
      const stored = `${count.format(s.records)} records in ${count.format(s.pages)} pages, ${count.format(s.updated)} changed, ${count.format(s.vanished)} no longer returned`;
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
          {failed.length > 0 && (
            <ul className="stl-failures" aria-label="Dates that failed">
              {failed.map((d) => (
                <li key={d.date}>
                  {formatCalendarDate(d.date)}: {d.error ?? 'failed'}
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
    <section aria-label="Sync" className="stl-job">
      {error && <ErrorNotice error={error.error} onRetry={error.retry} />}
      {body}
    </section>
  );
}

export function ExportPanel() {
  const job = useSettlements((s) => s.exportJob);
  const error = useSettlements((s) => s.exportError);
  const cancel = useSettlements((s) => s.cancelExport);
  const reveal = useSettlements((s) => s.revealExport);
  const dismiss = useSettlements((s) => s.dismissExport);

  let body: ReactNode = null;
  if (job.phase === 'starting') body = <p className="muted stl-job-line">Choosing where to save the export…</p>;
  else if (job.phase === 'running') {
    const p = job.progress;
    const where = job.file ? ` to ${job.file}` : '';
    body = (
      <JobProgress
        label="Export progress"
        value={p && p.rowsTotal !== null ? p.rowsWritten : null}
        max={Math.max(1, p?.rowsTotal ?? 1)}
        cancelling={job.cancelling}
        onCancel={() => void cancel()}
      >
        {!p || p.phase === 'counting'
          ? `Counting the rows to export${where}…`
          : p.phase === 'writing'
            ? `Writing ${count.format(p.rowsWritten)}${p.rowsTotal === null ? '' : ` of ${count.format(p.rowsTotal)}`} rows${where}`
            : `Finishing the file${where}…`}
      </JobProgress>
    );
  } else if (job.phase === 'finished') {
    const r = job.result;
    body =
      r.status === 'completed' ? (
        <div className="notice stl-outcome stl-outcome-ok" role="status">
          <div className="stl-outcome-text">
            Exported {count.format(r.rows)} rows{r.sheets > 1 ? ` on ${r.sheets} sheets` : ''} to{' '}
            <span className="mono">{r.file}</span> in {seconds(r.seconds)}.
          </div>
          <button type="button" className="button" onClick={() => void reveal()}>
            Show in folder
          </button>
          <button type="button" className="button" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      ) : (
        <Outcome tone={r.status === 'cancelled' ? 'warning' : 'error'} onDismiss={dismiss}>
          {r.status === 'cancelled'
            ? 'Export cancelled; no file was written.'
            : `The export failed: ${r.error ?? 'no reason was given.'} No file was written.`}
        </Outcome>
      );
  }

  if (!body && !error) return null;
  return (
    <section aria-label="Export" className="stl-job">
      {error && <ErrorNotice error={error.error} onRetry={error.retry} />}
      {body}
    </section>
  );
}
