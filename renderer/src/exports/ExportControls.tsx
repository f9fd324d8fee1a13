/**
 * Export buttons and the export's progress and outcome, for any screen: the screen says what to export, main
 * writes it from the cache in the background.
 */
import type { ExportKind } from '../../../shared/exports';
import { JobOutcome, JobProgress, formatSeconds } from '../ui/JobStatus';
import { ErrorNotice } from '../ui/states';
import { isExporting, useExports, type ExportRequest } from './exports-store';
import { formatCount } from '../ui/format';

type Format = ExportRequest['format'];

/**
 * "Export to Excel" (for people), "Export CSV" (for systems) and "Excel-safe CSV" (a CSV a person will open in a
 * spreadsheet: identifiers kept as text); `request` is asked at the click, so it carries the filter of that moment.
 */
export function ExportButtons({
  kind,
  request,
  disabled = false,
}: {
  kind: ExportKind;
  request: (format: Format) => ExportRequest;
  disabled?: boolean;
}) {
  const busy = useExports((s) => isExporting(s.jobs[kind]));
  const start = useExports((s) => s.start);
  const off = busy || disabled;
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={off}
        title="For people: a workbook with totals, identifiers as text, set up for printing"
        onClick={() => void start(request('xlsx'))}
      >
        Export to Excel
      </button>
      <button
        type="button"
        className="button"
        disabled={off}
        title="For systems: plain exact values; a spreadsheet may turn long ids into numbers"
        onClick={() => void start(request('csv'))}
      >
        Export CSV
      </button>
      <button
        type="button"
        className="button"
        disabled={off}
        title="A CSV for a spreadsheet: ids, UTRs and account numbers stay text (each starts with a tab)"
        onClick={() => void start({ ...request('csv'), csv: { excelSafe: true } })}
      >
        Excel-safe CSV
      </button>
    </>
  );
}

export function ExportStatus({ kind }: { kind: ExportKind }) {
  const job = useExports((s) => s.jobs[kind]);
  const error = useExports((s) => s.errors[kind]);
  const cancel = useExports((s) => s.cancel);
  const reveal = useExports((s) => s.reveal);
  const dismiss = useExports((s) => s.dismiss);

  let body = null;
  if (job?.phase === 'starting') body = <p className="muted job-line">Choosing where to save the export…</p>;
  else if (job?.phase === 'running') {
    const p = job.progress;
    const where = job.file ? ` to ${job.file}` : '';
    body = (
      <JobProgress
        label="Export progress"
        value={p && p.rowsTotal !== null ? p.rowsWritten : null}
        max={Math.max(1, p?.rowsTotal ?? 1)}
        cancelling={job.cancelling}
        onCancel={() => void cancel(kind)}
      >
        {!p || p.phase === 'counting'
          ? `Counting the rows to export${where}…`
          : p.phase === 'writing'
            ? `Writing ${formatCount(p.rowsWritten)}${p.rowsTotal === null ? '' : ` of ${formatCount(p.rowsTotal)}`} rows${where}`
            : `Finishing the file${where}…`}
      </JobProgress>
    );
  } else if (job?.phase === 'finished') {
    const r = job.result;
    body =
      r.status === 'completed' ? (
        <JobOutcome
          tone="ok"
          onDismiss={() => dismiss(kind)}
          actions={
            <button type="button" className="button" onClick={() => void reveal(kind)}>
              Show in folder
            </button>
          }
        >
          Exported {formatCount(r.rows)} rows
          {r.sheets > 1 ? ` on ${r.sheets} ${r.format === 'csv' ? 'files' : 'sheets'}` : ''} to{' '}
          <span className="mono">{r.file}</span> in {formatSeconds(r.seconds)}.
          {r.warning && (
            <>
              {' '}
              <strong>{r.warning}</strong>
            </>
          )}
        </JobOutcome>
      ) : (
        <JobOutcome tone={r.status === 'cancelled' ? 'warning' : 'error'} onDismiss={() => dismiss(kind)}>
          {r.status === 'cancelled'
            ? 'Export cancelled; no file was written.'
            : `The export failed: ${r.error ?? 'no reason was given.'} No file was written.`}
        </JobOutcome>
      );
  }

  if (!body && !error) return null;
  return (
    <section aria-label="Export" className="job">
      {error && <ErrorNotice error={error.error} onRetry={error.retry} />}
      {body}
    </section>
  );
}
