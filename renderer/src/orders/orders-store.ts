/**
 * The Orders screen's UI state only: which order is on screen, for which profile, and whether another screen (a
 * settlement record's "Open order") asked for it to be looked up when the Orders screen opens.
 */
import { create } from 'zustand';

interface OrdersUi {
  shown: { profileId: string; orderId: string; lookUp: boolean } | null;
  show(profileId: string, orderId: string, lookUp?: boolean): void;
  /** The asked-for lookup was started. */
  lookedUp(): void;
}

export const useOrdersUi = create<OrdersUi>()((set) => ({
  shown: null,
  show: (profileId, orderId, lookUp = false) => set({ shown: { profileId, orderId, lookUp } }),
  lookedUp: () => set((s) => ({ shown: s.shown && { ...s.shown, lookUp: false } })),
}));
