/**
 * What an action is sent on behalf of, added to every journal entry of it without threading a parameter through
 * each service: an approved proposal's id, so the console that sent it can find its attempt again after a restart
 * and settle it by check status (electron/approvals/approvals.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JsonValue } from '../../shared/journal';

const context = new AsyncLocalStorage<Record<string, JsonValue>>();

export const withActionContext = <T>(data: Record<string, JsonValue>, run: () => Promise<T>): Promise<T> =>
  context.run(data, run);

/** The fields of the action being sent now; empty outside `withActionContext`. */
export const actionContext = (): Record<string, JsonValue> => context.getStore() ?? {};
