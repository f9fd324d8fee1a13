/**
 * Builds the nested `window.api` object from the channel and event lists. Runs in the sandboxed preload (and in
 * the browser test harness), so it imports the contract for types only: the bundle carries the names and these
 * loops, never zod.
 */
import { IPC_CHANNELS, IPC_EVENTS } from './channels';
import type { IpcApi } from './contract';

export type IpcInvoke = (channel: string, input: unknown) => Promise<unknown>;
/** Starts delivering `event` to `listener`; returns the function that stops it. */
export type IpcSubscribe = (event: string, listener: (payload: unknown) => void) => () => void;

export function createIpcApi(
  invoke: IpcInvoke,
  subscribe: IpcSubscribe,
  channels: readonly string[] = IPC_CHANNELS,
): IpcApi {
  const domains: Record<string, Record<string, unknown>> = {};
  for (const channel of channels) {
    const [domain, method, ...rest] = channel.split('.');
    if (!domain || !method || rest.length > 0) throw new Error(`IPC channel "${channel}" is not "domain.method"`);
    const methods = (domains[domain] ??= {});
    methods[method] = (input?: unknown) => invoke(channel, input);
  }
  const on: Record<string, unknown> = {};
  for (const event of IPC_EVENTS) {
    on[event] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`api.on.${event} needs a listener function`);
      return subscribe(event, listener);
    };
  }
  domains.on = on;
  for (const methods of Object.values(domains)) Object.freeze(methods);
  return Object.freeze(domains) as unknown as IpcApi;
}
