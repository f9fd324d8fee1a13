/**
 * Settlements: what the local cache holds for a date range, with the sync that fills it and the exports
 * accountants take away. Everything shown is read from the cache, so the screen works offline; only Sync
 * needs the service.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { loadableOf } from '../query/ipc-query';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { DateInput } from '../ui/DateInput';
import { RULE_IDS, RULES, type RuleId } from '../../../shared/reconciliation';
import type { CachedSettlement } from '../../../shared/settlement-query';
import { epochMsToIstDate } from '../../../shared/time';
import { formatCount, formatDdMmYyyy } from '../../../shared/format';
import { formatMoney } from '../../../shared/money';
import { AsOf } from '../ui/AsOf';
import { OfflineBanner } from '../ui/OfflineBanner';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { useFindShortcut } from '../ui/use-find-shortcut';
import { useTablePrefs } from '../ui/table-prefs';
import { COLUMNS } from './columns';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';
import { ClosedPeriodsNote } from '../journal/ClosedPeriodsNote';
import { IntegrityBanner } from './IntegrityBanner';
import { SyncPanel } from './JobPanels';
import { ChangesDialog } from './ChangesDialog';
import { useChangesDialog } from './changes-store';
import { useSyncStart } from './sync-queries';
import { BatchesView, ViewSwitch } from './BatchesView';
import { AmountSplit } from './AmountSplit';
import { SettledChart } from './SettledChart';
import { SettlementDetail } from './SettlementDetail';
import { SettlementsGrid } from './SettlementsGrid';
import { searchPause } from './search-pause';
import {
  useSettlementAggregate,
  useSettlementFacets,
  useRowCountFromTotals,
  useSettlementRows,
  useSettlementTotals,
} from './settlements-queries';
import { DEFAULT_SORT, hasFilters, isNarrowed, useSettlements, viewOf, type RecordState } from './settlements-store';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { currentViewName, useSavedViews, type ViewBinding } from '../ui/saved-views';
import { shownQuery, useShowWhenRead, useShownFilter, useShownSort } from './shown-query';
import { useSettlementsView } from './view-store';
import './settlements.css';

const RECORD_STATES: readonly [RecordState, string][] = [
  ['current', 'Current'],
  ['vanished', 'No longer returned'],
  ['all', 'All'],
];

function Choice<T extends string>(props: {
  label: string;
  value: T | null;
  options: readonly (T | [T, string])[];
  any?: string;
  onChange(value: T | null): void;
}) {
  const id = useId();
  const options = props.options.map((o): [T, string] => (Array.isArray(o) ? o : [o, o]));
  // A value chosen before the range changed stays offered, so the menu never shows a filter that is not applied.
  if (props.value !== null && !options.some(([v]) => v === props.value)) options.push([props.value, props.value]);
  return (
    <div className="stl-field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        className="input"
        value={props.value ?? ''}
        onChange={(e) => props.onChange((e.target.value || null) as T | null)}
      >
        {props.any !== undefined && <option value="">{props.any}</option>}
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function RangeBar() {
  const range = useSettlements((s) => s.range);
  const setRange = useSettlements((s) => s.setRange);
  const facets = loadableOf(useSettlementFacets(range.from, range.to));
  const sync = useSyncStart();
  const offline = useOfflineReason();
  // A date not (yet) typed as a real dd/mm/yyyy date is null.
  const [draft, setDraft] = useState<{ from: string | null; to: string | null }>({ from: range.from, to: range.to });
  const fromId = useId();
  const toId = useId();
  const problemId = useId();
  const [today] = useState(() => epochMsToIstDate(Date.now()));

  const problem =
    draft.from === null || draft.to === null
      ? 'Enter both dates as dd/mm/yyyy.'
      : draft.from > draft.to
        ? 'The first date must not be after the last.'
        : draft.to > today
          ? `The service has no settlements after today (${formatDdMmYyyy(today)}).`
          : null;

  const edit = (patch: Partial<typeof draft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    const { from, to } = next;
    if (from === null || to === null || from > to || to > today) return;
    if (from !== range.from || to !== range.to) setRange({ ...range, from, to });
  };

  // Set from elsewhere (a saved view): the fields follow.
  const [seen, setSeen] = useState(range);
  if (seen.from !== range.from || seen.to !== range.to) {
    setSeen(range);
    setDraft({ from: range.from, to: range.to });
  }

  const syncing = sync.busy;

  return (
    <section aria-label="Dates and gateway" className="stl-bar">
      <div className="stl-field">
        <label htmlFor={fromId}>From</label>
        <DateInput
          id={fromId}
          className="stl-date"
          value={range.from}
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          onChange={(from) => edit({ from })}
        />
      </div>
      <div className="stl-field">
        <label htmlFor={toId}>To</label>
        <DateInput
          id={toId}
          className="stl-date"
          value={range.to}
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          onChange={(to) => edit({ to })}
        />
      </div>
      <span className="muted stl-zone" title="The dates are calendar dates in IST">
        IST
      </span>
      <Choice
        label="Gateway"
        value={range.pg}
        any="All gateways"
        options={facets.status === 'ready' ? facets.value.pgs : []}
        onChange={(pg) => setRange({ ...range, pg })}
      />
      <button
        type="button"
        className="button button-primary"
        disabled={syncing || problem !== null || offline !== null}
        title={offline ?? undefined}
        onClick={sync.start}
      >
        Sync
      </button>
      {problem && (
        <span id={problemId} className="error stl-problem">
          {problem}
        </span>
      )}
    </section>
  );
}

const VIEWS_TABLE = 'settlements';

/** What a saved view of this screen holds and sets: the gateway, the filters and the sort (never the dates). */
const settlementViews: ViewBinding = {
  current() {
    const { range, filters, sort } = useSettlements.getState();
    return viewOf(range, filters, sort);
  },
  apply: (state) => useSettlements.getState().applyView(state),
};

