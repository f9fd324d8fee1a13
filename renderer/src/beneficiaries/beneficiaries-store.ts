/**
 * The Beneficiaries screen's UI state only: the search the list answers, which row is selected, whether its
 * detail is open. The rows themselves are a query (beneficiaries-queries.ts).
 */
import { create } from 'zustand';

interface BeneficiariesUi {
  /** The applied search (the box debounces into it). */
  search: string;
  /** Only payees whose bank details changed. */
  changedOnly: boolean;
  selectedId: string | null;
  detailOpen: boolean;
  setSearch(search: string): void;
  setChangedOnly(changedOnly: boolean): void;
  select(id: string | null, open?: boolean): void;
  closeDetail(): void;
}

export const useBeneficiariesUi = create<BeneficiariesUi>()((set) => ({
  search: '',
  changedOnly: false,
  selectedId: null,
  detailOpen: false,
  setSearch: (search) => set({ search }),
  setChangedOnly: (changedOnly) => set({ changedOnly }),
  select: (id, open) => set((s) => ({ selectedId: id, detailOpen: open ?? s.detailOpen })),
  closeDetail: () => set({ detailOpen: false }),
}));
