/**
 * The renderer's only way out: `window.api`, built by the preload from the shared IPC contract. Nothing here
 * imports zod at run time; the contract is used for its types.
 */
import type { IpcApi, IpcResult } from '../../shared/ipc/contract';

declare global {
  interface Window {
    readonly api: IpcApi;
  }
}

export const api: IpcApi = window.api;

/**
 * A call that fails instead of answering (no handler registered yet, the bridge missing) becomes an error value too,
 * so screens handle one shape.
 */
export async function settle<T>(call: () => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  try {
    return await call();
  } catch (thrown) {
    return {
      ok: false,
      error: { code: 'IPC_UNAVAILABLE', message: thrown instanceof Error ? thrown.message : String(thrown) },
    };
  }
}
