/**
 * Payout lookups of the active profile: the payout on screen (the lookup just asked for, and every earlier check
 * of it from the cache), the recent lookups, and the watch list of those still pending, checked again every 30 s
 * by the watch query's refresh interval.
 */
import { useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IpcError } from '../../../shared/ipc/contract';
import { isPendingTransfer, type PayoutLookup, type PayoutLookupMode } from '../../../shared/payouts';
import type { Loadable } from '../loadable';
import {
  ask,
  CONNECTIVITY_KEY,
  ipcErrorOf,
  ipcKey,
  loadableOf,
  useActiveProfileId,
  useIpcMutation,
  useIpcQuery,
  type IpcFailure,
} from '../query/ipc-query';
import type { Connectivity } from '../../../shared/ipc/app';
import { usePayoutsUi } from './payouts-store';

export const WATCH_INTERVAL_MS = 30_000;
const RECENT = { limit: 50 } as const;

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

export interface WatchChange {
  payoutId: string;
  from: string;
  to: string | null;
}

export interface WatchRun {
  /** ISO time of the last refresh; null before the first. */
  refreshedAt: string | null;
  /** Payouts whose status moved on the last refresh: they leave the list, so the desk is told where they went. */
  changes: WatchChange[];
  error: IpcError | null;
}

const NOT_YET: WatchRun = { refreshedAt: null, changes: [], error: null };

/**
 * The watch list's refresh as a query with a 30 s refresh interval: it checks each pending payout again, one
 * at a time (a desk may watch dozens, and the gateways rate-limit bursts), then reads the recent lookups again
 * and says which moved on. It starts with "not yet" as of the moment the screen opened, so the first check is
 * 30 s later; paused while the service is unreachable or nothing is pending. Not keyed under a channel: a
 * lookup's invalidation must not start a refresh of every pending payout.
 */
export function useWatch(pendingCount: number, offline: boolean) {
  const profileId = useActiveProfileId();
  const client = useQueryClient();
  const recentKey = ipcKey(profileId, 'payouts.recent', RECENT);
  return useQuery<WatchRun, IpcFailure>({
    queryKey: ['profile', profileId, 'watch'],
    queryFn: async () => {
      const before = watched(client.getQueryData<PayoutLookup[]>(recentKey) ?? []);
      let error: IpcError | null = null;
      for (const l of before) {
        try {
          await ask('payouts.lookup', { payoutId: l.payoutId, mode: 'normal' });
        } catch (thrown) {
          error = ipcErrorOf(thrown);
          // The rest would only fail the same way.
          if (client.getQueryData<Connectivity>(CONNECTIVITY_KEY)?.state === 'offline') break;
        }
      }
      const after = await client.fetchQuery({
        queryKey: recentKey,
        queryFn: () => ask('payouts.recent', RECENT),
        staleTime: 0,
      });
      void client.invalidateQueries({ queryKey: ['profile', profileId, 'payouts.history'] });
      const changes = before.flatMap((b): WatchChange[] => {
        const a = after.find((x) => x.payoutId === b.payoutId);
        return a && a.transferStatus !== b.transferStatus && !isPendingTransfer(a.transferStatus)
          ? [{ payoutId: b.payoutId, from: b.transferStatus ?? '', to: a.transferStatus }]
          : [];
      });
      return { refreshedAt: new Date().toISOString(), changes, error };
    },
    enabled: profileId !== null && pendingCount > 0 && !offline,
    initialData: NOT_YET,
    initialDataUpdatedAt: () => Date.now(),
    // Only the interval (or the desk's button) checks again: opening the screen, or a new pending payout enabling
    // the query, must not fire a burst of lookups at the gateways.
    staleTime: Infinity,
    refetchInterval: offline || pendingCount === 0 ? false : WATCH_INTERVAL_MS,
    refetchIntervalInBackground: true,
  });
}
