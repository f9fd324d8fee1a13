/**
 * A screen asking for another to open (the settlement detail's "Open order"): the request names the screen by id;
 * App opens it as the sidebar would. What the opened screen should show is that screen's own UI state.
 */
import { create } from 'zustand';

interface Navigation {
  /** The screen asked for, with a counter so asking for the same screen twice opens it twice. */
  request: { screenId: string; n: number } | null;
  open(screenId: string): void;
}

export const useNavigation = create<Navigation>()((set) => ({
  request: null,
  open: (screenId) => set((s) => ({ request: { screenId, n: (s.request?.n ?? 0) + 1 } })),
}));
