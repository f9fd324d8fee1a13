/**
 * The Payouts screen's UI state only: which payout is on screen, for which profile, and whether it was asked of
 * the service just now (a lookup) or opened from a list (the cache's answers only). The answers are queries and
 * mutations (payouts-queries.ts).
 */
import { create } from 'zustand';
import type { PayoutLookupMode } from '../../../shared/payouts';

export interface ShownPayout {
  profileId: string;
  payoutId: string;
  /** Retried with the same mode. */
  mode: PayoutLookupMode;
  /** True when the payout was looked up just now; false when opened from a list. */
  asked: boolean;
}

interface PayoutsUi {
  shown: ShownPayout | null;
  show(shown: ShownPayout): void;
}

export const usePayoutsUi = create<PayoutsUi>()((set) => ({
  shown: null,
  show: (shown) => set({ shown }),
}));