/**
 * The saved views menu, and Excel or CSV of what is on screen at the moment of the click: its filter, its sort
 * (a sort the desk chose; the screen's own newest-first order exports in filing order) and the view's name.
 */
function SettlementActions() {
  const totals = loadableOf(useSettlementTotals(useShownFilter()));
  // Subscribed so the menu sees a change of filter or sort ("Month end (changed)").
  useSettlements((s) => s.range);
  useSettlements((s) => s.filters);
  useSettlements((s) => s.sort);
  const views = useSavedViews(VIEWS_TABLE, settlementViews);
  return (
    <>
      <SavedViewsMenu table={VIEWS_TABLE} binding={settlementViews} views={views} />
      <ExportButtons
        kind="settlements"
        disabled={totals.status === 'ready' && totals.value.count === 0}
        request={(format) => {
          const { filter, sort } = shownQuery();
          const view = currentViewName(VIEWS_TABLE, settlementViews, views.list.data?.views, views.appliedName);
          const chosen = sort.column !== DEFAULT_SORT.column || sort.direction !== DEFAULT_SORT.direction;
          return {
            kind: 'settlements',
            format,
            filter,
            ...(chosen ? { sort } : {}),
            ...(view ? { view } : {}),
          };
        }}
      />
    </>
  );
}

