/**
 * Main's background jobs (a settlement sync, an export) on the query layer. Starting one is a mutation under the
 * job's own key; main's progress and finished events are kept by the job's id as they arrive (query/main-events.ts), whether or not the start call has answered, so an event that overtakes that answer
 * (a sync of dates already cached ends in milliseconds) is simply there when the answer names the job: nothing is
 * held, replayed or counted by hand. What a job is doing is read from its start mutation and its events.
 */
import {
  useMutation,
  useMutationState,
  useQueryClient,
  type MutationKey,
  type QueryClient,
} from '@tanstack/react-query';
import { create } from 'zustand';
import type { IpcChannel } from '../../../shared/ipc/channels';
import type { IpcError, IpcInput, IpcOutput } from '../../../shared/ipc/contract';
import { ask, ipcErrorOf, type IpcFailure } from './ipc-query';

/** What main said of one job so far. */
export interface JobEvents<P, F> {
  progress: P | null;
  finished: F | null;
}

const NONE: JobEvents<never, never> = { progress: null, finished: null };

/**
 * Main's events by job id, outside the query cache on purpose: a profile switch resets every query and going back
 * online refetches them all, and a job's end must survive both. A reset once put an ended sync back to "running"
 * (a "Syncing …" bar whose Cancel had nothing left to cancel).
 */
const useJobEventStore = create<{ events: Readonly<Record<string, JobEvents<unknown, unknown>>> }>(() => ({
  events: {},
}));

/** Records an event of job `jobId` (main-events.ts). Progress after the end (a late event) changes nothing. */
export function recordJobEvent<P, F>(jobId: string, event: Partial<JobEvents<P, F>>): void {
  useJobEventStore.setState(({ events }) => {
    const seen = events[jobId] ?? NONE;
    if (seen.finished !== null) return { events };
    return { events: { ...events, [jobId]: { ...seen, ...event } } };
  });
}

/** The events of job `jobId` (none yet, or no job). */
function useJobEvents<P, F>(jobId: string | null): JobEvents<P, F> {
  const seen = useJobEventStore((s) => (jobId === null ? undefined : s.events[jobId]));
  return (seen as JobEvents<P, F> | undefined) ?? NONE;
}

/** `request`: what was asked; `started`: the start call's answer (an export's chosen file). */
export type JobState<R, S, P, F> =
  | { phase: 'idle' }
  | { phase: 'starting'; request: R }
  | { phase: 'running'; jobId: string; request: R; started: S; progress: P | null }
  | { phase: 'finished'; jobId: string; request: R; started: S; result: F };

type StartChannel = Extract<IpcChannel, 'sync.start' | 'exports.start'>;

/**
 * The job started under `key` (the latest such start, from any component) and its events; the start's error, if
 * it failed. A start answered with no job id (a save dialog dismissed) is idle, not a failure.
 */
export function useJob<C extends StartChannel, P, F>(
  key: MutationKey,
): { job: JobState<IpcInput<C>, IpcOutput<C>, P, F>; error: IpcError | null } {
  const starts = useMutationState({
    filters: { mutationKey: key },
    select: (m) => ({
      status: m.state.status,
      request: m.state.variables as IpcInput<C>,
      started: m.state.data as IpcOutput<C> | undefined,
      error: m.state.error,
    }),
  });
  const last = starts.at(-1);
  const jobId = last?.status === 'success' ? (last.started?.jobId ?? null) : null;
  const events = useJobEvents<P, F>(jobId);
  if (!last || last.status === 'idle') return { job: { phase: 'idle' }, error: null };
  if (last.status === 'pending') return { job: { phase: 'starting', request: last.request }, error: null };
  if (last.status === 'error') return { job: { phase: 'idle' }, error: ipcErrorOf(last.error) };
  if (jobId === null || !last.started) return { job: { phase: 'idle' }, error: null };
  const { request, started } = last;
  if (events.finished !== null) {
    return { job: { phase: 'finished', jobId, request, started, result: events.finished }, error: null };
  }
  return { job: { phase: 'running', jobId, request, started, progress: events.progress }, error: null };
}

export const isBusy = (job: JobState<unknown, unknown, unknown, unknown>) =>
  job.phase === 'starting' || job.phase === 'running';

/** Forgets the job started under `key` (its outcome was dismissed). */
export function forgetJob(client: QueryClient, key: MutationKey): void {
  const mutations = client.getMutationCache();
  for (const m of mutations.findAll({ mutationKey: key })) mutations.remove(m);
}

/**
 * Starts a job under `key`: the start call as a mutation kept until dismissed or replaced (not dropped when the
 * screen that started it closes), the previous job of the key forgotten first.
 */
export function useJobStart<C extends StartChannel>(channel: C, key: MutationKey) {
  const client = useQueryClient();
  return useMutation<IpcOutput<C>, IpcFailure, IpcInput<C>>({
    mutationKey: key,
    gcTime: Infinity,
    mutationFn: (input) => ask(channel, input),
    onMutate: () => {
      const mutations = client.getMutationCache();
      for (const m of mutations.findAll({ mutationKey: key, status: 'success' })) mutations.remove(m);
      for (const m of mutations.findAll({ mutationKey: key, status: 'error' })) mutations.remove(m);
    },
  });
}
