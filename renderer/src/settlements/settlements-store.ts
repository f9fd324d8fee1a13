/**
 * The Settlements screen's state: the range and filters, the rows (a PagedRows source), the totals, the chart's
 * aggregates and the filter menus, all read from the cache for one filter object; and the sync the screen starts
 * in main. (Exports go through exports/exports-store.ts, with `filterOf` of the moment.)
 *
 * Every read is numbered when it is sent and applied only if no newer read of the same kind was sent since,
 * so a slow answer for an old filter never overwrites the answer for the filter on screen. The rows of a new
 * filter replace the old ones when their first page is in, so the table does not blank between filters.
 */
import { create } from 'zustand';
import type { IpcEventPayload, IpcOutput, IpcResult } from '../../../shared/ipc/contract';
import type { RuleId } from '../../../shared/reconciliation';
import type {
  SettlementAggregate,
  SettlementFilter,
  SettlementSort,
  SettlementTotals,
} from '../../../shared/settlement-query';
import type { SyncSummary } from '../../../shared/sync';
import { addDays, epochMsToIstDate } from '../../../shared/time';
import { api, settle } from '../api';
import { loaded, type Failure, type Loadable } from '../loadable';
import { createJobFollower } from '../ui/job-follower';
import { PagedRows } from './paged-rows';

type Facets = IpcOutput<'settlements.facets'>;
type SyncProgressEvent = IpcEventPayload<'syncProgress'>;
export type RecordState = NonNullable<SettlementFilter['state']>;

/** A read that keeps its last value on screen, marked busy, while the next one is on its way. */
export interface Refreshing<T> {
  current: Loadable<T>;
  busy: boolean;
}

export interface Range {
  from: string;
  to: string;
  pg: string | null;
}

export interface Filters {
  paymentMode: string | null;
  orderStatus: string | null;
  pgStatus: string | null;
  exceptionsOnly: boolean;
  rule: RuleId | null;
  /** Applied search text (the box debounces); empty for none. */
  search: string;
  state: RecordState;
}

type SyncJob =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | { phase: 'running'; jobId: string; request: Range; progress: SyncProgressEvent | null; cancelling: boolean }
  | { phase: 'finished'; summary: SyncSummary | null; error: string | null };

export type ChartSplit = 'pg' | 'paymentMode';

const NO_FILTERS: Filters = {
  paymentMode: null,
  orderStatus: null,
  pgStatus: null,
  exceptionsOnly: false,
  rule: null,
  search: '',
  state: 'current',
};

const DEFAULT_SORT: SettlementSort = { column: 'date', direction: 'desc' };

/** The last seven days in IST, today included, whatever the machine's own zone. */
function lastSevenDays(now = Date.now()): Range {
  const to = epochMsToIstDate(now);
  return { from: addDays(to, -6), to, pg: null };
}

/** The one filter object the table, the totals, the chart and an export all take. */
export function filterOf(range: Range, filters: Filters): SettlementFilter {
  const f: SettlementFilter = { from: range.from, to: range.to };
  if (range.pg) f.pg = range.pg;
  if (filters.paymentMode) f.paymentMode = filters.paymentMode;
  if (filters.orderStatus) f.orderStatus = filters.orderStatus;
  if (filters.pgStatus) f.pgStatus = filters.pgStatus;
  if (filters.exceptionsOnly) f.exceptionsOnly = true;
  if (filters.rule) f.rule = filters.rule;
  if (filters.search.trim()) f.search = filters.search.trim();
  if (filters.state !== 'current') f.state = filters.state;
  return f;
}

const filterKey = (f: SettlementFilter) => JSON.stringify(f);

export const hasFilters = (filters: Filters): boolean =>
  (Object.keys(NO_FILTERS) as (keyof Filters)[]).some((k) => filters[k] !== NO_FILTERS[k]);

interface SettlementsStore {
  range: Range;
  filters: Filters;
  sort: SettlementSort;
  /** The rows on screen; replaced by a new filter's or sort's once its first page is in. */
  rows: PagedRows | null;
  /** Rows of a newer filter or sort whose first page is on its way. */
  nextRows: PagedRows | null;
  totals: Refreshing<SettlementTotals>;
  aggregate: Refreshing<SettlementAggregate>;
  facets: Refreshing<Facets>;
  chartSplit: ChartSplit;
  sync: SyncJob;
  /** Main's answer when a sync could not be started or cancelled, and the call to try again. */
  syncError: Failure | null;

  /** The screen opened: re-reads everything, since a sync elsewhere (or another profile) may have changed it. */
  open(): void;
  /** The screen closed: drops what it read (the range, filters and jobs stay), so nothing stale shows next time. */
  close(): void;
  setRange(range: Range): void;
  setFilters(patch: Partial<Filters>): void;
  clearFilters(): void;
  setSort(sort: SettlementSort): void;
  setChartSplit(split: ChartSplit): void;
  retrySums(): void;
  retryFacets(): void;
  startSync(): Promise<void>;
  cancelSync(): Promise<void>;
  dismissSync(): void;
}

const refreshing = <T>(): Refreshing<T> => ({ current: { status: 'loading' }, busy: true });

