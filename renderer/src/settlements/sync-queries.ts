/**
 * The settlement sync this screen starts, on the query layer (query/jobs.ts): the start a mutation, progress and
 * the end main's events, cancel a mutation. The end of any sync also makes the cached reads stale (main-events.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { IpcEventPayload, IpcInput } from '../../../shared/ipc/contract';
import { useActiveProfileId, useIpcMutation } from '../query/ipc-query';
import { forgetJob, isBusy, useJob, useJobStart } from '../query/jobs';
import { useSettlements } from './settlements-store';

/** A sync belongs to the profile it was started on: another profile's screen shows its own, or none. */
const syncKey = (profileId: string | null) => ['sync.start', profileId] as const;

export const useSyncJob = () =>
  useJob<'sync.start', IpcEventPayload<'syncProgress'>, IpcEventPayload<'syncFinished'>>(syncKey(useActiveProfileId()));

/** Starts a sync of a range, unless one is already on its way. */
function useRangeSync() {
  const start = useJobStart('sync.start', syncKey(useActiveProfileId()));
  const { job } = useSyncJob();
  const busy = isBusy(job) || start.isPending;
  return { busy, sync: (range: IpcInput<'sync.start'>) => void (busy || start.mutate(range)) };
}

/** Syncs the range and gateway on screen, unless a sync is already on its way. */
export function useSyncStart() {
  const { busy, sync } = useRangeSync();
  return {
    busy,
    start() {
      const { from, to, pg } = useSettlements.getState().range;
      sync(pg ? { from, to, pg } : { from, to });
    },
  };
}

/**
 * Fetches dates again from the service, every gateway (the mismatch banner's repair): one sync from the first to the
 * last, since one sync runs at a time; the dates between are fetched again too, which only costs their time.
 */
export function useRefetchDates() {
  const { busy, sync } = useRangeSync();
  return {
    busy,
    refetch(dates: readonly string[]) {
      if (dates.length > 0) sync({ from: dates[0]!, to: dates.at(-1)! });
    },
  };
}

export const useSyncCancel = () => useIpcMutation('sync.cancel');

export function useSyncDismiss() {
  const client = useQueryClient();
  const key = syncKey(useActiveProfileId());
  return () => forgetJob(client, key);
}
