/**
 * Bulk import on the Beneficiaries screen: choose an XLSX or CSV (or download the template), map or leave out each
 * header the console does not know (nothing is created before), preview every row (account numbers whole, each
 * IFSC's bank or why the IFSC list does not hold it) as main checks it (the add form's schema, duplicates in the file and
 * against the cache, what an earlier run of the same file did), confirm with the counts, follow the progress
 * (Cancel stops before the next row), then read and export the per-row results. Main sends each row once: a
 * rerun of the same file reports what was created before instead of creating it again.
 */
import { useEffect, useId, useState } from 'react';
import { isPendingApproval, type Proposal } from '../../../shared/approvals';
import { confirmWord, useApprovalNeeded } from '../approvals/approvals-queries';
import { ProposedNotice } from '../approvals/ProposedNotice';
import { base64Of } from '../ui/files';
import { BENEFICIARY_FIELDS } from '../../../shared/beneficiaries';
import {
  OUTCOME_LABELS,
  TEMPLATE_HEADERS,
  type HeaderMapping,
  type ImportOutcome,
  type ImportReport,
  type ImportRowResult,
} from '../../../shared/beneficiary-import';
import type { IpcError } from '../../../shared/ipc/contract';
import { api } from '../api';
import { ConfirmDialog } from '../ConfirmDialog';
import { resultOf, useActiveProfileId } from '../query/ipc-query';
import {
  useImportCancel,
  useImportPreview,
  useImportResults,
  useImportRun,
  useImportTemplate,
} from './beneficiaries-queries';
import { useExportReveal } from '../exports/exports-queries';
import { DataTable, type DataColumn, type TableSort } from '../ui/DataTable';
import { useOfflineReason } from '../ui/offline';
import { ErrorNotice } from '../ui/states';

const none = <span className="muted">—</span>;

/** Outcomes that are the desk's to look at: marked in the table. */
const ATTENTION: ReadonlySet<ImportOutcome> = new Set(['invalid', 'refused', 'unknown', 'not_sent']);

const COLUMNS: DataColumn<ImportRowResult>[] = [
  { id: 'row', label: 'Row', numeric: true, cell: (r) => r.row, sortValue: (r) => r.row },
  { id: 'name', label: 'Name', cell: (r) => r.name || none, sortValue: (r) => r.name || null },
  {
    // Whole, not masked: the preview is where a person checks that the file's leading zeros survived.
    id: 'account',
    label: 'Account number',
    mono: true,
    optional: true,
    cell: (r) => r.account_number || none,
    sortValue: (r) => r.account_number || null,
  },
  {
    id: 'ifsc',
    label: 'IFSC',
    optional: true,
    // The bank's name or the list's warning under the code, wrapped: cut, the warning would say nothing.
    wrap: true,
    cell: (r) =>
      r.ifsc ? (
        <span className="import-stack">
          <span className="mono">{r.ifsc}</span>
          {r.ifscWarning ? (
            <span className="warning">{r.ifscWarning}</span>
          ) : (
            r.bank && <span className="muted">{r.bank}</span>
          )}
        </span>
      ) : (
        none
      ),
    sortValue: (r) => r.ifsc || null,
  },
  {
    id: 'vpa',
    label: 'UPI address',
    mono: true,
    optional: true,
    cell: (r) => r.vpa || none,
    sortValue: (r) => r.vpa || null,
  },
  {
    id: 'outcome',
    label: 'Outcome',
    cell: (r) => <span className={`import-outcome import-${r.outcome}`}>{OUTCOME_LABELS[r.outcome]}</span>,
    sortValue: (r) => OUTCOME_LABELS[r.outcome],
  },
  { id: 'reason', label: 'Reason', wrap: true, cell: (r) => r.reason ?? none, sortValue: (r) => r.reason },
];

/**
 * The results add the id each row got, under its outcome rather than in a column of its own: at 1280 px a seventh
 * column pushed the Reason out of sight.
 */
const RESULT_COLUMNS: DataColumn<ImportRowResult>[] = COLUMNS.map((c) =>
  c.id !== 'outcome'
    ? c
    : {
        ...c,
        label: 'Outcome and id',
        cell: (r) => (
          <span className="import-stack">
            {c.cell(r)}
            {r.beneficiaryId && <span className="mono">{r.beneficiaryId}</span>}
          </span>
        ),
      },
);