export const useSettlements = create<SettlementsStore>()((set, get) => {
  const sent = { rows: 0, sums: 0, facets: 0 };
  /** The filter of the newest totals read, so a new sort's rows can take the count already on screen. */
  let sumsKey = '';
  /** A sync that ends while the screen is closed leaves the reading to the next open. */
  let screenOpen = false;

  /** Sends a read and applies its answer only if it is still the newest of its kind. */
  async function refresh<T>(
    kind: 'sums' | 'facets',
    key: 'totals' | 'aggregate' | 'facets',
    call: () => Promise<IpcResult<T>>,
  ): Promise<IpcResult<T> | null> {
    const seq = sent[kind];
    const shown = get()[key].current;
    const put = (value: Refreshing<unknown>) => set({ [key]: value } as Partial<SettlementsStore>);
    // A failure is not worth keeping on screen while the next read is on its way.
    put({ current: shown.status === 'failed' ? { status: 'loading' } : shown, busy: true });
    const result = await settle(call);
    if (seq !== sent[kind]) return null;
    put({ current: loaded(result), busy: false });
    return result;
  }

  function readRows(filter: SettlementFilter): void {
    const seq = ++sent.rows;
    const source = new PagedRows(filter, get().sort, (query) => settle(() => api.settlements.query(query)));
    const totals = get().totals;
    if (!totals.busy && totals.current.status === 'ready' && filterKey(filter) === sumsKey) {
      source.setTotal(totals.current.value.count);
    }
    get().nextRows?.dispose();
    set({ nextRows: source });
    const stop = source.subscribe(() => {
      if (source.loadingFirst && !source.error) return;
      stop();
      if (seq !== sent.rows) return;
      get().rows?.dispose();
      set({ rows: source, nextRows: null });
    });
  }

  function readSums(filter: SettlementFilter): void {
    sent.sums += 1;
    const key = filterKey(filter);
    sumsKey = key;
    void refresh('sums', 'totals', () => api.settlements.totals(filter)).then((result) => {
      if (!result?.ok) return;
      const { rows, nextRows } = get();
      for (const source of [rows, nextRows]) {
        if (source && filterKey(source.filter) === key) source.setTotal(result.value.count);
      }
    });
    void refresh('sums', 'aggregate', () => api.settlements.aggregate(filter));
  }

  function readFacets(range: Range): void {
    sent.facets += 1;
    void refresh('facets', 'facets', () => api.settlements.facets({ from: range.from, to: range.to }));
  }

  /** The filter of the range and filters on screen. */
  const currentFilter = (): SettlementFilter => filterOf(get().range, get().filters);

  function filtersChanged(): void {
    const filter = currentFilter();
    readSums(filter);
    readRows(filter);
  }

  function readAll(): void {
    filtersChanged();
    readFacets(get().range);
  }

  const syncFollower = createJobFollower(
    { progress: api.on.syncProgress, finished: api.on.syncFinished },
    {
      progress(event) {
        const sync = get().sync;
        if (sync.phase === 'running') set({ sync: { ...sync, progress: event } });
      },
      finished(event) {
        set({ sync: { phase: 'finished', summary: event.summary, error: event.error ?? null } });
        if (screenOpen) readAll();
      },
    },
  );

  return {
    range: lastSevenDays(),
    filters: NO_FILTERS,
    sort: DEFAULT_SORT,
    rows: null,
    nextRows: null,
    totals: refreshing(),
    aggregate: refreshing(),
    facets: refreshing(),
    chartSplit: 'pg',
    sync: { phase: 'idle' },
    syncError: null,

    open() {
      screenOpen = true;
      syncFollower.listen();
      readAll();
    },
    close() {
      screenOpen = false;
      sent.rows += 1;
      sent.sums += 1;
      sent.facets += 1;
      get().rows?.dispose();
      get().nextRows?.dispose();
      set({ rows: null, nextRows: null, totals: refreshing(), aggregate: refreshing(), facets: refreshing() });
    },
    setRange(range) {
      set({ range });
      readAll();
    },
    setFilters(patch) {
      set((s) => ({ filters: { ...s.filters, ...patch } }));
      filtersChanged();
    },
    clearFilters() {
      set({ filters: NO_FILTERS });
      filtersChanged();
    },
    setSort(sort) {
      set({ sort });
      readRows(currentFilter());
    },
    setChartSplit: (chartSplit) => set({ chartSplit }),
    retrySums: () => readSums(currentFilter()),
    retryFacets: () => readFacets(get().range),

    async startSync() {
      const { sync, range } = get();
      if (sync.phase === 'starting' || sync.phase === 'running') return;
      set({ sync: { phase: 'starting' }, syncError: null });
      syncFollower.starting();
      const request = range.pg ? { from: range.from, to: range.to, pg: range.pg } : { from: range.from, to: range.to };
      const result = await settle(() => api.sync.start(request));
      if (!result.ok) {
        syncFollower.started(null);
        set({ sync: { phase: 'idle' }, syncError: { error: result.error, retry: () => void get().startSync() } });
        return;
      }
      set({
        sync: { phase: 'running', jobId: result.value.jobId, request: range, progress: null, cancelling: false },
      });
      syncFollower.started(result.value.jobId);
    },
    async cancelSync() {
      const sync = get().sync;
      if (sync.phase !== 'running' || sync.cancelling) return;
      set({ sync: { ...sync, cancelling: true }, syncError: null });
      const result = await settle(() => api.sync.cancel({ jobId: sync.jobId }));
      if (!result.ok) {
        const now = get().sync;
        set({
          syncError: { error: result.error, retry: () => void get().cancelSync() },
          sync: now.phase === 'running' ? { ...now, cancelling: false } : now,
        });
      }
    },
    dismissSync: () => set({ sync: { phase: 'idle' }, syncError: null }),
  };
});
