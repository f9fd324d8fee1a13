/**
 * The Exceptions screen's UI state: the queue's filters (state "unresolved" unless chosen), the page shown, and the
 * rows ticked for a bulk action. Changing a filter goes back to the first page and clears the ticks, so an action
 * never reaches rows the person can no longer see.
 */
import { create } from 'zustand';
import { queueFilter, type ExceptionKey, type QueueFilter, type QueueGroup } from '../../../shared/desk';
import type { ViewBinding } from '../ui/saved-views';
import { tableSortOf, useTableSorts } from '../ui/table-sorts';

export const DEFAULT_FILTER: QueueFilter = { state: 'unresolved' };

/** One text per record: the natural key's four parts. */
export const keyId = (k: ExceptionKey): string => [k.date, k.pg, k.pgTransactionId, k.settlementDate].join('|');

const keyOnly = (k: ExceptionKey): ExceptionKey => ({
  date: k.date,
  pg: k.pg,
  pgTransactionId: k.pgTransactionId,
  settlementDate: k.settlementDate,
});

/** Who the rows are assigned to, as one filter: anyone, "me", nobody, or a person by name. */
export type AssigneeChoice =
  { kind: 'any' } | { kind: 'me' } | { kind: 'unassigned' } | { kind: 'person'; name: string };

export function assigneeOf(filter: QueueFilter): AssigneeChoice {
  if (filter.unassigned) return { kind: 'unassigned' };
  if (filter.assignedTo === 'me') return { kind: 'me' };
  if (filter.assignedTo) return { kind: 'person', name: filter.assignedTo };
  return { kind: 'any' };
}

/** The filter with the assignee choice applied; a person's empty name is no filter. */
export function withAssignee(filter: QueueFilter, choice: AssigneeChoice): QueueFilter {
  const next: QueueFilter = { ...filter };
  delete next.assignedTo;
  delete next.unassigned;
  if (choice.kind === 'me') next.assignedTo = 'me';
  else if (choice.kind === 'unassigned') next.unassigned = true;
  else if (choice.kind === 'person' && choice.name.trim()) next.assignedTo = choice.name.trim();
  return next;
}

/** A filter in words, for the confirmation: "unresolved, rule missing_utr, gateway upi, 12/06/2026 to …". */
export function describeFilter(filter: QueueFilter, formatDate: (d: string) => string): string {
  const parts: string[] = [];
  parts.push(filter.state ? `state ${filter.state}` : 'any state');
  const who = assigneeOf(filter);
  if (who.kind === 'me') parts.push('assigned to me');
  else if (who.kind === 'unassigned') parts.push('unassigned');
  else if (who.kind === 'person') parts.push(`assigned to ${who.name}`);
  if (filter.rule) parts.push(`rule ${filter.rule}`);
  if (filter.pg) parts.push(`gateway ${filter.pg}`);
  if (filter.from && filter.to && filter.from === filter.to) parts.push(`on ${formatDate(filter.from)}`);
  else {
    if (filter.from) parts.push(`from ${formatDate(filter.from)}`);
    if (filter.to) parts.push(`to ${formatDate(filter.to)}`);
  }
  return parts.join(', ');
}

interface ExceptionsUi {
  filter: QueueFilter;
  offset: number;
  /** Ticked rows by keyId. */
  ticked: Record<string, ExceptionKey>;
  setFilter(patch: Partial<QueueFilter>): void;
  replaceFilter(filter: QueueFilter): void;
  /** A group of the panel as the filters: its rule, gateway, date (from and to) and state; the assignee kept. */
  applyGroup(group: Pick<QueueGroup, 'rule' | 'pg' | 'date' | 'state'>): void;
  resetFilter(): void;
  setOffset(offset: number): void;
  toggle(key: ExceptionKey): void;
  /** Ticks (or unticks) every row given: "select all on this page". */
  tickAll(keys: readonly ExceptionKey[], on: boolean): void;
  clearTicks(): void;
}

const cleaned = (filter: QueueFilter): QueueFilter =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== '' && v !== false));

export const useExceptionsUi = create<ExceptionsUi>()((set) => ({
  filter: DEFAULT_FILTER,
  offset: 0,
  ticked: {},
  setFilter: (patch) => set((s) => ({ filter: cleaned({ ...s.filter, ...patch }), offset: 0, ticked: {} })),
  replaceFilter: (filter) => set({ filter: cleaned(filter), offset: 0, ticked: {} }),
  applyGroup: (g) =>
    set((s) => ({
      filter: cleaned({
        ...s.filter,
        rule: g.rule as QueueFilter['rule'],
        pg: g.pg,
        from: g.date,
        to: g.date,
        state: g.state,
      }),
      offset: 0,
      ticked: {},
    })),
  resetFilter: () => set({ filter: DEFAULT_FILTER, offset: 0, ticked: {} }),
  setOffset: (offset) => set({ offset: Math.max(0, offset), ticked: {} }),
  toggle: (key) =>
    set((s) => {
      const id = keyId(key);
      const ticked = { ...s.ticked };
      if (ticked[id]) delete ticked[id];
      else ticked[id] = keyOnly(key);
      return { ticked };
    }),
  tickAll: (keys, on) =>
    set((s) => {
      const ticked = { ...s.ticked };
      for (const k of keys) {
        if (on) ticked[keyId(k)] = keyOnly(k);
        else delete ticked[keyId(k)];
      }
      return { ticked };
    }),
  clearTicks: () => set({ ticked: {} }),
}));

/** The queue's table: its sort, columns and saved views are kept under this id. */
export const QUEUE_TABLE = 'exceptions.queue';

const FILTER_KEYS = Object.keys(queueFilter.shape) as (keyof QueueFilter)[];

/** A filter from a saved view, each value checked as main checks it: one this version does not know is left out. */
export function checkedQueueFilter(filters: Readonly<Record<string, unknown>>): QueueFilter {
  const filter: QueueFilter = {};
  for (const k of FILTER_KEYS) {
    const one = queueFilter.safeParse({ [k]: filters[k] ?? undefined });
    if (one.success && one.data[k] !== undefined) Object.assign(filter, { [k]: one.data[k] });
  }
  return filter;
}

/** A saved view of the queue: its filters (state, assignee, rule, gateway, dates) and the table's sort. */
export const queueViews: ViewBinding = {
  current() {
    const { filter } = useExceptionsUi.getState();
    return {
      filters: Object.fromEntries(FILTER_KEYS.flatMap((k) => (filter[k] === undefined ? [] : [[k, filter[k]]]))),
      sort: tableSortOf(QUEUE_TABLE),
    };
  },
  apply(state) {
    useExceptionsUi.getState().replaceFilter(checkedQueueFilter(state.filters));
    useTableSorts.getState().set(QUEUE_TABLE, state.sort);
  },
};
