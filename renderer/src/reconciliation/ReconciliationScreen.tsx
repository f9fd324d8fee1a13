/**
 * Reconciling with the bank: a bank account and a period; import its statement (CSV or XLSX), match, and read every
 * settlement batch and every statement credit with its state (counts and amounts per state), a batch's records
 * (drill-down), unmatch or match by hand with a note, and export the reconciliation as XLSX. All from the cache.
 */
import { useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import type { IpcOutput } from '../../../shared/ipc/contract';
import {
  BATCH_STATE_LABELS,
  BATCH_STATES,
  CREDIT_STATE_LABELS,
  CREDIT_STATES,
  stateLabel,
  type ReconBatch,
  type ReconCredit,
  type ReconReport,
  type ReconSettings,
} from '../../../shared/bank-matching';
import { addDays, epochMsToIstDate } from '../../../shared/time';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { FilterSelect } from '../ui/FilterSelect';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { DateInput } from '../ui/DateInput';
import { WholeNumberField } from '../ui/WholeNumberField';
import { PageHeader } from '../ui/PageHeader';
import { base64Of } from '../ui/files';
import { formatCalendarDate, formatCount, formatIstWallClock } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { IpcFailure } from '../query/ipc-query';
import {
  keyOf,
  useBatchRecords,
  useExportRecon,
  useExportTally,
  useMatch,
  useMatchByHand,
  usePreviewStatement,
  useSaveReconSettings,
  useReconAccounts,
  useReconReport,
  useUnmatch,
} from './recon-queries';
import { useExportReveal } from '../exports/exports-queries';
import { StatementMapping, type StatementImported, type StatementPreview } from './StatementMapping';
import { StatementPassword } from './StatementPassword';
import './reconciliation.css';

/** The account menu's value for "another bank account" (never an account's name: names are not empty). */
const NEW_ACCOUNT = '';

const batchKey = (b: Pick<ReconBatch, 'date' | 'pg' | 'utr' | 'settlementDate'>) =>
  `${b.date}|${b.pg}|${b.utr}|${b.settlementDate}`;
const diff = (v: number | null) => (v === null || v === 0 ? '' : formatMoney(v));

const BATCH_COLUMNS: DataColumn<ReconBatch>[] = [
  { id: 'date', label: 'Date', cell: (b) => formatCalendarDate(b.date), sortValue: (b) => b.date },
  { id: 'pg', label: 'Gateway', cell: (b) => b.pg, sortValue: (b) => b.pg },
  { id: 'utr', label: 'UTR', mono: true, cell: (b) => b.utr || 'UTR pending', sortValue: (b) => b.utr },
  {
    id: 'at',
    label: 'Settled at',
    cell: (b) => formatIstWallClock(b.settlementDate),
    sortValue: (b) => b.settlementDate,
    optional: true,
    hiddenByDefault: true,
  },
  {
    id: 'records',
    label: 'Records',
    numeric: true,
    cell: (b) => formatCount(b.records),
    sortValue: (b) => b.records,
    optional: true,
  },
  { id: 'net', label: 'Net settled', numeric: true, cell: (b) => formatMoney(b.settled), sortValue: (b) => b.settled },
  {
    id: 'state',
    label: 'State',
    cell: (b) => stateLabel(BATCH_STATE_LABELS[b.state], b.lateDays),
    sortValue: (b) => b.state,
  },
  { id: 'diff', label: 'Difference', numeric: true, cell: (b) => diff(b.difference), sortValue: (b) => b.difference },
];

const CREDIT_COLUMNS: DataColumn<ReconCredit>[] = [
  { id: 'date', label: 'Date', cell: (c) => formatCalendarDate(c.date), sortValue: (c) => c.date },
  { id: 'amount', label: 'Amount', numeric: true, cell: (c) => formatMoney(c.amount), sortValue: (c) => c.amount },
  { id: 'utr', label: 'UTR', mono: true, cell: (c) => c.utr ?? '', sortValue: (c) => c.utr },
  {
    id: 'state',
    label: 'State',
    cell: (c) => stateLabel(CREDIT_STATE_LABELS[c.state], c.lateDays),
    sortValue: (c) => c.state,
  },
  { id: 'narration', label: 'Narration', cell: (c) => c.narration, sortValue: (c) => c.narration, optional: true },
];

type BatchRecord = IpcOutput<'recon.batchRecords'>['records'][number];

const RECORD_COLUMNS: DataColumn<BatchRecord>[] = [
  { id: 'txn', label: 'Transaction', mono: true, cell: (r) => r.pgTransactionId, sortValue: (r) => r.pgTransactionId },
  { id: 'mode', label: 'Mode', optional: true, cell: (r) => r.paymentMode, sortValue: (r) => r.paymentMode },
  { id: 'amount', label: 'Amount', numeric: true, cell: (r) => formatMoney(r.amount), sortValue: (r) => r.amount },
  { id: 'settled', label: 'Settled', numeric: true, cell: (r) => formatMoney(r.settled), sortValue: (r) => r.settled },
];

/** The two lists' ids (their columns, sort, state filter and saved views) and the filter each takes. */
const BATCH_TABLE = 'recon-batches';
const CREDIT_TABLE = 'recon-credits';
const BATCH_FILTERS = { state: z.enum(BATCH_STATES) };
const CREDIT_FILTERS = { state: z.enum(CREDIT_STATES) };
const BATCH_OPTIONS = BATCH_STATES.map((s) => [s, BATCH_STATE_LABELS[s]] as const);
const CREDIT_OPTIONS = CREDIT_STATES.map((s) => [s, CREDIT_STATE_LABELS[s]] as const);

/** Rows whose state is the filter's, or all of them when the filter is unset. */
function inState<R extends { state: string }>(rows: readonly R[], state: unknown): readonly R[] {
  return typeof state === 'string' ? rows.filter((r) => r.state === state) : rows;
}

function Totals({ report }: { report: ReconReport }) {
  const block = (title: string, rows: ReconReport['batchTotals']) => (
    <table className="recon-totals" aria-label={title}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">State</th>
          <th scope="col">Count</th>
          <th scope="col">Amount</th>
          <th scope="col">Difference</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((t) => (
          <tr key={t.state} data-state={t.state}>
            <th scope="row">{t.label}</th>
            <td>{formatCount(t.count)}</td>
            <td>{formatMoney(t.amount)}</td>
            <td>{diff(t.difference)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className="recon-summary">
      {block('Batches', report.batchTotals)}
      {block('Statement credits', report.creditTotals)}
    </div>
  );
}

/**
 * The credits without a batch, as the bank wrote them (date, value date, narration, reference or UTR, amount), to
 * tick for a match by hand; the difference against the batch is kept as they are ticked, and a match that leaves one
 * asks why before it is made (the reason stays with the match and in its journal entry).
 */
function CreditPicker({
  free,
  batch,
  chosen,
  onChosen,
  busy,
  onMatch,
}: {
  free: readonly ReconCredit[];
  batch: ReconBatch;
  chosen: number[];
  onChosen(ids: number[]): void;
  busy: boolean;
  onMatch(reason: string | null): void;
}) {
  const [reason, setReason] = useState('');
  const ticked = free.filter((c) => chosen.includes(c.id));
  const credited = ticked.reduce((sum, c) => sum + c.amount, 0);
  const difference = credited - batch.settled;
  const needsReason = ticked.length > 0 && difference !== 0;
  return (
    <fieldset className="recon-credits-pick">
      <legend>Credits without a batch</legend>
      {free.length === 0 && <p>None in this period.</p>}
      {free.length > 0 && (
        <table className="recon-candidates" aria-label="Credits to match by hand">
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Tick</span>
              </th>
              <th scope="col">Date</th>
              <th scope="col">Value date</th>
              <th scope="col">Narration</th>
              <th scope="col">Reference / UTR</th>
              <th scope="col" className="money">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {free.map((c) => (
              <tr key={c.id} data-id={c.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Credit of ${formatMoney(c.amount)} on ${formatCalendarDate(c.date)}`}
                    checked={chosen.includes(c.id)}
                    onChange={(e) => onChosen(e.target.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id))}
                  />
                </td>
                <td>{formatCalendarDate(c.date)}</td>
                <td>{c.valueDate ? formatCalendarDate(c.valueDate) : <span className="muted">—</span>}</td>
                <td className="recon-narration">{c.narration}</td>
                <td className="mono">{[...new Set([c.reference, c.utr].filter((x) => x))].join(' · ') || '—'}</td>
                <td className="money">{formatMoney(c.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p role="status" className="recon-running" data-testid="match-difference">
        {ticked.length === 0
          ? `Tick the credits that pay this batch of ${formatMoney(batch.settled)}.`
          : `${ticked.length} ticked, ${formatMoney(credited)} against the batch's ${formatMoney(batch.settled)}: ` +
            (difference === 0 ? 'no difference.' : `difference ${formatMoney(difference)}.`)}
      </p>
      {needsReason && (
        <label className="recon-note">
          Why do they differ?{' '}
          <input
            className="input"
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
            placeholder="e.g. bank charges deducted"
          />
        </label>
      )}
      <button
        type="button"
        className="button button-primary"
        disabled={ticked.length === 0 || busy || (needsReason && reason.trim() === '')}
        onClick={() => onMatch(needsReason ? reason.trim() : null)}
      >
        Match by hand
      </button>
    </fieldset>
  );
}

function BatchDetail({ account, batch, report }: { account: string; batch: ReconBatch; report: ReconReport }) {
  const records = useBatchRecords(batch);
  const [recordSort, setRecordSort] = useTableSort('recon-batch-records');
  const [note, setNote] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const unmatch = useUnmatch();
  const byHand = useMatchByHand();
  const free = report.credits.filter((c) => c.state === 'unmatched');
  const failure = unmatch.error ?? byHand.error;
  return (
    <section className="recon-detail" aria-label="Batch">
      <h2>
        {batch.pg} · {batch.utr || 'UTR pending'} · {formatIstWallClock(batch.settlementDate)}
      </h2>
      <p>
        {BATCH_STATE_LABELS[batch.state]}
        {batch.difference !== null &&
          batch.difference !== 0 &&
          `, credited ${formatMoney(batch.difference)} against the batch`}
        {batch.note && ` — ${batch.note}`}
        {batch.reason && ` (the difference: ${batch.reason})`}
      </p>
      {records.data ? (
        <>
          <DataTable
            id="recon-batch-records"
            label="Records of the batch"
            columns={RECORD_COLUMNS}
            rows={records.data.records}
            rowKey={(r) => String(r.id)}
            sort={recordSort}
            onSort={setRecordSort}
          />
          <p className="muted">
            {formatCount(batch.records)} records, net {formatMoney(batch.settled)}
          </p>
        </>
      ) : records.error?.error.code === 'RECORDS_NOT_HELD' ? (
        // Not a fault: a console without the API secret has the desk's batch totals only, and main says where the
        // records are.
        <p className="notice" role="status">
          {records.error.error.message}
        </p>
      ) : records.error ? (
        <ErrorNotice error={records.error.error} onRetry={() => void records.refetch()} />
      ) : (
        <Skeleton label="Loading the batch's records" />
      )}
      <div className="recon-actions">
        <label className="recon-note">
          Note <input className="input" value={note} onChange={(e) => setNote(e.target.value)} placeholder="why" />
        </label>
        {batch.matchId !== null ? (
          <button
            type="button"
            className="button"
            disabled={note.trim() === '' || unmatch.isPending}
            onClick={() => unmatch.mutate({ account, matchId: batch.matchId!, note })}
          >
            Unmatch
          </button>
        ) : (
          <CreditPicker
            free={free}
            batch={batch}
            chosen={chosen}
            onChosen={setChosen}
            busy={byHand.isPending || note.trim() === ''}
            onMatch={(reason) =>
              byHand.mutate(
                { account, batch: keyOf(batch), lineIds: chosen, note, ...(reason ? { reason } : {}) },
                { onSuccess: () => setChosen([]) },
              )
            }
          />
        )}
        {failure && <ErrorNotice error={failure.error} />}
      </div>
    </section>
  );
}

/** The profile's matching window and T+n, where banks and gateways differ; a new T+n restates the batches at once. */
function MatchSettings({ settings }: { settings: ReconSettings }) {
  const save = useSaveReconSettings();
  return (
    <span className="recon-settings" role="group" aria-label="Matching settings">
      <WholeNumberField
        label="Credits up to (days after a batch)"
        value={settings.windowDays}
        max={10}
        onSave={(windowDays) => save.mutate({ windowDays })}
      />
      <WholeNumberField
        label="Overdue after T+"
        value={settings.overdueDays}
        max={30}
        onSave={(overdueDays) => save.mutate({ overdueDays })}
      />
      {save.error && <ErrorNotice error={save.error.error} />}
    </span>
  );
}

export function ReconciliationScreen() {
  const [today] = useState(() => epochMsToIstDate(Date.now()));
  const [from, setFrom] = useState(() => addDays(today, -7));
  const [to, setTo] = useState(() => addDays(today, -1));
  const accounts = useReconAccounts();
  const [picked, setPicked] = useState<string | null>(null);
  const [newName, setNewName] = useState('Collection account');
  // The menu's last choice starts another bank account: its statement is imported under the name typed.
  const adding = picked === NEW_ACCOUNT;
  const account = adding ? null : (picked ?? accounts.data?.accounts[0]?.name ?? null);
  const report = useReconReport(account, from, to);
  const previewStatement = usePreviewStatement();
  const [pending, setPending] = useState<{
    preview: StatementPreview;
    content: string;
    account: string;
    password?: string;
  } | null>(null);
  // A PDF statement that needs its password: the file read, waiting for it (kept only until it is imported or dropped).
  const [locked, setLocked] = useState<{ fileName: string; content: string; account: string } | null>(null);
  const [imported, setImported] = useState<StatementImported | null>(null);
  const [offerMatch, setOfferMatch] = useState(false);
  const match = useMatch();
  const exportRecon = useExportRecon();
  const exportTally = useExportTally();
  const reveal = useExportReveal();
  const file = useRef<HTMLInputElement>(null);
  const [batchSort, setBatchSort] = useTableSort(BATCH_TABLE);
  const [creditSort, setCreditSort] = useTableSort(CREDIT_TABLE);
  const batchViews = useTableViews(BATCH_TABLE, BATCH_FILTERS);
  const creditViews = useTableViews(CREDIT_TABLE, CREDIT_FILTERS);
  const [openKey, setOpenKey] = useState<string | null>(null);
  const r = report.data;
  const open = r?.batches.find((b) => batchKey(b) === openKey) ?? null;
  const batchState = batchViews.filters['state'] as string | undefined;
  const creditState = creditViews.filters['state'] as string | undefined;
  const batches = useMemo(() => inState(r?.batches ?? [], batchState), [r, batchState]);
  const credits = useMemo(() => inState(r?.credits ?? [], creditState), [r, creditState]);

  // A file chosen is previewed first: the mapping step shows its columns before anything is imported.
  const onFile = async (f: File | undefined) => {
    if (!f) return;
    const target = account ?? newName.trim();
    const content = await base64Of(f);
    if (file.current) file.current.value = '';
    setLocked(null);
    await preview({ fileName: f.name, content, account: target });
  };

  const preview = async (read: { fileName: string; content: string; account: string }, password?: string) => {
    // A file that cannot be read is shown as the mutation's error; one that needs its password asks for it.
    const shown = await previewStatement
      .mutateAsync({ ...read, ...(password === undefined ? {} : { password }) })
      .catch((e: unknown) => {
        if (e instanceof IpcFailure && e.error.code === 'STATEMENT_PASSWORD') setLocked(read);
        return null;
      });
    if (!shown) return;
    setLocked(null);
    setImported(null);
    setPending({ preview: shown, ...read, ...(password === undefined ? {} : { password }) });
  };

  return (
    <div className="screen recon-screen">
      <PageHeader title="Reconciliation">
        <button type="button" className="button" onClick={() => file.current?.click()}>
          Import statement…
        </button>
        <button
          type="button"
          className="button primary"
          disabled={account === null || match.isPending}
          onClick={() => account && match.mutate({ account, from, to })}
        >
          Match
        </button>
        {(['xlsx', 'csv'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="button"
            disabled={account === null || exportRecon.isPending}
            onClick={() => {
              reveal.reset();
              exportTally.reset();
              if (account) exportRecon.mutate({ account, from, to, format });
            }}
          >
            {format === 'xlsx' ? 'Export to Excel' : 'Export CSV'}
          </button>
        ))}
        <button
          type="button"
          className="button"
          disabled={account === null || exportTally.isPending}
          onClick={() => {
            reveal.reset();
            exportRecon.reset();
            if (account) exportTally.mutate({ account, from, to });
          }}
        >
          Export for Tally
        </button>
      </PageHeader>
      <input
        ref={file}
        type="file"
        accept=".csv,.xlsx"
        hidden
        aria-label="Bank statement file"
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      <div className="recon-toolbar">
        {accounts.data && accounts.data.accounts.length > 0 && (
          <label>
            Bank account{' '}
            <select
              className="input"
              value={adding ? NEW_ACCOUNT : (account ?? '')}
              onChange={(e) => setPicked(e.target.value)}
            >
              {accounts.data.accounts.map((a) => (
                <option key={a.id}>{a.name}</option>
              ))}
              <option value={NEW_ACCOUNT}>Another bank account…</option>
            </select>
          </label>
        )}
        {account === null && (
          <label>
            New bank account <input className="input" value={newName} onChange={(e) => setNewName(e.target.value)} />
          </label>
        )}
        <label>
          From <DateInput value={from} onChange={(d) => d && setFrom(d)} />
        </label>
        <label>
          To <DateInput value={to} onChange={(d) => d && setTo(d)} />
        </label>
        {accounts.data && <MatchSettings settings={accounts.data.settings} />}
      </div>
      <div role="status" className="job-line">
        {imported &&
          `${imported.fileName} (${imported.layout}): ${formatCount(imported.lines)} lines, ${formatCount(imported.added)} added, ${formatCount(imported.duplicates)} already imported${imported.bad.length ? `, ${imported.bad.length} rows left out` : ''}.`}
        {exportRecon.data?.file && (
          <>
            {' '}
            Saved {exportRecon.data.files.join(', ')}.{' '}
            <button
              type="button"
              className="button"
              onClick={() => exportRecon.data?.jobId && reveal.mutate({ jobId: exportRecon.data.jobId })}
            >
              Show in folder
            </button>
            {reveal.data?.revealed === false && ' The file could not be shown: it may have been moved or deleted.'}
          </>
        )}
        {exportTally.data?.file && (
          <>
            {' '}
            Saved {exportTally.data.file}: {formatCount(exportTally.data.vouchers)} Tally vouchers
            {exportTally.data.leftOut.length > 0 &&
              `; ${formatCount(exportTally.data.leftOut.length)} batches left out: ${exportTally.data.leftOut
                .map((l) => `${l.batch.pg} ${formatCalendarDate(l.batch.date)} (${l.reason})`)
                .join('; ')}`}
            .{' '}
            <button
              type="button"
              className="button"
              onClick={() => exportTally.data?.jobId && reveal.mutate({ jobId: exportTally.data.jobId })}
            >
              Show in folder
            </button>
          </>
        )}
        {offerMatch && imported?.from && imported.to && account === imported.account.name && (
          <>
            {' '}
            <button
              type="button"
              className="button button-primary"
              disabled={match.isPending}
              onClick={() => {
                match.mutate({ account, from, to });
                setOfferMatch(false);
              }}
            >
              Match {formatCalendarDate(imported.from)} to {formatCalendarDate(imported.to)} now
            </button>
          </>
        )}
      </div>
      {imported && imported.bad.length > 0 && (
        <ul className="recon-bad" aria-label="Rows left out">
          {imported.bad.map((b) => (
            <li key={b.rowNumber}>
              Row {b.rowNumber}: {b.reason}
            </li>
          ))}
        </ul>
      )}
      {previewStatement.error && <ErrorNotice error={previewStatement.error.error} />}
      {locked && (
        <StatementPassword
          fileName={locked.fileName}
          busy={previewStatement.isPending}
          onRead={(password) => void preview(locked, password)}
          onCancel={() => {
            setLocked(null);
            previewStatement.reset();
          }}
        />
      )}
      {pending && (
        <StatementMapping
          key={`${pending.account}|${pending.preview.fileName}|${pending.content.length}`}
          {...pending}
          onCancel={() => setPending(null)}
          onDone={(result) => {
            setPending(null);
            setImported(result);
            setOfferMatch(true);
            setPicked(result.account.name);
            // The period on screen becomes the statement's own, so Match (offered at once) reads what was imported.
            if (result.from && result.to) {
              setFrom(result.from);
              setTo(result.to);
            }
          }}
        />
      )}
      {match.error && <ErrorNotice error={match.error.error} />}
      {exportTally.error && <ErrorNotice error={exportTally.error.error} />}
      {account === null ? (
        <EmptyState title="No bank statement yet">
          Import the bank account's statement (CSV or XLSX as the bank exports it), then Match.
        </EmptyState>
      ) : report.error && !r ? (
        <ErrorNotice error={report.error.error} onRetry={() => void report.refetch()} />
      ) : !r ? (
        <Skeleton label="Reading the reconciliation" />
      ) : (
        <>
          {/* A desk that stopped answering: the last report stays in view under the reason. */}
          {report.error && <ErrorNotice error={report.error.error} onRetry={() => void report.refetch()} />}
          <Totals report={r} />
          <div className="recon-body">
            <div className="recon-tables">
              <DataTable
                id={BATCH_TABLE}
                label="Settlement batches"
                columns={BATCH_COLUMNS}
                rows={batches}
                rowKey={batchKey}
                sort={batchSort}
                onSort={setBatchSort}
                onOpen={(b) => setOpenKey(batchKey(b))}
                currentKey={openKey}
                state={
                  r.batches.length === 0
                    ? { kind: 'empty', title: 'No batches in this period: sync settlements first.' }
                    : batches.length === 0
                      ? { kind: 'empty', title: 'No batch in this state in this period.' }
                      : { kind: 'ready' }
                }
                filters={
                  <FilterSelect
                    label="Batches"
                    value={batchState}
                    options={BATCH_OPTIONS}
                    onChange={(v) => batchViews.setFilter('state', v)}
                  />
                }
                views={<SavedViewsMenu {...batchViews.menu} />}
              />
              {open && account && <BatchDetail key={openKey} account={account} batch={open} report={r} />}
              <DataTable
                id={CREDIT_TABLE}
                label="Statement credits"
                columns={CREDIT_COLUMNS}
                rows={credits}
                rowKey={(c) => String(c.id)}
                sort={creditSort}
                onSort={setCreditSort}
                state={
                  r.credits.length === 0
                    ? { kind: 'empty', title: 'No credits in this period.' }
                    : credits.length === 0
                      ? { kind: 'empty', title: 'No credit in this state in this period.' }
                      : { kind: 'ready' }
                }
                filters={
                  <FilterSelect
                    label="Credits"
                    value={creditState}
                    options={CREDIT_OPTIONS}
                    onChange={(v) => creditViews.setFilter('state', v)}
                  />
                }
                views={<SavedViewsMenu {...creditViews.menu} />}
              />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
