/**
 * Bulk payout check: paste a list (or read a text or CSV file), see how it was read (ids, duplicates dropped,
 * pieces that are not ids and why; one that only does not look like an id can be sent deliberately), check them all in main, and the run's results as one table with export.
 * Advance is chosen per run and unticked after it; while the service cannot be reached, advance checks are
 * queued in main and run when it is back, normal checks wait for the service.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  parsePayoutIds,
  MAX_CHECK_IDS,
  PAYOUT_CHECK_OUTCOMES,
  type PayoutCheckItem,
} from '../../../shared/payout-checks';
import { payoutDestination } from '../../../shared/payouts';
import { api } from '../api';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';
import { ipcErrorOf, loadableOf, useActiveProfileId } from '../query/ipc-query';
import { z } from 'zod';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { FilterSelect } from '../ui/FilterSelect';
import { FormField } from '../ui/FormField';
import { MaskedAccount } from '../ui/MaskedAccount';
import { formatCount, formatIstInstant } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { useOfflineReason } from '../ui/offline';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { ErrorNotice } from '../ui/states';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { useBulkCheck, useLatestCheckRun } from './payouts-queries';
import { usePayoutsUi } from './payouts-store';
import { TransferStatus } from './TransferStatus';

const OUTCOME_WORDS: Record<PayoutCheckItem['outcome'], string> = {
  pending: 'Checking',
  checked: 'Checked',
  refused: 'Refused',
  failed: 'Not checked',
  queued: 'Queued',
};

/** The results' table and its views: an outcome; a view serves every run, so it never names one. */
const BULK_TABLE = 'payouts.bulk';
const BULK_FILTERS = { outcome: z.enum(PAYOUT_CHECK_OUTCOMES) };

const COLUMNS: DataColumn<PayoutCheckItem>[] = [
  { id: 'payout', label: 'Payout', mono: true, cell: (i) => i.payoutId, sortValue: (i) => i.payoutId },
  {
    id: 'outcome',
    label: 'Check',
    cell: (i) => <span className={`check-outcome check-${i.outcome}`}>{OUTCOME_WORDS[i.outcome]}</span>,
    sortValue: (i) => OUTCOME_WORDS[i.outcome],
  },
  {
    id: 'status',
    label: 'Status',
    optional: true,
    cell: (i) => (i.lookup?.transferStatus ? <TransferStatus status={i.lookup.transferStatus} /> : '—'),
    sortValue: (i) => i.lookup?.transferStatus ?? null,
  },
  {
    id: 'amount',
    label: 'Amount',
    numeric: true,
    optional: true,
    cell: (i) => (i.lookup?.amount == null ? '—' : formatMoney(i.lookup.amount)),
    sortValue: (i) => i.lookup?.amount ?? null,
  },
  {
    id: 'method',
    label: 'Method',
    optional: true,
    cell: (i) => i.lookup?.payout?.method?.toUpperCase() ?? '—',
    sortValue: (i) => i.lookup?.payout?.method ?? null,
  },
  {
    id: 'to',
    label: 'To',
    optional: true,
    cell: (i) => {
      const to = i.lookup?.payout ? payoutDestination(i.lookup.payout) : null;
      if (!to) return '—';
      return to.kind === 'upi' ? (
        <span className="mono">{to.vpa}</span>
      ) : (
        <MaskedAccount account={to.accountNumber} ifsc={to.ifsc} />
      );
    },
    sortValue: (i) => i.lookup?.payout?.beneficiary?.name ?? null,
  },
  {
    id: 'utr',
    label: 'UTR',
    mono: true,
    optional: true,
    hiddenByDefault: true,
    cell: (i) => i.lookup?.utNo ?? '—',
    sortValue: (i) => i.lookup?.utNo ?? null,
  },
  {
    id: 'reason',
    label: 'Reason',
    wrap: true,
    optional: true,
    cell: (i) => {
      const reason = i.error ?? i.lookup?.gatewayErrorMessage ?? (i.lookup?.payout?.error || null);
      return reason ? <span className={i.outcome === 'checked' ? '' : 'error'}>{reason}</span> : '';
    },
    sortValue: (i) => i.error ?? i.lookup?.gatewayErrorMessage ?? null,
  },
];

