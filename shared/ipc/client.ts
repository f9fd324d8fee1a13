/**
 * Builds the nested `window.api` object from the channel list. Runs in the sandboxed preload, so it imports the
 * contract for types only: the bundle carries the channel names and this loop, never zod.
 */
import { IPC_CHANNELS } from './channels';
import type { IpcApi } from './contract';

export type IpcInvoke = (channel: string, input: unknown) => Promise<unknown>;

export function createIpcApi(invoke: IpcInvoke, channels: readonly string[] = IPC_CHANNELS): IpcApi {
  const domains: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const channel of channels) {
    const [domain, method, ...rest] = channel.split('.');
    if (!domain || !method || rest.length > 0) throw new Error(`IPC channel "${channel}" is not "domain.method"`);
    const methods = (domains[domain] ??= {});
    methods[method] = (input?: unknown) => invoke(channel, input);
  }
  for (const methods of Object.values(domains)) Object.freeze(methods);
  return Object.freeze(domains) as unknown as IpcApi;
}