function SearchBox() {
  const applied = useSettlements((s) => s.filters.search);
  const setFilters = useSettlements((s) => s.setFilters);
  const [text, setText] = useState(applied);
  // The pause of the last change (search-pause.ts): none for a pasted or complete identifier.
  const [pause, setPause] = useState(0);
  const [seen, setSeen] = useState(applied);
  const ref = useRef<HTMLInputElement>(null);
  const id = useId();
  useFindShortcut(ref);

  // Cleared from elsewhere ("Clear filters"): the box follows.
  if (applied !== seen) {
    setSeen(applied);
    if (applied !== text.trim()) setText(applied);
  }

  useEffect(() => {
    if (text.trim() === applied) return;
    if (pause === 0) {
      setFilters({ search: text.trim() });
      return;
    }
    const timer = setTimeout(() => setFilters({ search: text.trim() }), pause);
    return () => clearTimeout(timer);
  }, [text, pause, applied, setFilters]);

  return (
    <div className="stl-field stl-search">
      <label htmlFor={id} className="sr-only">
        Search order ID, gateway transaction ID or UTR
      </label>
      <input
        ref={ref}
        id={id}
        type="search"
        className="input"
        placeholder="Search order ID, txn ID or UTR (/)"
        data-search
        maxLength={64}
        value={text}
        onChange={(e) => {
          setPause(searchPause(text, e.target.value));
          setText(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') setFilters({ search: text.trim() });
        }}
        // Leaving the box applies what it holds at once: a view saved or picked next must not race the pause.
        onBlur={() => {
          if (text.trim() !== applied) setFilters({ search: text.trim() });
        }}
      />
    </div>
  );
}

function FilterBar() {
  const filters = useSettlements((s) => s.filters);
  const range = useSettlements((s) => s.range);
  const facets = loadableOf(useSettlementFacets(range.from, range.to));
  const setFilters = useSettlements((s) => s.setFilters);
  const clearFilters = useSettlements((s) => s.clearFilters);
  const f = facets.status === 'ready' ? facets.value : null;
  const exceptionsView = filters.exceptionsOnly || filters.rule !== null;

  return (
    <section aria-label="Filters" className="stl-bar">
      <SearchBox />
      <Choice
        label="Payment mode"
        value={filters.paymentMode}
        any="All"
        options={f?.paymentModes ?? []}
        onChange={(paymentMode) => setFilters({ paymentMode })}
      />
      <Choice
        label="Order status"
        value={filters.orderStatus}
        any="All"
        options={f?.orderStatuses ?? []}
        onChange={(orderStatus) => setFilters({ orderStatus })}
      />
      <Choice
        label="Gateway status"
        value={filters.pgStatus}
        any="All"
        options={f?.pgStatuses ?? []}
        onChange={(pgStatus) => setFilters({ pgStatus })}
      />
      <label className="stl-check">
        <input
          type="checkbox"
          checked={exceptionsView}
          onChange={(e) =>
            setFilters(e.target.checked ? { exceptionsOnly: true } : { exceptionsOnly: false, rule: null })
          }
        />
        Exceptions only
      </label>
      {exceptionsView && (
        <label className="stl-check">
          <input
            type="checkbox"
            checked={filters.includeResolved}
            onChange={(e) => setFilters({ includeResolved: e.target.checked })}
          />
          Include resolved
        </label>
      )}
      <Choice<RuleId>
        label="Rule"
        value={filters.rule}
        any="Any rule"
        options={RULE_IDS.map((id): [RuleId, string] => [id, RULES[id]])}
        onChange={(rule) => setFilters({ rule })}
      />
      <Choice<RecordState>
        label="Records"
        value={filters.state}
        options={RECORD_STATES}
        onChange={(state) => setFilters({ state: state ?? 'current' })}
      />
      {hasFilters(filters, range) && (
        <button type="button" className="button" onClick={clearFilters}>
          Clear filters
        </button>
      )}
    </section>
  );
}

const TOTALS = [
  ['Amount', 'amount'],
  ['Fees', 'fees'],
  ['Taxes', 'taxes'],
  ['Settled', 'settled'],
] as const;

/** A figure of another filter is never shown for this one: until its own is in, it says so. */
const COUNTING = 'counting…';

function TotalsBar() {
  const query = useSettlementTotals(useShownFilter());
  const t = loadableOf(query);
  // The previous filter's answer, kept by the query while this one's is read: not this filter's figure.
  const counting = query.isPlaceholderData;
  const busy = counting || query.isFetching;
  if (t.status === 'failed') return <ErrorNotice error={t.error} onRetry={() => void query.refetch()} />;
  const value = (text: () => string) =>
    counting ? (
      <span className="stl-counting">{COUNTING}</span>
    ) : t.status === 'ready' ? (
      text()
    ) : (
      <span className="skeleton-line stl-figure-loading" aria-label="Loading" />
    );
  return (
    <section aria-label="Totals" aria-busy={busy} className={`stl-totals${busy && !counting ? ' stl-stale' : ''}`}>
      <div className="stl-figures">
        <dl>
          <div>
            <dt>Records</dt>
            <dd>{value(() => formatCount(t.status === 'ready' ? t.value.count : 0))}</dd>
          </div>
          {TOTALS.map(([label, key]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd className="money">{value(() => formatMoney(t.status === 'ready' ? t.value[key] : 0))}</dd>
            </div>
          ))}
        </dl>
        {/* In the figures' own flow (settlements.css): a box of its own beside them wrapped them onto three rows. */}
        {t.status === 'ready' && !counting && <AmountSplit sums={t.value} />}
      </div>
      <ChartToggle />
    </section>
  );
}

/** Beside the totals, so a collapsed chart costs no line of the grid. */
function ChartToggle() {
  const collapsed = useSettlements((s) => s.chartCollapsed);
  const setCollapsed = useSettlements((s) => s.setChartCollapsed);
  return (
    <button
      type="button"
      className="button stl-chart-toggle"
      aria-expanded={!collapsed}
      aria-controls="stl-chart"
      onClick={() => setCollapsed(!collapsed)}
    >
      {collapsed ? 'Show chart' : 'Hide chart'}
    </button>
  );
}

function Chart() {
  const filter = useShownFilter();
  const query = useSettlementAggregate(filter);
  const split = useSettlements((s) => s.chartSplit);
  const setSplit = useSettlements((s) => s.setChartSplit);
  const a = loadableOf(query);
  const busy = query.isPlaceholderData || query.isFetching;
  if (a.status === 'failed') return <ErrorNotice error={a.error} onRetry={() => void query.refetch()} />;
  if (a.status === 'loading') return <Skeleton rows={2} label="Loading the chart" />;
  // The previous filter's bars are not this filter's: the chart says it is counting until its own are in.
  if (query.isPlaceholderData) {
    return (
      <div id="stl-chart" className="stl-chart-counting" aria-busy="true">
        <p className="stl-counting" role="status">
          Chart {COUNTING}
        </p>
      </div>
    );
  }
  if (a.value.byDate.length === 0) return null;
  return (
    <div id="stl-chart" className={busy ? 'stl-stale' : undefined} aria-busy={busy}>
      <SettledChart aggregate={a.value} from={filter.from} to={filter.to} split={split} onSplit={setSplit} />
    </div>
  );
}

function Table({ onOpen }: { onOpen(row: CachedSettlement): void }) {
  const filter = useShownFilter();
  const sort = useShownSort();
  const rowsQuery = useSettlementRows(filter, sort);
  useRowCountFromTotals(filter, sort);
  const rows = rowsQuery.data ?? null;
  const totals = loadableOf(useSettlementTotals(filter));
  const offline = useOfflineReason();
  const setSort = useSettlements((s) => s.setSort);
  const clearFilters = useSettlements((s) => s.clearFilters);
  const sync = useSyncStart();
  const syncing = sync.busy;
  const { density, setDensity } = useTablePrefs(VIEWS_TABLE, COLUMNS.normal);

  const placeholder = (children: ReactNode) => <div className="stl-placeholder">{children}</div>;
  if (rowsQuery.isError) {
    return placeholder(<ErrorNotice error={rowsQuery.error.error} onRetry={() => void rowsQuery.refetch()} />);
  }
  if (!rows) return placeholder(<Skeleton rows={8} label="Loading settlements" />);
  if (rows.count === 0 && !rows.error && totals.status === 'ready' && totals.value.count === 0) {
    if (totals.value.asOf === null) {
      return placeholder(
        <EmptyState title="Nothing cached for these dates — Sync to fetch them">
          The records are kept on this computer, so they stay readable offline.{' '}
          <button
            type="button"
            className="button button-primary"
            disabled={syncing || offline !== null}
            title={offline ?? undefined}
            onClick={sync.start}
          >
            Sync these dates
          </button>
        </EmptyState>,
      );
    }
    return placeholder(
      isNarrowed(filter) ? (
        <EmptyState title="No settlements match these filters">
          <button type="button" className="button" onClick={clearFilters}>
            Clear filters
          </button>
        </EmptyState>
      ) : (
        <EmptyState title="No settlements on these dates">The last sync found none.</EmptyState>
      ),
    );
  }
  return (
    <SettlementsGrid
      source={rows}
      columns={rows.filter.exceptionsOnly || rows.filter.rule ? COLUMNS.exceptions : COLUMNS.normal}
      sort={sort}
      onSort={setSort}
      onOpen={onOpen}
      busy={rowsQuery.isPlaceholderData || rowsQuery.isFetching}
      density={density}
      onDensity={setDensity}
    />
  );
}

/**
 * When the rows on screen were synced. A component of its own: the screen around it does not render again when a new
 * filter is shown, only what shows the filter's answer does.
 */
function SyncedAsOf() {
  const filter = useShownFilter();
  const rows = useSettlementRows(filter, useShownSort()).data;
  const totals = useSettlementTotals(filter).data;
  // Until either answer has come, nothing is known of the cache: "Not fetched yet" would be a claim, not a wait.
  if (rows === undefined && totals === undefined) return null;
  return <AsOf at={rows?.asOf ?? totals?.asOf ?? null} label="Synced" />;
}

export function SettlementsScreen() {
  useShowWhenRead();
  const chartCollapsed = useSettlements((s) => s.chartCollapsed);
  const range = useSettlements((s) => s.range);
  const [detail, setDetail] = useState<CachedSettlement | null>(null);
  const changesOpen = useChangesDialog((s) => s.open);
  const showChanges = useChangesDialog((s) => s.show);
  const view = useSettlementsView((s) => s.view);
  const main = useRef<HTMLDivElement>(null);
  // Back to the grid, whose active row is still the record's.
  const closeDetail = () => {
    setDetail(null);
    main.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();
  };

  return (
    <div className="stl-screen">
      <PageHeader title="Settlements" skipTo="the settlements" asOf={<SyncedAsOf />}>
        <button type="button" className="button" onClick={() => showChanges(null)}>
          Changes &amp; completeness
        </button>
        <SettlementActions />
      </PageHeader>
      <OfflineBanner brief />
      <IntegrityBanner />
      {/* The dates and the filters wrap as one flow: two lines at 1280 px, not three. */}
      <div className="stl-controls">
        <RangeBar />
        <FilterBar />
      </div>
      <ClosedPeriodsNote from={range.from} to={range.to} />
      <SyncPanel />
      <ExportStatus kind="settlements" />
      <div className="stl-summary">
        <ViewSwitch />
        <TotalsBar />
      </div>
      {!chartCollapsed && <Chart />}
      <div className="stl-main" ref={main}>
        {view === 'batches' ? <BatchesView /> : <Table onOpen={setDetail} />}
        {detail && <SettlementDetail key={detail.id} row={detail} onClose={closeDetail} />}
      </div>
      {changesOpen && <ChangesDialog />}
    </div>
  );
}
