/**
 * Each table's sort on screen, by the table's id: UI state, held outside the table so the screen's saved views can
 * read and set it and an export can follow it. Kept for the session; a saved view is how a sort outlives a restart.
 */
import { create } from 'zustand';
import type { TableSort } from './DataTable';

interface TableSorts {
  sorts: Record<string, TableSort | null>;
  set(table: string, sort: TableSort | null): void;
}

export const useTableSorts = create<TableSorts>()((set) => ({
  sorts: {},
  set: (table, sort) => set((s) => ({ sorts: { ...s.sorts, [table]: sort } })),
}));

/** A table's sort and its setter, as a DataTable takes them. */
export function useTableSort(table: string): [TableSort | null, (sort: TableSort | null) => void] {
  const sort = useTableSorts((s) => s.sorts[table] ?? null);
  const set = useTableSorts((s) => s.set);
  return [sort, (next) => set(table, next)];
}

export const tableSortOf = (table: string): TableSort | null => useTableSorts.getState().sorts[table] ?? null;
