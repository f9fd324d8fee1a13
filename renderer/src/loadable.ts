/** What a screen holds while it reads from main: loading, the value, or the error that says what happened. */
import type { IpcError } from '../../shared/ipc/contract';

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; error: IpcError };
