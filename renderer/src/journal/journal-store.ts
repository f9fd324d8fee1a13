/**
 * The Journal screen's UI state only: the filter the entries answer, the entry whose detail is open, the closed
 * period whose difference is shown. What main holds is read by queries (journal-queries.ts).
 */
import { create } from 'zustand';
import type { JournalFilter } from './journal-queries';

interface JournalUi {
  filter: JournalFilter;
  selected: number | null;
  diffId: number | null;
  setFilter(filter: JournalFilter): void;
  select(seq: number | null): void;
  showDiff(id: number | null): void;
}

export const useJournalUi = create<JournalUi>()((set) => ({
  filter: {},
  selected: null,
  diffId: null,
  setFilter: (filter) => set({ filter }),
  select: (selected) => set({ selected }),
  showDiff: (diffId) => set({ diffId }),
}));
