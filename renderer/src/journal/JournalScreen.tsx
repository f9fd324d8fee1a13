/**
 * The audit journal of the active profile: filter by kind, outcome, dates and text; an entry's detail with its
 * hashes; verification of the whole chain; "Check status" on actions whose outcome is unknown; closed settlement
 * periods (close, difference since close, acknowledge, reopen); export as Excel or CSV.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { z } from 'zod';
import type { IpcOutput } from '../../../shared/ipc/contract';
import { CLOSE_STATES, JOURNAL_KINDS, JOURNAL_OUTCOMES, journalFilter } from '../../../shared/journal';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';
import { useNavigation } from '../navigation/navigation-store';
import { useOrdersUi } from '../orders/orders-store';
import { ipcErrorOf, loadableOf, useActiveProfileId } from '../query/ipc-query';
import { useSubscriptionsUi } from '../subscriptions/subscriptions-store';
import { DataTable, type DataColumn, type TableState } from '../ui/DataTable';
import { DateInput } from '../ui/DateInput';
import { FilterSelect, optionsOf } from '../ui/FilterSelect';
import { OfflineBanner } from '../ui/OfflineBanner';
import { PageHeader } from '../ui/PageHeader';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { useSavedViews, type ViewBinding } from '../ui/saved-views';
import { ErrorNotice, Skeleton } from '../ui/states';
import {
  formatCalendarDate,
  formatCount,
  formatDateRange,
  formatIstInstant,
  formatIstWallClock,
} from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { tableSortOf, useTableSort, useTableSorts } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import {
  useAcknowledgePeriod,
  useCheckPlanCreate,
  useClosePeriod,
  useClosedPeriods,
  useJournalEntries,
  useJournalVerify,
  useLastVerification,
  useLastJournalAction,
  usePeriodDiff,
  useReopenPeriod,
  useStatusCheck,
  useUnresolvedActions,
  type ClosedPeriod,
  type JournalEntry,
  type JournalFilter,
} from './journal-queries';
import { useJournalUi } from './journal-store';
import './journal.css';

/** The table's id: its columns, sort and saved views are kept under it. */
const JOURNAL_TABLE = 'journal';

const FILTER_KEYS = ['kind', 'outcome', 'from', 'to', 'text'] as const;

/** The closed periods' table and its views: a state (closed, or changed after close). */
const PERIODS_TABLE = 'journal.periods';
const PERIOD_FILTERS = { state: z.enum(CLOSE_STATES) };
const STATE_WORDS: Record<(typeof CLOSE_STATES)[number], string> = { closed: 'Closed', changed: 'Changed after close' };
/** A period's difference totals and their views: a gateway (views serve any period, so not the period itself). */
const DIFF_TABLE = 'journal.diff';
const DIFF_FILTERS = { pg: z.string().max(40) };

/** A saved view of the journal: its filter (kind, outcome, dates, text) and the entries' sort. */
const journalViews: ViewBinding = {
  current() {
    const { filter } = useJournalUi.getState();
    const filters = Object.fromEntries(FILTER_KEYS.flatMap((k) => (filter[k] === undefined ? [] : [[k, filter[k]]])));
    return { filters, sort: tableSortOf(JOURNAL_TABLE) };
  },
  apply(state) {
    // Checked as main checks a filter: a value this version does not know is left out, the rest applies.
    const filter: JournalFilter = {};
    for (const k of FILTER_KEYS) {
      const one = journalFilter.safeParse({ [k]: state.filters[k] ?? undefined });
      if (one.success && one.data[k] !== undefined) Object.assign(filter, { [k]: one.data[k] });
    }
    useJournalUi.getState().setFilter(filter);
    useTableSorts.getState().set(JOURNAL_TABLE, state.sort);
  },
};