interface NotId {
  text: string;
  reason: string;
  /** Made of id characters: the person may send it anyway. */
  questionable: boolean;
}

/** The pieces left out, with why; a questionable one can be sent deliberately. */
function NotIds({
  notIds,
  anyway,
  onChange,
}: {
  notIds: readonly NotId[];
  anyway: ReadonlySet<string>;
  onChange(next: ReadonlySet<string>): void;
}) {
  if (notIds.length === 0) return null;
  const toggle = (text: string, on: boolean) => {
    const next = new Set(anyway);
    if (on) next.add(text);
    else next.delete(text);
    onChange(next);
  };
  return (
    <ul className="bulk-invalid" aria-label="Not payout ids">
      {notIds.slice(0, 20).map((x, n) => (
        <li key={n}>
          <span className="mono">{x.text}</span> {x.reason}
          {x.questionable && (
            <label className="bulk-anyway">
              <input type="checkbox" checked={anyway.has(x.text)} onChange={(e) => toggle(x.text, e.target.checked)} />{' '}
              Send anyway
            </label>
          )}
        </li>
      ))}
      {notIds.length > 20 && <li>…and {formatCount(notIds.length - 20)} more</li>}
    </ul>
  );
}

export function BulkCheck() {
  const profileId = useActiveProfileId();
  const text = usePayoutsUi((s) => s.bulkText);
  const setText = usePayoutsUi((s) => s.setBulkText);
  const [advance, setAdvance] = useState(false);
  const [fileError, setFileError] = useState<string>();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [sort, setSort] = useTableSort(BULK_TABLE);
  const views = useTableViews(BULK_TABLE, BULK_FILTERS);
  const outcome = views.filters['outcome'] as PayoutCheckItem['outcome'] | undefined;
  const area = useRef<HTMLTextAreaElement>(null);
  const focusAsked = usePayoutsUi((s) => s.bulkFocus);
  const offline = useOfflineReason();
  const parsed = useMemo(() => parsePayoutIds(text), [text]);
  // Questionable pieces the person chose to send anyway; only those still in the list count.
  const [anyway, setAnyway] = useState<ReadonlySet<string>>(new Set());
  const chosen = parsed.questionable.filter((q) => anyway.has(q.text)).map((q) => q.text);
  const ids = [...parsed.ids, ...chosen];
  const leftOut = parsed.invalid.length + parsed.questionable.length - chosen.length;
  const notIds: NotId[] = [
    ...parsed.invalid.map((x) => ({ ...x, questionable: false })),
    ...parsed.questionable.map((x) => ({ ...x, questionable: true })),
  ];
  const check = useBulkCheck();
  const latestQuery = useLatestCheckRun();
  const latest = loadableOf(latestQuery);

  useEffect(() => {
    if (focusAsked > 0) area.current?.focus();
  }, [focusAsked]);
  useEffect(
    () =>
      api.on.payoutCheckProgress((p) => {
        if (p.profileId === profileId) setProgress(p.finished ? null : { done: p.done, total: p.total });
      }),
    [profileId],
  );

  const count = ids.length;
  const tooMany = count > MAX_CHECK_IDS;
  // Advance checks queue while offline; normal ones need the service.
  const blocked = offline !== null && !advance ? offline : null;
  const verb = offline !== null && advance ? 'Queue' : 'Check';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (count === 0 || tooMany || blocked !== null || check.isPending) return;
    check.mutate({ ids, mode: advance ? 'advance' : 'normal' });
    // Advance is for this run only.
    setAdvance(false);
  }

  async function readFile(file: File) {
    setFileError(undefined);
    if (file.size > 1024 * 1024) return setFileError(`${file.name} is larger than 1 MB: not a list of payout ids.`);
    try {
      setText((text ? `${text}\n` : '') + (await file.text()));
    } catch {
      setFileError(`${file.name} could not be read.`);
    }
  }

  const run = latest.status === 'ready' ? latest.value : null;
  const rows = run ? (outcome ? run.items.filter((i) => i.outcome === outcome) : run.items) : [];
  return (
    <section className="payout-panel" aria-labelledby="payout-bulk-title">
      <header className="payout-panel-head">
        <h2 id="payout-bulk-title">Bulk check</h2>
        <span className="spacer" />
        {run && (
          <span className="muted">
            Last run {formatIstInstant(run.startedAt)}: {formatCount(run.counts.checked)} checked,{' '}
            {formatCount(run.counts.refused)} refused, {formatCount(run.counts.failed)} not checked,{' '}
            {formatCount(run.counts.queued)} queued
          </span>
        )}
      </header>
      <form className="bulk-form" onSubmit={submit} noValidate aria-label="Check a list of payouts">
        <FormField
          label="Payout ids"
          error={tooMany ? `At most ${formatCount(MAX_CHECK_IDS)} payout ids in one check.` : undefined}
          hint="Paste a list: spaces, commas, semicolons, tabs or new lines between ids; duplicates are checked once."
        >
          {(control) => (
            <textarea
              {...control}
              ref={area}
              className="input mono bulk-ids"
              rows={3}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </FormField>
        <p className="muted bulk-read" role="status" aria-label="How the list was read">
          {formatCount(count)} {count === 1 ? 'id' : 'ids'}
          {parsed.duplicates.length > 0 && `, ${formatCount(parsed.duplicates.length)} repeated (checked once)`}
          {leftOut > 0 && `, ${formatCount(leftOut)} not payout ids (left out)`}
          {chosen.length > 0 && `, ${formatCount(chosen.length)} sent anyway`}
        </p>
        <NotIds notIds={notIds} anyway={anyway} onChange={setAnyway} />
        {fileError && <p className="field-error">{fileError}</p>}
        <div className="bulk-actions">
          <label className="button">
            Read a file…
            <input
              type="file"
              accept=".txt,.csv,text/plain,text/csv"
              className="sr-only"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void readFile(file);
              }}
            />
          </label>
          <label className="payout-advance">
            <input type="checkbox" checked={advance} onChange={(e) => setAdvance(e.target.checked)} />
            Advance (ask the gateways directly; paced, queued while offline)
          </label>
          <button
            type="submit"
            className="button button-primary"
            disabled={count === 0 || tooMany || blocked !== null || check.isPending}
            title={blocked ?? undefined}
          >
            {check.isPending
              ? progress
                ? `Checking ${formatCount(progress.done)} of ${formatCount(progress.total)}…`
                : 'Checking…'
              : `${verb} ${formatCount(count)} ${count === 1 ? 'payout' : 'payouts'}`}
          </button>
          <button type="button" className="button" disabled={text === ''} onClick={() => setText('')}>
            Clear
          </button>
        </div>
      </form>
      {check.isError && <ErrorNotice error={ipcErrorOf(check.error)} />}
      {latest.status === 'failed' && <ErrorNotice error={latest.error} onRetry={() => void latestQuery.refetch()} />}
      {run && (
        <>
          <div className="bulk-export">
            <ExportButtons kind="payoutCheck" request={(format) => ({ kind: 'payoutCheck', runId: run.id, format })} />
          </div>
          <ExportStatus kind="payoutCheck" />
          <DataTable
            id={BULK_TABLE}
            label="Bulk check results"
            columns={COLUMNS}
            rows={rows}
            rowKey={(i) => i.payoutId}
            sort={sort}
            onSort={setSort}
            rowClass={(i) => (i.outcome === 'checked' ? undefined : `bulk-row-${i.outcome}`)}
            state={
              outcome && rows.length === 0
                ? { kind: 'empty', title: `No payout in this run is ${OUTCOME_WORDS[outcome].toLowerCase()}` }
                : undefined
            }
            filters={
              <FilterSelect
                label="Check"
                value={outcome}
                options={PAYOUT_CHECK_OUTCOMES.map((o) => [o, OUTCOME_WORDS[o]] as const)}
                onChange={(v) => views.setFilter('outcome', v)}
              />
            }
            views={<SavedViewsMenu {...views.menu} />}
          />
        </>
      )}
    </section>
  );
}
