/** UI state of the Changes dialog: open or not, and the sync run it shows (null: every run of the range). */
import { create } from 'zustand';

interface ChangesState {
  open: boolean;
  runId: number | null;
  show(runId?: number | null): void;
  close(): void;
}

export const useChangesDialog = create<ChangesState>((set) => ({
  open: false,
  runId: null,
  show: (runId = null) => set({ open: true, runId }),
  close: () => set({ open: false }),
}));
