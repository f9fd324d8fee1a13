/**
 * The one way a screen reads from main: every IPC read is a TanStack Query keyed by the active profile, the
 * channel and its input, and every action is a mutation that invalidates the channels it changes. Stale answers,
 * loading flags and refresh timers are the library's job, so no screen counts generations by hand.
 */
import {
  notifyManager,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
  type UseMutationOptions,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import type { IpcChannel } from '../../../shared/ipc/channels';
import type { IpcError, IpcInput, IpcOutput, IpcResult } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import type { Loadable } from '../loadable';

/** A failed IPC call as a thrown value, so TanStack Query sees it as an error; `error` is main's own answer. */
export class IpcFailure extends Error {
  constructor(readonly error: IpcError) {
    super(error.message);
    this.name = 'IpcFailure';
  }
}

/** `api.<domain>.<method>`, looked up by channel name: the contract's types say which input goes where. */
function method<C extends IpcChannel>(channel: C): (input?: IpcInput<C>) => Promise<IpcResult<IpcOutput<C>>> {
  const [domain, name] = channel.split('.') as [string, string];
  const group = (api as unknown as Record<string, Record<string, (input?: unknown) => Promise<unknown>>>)[domain];
  const call = group?.[name];
  if (!call) {
    return () =>
      Promise.resolve({ ok: false, error: { code: 'IPC_UNAVAILABLE', message: `${channel} is not available.` } });
  }
  return call as (input?: IpcInput<C>) => Promise<IpcResult<IpcOutput<C>>>;
}

/** Calls a channel and answers its value, or throws its error as an IpcFailure. */
export async function ask<C extends IpcChannel>(channel: C, input?: IpcInput<C>): Promise<IpcOutput<C>> {
  const call = method(channel);
  const result = await settle(() => call(input));
  if (!result.ok) throw new IpcFailure(result.error);
  return result.value;
}

/** The error of a failed query or mutation as main said it; anything else (a bug) gets a code of its own. */
export function ipcErrorOf(thrown: unknown): IpcError {
  if (thrown instanceof IpcFailure) return thrown.error;
  return { code: 'RENDERER', message: thrown instanceof Error ? thrown.message : String(thrown) };
}

/** App-wide keys: what is not about one profile. */
export const APP_INFO_KEY = ['app', 'app.info'] as const;
export const CONNECTIVITY_KEY = ['app', 'app.connectivity'] as const;

/** The key of a profile's read: profile, channel, input. Invalidation matches on the channel. */
export const ipcKey = (profileId: string | null, channel: IpcChannel, input?: unknown): QueryKey => [
  'profile',
  profileId,
  channel,
  input ?? null,
];

/** The active profile's id once `app.info` has answered, else null. */
export function useActiveProfileId(): string | null {
  const info = useQuery({ queryKey: APP_INFO_KEY, queryFn: () => ask('app.info'), staleTime: Infinity });
  return info.data?.profile.id ?? null;
}

type QueryExtras<C extends IpcChannel> = Omit<
  UseQueryOptions<IpcOutput<C>, IpcFailure, IpcOutput<C>, QueryKey>,
  'queryKey' | 'queryFn'
>;

/** A read of the active profile's data; waits for the profile to be known, then keys on it. */
export function useIpcQuery<C extends IpcChannel>(
  channel: C,
  input?: IpcInput<C>,
  options: QueryExtras<C> = {},
): UseQueryResult<IpcOutput<C>, IpcFailure> {
  const profileId = useActiveProfileId();
  return useQuery({
    ...options,
    queryKey: ipcKey(profileId, channel, input),
    queryFn: () => ask(channel, input),
    enabled: profileId !== null && (options.enabled ?? true),
  });
}

const ofChannels = (channels: readonly string[]) => (query: { queryKey: readonly unknown[] }) => {
  const [scope, , channel] = query.queryKey;
  return scope === 'profile' && typeof channel === 'string' && channels.some((c) => channel.startsWith(c));
};

/** Marks every read of the given channels (or channel prefixes such as `settlements.`) stale, on every profile. */
export function invalidateChannels(client: QueryClient, channels: readonly string[]): Promise<void> {
  return client.invalidateQueries({ predicate: ofChannels(channels) });
}

/**
 * Invalidates the channels' reads and resolves once none of them is being read any more: the reads on screen then
 * hold the new answers (or their errors). invalidateQueries' own promise is not enough: a read that another read
 * restarted (the settlement totals wait for the grid's first page) resolves it early.
 */
export async function invalidateAndReread(client: QueryClient, channels: readonly string[]): Promise<void> {
  await invalidateChannels(client, channels);
  const cache = client.getQueryCache();
  const reading = () => cache.findAll({ predicate: ofChannels(channels), fetchStatus: 'fetching' }).length > 0;
  if (reading()) {
    await new Promise<void>((resolve) => {
      const stop = cache.subscribe(() => {
        if (reading()) return;
        stop();
        resolve();
      });
    });
  }
  // The components hear of the new answers through the query layer's batched notifications; resolving behind
  // them means whatever follows is drawn with those answers, not before them.
  await new Promise<void>((resolve) => notifyManager.schedule(resolve));
}

/** An action: the channel's call as a mutation that, once it worked, invalidates what it changed. */
export function useIpcMutation<C extends IpcChannel>(
  channel: C,
  options: { invalidates?: readonly string[] } & Omit<
    UseMutationOptions<IpcOutput<C>, IpcFailure, IpcInput<C>>,
    'mutationFn'
  > = {},
) {
  const { invalidates = [], onSuccess, ...rest } = options;
  return useMutation<IpcOutput<C>, IpcFailure, IpcInput<C>>({
    ...rest,
    mutationFn: (input) => ask(channel, input),
    onSuccess: async (value, input, context, mutation) => {
      if (invalidates.length > 0) await invalidateChannels(mutation.client, invalidates);
      await onSuccess?.(value, input, context, mutation);
    },
  });
}

/** A query (or a mutation past idle) as the three states every screen draws. */
export function loadableOf<T>(query: { status: string; data?: T | undefined; error: unknown }): Loadable<T> {
  if (query.status === 'success') return { status: 'ready', value: query.data as T };
  if (query.status === 'error') return { status: 'failed', error: ipcErrorOf(query.error) };
  return { status: 'loading' };
}

/** A mutation's promise as the result value forms already handle: the value, or main's error. */
export async function resultOf<T>(pending: Promise<T>): Promise<IpcResult<T>> {
  try {
    return { ok: true, value: await pending };
  } catch (thrown) {
    return { ok: false, error: ipcErrorOf(thrown) };
  }
}

/**
 * A read asked at a moment of the user's choosing (a duplicate check before a create) rather than kept on screen:
 * it goes through the query cache under the same key as any other read of that input, always fresh.
 */
export function useIpcFetch() {
  const client = useQueryClient();
  const profileId = useActiveProfileId();
  return useCallback(
    <C extends IpcChannel>(channel: C, input?: IpcInput<C>): Promise<IpcResult<IpcOutput<C>>> =>
      resultOf(
        client.fetchQuery({
          queryKey: ipcKey(profileId, channel, input),
          queryFn: () => ask(channel, input),
          staleTime: 0,
        }),
      ),
    [client, profileId],
  );
}
