/**
 * The column-mapping step of a statement import: the file's first rows, the header row and the column for each
 * role (Date, Narration, Ref, Value date, Debit, Credit, Signed amount, Dr/Cr, Balance), preselected from the bank
 * account's saved mapping or the recognised layout. Main checks the mapping again, imports, and remembers it for
 * the account, so the next statement of that account comes preselected.
 */
import { useId, useState } from 'react';
import {
  STATEMENT_ROLES,
  columnMapping,
  headerKey,
  type ColumnMapping,
  type StatementRole,
} from '../../../shared/bank-statement';
import type { IpcOutput } from '../../../shared/ipc/contract';
import { ErrorNotice } from '../ui/states';
import { useImportStatement } from './recon-queries';

export type StatementPreview = IpcOutput<'recon.previewStatement'>;
export type StatementImported = IpcOutput<'recon.importStatement'>;

export const ROLE_LABELS: Readonly<Record<StatementRole, string>> = {
  date: 'Date',
  narration: 'Narration',
  reference: 'Ref (cheque / reference no.)',
  valueDate: 'Value date',
  debit: 'Debit (withdrawal)',
  credit: 'Credit (deposit)',
  amount: 'Signed amount',
  drCr: 'Dr / Cr',
  balance: 'Balance',
};

/** Rows of the file shown under the header: enough to recognise each column. */
const SAMPLE_ROWS = 5;

/** Without a recognised header: the first row with three or more filled cells, as headers usually are. */
function likelyHeader(preview: StatementPreview): number {
  const i = preview.rows.findIndex((r) => r.cells.filter((c) => c !== '').length >= 3);
  return Math.max(0, i);
}

/** The draft as a mapping main accepts, or the first reason it is not one. */
export function mappingOf(
  draft: Partial<Record<StatementRole, string>>,
): { mapping: ColumnMapping } | { error: string } {
  const chosen = Object.fromEntries(Object.entries(draft).filter(([, h]) => h));
  const headers = Object.values(chosen);
  const twice = headers.find((h, i) => headers.indexOf(h) !== i);
  if (twice) return { error: `"${twice}" is chosen for two roles; each column has one.` };
  const parsed = columnMapping.safeParse(chosen);
  if (parsed.success) return { mapping: parsed.data };
  const issue = parsed.error.issues[0]!;
  return {
    error:
      issue.path.length > 0
        ? `Choose the ${ROLE_LABELS[issue.path[0] as StatementRole]} column.`
        : `${issue.message[0]!.toUpperCase()}${issue.message.slice(1)}.`,
  };
}

export function StatementMapping({
  preview,
  content,
  account,
  password,
  onDone,
  onCancel,
}: {
  preview: StatementPreview;
  content: string;
  account: string;
  /** A PDF's password, for this import's read only. */
  password?: string;
  onDone(result: StatementImported): void;
  onCancel(): void;
}) {
  const importStatement = useImportStatement();
  const id = useId();
  const [headerIndex, setHeaderIndex] = useState(preview.header?.index ?? likelyHeader(preview));
  const [draft, setDraft] = useState<Partial<Record<StatementRole, string>>>(preview.header?.mapping ?? {});
  const headerRow = preview.rows[headerIndex];
  const columns = [...new Set((headerRow?.cells ?? []).filter((c) => c !== ''))];
  const sample = preview.rows.slice(headerIndex + 1, headerIndex + 1 + SAMPLE_ROWS);
  const checked = mappingOf(draft);
  const recognised =
    preview.header === null
      ? 'Not recognised: choose the columns below.'
      : preview.header.layout === 'Saved mapping'
        ? `The columns saved for ${account} are preselected.`
        : `Recognised as ${preview.header.layout}; the columns are preselected.`;
  const roleOf = (header: string) =>
    STATEMENT_ROLES.find((r) => draft[r] !== undefined && headerKey(draft[r]!) === headerKey(header));

  return (
    <section className="recon-mapping" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        Columns of {preview.fileName} for {account}
      </h2>
      <p data-testid="mapping-recognised">{recognised}</p>
      <label>
        Header row{' '}
        <select
          className="input"
          value={headerIndex}
          onChange={(e) => {
            setHeaderIndex(Number(e.target.value));
            setDraft({});
          }}
        >
          {preview.rows.map((r, i) => (
            <option key={r.n} value={i}>
              Row {r.n}: {r.cells.filter(Boolean).slice(0, 3).join(', ')}
            </option>
          ))}
        </select>
      </label>
      <div className="recon-mapping-roles" role="group" aria-label="Column of each role">
        {STATEMENT_ROLES.map((role) => (
          <label key={role}>
            {ROLE_LABELS[role]}
            <select
              className="input"
              value={draft[role] ?? ''}
              onChange={(e) => setDraft({ ...draft, [role]: e.target.value || undefined })}
            >
              <option value="">—</option>
              {columns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {/* Its own scroll box, a tab stop so the keys scroll it: a statement can be wider than the screen. */}
      <div className="recon-mapping-preview" tabIndex={0} role="region" aria-label="First rows of the file">
        <table aria-label="Preview of the statement">
          <thead>
            <tr>
              <th scope="col">Row</th>
              {headerRow?.cells.map((c, i) => (
                <th key={i} scope="col">
                  {c}
                  {roleOf(c) && <span className="recon-mapping-role"> → {ROLE_LABELS[roleOf(c)!]}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sample.map((r) => (
              <tr key={r.n}>
                <th scope="row">{r.n}</th>
                {r.cells.map((c, i) => (
                  <td key={i}>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {'error' in checked && (
        <p className="error" role="alert">
          {checked.error}
        </p>
      )}
      {importStatement.error && <ErrorNotice error={importStatement.error.error} />}
      <div className="recon-mapping-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={'error' in checked || importStatement.isPending}
          onClick={() => {
            if ('error' in checked) return;
            importStatement.mutate(
              {
                fileName: preview.fileName,
                content,
                account,
                mapping: checked.mapping,
                ...(password === undefined ? {} : { password }),
              },
              { onSuccess: onDone },
            );
          }}
        >
          Import
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
