/**
 * Exports started from any screen, on the query layer (query/jobs.ts): one job per kind at a time (settlements,
 * beneficiaries, payout lookups, balances, the journal, a payout check), its start a mutation under the kind's key,
 * its progress and end main's events; cancel and "Show in folder" are mutations. Main writes the file from the
 * cache; the renderer only says what to export.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { ExportKind } from '../../../shared/exports';
import type { IpcEventPayload, IpcInput } from '../../../shared/ipc/contract';
import { useIpcMutation } from '../query/ipc-query';
import { forgetJob, isBusy, useJob, useJobStart } from '../query/jobs';

export type ExportRequest = IpcInput<'exports.start'>;
type Progress = IpcEventPayload<'exportProgress'>;
type Finished = IpcEventPayload<'exportFinished'>;

const keyOf = (kind: ExportKind) => ['exports.start', kind] as const;

export const useExportJob = (kind: ExportKind) => useJob<'exports.start', Progress, Finished>(keyOf(kind));

/** Starts an export of `kind`, unless one of that kind is already being written. */
export function useExportStart(kind: ExportKind) {
  const start = useJobStart('exports.start', keyOf(kind));
  const { job } = useExportJob(kind);
  const busy = isBusy(job) || start.isPending;
  return { busy, start: (request: ExportRequest) => void (busy || start.mutate(request)) };
}

export function useExportDismiss(kind: ExportKind) {
  const client = useQueryClient();
  return () => forgetJob(client, keyOf(kind));
}

export const useExportCancel = () => useIpcMutation('exports.cancel');
export const useExportReveal = () => useIpcMutation('exports.reveal');
