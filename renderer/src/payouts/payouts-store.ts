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
  /** The bulk check's list as typed or pasted. */
  bulkText: string;
  setBulkText(text: string): void;
  /** Counts requests to focus the bulk check's list (a list pasted into the single lookup is moved there). */
  bulkFocus: number;
  toBulk(text: string): void;
}

export const usePayoutsUi = create<PayoutsUi>()((set) => ({
  shown: null,
  show: (shown) => set({ shown }),
  bulkText: '',
  setBulkText: (bulkText) => set({ bulkText }),
  bulkFocus: 0,
  toBulk: (text) =>
    set((s) => ({
      bulkText: s.bulkText.trim() ? `${s.bulkText.trimEnd()}\n${text}` : text,
      bulkFocus: s.bulkFocus + 1,
    })),
}));
