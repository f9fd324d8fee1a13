/**
 * Settings' reads and actions: the profiles, each one's secret status and connection test, the data folder and
 * each profile's cache. A secret passes through the `credentials.set` mutation on its way to main and is kept
 * nowhere here (TanStack Query keeps a mutation's variables, so the form clears them once it answers).
 */
import { useMutationState, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { IpcChannel } from '../../../shared/ipc/channels';
import type { IpcError, IpcInput, IpcOutput } from '../../../shared/ipc/contract';
import { ipcErrorOf, useIpcMutation, useIpcQuery, type IpcFailure } from '../query/ipc-query';
import { loadableOf } from '../query/ipc-query';
import type { Loadable } from '../loadable';

export type Profile = IpcOutput<'profiles.list'>['profiles'][number];
export type ProfileFields = IpcInput<'profiles.create'>;
export type CredentialStatus = IpcOutput<'credentials.status'>;
export type ConnectionTestResult = IpcOutput<'credentials.test'>;
export type CacheList = IpcOutput<'cache.list'>;
export type CacheEntry = CacheList['caches'][number];
export type ClearResult = IpcOutput<'cache.clear'>;

export const useProfiles = () => useIpcQuery('profiles.list');
export const useCredentialStatus = (profileId: string) => useIpcQuery('credentials.status', { profileId });
export const useCacheList = () => useIpcQuery('cache.list');

const testKey = (profileId: string) => ['credentials.test', profileId];
const clearKey = (profileId: string) => ['cache.clear', profileId];

/** A test of the old address, key or secret says nothing about the new one: its outcome is dropped. */
function forgetTest(client: QueryClient, profileId: string): void {
  const cache = client.getMutationCache();
  for (const m of cache.findAll({ mutationKey: testKey(profileId) })) cache.remove(m);
}

/**
 * A change to the profiles. Activation changes whose data every read answers, so everything is read afresh and
 * nothing of the previous profile shows meanwhile (reset, not invalidate); other changes mark everything stale.
 */
export function useProfileChange<C extends Extract<IpcChannel, `profiles.${string}`>>(channel: C) {
  const client = useQueryClient();
  return useIpcMutation(channel, {
    onSuccess: async (_value, input) => {
      const id = (input as { id?: string }).id;
      if (id !== undefined) forgetTest(client, id);
      if (channel === 'profiles.activate') await client.resetQueries();
      else await client.invalidateQueries();
    },
  });
}

export function useSecretChange<C extends 'credentials.set' | 'credentials.delete'>(channel: C) {
  const client = useQueryClient();
  return useIpcMutation(channel, {
    invalidates: ['credentials.status'],
    onSuccess: (_value, input) => forgetTest(client, input.profileId),
  });
}

export function useConnectionTest(profileId: string) {
  return useIpcMutation('credentials.test', { mutationKey: testKey(profileId) });
}

/** The newest of a profile's keyed mutations, as a Loadable; undefined before the first. */
function useLatest<T>(mutationKey: unknown[]): Loadable<T> | undefined {
  const states = useMutationState({ filters: { mutationKey }, select: (m) => m.state });
  const last = states.at(-1);
  if (!last || last.status === 'idle') return undefined;
  if (last.status === 'pending') return { status: 'loading' };
  if (last.status === 'error') return { status: 'failed', error: ipcErrorOf(last.error as IpcFailure) };
  return loadableOf({ status: 'success', data: last.data as T, error: null });
}

export const useConnectionTestOutcome = (profileId: string) => useLatest<ConnectionTestResult>(testKey(profileId));

/** Clearing a cache changes its size and the "last synced" times, which then read "never". */
export function useCacheClear(profileId: string) {
  return useIpcMutation('cache.clear', { mutationKey: clearKey(profileId), invalidates: ['cache.', 'settlements.'] });
}

export const useCacheClearOutcome = (profileId: string) => useLatest<ClearResult>(clearKey(profileId));

export type { IpcError };
