/**
 * What the syncs changed in the range on screen, by date and by sync run (each record new, changed field by field
 * with old and new, vanished or back), and how complete each date's paging was (the manifests). A modal dialog,
 * opened from the header or from a sync's "N changed". Its Export buttons write what it selects (range, gateway,
 * sync run, kind of change; every change, not only those shown) as a file of its own, named after the filter.
 */
import { SETTLEMENT_MONEY_FIELDS } from '../../../shared/reconciliation';
import { useId } from 'react';
import { z } from 'zod';
import {
  CHANGE_KINDS,
  FIELD_CHANGE_MEANING_LABELS,
  fieldLabel,
  type ChangeKind,
  type FieldChange,
  type SettlementChange,
} from '../../../shared/settlement-changes';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { formatCalendarDate, formatCount, formatIstInstant, formatIstWallClock } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { ErrorNotice } from '../ui/states';
import { useModalDialog } from '../ui/use-modal-dialog';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';
import { useChangesDialog } from './changes-store';
import { useChanges, useChangesSummary, useCompleteness } from './settlements-queries';
import { useShownFilter } from './shown-query';

const SHOWN = 500;

/** The changes' table: its columns, sort, kind filter and saved views (a sync run is of the moment: not in a view). */
const TABLE = 'settlement-changes';
const FILTERS = { kind: z.enum(CHANGE_KINDS) };

const KIND_LABEL: Record<ChangeKind, string> = {
  new: 'New',
  changed: 'Changed',
  vanished: 'No longer returned',
  returned: 'Returned again',
};

/** One field's change in the desk's words: its label, not the column's name ("UTR (UTR replaced)"). */
export function fieldText(f: FieldChange): string {
  const show = (v: string | number | null) =>
    v === null || v === ''
      ? 'none'
      : typeof v === 'number' && SETTLEMENT_MONEY_FIELDS.has(f.field)
        ? formatMoney(v)
        : String(v);
  return `${fieldLabel(f.field)} (${FIELD_CHANGE_MEANING_LABELS[f.meaning]}): ${show(f.old)} → ${show(f.new)}`;
}

const COLUMNS: readonly DataColumn<SettlementChange>[] = [
  { id: 'date', label: 'Date', cell: (c) => formatCalendarDate(c.date), sortValue: (c) => c.date },
  { id: 'run', label: 'Sync', numeric: true, cell: (c) => c.runId, sortValue: (c) => c.runId, optional: true },
  { id: 'kind', label: 'Change', cell: (c) => KIND_LABEL[c.kind], sortValue: (c) => c.kind },
  { id: 'pg', label: 'Gateway', cell: (c) => c.pg, sortValue: (c) => c.pg, optional: true },
  { id: 'txn', label: 'Transaction', mono: true, cell: (c) => c.pgTransactionId, sortValue: (c) => c.pgTransactionId },
  {
    id: 'settled',
    label: 'Settled at',
    optional: true,
    cell: (c) => formatIstWallClock(c.settlementDate),
    sortValue: (c) => c.settlementDate,
  },
  {
    id: 'what',
    label: 'What changed',
    wrap: true,
    cell: (c) => (c.fields.length === 0 ? '—' : c.fields.map(fieldText).join('; ')),
    sortValue: (c) => c.fields.map((f) => f.field).join(','),
  },
];

