/** The app-wide reads: which profile is active, and whether its service answers. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Connectivity } from '../../../shared/ipc/app';
import type { IpcOutput } from '../../../shared/ipc/contract';
import { APP_INFO_KEY, ask, CONNECTIVITY_KEY, useIpcMutation, useIpcQuery, type IpcFailure } from './ipc-query';

export type AppInfo = IpcOutput<'app.info'>;

/** Changes only when a profile is activated or edited, which invalidates it. */
export const useAppInfo = () =>
  useQuery<AppInfo, IpcFailure>({ queryKey: APP_INFO_KEY, queryFn: () => ask('app.info'), staleTime: Infinity });

/**
 * Asked once, then kept by main's `connectivity` events (see main-events.ts). An event that lands while the first
 * answer is on its way is newer than that answer, so the answer yields to it.
 */
export function useConnectivity(): Connectivity | null {
  const query = useQuery<Connectivity, IpcFailure>({
    queryKey: CONNECTIVITY_KEY,
    queryFn: async ({ client }) => {
      const answer = await ask('app.connectivity');
      return client.getQueryData<Connectivity>(CONNECTIVITY_KEY) ?? answer;
    },
    staleTime: Infinity,
  });
  return query.data ?? null;
}

export const useIsOffline = (): boolean => useConnectivity()?.state === 'offline';

/** The "last synced" times are asked again once a minute as well as after every sync (main-events.ts). */
const CACHE_STATUS_REFRESH_MS = 60_000;

export const useCacheStatus = () =>
  useIpcQuery('cache.status', undefined, { refetchInterval: CACHE_STATUS_REFRESH_MS });

/** Asks the service whether it answers again; once it does, whatever was read while offline may be older than it has. */
export function useCheckConnection() {
  const client = useQueryClient();
  return useIpcMutation('credentials.test', {
    onSuccess: (result) => (result.ok ? client.invalidateQueries() : undefined),
  });
}
