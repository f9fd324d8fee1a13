/** The Subscriptions screen's UI state only: which subscription is on screen, for which profile. */
import { create } from 'zustand';

interface SubscriptionsUi {
  shown: { profileId: string; id: string; by: 'id' | 'receipt' } | null;
  show(shown: { profileId: string; id: string; by: 'id' | 'receipt' }): void;
}

export const useSubscriptionsUi = create<SubscriptionsUi>()((set) => ({
  shown: null,
  show: (shown) => set({ shown }),
}));
