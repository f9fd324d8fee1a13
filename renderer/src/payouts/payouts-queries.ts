/**
 * Payout lookups of the active profile: the payout on screen (the lookup just asked for, and every earlier check
 * of it from the cache), the recent lookups, bulk checks, the payout settings, and the watch list main runs (its
 * state read here, its rounds pushed as `payoutWatch` events: query/main-events.ts).
 */
import { useMutationState } from '@tanstack/react-query';
import { RECENT_LOOKUPS, isPendingTransfer, type PayoutLookup, type PayoutLookupMode } from '../../../shared/payouts';
import type { Loadable } from '../loadable';
import { loadableOf, useActiveProfileId, useIpcMutation, useIpcQuery } from '../query/ipc-query';
import { usePayoutsUi } from './payouts-store';

const RECENT = { limit: RECENT_LOOKUPS } as const;

export const watched = (recent: readonly PayoutLookup[]): PayoutLookup[] =>
  recent.filter((l) => isPendingTransfer(l.transferStatus));

export const useRecentLookups = () => useIpcQuery('payouts.recent', RECENT);

/** A bulk check: every lookup it makes is recorded, so recent lookups and histories go stale with it. */
export const useBulkCheck = () => useIpcMutation('payouts.check', { invalidates: ['payouts.'] });

/** The latest bulk check run, with each id's outcome. */
export const useLatestCheckRun = () => useIpcQuery('payouts.checkRun', {});

const lookupKey = (profileId: string | null) => ['payouts.lookup', profileId];

/** Looks a payout up and puts it on screen; every check is recorded, so recent lookups and histories go stale. */
export function useLookUp() {
  const profileId = useActiveProfileId();
  const show = usePayoutsUi((s) => s.show);
  const lookup = useIpcMutation('payouts.lookup', { mutationKey: lookupKey(profileId), invalidates: ['payouts.'] });
  return {
    busy: lookup.isPending,
    lookUp(payoutId: string, mode: PayoutLookupMode) {
      if (profileId === null) return;
      show({ profileId, payoutId, mode, asked: true });
      lookup.mutate({ payoutId, mode });
    },
  };
}

export interface Shown {
  payoutId: string;
  /** The check just asked for; null when the payout was opened from a list, which shows what the cache holds. */
  fresh: Loadable<PayoutLookup> | null;
  mode: PayoutLookupMode;
  history: Loadable<PayoutLookup[]>;
  reloadHistory(): void;
}

/** The payout on screen for the active profile, or null (another profile's stays with that profile). */
export function useShownPayout(): Shown | null {
  const profileId = useActiveProfileId();
  const stored = usePayoutsUi((s) => s.shown);
  const shown = stored?.profileId === profileId ? stored : null;
  const history = useIpcQuery('payouts.history', { payoutId: shown?.payoutId ?? '' }, { enabled: shown !== null });
  const lookups = useMutationState({ filters: { mutationKey: lookupKey(profileId) }, select: (m) => m.state });
  if (!shown) return null;
  const last = lookups.findLast((l) => (l.variables as { payoutId?: string } | undefined)?.payoutId === shown.payoutId);
  return {
    payoutId: shown.payoutId,
    mode: shown.mode,
    fresh: shown.asked && last ? loadableOf({ ...last, data: last.data as PayoutLookup | undefined }) : null,
    history: loadableOf(history),
    reloadHistory: () => void history.refetch(),
  };
}

/** The watch list main runs: what it watches, when it checked, what it noticed. */
export const useWatchState = () => useIpcQuery('payouts.watch', {});

/** A watch round now; its lookups make the recent lookups stale. */
export const useWatchNow = () => useIpcMutation('payouts.watchNow', { invalidates: ['payouts.'] });

/** Expected turnaround per method and the watch list's use of advance checks, per profile. */
export const usePayoutSettings = () => useIpcQuery('payouts.settings', {});
export const useSavePayoutSettings = () => useIpcMutation('payouts.saveSettings', { invalidates: ['payouts.'] });
