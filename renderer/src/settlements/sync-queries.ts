/**
 * The settlement sync this screen starts, on the query layer (query/jobs.ts): the start a mutation, progress and
 * the end main's events, cancel a mutation. The end of any sync also makes the cached reads stale (main-events.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { IpcEventPayload } from '../../../shared/ipc/contract';
import { useIpcMutation } from '../query/ipc-query';
import { forgetJob, isBusy, useJob, useJobStart } from '../query/jobs';
import { useSettlements } from './settlements-store';

const SYNC = ['sync.start'] as const;

export const useSyncJob = () =>
  useJob<'sync.start', IpcEventPayload<'syncProgress'>, IpcEventPayload<'syncFinished'>>(SYNC);

/** Syncs the range and gateway on screen, unless a sync is already on its way. */
export function useSyncStart() {
  const start = useJobStart('sync.start', SYNC);
  const { job } = useSyncJob();
  const busy = isBusy(job) || start.isPending;
  return {
    busy,
    start() {
      if (busy) return;
      const { from, to, pg } = useSettlements.getState().range;
      start.mutate(pg ? { from, to, pg } : { from, to });
    },
  };
}

export const useSyncCancel = () => useIpcMutation('sync.cancel');

export function useSyncDismiss() {
  const client = useQueryClient();
  return () => forgetJob(client, SYNC);
}
