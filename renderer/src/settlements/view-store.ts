/** Which view of the Settlements screen is shown: the records (the grid) or the batches they settle in. */
import { create } from 'zustand';

export type SettlementsView = 'records' | 'batches';

export const useSettlementsView = create<{ view: SettlementsView; setView(view: SettlementsView): void }>()((set) => ({
  view: 'records',
  setView: (view) => set({ view }),
}));