function Completeness({ from, to, pg }: { from: string; to: string; pg?: string }) {
  const query = useCompleteness({ from, to, ...(pg ? { pg } : {}) });
  if (query.error) return <ErrorNotice error={query.error.error} onRetry={() => void query.refetch()} />;
  const dates = query.data ?? [];
  const unstable = dates.filter((d) => d.state === 'unstable');
  return (
    <section aria-label="Completeness">
      <h3>Completeness</h3>
      <p data-testid="completeness-summary">
        {dates.length === 0
          ? 'No date of this range is synced.'
          : `${formatCount(dates.filter((d) => d.state === 'complete').length)} of ${formatCount(dates.length)} synced dates complete` +
            (unstable.length ? `; ${formatCount(unstable.length)} not stable: sync them again` : '') +
            '.'}
      </p>
      <ul className="chg-dates" aria-label="Completeness per date">
        {dates.map((d) => {
          const records = d.gateways.reduce((n, g) => n + g.records, 0);
          const passes = Math.max(0, ...d.gateways.map((g) => g.passes));
          const title = d.gateways
            .map((g) => `${g.pg}: ${g.records} records, ${g.pages} pages, ${g.passes} passes, digest ${g.digest}`)
            .join('\n');
          return (
            <li key={d.date} className={`chg-date chg-${d.state}`} title={title}>
              <span>{formatCalendarDate(d.date)}</span>{' '}
              <strong>
                {d.state === 'complete' ? 'complete' : d.state === 'unstable' ? 'not stable' : 'not recorded'}
              </strong>
              {d.gateways.length > 0 && (
                <span className="muted">
                  {' '}
                  · {formatCount(records)} records · {passes} {passes === 1 ? 'pass' : 'passes'}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function ChangesDialog() {
  const { runId, show, close } = useChangesDialog();
  const filter = useShownFilter();
  const ref = useModalDialog();
  const titleId = useId();
  const views = useTableViews(TABLE, FILTERS);
  const kind = (views.filters['kind'] as ChangeKind | undefined) ?? '';
  const setKind = (value: ChangeKind | '') => views.setFilter('kind', value);
  const [sort, setSort] = useTableSort(TABLE);
  const range = { from: filter.from, to: filter.to, ...(filter.pg ? { pg: filter.pg } : {}) };
  const summary = useChangesSummary(range);
  const changes = useChanges({
    ...range,
    ...(runId !== null ? { runId } : {}),
    ...(kind ? { kind } : {}),
    limit: SHOWN,
  });
  const k = summary.data?.byKind;
  return (
    <dialog
      ref={ref}
      className="dialog chg-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <div className="stl-detail-head">
        <h2 id={titleId}>
          Changes and completeness, {formatCalendarDate(filter.from)} to {formatCalendarDate(filter.to)}
        </h2>
        <button type="button" className="button" autoFocus onClick={close}>
          Close
        </button>
      </div>
      {summary.error && <ErrorNotice error={summary.error.error} onRetry={() => void summary.refetch()} />}
      {k && (
        <p data-testid="changes-counts">
          {formatCount(k.new)} new · {formatCount(k.changed)} changed · {formatCount(k.vanished)} no longer returned ·{' '}
          {formatCount(k.returned)} returned again
        </p>
      )}
      <div className="chg-filters">
        <label>
          Sync run{' '}
          <select value={runId ?? ''} onChange={(e) => show(e.target.value === '' ? null : Number(e.target.value))}>
            <option value="">Every sync</option>
            {runId !== null && !summary.data?.runs.some((r) => r.runId === runId) && (
              <option value={runId}>Sync {runId}</option>
            )}
            {summary.data?.runs.map((r) => (
              <option key={r.runId} value={r.runId}>
                Sync {r.runId} at {formatIstInstant(r.at)}: {formatCount(r.changes)} changes
              </option>
            ))}
          </select>
        </label>
        <label>
          Change{' '}
          <select value={kind} onChange={(e) => setKind(e.target.value as ChangeKind | '')}>
            <option value="">Any</option>
            {CHANGE_KINDS.map((c) => (
              <option key={c} value={c}>
                {KIND_LABEL[c]}
              </option>
            ))}
          </select>
        </label>
        {changes.data?.nextAfterId !== null && changes.data && (
          <span className="muted">The first {formatCount(SHOWN)} are shown; the exports have them all.</span>
        )}
      </div>
      <div className="chg-export" role="group" aria-label="Export the changes">
        <ExportButtons
          kind="changes"
          disabled={(changes.data?.changes.length ?? 0) === 0}
          request={(format) => ({
            kind: 'changes',
            format,
            filter: { ...range, ...(runId !== null ? { runId } : {}), ...(kind ? { kind } : {}) },
          })}
        />
      </div>
      <ExportStatus kind="changes" />
      <DataTable
        id={TABLE}
        label="Changes"
        columns={COLUMNS}
        rows={changes.data?.changes ?? []}
        rowKey={(c) => String(c.id)}
        sort={sort}
        onSort={setSort}
        views={<SavedViewsMenu {...views.menu} />}
        state={
          changes.error
            ? { kind: 'error', error: changes.error.error, retry: () => void changes.refetch() }
            : changes.isLoading
              ? { kind: 'loading', label: 'Reading the changes' }
              : (changes.data?.changes.length ?? 0) === 0
                ? { kind: 'empty', title: 'No changes', children: 'No sync changed a record here.' }
                : { kind: 'ready' }
        }
      />
      <Completeness {...range} />
    </dialog>
  );
}
