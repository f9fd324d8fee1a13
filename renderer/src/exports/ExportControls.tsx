/**
 * Export buttons and the export's progress and outcome, for any screen: the screen says what to export, main
 * writes it from the cache in the background.
 */
import type { ExportKind } from '../../../shared/exports';
import type { IpcError } from '../../../shared/ipc/contract';
import { JobOutcome, JobProgress, formatSeconds } from '../ui/JobStatus';
import { ipcErrorOf } from '../query/ipc-query';
import { ErrorNotice } from '../ui/states';
import {
  useExportCancel,
  useExportDismiss,
  useExportJob,
  useExportReveal,
  useExportStart,
  type ExportRequest,
} from './exports-queries';
import { formatCount } from '../../../shared/format';
import { useExcelCsvForm } from './excel-csv-form';

type Format = ExportRequest['format'];

/**
 * "Export to Excel" (for people), "Export CSV" (for systems) and "Excel-safe CSV" (a CSV a person will open in a
 * spreadsheet: identifiers kept as text, in the form chosen in Settings); `request` is asked at the click, so it
 * carries the filter of that moment.
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
  const { busy, start } = useExportStart(kind);
  const [ids] = useExcelCsvForm();
  const off = busy || disabled;
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={off}
        title="For people: a workbook with totals, identifiers as text, set up for printing"
        onClick={() => start(request('xlsx'))}
      >
        Export to Excel
      </button>
      <button
        type="button"
        className="button"
        disabled={off}
        title="For systems: plain exact values; a spreadsheet may turn long ids into numbers"
        onClick={() => start(request('csv'))}
      >
        Export CSV
      </button>
      <button
        type="button"
        className="button"
        disabled={off}
        title={`A CSV for a spreadsheet: ids, UTRs and account numbers stay text (${
          ids === 'formula' ? 'each written ="…", for Excel' : 'each starts with a tab'
        }; the form is chosen in Settings)`}
        onClick={() => start({ ...request('csv'), csv: { ids } })}
      >
        Excel-safe CSV
      </button>
    </>
  );
}

export function ExportStatus({ kind }: { kind: ExportKind }) {
  const { job, error: startError } = useExportJob(kind);
  const cancel = useExportCancel();
  const reveal = useExportReveal();
  const forget = useExportDismiss(kind);
  const dismiss = () => {
    cancel.reset();
    reveal.reset();
    forget();
  };

  // Main's answer to the last thing asked (start, cancel, show in folder), and how to ask again.
  let error: { error: IpcError; retry?: () => void } | null = null;
  if (startError) error = { error: startError };
  else if (cancel.error) error = { error: ipcErrorOf(cancel.error), retry: () => cancel.mutate(cancel.variables!) };
  else if (reveal.error) error = { error: ipcErrorOf(reveal.error), retry: () => reveal.mutate(reveal.variables!) };
  else if (reveal.data?.revealed === false) {
    error = {
      error: {
        code: 'NOT_REVEALED',
        message: 'The file could not be shown: it may have been moved or deleted since it was written.',
      },
      retry: () => reveal.mutate(reveal.variables!),
    };
  }

  let body = null;
  if (job.phase === 'starting') body = <p className="muted job-line">Choosing where to save the export…</p>;
  else if (job.phase === 'running') {
    const p = job.progress;
    const where = job.started.file ? ` to ${job.started.file}` : '';
    // Pressed and not yet ended: the cancel's answer is only "asked"; the finished event says how it ended.
    const cancelling = cancel.isPending || (cancel.isSuccess && cancel.variables?.jobId === job.jobId);
    body = (
      <JobProgress
        label="Export progress"
        value={p && p.rowsTotal !== null ? p.rowsWritten : null}
        max={Math.max(1, p?.rowsTotal ?? 1)}
        cancelling={cancelling}
        onCancel={() => {
          if (!cancelling) cancel.mutate({ jobId: job.jobId });
        }}
      >
        {!p || p.phase === 'counting'
          ? `Counting the rows to export${where}…`
          : p.phase === 'writing'
            ? `Writing ${formatCount(p.rowsWritten)}${p.rowsTotal === null ? '' : ` of ${formatCount(p.rowsTotal)}`} rows${where}`
            : `Finishing the file${where}…`}
      </JobProgress>
    );
  } else if (job.phase === 'finished') {
    const r = job.result;
    body =
      r.status === 'completed' ? (
        <JobOutcome
          tone="ok"
          onDismiss={dismiss}
          actions={
            <button type="button" className="button" onClick={() => reveal.mutate({ jobId: job.jobId })}>
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
        <JobOutcome tone={r.status === 'cancelled' ? 'warning' : 'error'} onDismiss={dismiss}>
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
