/**
 * Saved views for a list whose filters are a few plain values (a status, a state, a search): the filters are held
 * here by the table's id, so one binding serves every such list and a screen only says which filters it has and how
 * each is checked. A screen with filters of its own shape (settlements, the journal, beneficiaries) writes its own
 * `ViewBinding` instead (saved-views.ts).
 */
import { useMemo } from 'react';
import type { z } from 'zod';
import { create } from 'zustand';
import { currentViewName, useSavedViews, type ViewBinding } from './saved-views';
import { tableSortOf, useTableSorts } from './table-sorts';

export type FilterValue = string | number | boolean;
export type TableFilters = Readonly<Record<string, FilterValue>>;

/** A list's filters and how each is checked when a view sets it (a view may be older than the screen). */
export type FilterFields = Readonly<Record<string, z.ZodType<FilterValue | undefined>>>;

interface TableFiltersStore {
  filters: Record<string, TableFilters>;
  set(table: string, filters: TableFilters): void;
}

/** UI state: each list's filters now, by table id. */
export const useTableFilters = create<TableFiltersStore>()((set) => ({
  filters: {},
  set: (table, filters) => set((s) => ({ filters: { ...s.filters, [table]: filters } })),
}));

const NONE: TableFilters = {};

/** `filters` with `key` set, or left out when the value is empty: an unset filter is not in a view at all. */
export function withFilter(filters: TableFilters, key: string, value: FilterValue | null | undefined): TableFilters {
  const rest = Object.fromEntries(Object.entries(filters).filter(([k]) => k !== key));
  return value === undefined || value === null || value === '' ? rest : { ...rest, [key]: value };
}

/** The filters of a view that `fields` accept, each checked alone: an unknown or bad value is left out. */
export function checkedFilters(fields: FilterFields, filters: Readonly<Record<string, unknown>>): TableFilters {
  const out: Record<string, FilterValue> = {};
  for (const [key, schema] of Object.entries(fields)) {
    if (filters[key] === undefined || filters[key] === null) continue;
    const parsed = schema.safeParse(filters[key]);
    if (parsed.success && parsed.data !== undefined && parsed.data !== '') out[key] = parsed.data;
  }
  return out;
}

/** The binding of a list's views: its filters from this store, its sort from the table's. */
export function listViewBinding(table: string, fields: FilterFields): ViewBinding {
  return {
    current: () => ({ filters: { ...(useTableFilters.getState().filters[table] ?? NONE) }, sort: tableSortOf(table) }),
    apply(state) {
      useTableFilters.getState().set(table, checkedFilters(fields, state.filters));
      useTableSorts.getState().set(table, state.sort);
    },
  };
}

/**
 * A list's filters, setter and saved views. `fields` must be a constant (module level): the binding is made once
 * per table. `<SavedViewsMenu {...menu} />` shows the menu; `viewName()` is the view an export names.
 */
export function useTableViews(table: string, fields: FilterFields) {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `fields` is a module constant
  const binding = useMemo(() => listViewBinding(table, fields), [table]);
  const filters = useTableFilters((s) => s.filters[table] ?? NONE);
  // The sort is read by the binding: subscribing re-renders the menu's "(changed)" when a header is pressed.
  useTableSorts((s) => s.sorts[table]);
  const views = useSavedViews(table, binding);
  return {
    filters,
    setFilter: (key: string, value: FilterValue | null | undefined) =>
      useTableFilters.getState().set(table, withFilter(useTableFilters.getState().filters[table] ?? NONE, key, value)),
    viewName: () => currentViewName(table, binding, views.list.data?.views, views.appliedName),
    menu: { table, binding, views },
  };
}
