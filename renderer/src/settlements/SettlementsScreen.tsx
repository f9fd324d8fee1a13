/**
 * Settlements: what the local cache holds for a date range, with the sync that fills it and the exports
 * accountants take away. Everything shown is read from the cache, so the screen works offline; only Sync
 * needs the service.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { RULE_IDS, RULES, type RuleId } from '../../../shared/reconciliation';
import type { CachedSettlement } from '../../../shared/settlement-query';
import { epochMsToIstDate, isCalendarDate } from '../../../shared/time';
import { AsOf } from '../ui/AsOf';
import { OfflineBanner } from '../ui/OfflineBanner';
import { formatCount, formatMoney } from '../ui/format';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { useFindShortcut } from '../ui/use-find-shortcut';
import { COLUMNS } from './columns';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';
import { ClosedPeriodsNote } from '../journal/ClosedPeriodsNote';
import { SyncPanel } from './JobPanels';
import { SettledChart } from './SettledChart';
import { SettlementDetail } from './SettlementDetail';
import { SettlementsGrid } from './SettlementsGrid';
import { filterOf, hasFilters, useSettlements, type RecordState } from './settlements-store';
import './settlements.css';

const SEARCH_DELAY_MS = 250;

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
  const facets = useSettlements((s) => s.facets.current);
  const sync = useSettlements((s) => s.sync);
  const startSync = useSettlements((s) => s.startSync);
  const totals = useSettlements((s) => s.totals.current);
  const [draft, setDraft] = useState({ from: range.from, to: range.to });
  const fromId = useId();
  const toId = useId();
  const problemId = useId();
  const [today] = useState(() => epochMsToIstDate(Date.now()));

  const problem =
    !isCalendarDate(draft.from) || !isCalendarDate(draft.to)
      ? 'Enter both dates.'
      : draft.from > draft.to
        ? 'The first date must not be after the last.'
        : null;

  const edit = (patch: Partial<typeof draft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    const valid = isCalendarDate(next.from) && isCalendarDate(next.to) && next.from <= next.to;
    if (valid && (next.from !== range.from || next.to !== range.to)) setRange({ ...range, ...next });
  };

  const syncing = sync.phase === 'starting' || sync.phase === 'running';
  const nothingToExport = totals.status === 'ready' && totals.value.count === 0;

  return (
    <section aria-label="Dates and gateway" className="stl-bar">
      <div className="stl-field">
        <label htmlFor={fromId}>From</label>
        <input
          id={fromId}
          type="date"
          className="input stl-date"
          value={draft.from}
          max={today}
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          onChange={(e) => edit({ from: e.target.value })}
        />
      </div>
      <div className="stl-field">
        <label htmlFor={toId}>To</label>
        <input
          id={toId}
          type="date"
          className="input stl-date"
          value={draft.to}
          max={today}
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          onChange={(e) => edit({ to: e.target.value })}
        />
      </div>
      <span className="muted stl-zone">IST dates</span>
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
        disabled={syncing || problem !== null}
        onClick={() => void startSync()}
      >
        Sync
      </button>
      {problem && (
        <span id={problemId} className="error stl-problem">
          {problem}
        </span>
      )}
      <span className="spacer" />
      <ExportButtons
        kind="settlements"
        disabled={nothingToExport}
        request={(format) => {
          const { range: now, filters } = useSettlements.getState();
          return { kind: 'settlements', format, filter: filterOf(now, filters) };
        }}
      />
    </section>
  );
}

function SearchBox() {
  const applied = useSettlements((s) => s.filters.search);
  const setFilters = useSettlements((s) => s.setFilters);
  const [text, setText] = useState(applied);
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
    const timer = setTimeout(() => setFilters({ search: text.trim() }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, applied, setFilters]);

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
        placeholder="Search order ID, txn ID or UTR (Ctrl+F)"
        maxLength={64}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') setFilters({ search: text.trim() });
        }}
      />
    </div>
  );
}

function FilterBar() {
  const filters = useSettlements((s) => s.filters);
  const facets = useSettlements((s) => s.facets.current);
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
      {hasFilters(filters) && (
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

function TotalsBar() {
  const totals = useSettlements((s) => s.totals);
  const retry = useSettlements((s) => s.retrySums);
  const t = totals.current;
  if (t.status === 'failed') return <ErrorNotice error={t.error} onRetry={retry} />;
  const value = (text: () => string) =>
    t.status === 'ready' ? text() : <span className="skeleton-line stl-figure-loading" aria-label="Loading" />;
  return (
    <section aria-label="Totals" aria-busy={totals.busy} className={`stl-totals${totals.busy ? ' stl-stale' : ''}`}>
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
    </section>
  );
}

function Chart() {
  const aggregate = useSettlements((s) => s.aggregate);
  const range = useSettlements((s) => s.range);
  const split = useSettlements((s) => s.chartSplit);
  const setSplit = useSettlements((s) => s.setChartSplit);
  const retry = useSettlements((s) => s.retrySums);
  const a = aggregate.current;
  if (a.status === 'failed') return <ErrorNotice error={a.error} onRetry={retry} />;
  if (a.status === 'loading') return <Skeleton rows={2} label="Loading the chart" />;
  if (a.value.byDate.length === 0) return null;
  return (
    <div className={aggregate.busy ? 'stl-stale' : undefined} aria-busy={aggregate.busy}>
      <SettledChart aggregate={a.value} from={range.from} to={range.to} split={split} onSplit={setSplit} />
    </div>
  );
}

function Table({ onOpen }: { onOpen(row: CachedSettlement): void }) {
  const rows = useSettlements((s) => s.rows);
  const nextRows = useSettlements((s) => s.nextRows);
  const totals = useSettlements((s) => s.totals.current);
  const filters = useSettlements((s) => s.filters);
  const sort = useSettlements((s) => s.sort);
  const setSort = useSettlements((s) => s.setSort);
  const clearFilters = useSettlements((s) => s.clearFilters);
  const startSync = useSettlements((s) => s.startSync);
  const syncing = useSettlements((s) => s.sync.phase === 'starting' || s.sync.phase === 'running');

  const placeholder = (children: ReactNode) => <div className="stl-placeholder">{children}</div>;
  if (!rows) return placeholder(<Skeleton rows={8} label="Loading settlements" />);
  if (rows.count === 0 && !rows.error && totals.status === 'ready' && totals.value.count === 0) {
    if (totals.value.asOf === null) {
      return placeholder(
        <EmptyState title="Nothing cached for these dates — Sync to fetch them">
          The records are kept on this computer, so they stay readable offline.{' '}
          <button type="button" className="button button-primary" disabled={syncing} onClick={() => void startSync()}>
            Sync these dates
          </button>
        </EmptyState>,
      );
    }
    return placeholder(
      hasFilters(filters) ? (
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
      busy={nextRows !== null}
    />
  );
}

export function SettlementsScreen() {
  const open = useSettlements((s) => s.open);
  const close = useSettlements((s) => s.close);
  const rows = useSettlements((s) => s.rows);
  const totals = useSettlements((s) => s.totals.current);
  const range = useSettlements((s) => s.range);
  const [detail, setDetail] = useState<CachedSettlement | null>(null);

  useEffect(() => {
    open();
    return close;
  }, [open, close]);

  const asOf = rows?.asOf ?? (totals.status === 'ready' ? totals.value.asOf : null);

  return (
    <div className="stl-screen">
      <div className="stl-title">
        <h1>Settlements</h1>
        <AsOf at={asOf} label="Synced" />
      </div>
      <OfflineBanner />
      <RangeBar />
      <ClosedPeriodsNote from={range.from} to={range.to} />
      <SyncPanel />
      <ExportStatus kind="settlements" />
      <FilterBar />
      <TotalsBar />
      <Chart />
      <Table onOpen={setDetail} />
      {detail && <SettlementDetail key={detail.id} row={detail} onClose={() => setDetail(null)} />}
    </div>
  );
}
