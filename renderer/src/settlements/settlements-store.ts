/**
 * The Settlements screen's UI state: the range and filters, the sort, the chart's split and whether it is
 * collapsed (remembered). What the cache holds for that filter (rows, totals, chart, menus) is read by queries
 * (settlements-queries.ts); the sync is a job on the query layer (sync-queries.ts). The controls show this state at
 * once; the figures and rows follow it once their first rows are read (shown-query.ts).
 */
import { z } from 'zod';
import { create } from 'zustand';
import { RULE_IDS, type RuleId } from '../../../shared/reconciliation';
import type { ViewState } from '../../../shared/saved-views';
import {
  SETTLEMENT_SORT_COLUMNS,
  SETTLEMENT_STATES,
  filterText,
  type SettlementFilter,
  type SettlementSort,
} from '../../../shared/settlement-query';
import { addDays, epochMsToIstDate } from '../../../shared/time';
export type RecordState = NonNullable<SettlementFilter['state']>;

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
  /** With exceptions only: resolved exceptions shown too (they are left out otherwise). */
  includeResolved: boolean;
  /** Applied search text (the box debounces); empty for none. */
  search: string;
  state: RecordState;
}

export type ChartSplit = 'pg' | 'paymentMode';

export const NO_FILTERS: Filters = {
  paymentMode: null,
  orderStatus: null,
  pgStatus: null,
  exceptionsOnly: false,
  rule: null,
  includeResolved: false,
  search: '',
  state: 'current',
};

export const DEFAULT_SORT: SettlementSort = { column: 'date', direction: 'desc' };

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
  if ((filters.exceptionsOnly || filters.rule) && filters.includeResolved) f.includeResolved = true;
  if (filters.search.trim()) f.search = filters.search.trim();
  if (filters.state !== 'current') f.state = filters.state;
  return f;
}

/** Anything narrowing the rows beyond the dates: the gateway counts, since "Clear filters" clears it too. */
export const hasFilters = (filters: Filters, range?: Pick<Range, 'pg'>): boolean =>
  (range?.pg ?? null) !== null ||
  (Object.keys(NO_FILTERS) as (keyof Filters)[]).some((k) => filters[k] !== NO_FILTERS[k]);

/** The same of a filter object (filterOf leaves out what does not narrow): anything beside its dates. */
export const isNarrowed = (filter: SettlementFilter): boolean =>
  Object.keys(filter).some((key) => key !== 'from' && key !== 'to');

/** The filters and sort a saved view holds for this screen (the dates are not: a view is used on any dates). */
export function viewOf(range: Range, filters: Filters, sort: SettlementSort): Pick<ViewState, 'filters' | 'sort'> {
  return { filters: { pg: range.pg, ...filters }, sort };
}

/**
 * A saved view's filters as this screen's, each checked on its own: a value the screen no longer knows (a rule
 * since renamed, a hand-edited file) falls back to "any" rather than costing the view's other filters.
 */
const viewFilters = z.object({
  pg: filterText.nullable().catch(null),
  paymentMode: filterText.nullable().catch(null),
  orderStatus: filterText.nullable().catch(null),
  pgStatus: filterText.nullable().catch(null),
  exceptionsOnly: z.boolean().catch(false),
  rule: z
    .enum(RULE_IDS as [RuleId, ...RuleId[]])
    .nullable()
    .catch(null),
  includeResolved: z.boolean().catch(false),
  search: z.string().trim().max(64).catch(''),
  state: z.enum(SETTLEMENT_STATES).catch('current'),
});
const viewSort = z
  .object({ column: z.enum(SETTLEMENT_SORT_COLUMNS), direction: z.enum(['asc', 'desc']) })
  .nullable()
  .catch(DEFAULT_SORT);

export function fromView(state: ViewState): { pg: string | null; filters: Filters; sort: SettlementSort } {
  const { pg, ...filters } = viewFilters.parse(state.filters);
  return { pg, filters, sort: viewSort.parse(state.sort) ?? DEFAULT_SORT };
}

const CHART_KEY = 'payout-console.settlements.chart';

function readChartPrefs(): { collapsed: boolean; split: ChartSplit } {
  try {
    const stored = JSON.parse(localStorage.getItem(CHART_KEY) ?? '{}') as { collapsed?: unknown; split?: unknown };
    // Collapsed unless the desk opened it: at 1280×800 the grid then keeps at least 15 rows in view.
    return {
      collapsed: stored.collapsed !== false,
      split: stored.split === 'paymentMode' ? 'paymentMode' : 'pg',
    };
  } catch {
    return { collapsed: true, split: 'pg' };
  }
}

interface SettlementsStore {
  range: Range;
  filters: Filters;
  sort: SettlementSort;
  chartSplit: ChartSplit;
  chartCollapsed: boolean;

  setRange(range: Range): void;
  setFilters(patch: Partial<Filters>): void;
  /** Every filter and the gateway: the dates stay. */
  clearFilters(): void;
  setSort(sort: SettlementSort): void;
  /** A saved view's gateway, filters and sort; the dates stay. */
  applyView(state: ViewState): void;
  setChartSplit(split: ChartSplit): void;
  setChartCollapsed(collapsed: boolean): void;
}

export const useSettlements = create<SettlementsStore>()((set, get) => {
  const saveChart = () => {
    const { chartCollapsed: collapsed, chartSplit: split } = get();
    try {
      localStorage.setItem(CHART_KEY, JSON.stringify({ collapsed, split }));
    } catch {
      // Storage refused: the chart still works, it just opens collapsed next time.
    }
  };

  const prefs = readChartPrefs();

  return {
    range: lastSevenDays(),
    filters: NO_FILTERS,
    sort: DEFAULT_SORT,
    chartSplit: prefs.split,
    chartCollapsed: prefs.collapsed,

    setRange: (range) => set({ range }),
    setFilters: (patch) => set((s) => ({ filters: { ...s.filters, ...patch } })),
    clearFilters: () => set((s) => ({ filters: NO_FILTERS, range: { ...s.range, pg: null } })),
    setSort: (sort) => set({ sort }),
    applyView(state) {
      const { pg, filters, sort } = fromView(state);
      set((s) => ({ range: { ...s.range, pg }, filters, sort }));
    },
    setChartSplit(chartSplit) {
      set({ chartSplit });
      saveChart();
    },
    setChartCollapsed(chartCollapsed) {
      set({ chartCollapsed });
      saveChart();
    },
  };
});