function Filters() {
  const filter = useJournalUi((s) => s.filter);
  const setFilter = useJournalUi((s) => s.setFilter);
  const [text, setText] = useState(filter.text ?? '');
  // Set from elsewhere (a saved view): the box follows.
  const [seen, setSeen] = useState(filter.text ?? '');
  if ((filter.text ?? '') !== seen) {
    setSeen(filter.text ?? '');
    setText(filter.text ?? '');
  }
  const pick = (key: 'kind' | 'outcome' | 'from' | 'to', value: string) =>
    setFilter({ ...filter, [key]: value === '' ? undefined : value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilter({ ...filter, text: text.trim() === '' ? undefined : text.trim() });
  };
  return (
    <form className="journal-toolbar" role="search" aria-label="Filter the journal" onSubmit={submit}>
      <label>
        Kind{' '}
        <select className="input" value={filter.kind ?? ''} onChange={(e) => pick('kind', e.target.value)}>
          <option value="">Any</option>
          {JOURNAL_KINDS.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
      </label>
      <label>
        Outcome{' '}
        <select className="input" value={filter.outcome ?? ''} onChange={(e) => pick('outcome', e.target.value)}>
          <option value="">Any</option>
          {JOURNAL_OUTCOMES.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
      <label>
        From (IST) <DateInput value={filter.from ?? ''} onChange={(date) => pick('from', date ?? '')} />
      </label>
      <label>
        To (IST) <DateInput value={filter.to ?? ''} onChange={(date) => pick('to', date ?? '')} />
      </label>
      <label>
        Text{' '}
        <input className="input" type="search" data-search value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="submit" className="button">
        Apply
      </button>
    </form>
  );
}

const entriesText = (n: number) => `${formatCount(n)} ${n === 1 ? 'entry' : 'entries'}`;

function Verification() {
  const verify = useJournalVerify();
  // The last verification, also one made before this screen opened or by `journal verify`: Today's row opens here.
  const last = useLastVerification().data;
  return (
    <div className="journal-toolbar">
      <button type="button" className="button" onClick={() => verify.mutate(undefined)} disabled={verify.isPending}>
        Verify the journal
      </button>
      <p role="status" className="job-line">
        {verify.isPending && 'Recomputing every hash…'}
        {verify.isSuccess &&
          (verify.data.ok
            ? `The journal holds ${entriesText(verify.data.entries)}, every hash and link as written.`
            : `The journal does not hold at entry ${verify.data.problem!.seq}: ${verify.data.problem!.message}`)}
      </p>
      {last !== undefined && (
        <p className="muted" data-testid="journal-last-verified">
          {last === null
            ? 'Never verified.'
            : `Last verified ${formatIstInstant(last.at)}: ${last.ok ? `holds ${entriesText(last.entries)}` : `does not hold (${last.problem})`}.`}
        </p>
      )}
      {verify.isError && <ErrorNotice error={ipcErrorOf(verify.error)} />}
    </div>
  );
}

function Detail({ entry }: { entry: JournalEntry }) {
  return (
    <section aria-label={`Entry ${entry.seq}`} className="panel journal-detail">
      <h3>
        Entry {entry.seq}: {entry.event}
      </h3>
      <dl className="facts">
        <dt>Time</dt>
        <dd>{formatIstInstant(entry.at)}</dd>
        <dt>Kind and outcome</dt>
        <dd>
          {entry.kind}, {entry.outcome}
        </dd>
        {entry.refersTo !== null && (
          <>
            <dt>Refers to</dt>
            <dd>entry {entry.refersTo}</dd>
          </>
        )}
        {entry.requestId !== null && (
          <>
            <dt>Request id</dt>
            <dd className="mono">{entry.requestId}</dd>
          </>
        )}
        <dt>Summary</dt>
        <dd>{entry.summary}</dd>
        <dt>App version, OS user</dt>
        <dd>
          {entry.appVersion}, {entry.osUser}
        </dd>
        <dt>Previous hash</dt>
        <dd className="mono">{entry.prevHash}</dd>
        <dt>Hash</dt>
        <dd className="mono">{entry.hash}</dd>
      </dl>
      <pre className="mono" aria-label="Data">
        {JSON.stringify(entry.data, null, 2)}
      </pre>
    </section>
  );
}

const ENTRY_COLUMNS: DataColumn<JournalEntry>[] = [
  { id: 'seq', label: 'Seq', numeric: true, cell: (e) => e.seq, sortValue: (e) => e.seq },
  { id: 'at', label: 'Time', optional: true, cell: (e) => formatIstInstant(e.at), sortValue: (e) => e.at },
  { id: 'kind', label: 'Kind', optional: true, cell: (e) => e.kind, sortValue: (e) => e.kind },
  { id: 'event', label: 'Event', optional: true, cell: (e) => e.event, sortValue: (e) => e.event },
  { id: 'outcome', label: 'Outcome', optional: true, cell: (e) => e.outcome, sortValue: (e) => e.outcome },
  { id: 'summary', label: 'Summary', optional: true, wrap: true, cell: (e) => e.summary, sortValue: (e) => e.summary },
];

function Entries() {
  const filter = useJournalUi((s) => s.filter);
  const selected = useJournalUi((s) => s.selected);
  const select = useJournalUi((s) => s.select);
  const [sort, setSort] = useTableSort(JOURNAL_TABLE);
  const query = useJournalEntries(filter);
  const entries = loadableOf(query);
  const rows = entries.status === 'ready' ? entries.value.entries : [];
  const shown = rows.find((e) => e.seq === selected);
  const state: TableState =
    entries.status === 'loading'
      ? { kind: 'loading', label: 'Loading the journal' }
      : entries.status === 'failed'
        ? { kind: 'error', error: entries.error, retry: () => void query.refetch() }
        : rows.length === 0
          ? { kind: 'empty', title: 'No entries match' }
          : { kind: 'ready' };
  return (
    <>
      <DataTable
        id={JOURNAL_TABLE}
        label="Journal entries"
        columns={ENTRY_COLUMNS}
        rows={rows}
        rowKey={(e) => String(e.seq)}
        state={state}
        sort={sort}
        onSort={setSort}
        currentKey={selected === null ? null : String(selected)}
        onOpen={(e) => select(e.seq === selected ? null : e.seq)}
        onEscape={() => select(null)}
      />
      {shown && <Detail entry={shown} />}
    </>
  );
}

/** Orders' and subscriptions' actions are checked on their own screen, where its attempts or status are read. */
function CheckOnScreen({ attempt }: { attempt: JournalEntry }) {
  const profileId = useActiveProfileId();
  const openScreen = useNavigation((s) => s.open);
  const showOrder = useOrdersUi((s) => s.show);
  const showSubscription = useSubscriptionsUi((s) => s.show);
  const orderId = attempt.data['orderId'];
  const subscriptionId = attempt.data['subscriptionId'];
  const open = () => {
    if (profileId === null) return;
    if (typeof orderId === 'string') {
      showOrder(profileId, orderId, true);
      openScreen('orders');
    } else if (typeof subscriptionId === 'string') {
      showSubscription({ profileId, id: subscriptionId, by: 'id' });
      openScreen('subscriptions');
    }
  };
  return (
    <div className="journal-toolbar">
      <span>
        Entry {attempt.seq}, {formatIstInstant(attempt.at)}: {attempt.summary}
      </span>
      <button type="button" className="button" onClick={open}>
        {typeof orderId === 'string' ? 'Open the order to check' : 'Open the subscription to check'}
      </button>
    </div>
  );
}

const CHECKED_ON_SCREEN: readonly string[] = [
  'order.capture',
  'order.refund',
  'subscription.cancel',
  'subscription.charge',
];

/** What to check for actions the journal cannot settle itself: the screen where the desk looks. */
const CHECK_ELSEWHERE: Readonly<Record<string, string>> = {
  'order.process': 'Fetch the order and look at its payments before processing it again.',
  'webhook.update': 'Open Webhooks: the list shows whether the change took effect.',
};

function CheckStatus({ attempt }: { attempt: JournalEntry }) {
  const checkStatus = useStatusCheck();
  const checkPlanCreate = useCheckPlanCreate();
  const [id, setId] = useState('');
  if (CHECKED_ON_SCREEN.includes(attempt.event)) return <CheckOnScreen attempt={attempt} />;
  const head = (
    <span>
      Entry {attempt.seq}, {formatIstInstant(attempt.at)}: {attempt.summary}
    </span>
  );
  if (attempt.event === 'plan.create') {
    return (
      <div className="journal-toolbar" aria-label={`Check status of entry ${attempt.seq}`}>
        {head}
        <button
          type="button"
          className="button"
          disabled={checkPlanCreate.isPending}
          onClick={() => checkPlanCreate.mutate({ attemptSeq: attempt.seq })}
        >
          Check status
        </button>
      </div>
    );
  }
  const elsewhere = CHECK_ELSEWHERE[attempt.event];
  if (elsewhere) {
    return (
      <div className="journal-toolbar" aria-label={`Check status of entry ${attempt.seq}`}>
        {head}
        <span className="muted">{elsewhere}</span>
      </div>
    );
  }
  return (
    <form
      className="journal-toolbar"
      aria-label={`Check status of entry ${attempt.seq}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (id.trim()) checkStatus.mutate({ attemptSeq: attempt.seq, beneficiaryId: id.trim() });
      }}
    >
      {head}
      <label>
        Beneficiary id at the service <input className="input" value={id} onChange={(e) => setId(e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={!id.trim() || checkStatus.isPending}>
        Check status
      </button>
    </form>
  );
}

function Unresolved() {
  const unresolved = loadableOf(useUnresolvedActions());
  if (unresolved.status !== 'ready' || unresolved.value.length === 0) return null;
  return (
    <section aria-label="Outcome unknown" className="notice notice-warning journal-unresolved">
      <h3>Outcome unknown — check status</h3>
      <p className="muted">
        The service may or may not have done these. For a beneficiary, look it up at the service and enter its id; the
        console fetches it and records whether it is the one that was asked for. A plan is looked up by its reference.
        An order's or a subscription's capture, refund, cancel or charge is checked on its screen.
      </p>
      {unresolved.value.map((u) => (
        <CheckStatus key={u.attempt.seq} attempt={u.attempt} />
      ))}
    </section>
  );
}

function PeriodActions({ period }: { period: ClosedPeriod }) {
  const acknowledge = useAcknowledgePeriod();
  const reopen = useReopenPeriod();
  const showDiff = useJournalUi((s) => s.showDiff);
  // Reopening asks why first: the journal keeps the reason, and a desk refuses a reopen without one.
  const [reason, setReason] = useState<string | null>(null);
  if (reason !== null) {
    return (
      <form
        className="reopen-reason"
        aria-label={`Reopen ${formatDateRange(period.from, period.to)}`}
        onSubmit={(e) => {
          e.preventDefault();
          reopen.mutate({ id: period.id, ...(reason.trim() ? { reason: reason.trim() } : {}) });
          setReason(null);
        }}
      >
        <label>
          Why reopen (required on a desk)
          <input value={reason} maxLength={500} autoFocus onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="submit" className="button">
          Reopen with this reason
        </button>
        <button type="button" className="button" onClick={() => setReason(null)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <>
      <button type="button" className="button" onClick={() => showDiff(period.id)}>
        Difference
      </button>
      {period.state === 'changed' && (
        <button type="button" className="button" onClick={() => acknowledge.mutate({ id: period.id })}>
          Acknowledge
        </button>
      )}
      <button type="button" className="button" onClick={() => setReason('')}>
        Reopen…
      </button>
    </>
  );
}

const PERIOD_COLUMNS: DataColumn<ClosedPeriod>[] = [
  {
    id: 'dates',
    label: 'Dates',
    cell: (p) => formatDateRange(p.from, p.to),
    sortValue: (p) => `${p.from} ${p.to}`,
  },
  {
    id: 'closed',
    label: 'Closed at',
    optional: true,
    cell: (p) => formatIstInstant(p.closedAt),
    sortValue: (p) => p.closedAtIst,
  },
  {
    id: 'records',
    label: 'Records',
    numeric: true,
    optional: true,
    cell: (p) => formatCount(p.records),
    sortValue: (p) => p.records,
  },
  {
    id: 'state',
    label: 'State',
    optional: true,
    cell: (p) =>
      p.state === 'changed'
        ? `Changed after close: ${p.added} added, ${p.vanished} vanished, ${p.modified} changed`
        : 'Closed',
    sortValue: (p) => p.state,
  },
  { id: 'actions', label: 'Actions', cell: (p) => <PeriodActions period={p} /> },
];

type DiffTotal = IpcOutput<'journal.periodDiff'>['totals'][number];

const DIFF_COLUMNS: DataColumn<DiffTotal>[] = [
  { id: 'date', label: 'Date', cell: (t) => formatCalendarDate(t.date), sortValue: (t) => t.date },
  { id: 'pg', label: 'Gateway', cell: (t) => t.pg, sortValue: (t) => t.pg },
  ...(
    [
      ['countBefore', 'Records at close', (t: DiffTotal) => t.before.count, formatCount],
      ['countAfter', 'Records now', (t: DiffTotal) => t.after.count, formatCount],
      ['settledBefore', 'Settled at close', (t: DiffTotal) => t.before.settled, formatMoney],
      ['settledAfter', 'Settled now', (t: DiffTotal) => t.after.settled, formatMoney],
    ] as const
  ).map(([id, label, value, format]): DataColumn<DiffTotal> => ({
    id,
    label,
    numeric: true,
    cell: (t) => format(value(t)),
    sortValue: value,
  })),
];

function Diff() {
  const [sort, setSort] = useTableSort(DIFF_TABLE);
  const views = useTableViews(DIFF_TABLE, DIFF_FILTERS);
  const pg = views.filters['pg'] as string | undefined;
  const diffId = useJournalUi((s) => s.diffId);
  const showDiff = useJournalUi((s) => s.showDiff);
  const diff = loadableOf(usePeriodDiff(diffId));
  if (diffId === null) return null;
  if (diff.status === 'loading') return <Skeleton label="Comparing with the close" />;
  if (diff.status === 'failed') return <ErrorNotice error={diff.error} />;
  const d = diff.value;
  const totals = pg ? d.totals.filter((t) => t.pg === pg) : d.totals;
  const list = (label: string, refs: typeof d.added) =>
    refs.length > 0 && (
      <>
        <h4>{label}</h4>
        <ul>
          {refs.map((r) => (
            <li key={`${r.date} ${r.pg} ${r.pgTransactionId} ${r.settlementDate}`} className="mono">
              {formatCalendarDate(r.date)} {r.pg} {r.pgTransactionId} {formatIstWallClock(r.settlementDate)}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <section aria-label="Difference since close" className="panel journal-detail">
      <h3>{formatDateRange(d.period.from, d.period.to)} since its close</h3>
      {list('Added', d.added)}
      {list('Vanished', d.vanished)}
      {list('Changed', d.modified)}
      {d.truncated && <p className="muted">Only the first records of each list are shown.</p>}
      <DataTable
        id={DIFF_TABLE}
        label="Totals before and after"
        columns={DIFF_COLUMNS}
        rows={totals}
        rowKey={(t) => `${t.date} ${t.pg}`}
        sort={sort}
        onSort={setSort}
        state={pg && totals.length === 0 ? { kind: 'empty', title: `No totals for ${pg}` } : undefined}
        filters={
          <FilterSelect
            label="Gateway"
            value={pg}
            options={optionsOf(d.totals, (t) => t.pg)}
            onChange={(v) => views.setFilter('pg', v)}
          />
        }
        views={<SavedViewsMenu {...views.menu} />}
      />
      <button type="button" className="button" onClick={() => showDiff(null)}>
        Close the difference
      </button>
    </section>
  );
}

function Periods() {
  const periods = loadableOf(useClosedPeriods());
  const closePeriod = useClosePeriod();
  const [sort, setSort] = useTableSort(PERIODS_TABLE);
  const views = useTableViews(PERIODS_TABLE, PERIOD_FILTERS);
  const state = views.filters['state'] as (typeof CLOSE_STATES)[number] | undefined;
  const all = useMemo(() => (periods.status === 'ready' ? periods.value : []), [periods]);
  const rows = useMemo(() => (state ? all.filter((p) => p.state === state) : all), [all, state]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  return (
    <section aria-labelledby="periods-title">
      <h3 id="periods-title">Closed settlement periods</h3>
      <form
        className="journal-toolbar"
        aria-label="Close a period"
        onSubmit={(e) => {
          e.preventDefault();
          if (from && to) closePeriod.mutate({ from, to });
        }}
      >
        <label>
          From <DateInput value={from} onChange={(date) => setFrom(date ?? '')} />
        </label>
        <label>
          To <DateInput value={to} onChange={(date) => setTo(date ?? '')} />
        </label>
        <button type="submit" className="button" disabled={!from || !to || closePeriod.isPending}>
          Close period
        </button>
      </form>
      {periods.status === 'failed' && <ErrorNotice error={periods.error} />}
      {all.length > 0 && (
        <DataTable
          id={PERIODS_TABLE}
          label="Closed periods"
          columns={PERIOD_COLUMNS}
          rows={rows}
          rowKey={(p) => String(p.id)}
          sort={sort}
          onSort={setSort}
          state={
            state && rows.length === 0
              ? { kind: 'empty', title: `No period is ${STATE_WORDS[state].toLowerCase()}` }
              : undefined
          }
          filters={
            <FilterSelect
              label="State"
              value={state}
              options={CLOSE_STATES.map((s) => [s, STATE_WORDS[s]] as const)}
              onChange={(v) => views.setFilter('state', v)}
            />
          }
          views={<SavedViewsMenu {...views.menu} />}
        />
      )}
      <Diff />
    </section>
  );
}

export function JournalScreen() {
  const outcome = useLastJournalAction();
  useJournalUi((s) => s.filter);
  useTableSorts((s) => s.sorts[JOURNAL_TABLE]);
  const views = useSavedViews(JOURNAL_TABLE, journalViews);
  return (
    <div className="screen journal-screen">
      <OfflineBanner />
      <PageHeader title="Journal" skipTo="the journal entries">
        <SavedViewsMenu table={JOURNAL_TABLE} binding={journalViews} views={views} />
        <ExportButtons kind="journal" request={(format) => ({ kind: 'journal', format })} />
      </PageHeader>
      <ExportStatus kind="journal" />
      <Verification />
      <p role="status" className="job-line">
        {outcome?.status === 'loading' && 'Working…'}
        {outcome?.status === 'ready' && outcome.value}
      </p>
      {outcome?.status === 'failed' && <ErrorNotice error={outcome.error} />}
      <Unresolved />
      <Filters />
      <Entries />
      <Periods />
    </div>
  );
}
