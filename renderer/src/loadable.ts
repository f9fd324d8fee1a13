/** What a screen holds while it reads from main: loading, the value, or the error that says what happened. */
import type { IpcError, IpcResult } from '../../shared/ipc/contract';

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; error: IpcError };

export const loaded = <T>(result: IpcResult<T>): Loadable<T> =>
  result.ok ? { status: 'ready', value: result.value } : { status: 'failed', error: result.error };

/** A failed action and the way to try it again. */
export interface Failure {
  error: IpcError;
  retry(): void;
}