/** The counts of a report, in words: "4 ready · 3 invalid". */
function countsText(report: ImportReport): string {
  return (Object.entries(report.counts) as [ImportOutcome, number][])
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${OUTCOME_LABELS[o]}: ${n}`)
    .join(' · ');
}

function Results({
  id,
  label,
  report,
  columns,
}: {
  id: string;
  label: string;
  report: ImportReport;
  columns: DataColumn<ImportRowResult>[];
}) {
  const [sort, setSort] = useState<TableSort | null>(null);
  return (
    <DataTable
      id={id}
      label={label}
      columns={columns}
      rows={report.rows}
      rowKey={(r) => String(r.row)}
      sort={sort}
      onSort={setSort}
      rowClass={(r) => (ATTENTION.has(r.outcome) ? 'import-row-attention' : undefined)}
    />
  );
}

export function ImportPanel({ onClose }: { onClose(): void }) {
  const profileId = useActiveProfileId();
  const offline = useOfflineReason();
  const preview = useImportPreview();
  const importRun = useImportRun();
  const cancel = useImportCancel();
  const template = useImportTemplate();
  const exportResults = useImportResults();
  const [file, setFile] = useState<{ fileName: string; content: string } | null>(null);
  const [mapping, setMapping] = useState<HeaderMapping>({});
  const [planned, setPlanned] = useState<ImportReport | null>(null);
  const [done, setDone] = useState<ImportReport | null>(null);
  /** The batch a desk's policy took as one proposal instead of sending it. */
  const [proposed, setProposed] = useState<Proposal | null>(null);
  const needsApproval = useApprovalNeeded('beneficiary.import', null);
  const [confirming, setConfirming] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [saved, setSaved] = useState<{ file: string; jobId: string | null } | null>(null);
  const reveal = useExportReveal();
  const fileId = useId();
  const titleId = useId();

  useEffect(
    () =>
      api.on.importProgress((p) => {
        if (p.profileId === profileId) setProgress({ done: p.done, total: p.total });
      }),
    [profileId],
  );

  async function check(next: { fileName: string; content: string }, nextMapping: HeaderMapping) {
    setError(null);
    const result = await resultOf(preview.mutateAsync({ ...next, mapping: nextMapping }));
    if (result.ok) setPlanned(result.value);
    else setError(result.error);
  }

  async function choose(picked: File | undefined) {
    setPlanned(null);
    setDone(null);
    setProposed(null);
    setSaved(null);
    setMapping({});
    if (!picked) return;
    const next = { fileName: picked.name, content: await base64Of(picked) };
    setFile(next);
    await check(next, {});
  }

  async function start() {
    if (!file) return;
    setConfirming(false);
    setError(null);
    setProgress({ done: 0, total: planned?.rows.length ?? 0 });
    const result = await resultOf(importRun.mutateAsync({ ...file, mapping }));
    setProgress(null);
    if (!result.ok) setError(result.error);
    else if (isPendingApproval(result.value)) setProposed(result.value.pendingApproval);
    else setDone(result.value);
  }

  async function save(what: 'template' | 'results') {
    setError(null);
    const result =
      what === 'template'
        ? await resultOf(template.mutateAsync(undefined))
        : await resultOf(exportResults.mutateAsync({ report: (done ?? planned)! }));
    if (!result.ok) setError(result.error);
    else if (result.value.file) {
      reveal.reset();
      setSaved({ file: result.value.file, jobId: result.value.jobId });
    }
  }

  const ready = planned?.counts.ready ?? 0;
  const running = importRun.isPending;
  // In the file's order, mapped or not, so a choice does not move its row.
  const unmapped = planned ? planned.headers.filter((h) => planned.unknownHeaders.includes(h) || h in mapping) : [];
  return (
    <section className="import-panel" aria-labelledby={titleId} aria-busy={preview.isPending || running}>
      <header className="import-head">
        <h2 id={titleId}>Import beneficiaries</h2>
        <button type="button" className="button" onClick={onClose} disabled={running}>
          Close
        </button>
      </header>
      <p className="muted">
        An Excel (.xlsx) or CSV file with a header row. Headers the console knows: the template’s (
        {BENEFICIARY_FIELDS.map((f) => TEMPLATE_HEADERS[f]).join(', ')}), the interface’s field names and the usual
        headers of RazorpayX, Cashfree and bank bulk-payee files; each other column is mapped or left out below. Account
        numbers keep their leading zeros; a number the spreadsheet cut to 15 digits is refused, not guessed.
      </p>
      <div className="import-choose">
        <label htmlFor={fileId}>File</label>
        <input
          id={fileId}
          type="file"
          accept=".xlsx,.csv"
          className="input"
          disabled={running}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <button type="button" className="button" onClick={() => void save('template')} disabled={template.isPending}>
          Download template
        </button>
      </div>
      {saved && (
        <div className="import-saved">
          <p className="muted" role="status">
            Saved {saved.file}
          </p>
          {saved.jobId && (
            <button type="button" className="button" onClick={() => reveal.mutate({ jobId: saved.jobId! })}>
              Show in folder
            </button>
          )}
          {reveal.data?.revealed === false && (
            <p className="muted">The file could not be shown: it may have been moved or deleted.</p>
          )}
        </div>
      )}
      {error && <ErrorNotice error={error} />}
      <ProposedNotice proposal={proposed} />
      {planned && !done && unmapped.length > 0 && (
        <fieldset className="import-mapping">
          <legend>Columns the console does not know</legend>
          {unmapped.map((header) => (
            <label key={header} className="import-map-row">
              <span className="mono">{header}</span>
              <select
                className="input"
                value={mapping[header] ?? ''}
                aria-invalid={mapping[header] === undefined}
                disabled={running}
                onChange={(e) => {
                  const next = { ...mapping, [header]: e.target.value as HeaderMapping[string] };
                  setMapping(next);
                  if (file) void check(file, next);
                }}
              >
                {mapping[header] === undefined && (
                  <option value="" disabled>
                    Choose…
                  </option>
                )}
                <option value="ignore">Leave out</option>
                {BENEFICIARY_FIELDS.map((f) => (
                  <option key={f} value={f}>
                    {TEMPLATE_HEADERS[f]}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </fieldset>
      )}
      {planned && planned.problems.length > 0 && (
        <div className="notice notice-error" role="alert">
          {planned.problems.join(' ')} Nothing is created until every column is mapped or left out above.
        </div>
      )}
      {planned && !done && !proposed && planned.problems.length === 0 && (
        <>
          <div className="import-summary" role="status">
            <strong>Preview of {planned.fileName}:</strong> {planned.rows.length}{' '}
            {planned.rows.length === 1 ? 'row' : 'rows'}. {countsText(planned)}
          </div>
          <div className="import-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={ready === 0 || running || offline !== null}
              title={offline ?? undefined}
              onClick={() => setConfirming(true)}
            >
              {running ? 'Importing…' : `Create ${ready} ${ready === 1 ? 'beneficiary' : 'beneficiaries'}`}
            </button>
            <button type="button" className="button" onClick={() => void save('results')}>
              Export preview (Excel)
            </button>
          </div>
          {progress && (
            <div className="import-progress" role="status">
              <progress max={progress.total || 1} value={progress.done} />
              <span>
                Row {progress.done} of {progress.total}
              </span>
              <button type="button" className="button" onClick={() => void cancel.mutateAsync(undefined)}>
                Cancel
              </button>
            </div>
          )}
          <Results id="beneficiary-import-preview" label="Import preview" report={planned} columns={COLUMNS} />
        </>
      )}
      {done && (
        <>
          <div className="import-summary" role="status">
            <strong>Imported {done.fileName}:</strong> {countsText(done)}
          </div>
          <div className="import-actions">
            <button type="button" className="button" onClick={() => void save('results')}>
              Export results (Excel)
            </button>
          </div>
          <Results id="beneficiary-import-results" label="Import results" report={done} columns={RESULT_COLUMNS} />
        </>
      )}
      {confirming && planned && (
        <ConfirmDialog
          title={`Create ${ready} ${ready === 1 ? 'beneficiary' : 'beneficiaries'}?`}
          confirmLabel={confirmWord(needsApproval, `Create ${ready}`)}
          onConfirm={() => void start()}
          onCancel={() => setConfirming(false)}
        >
          <p>{countsText(planned)}.</p>
          {needsApproval && (
            <p>
              This desk’s policy has each import approved: the {ready} ready rows go to an approver as one proposal, and
              nothing is sent until another person approves it.
            </p>
          )}
          <p>
            Only the {ready} ready rows are sent, one at a time. A row is never sent twice: running this file again
            reports the payees already created, and a row whose answer is lost is marked “outcome unknown — check
            status”.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
