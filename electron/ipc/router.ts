/**
 * The one gate every IPC call passes: known channel, the app's own main frame as sender, input parsed by the
 * channel's schema before the handler runs, output parsed after. Failures come back as `{ ok: false, error }` values
 * with a code and a message, never a stack.
 */
import type { z } from 'zod';
import { IPC_CHANNELS, type IpcChannel } from '../../shared/ipc/channels';
import {
  ipcContract,
  type IpcError,
  type IpcIssue,
  type IpcHandlerOutput,
  type IpcHandlerInput,
  type IpcOutput,
  type IpcResult,
  type IpcRouterErrorCode,
} from '../../shared/ipc/contract';
import { ApiError } from '../api/errors';
import { isAppUrl } from '../security';
import { describeStorageError, isStorageError } from '../storage-errors';

export type IpcHandlers = {
  [C in IpcChannel]: (input: IpcHandlerInput<C>) => Promise<IpcHandlerOutput<C>> | IpcHandlerOutput<C>;
};

/** The frame an IPC call came from; `frameUrl` is null when the frame navigated away or was destroyed. */
export interface IpcSender {
  frameUrl: string | null;
  isMainFrame: boolean;
}

export interface IpcRouter {
  readonly channels: readonly IpcChannel[];
  handle(channel: string, rawInput: unknown, sender: IpcSender, appOrigin: string): Promise<IpcResult<unknown>>;
}

function failure(code: string, message: string, details?: IpcIssue[]): { ok: false; error: IpcError } {
  return { ok: false, error: details === undefined ? { code, message } : { code, message, details } };
}

/** The router's own refusals, with codes the renderer can switch on. */
function refuse(code: IpcRouterErrorCode, message: string, details?: IpcIssue[]): { ok: false; error: IpcError } {
  return failure(code, message, details);
}

function issuesOf(error: z.ZodError): IpcIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

function isChannel(channel: string): channel is IpcChannel {
  return (IPC_CHANNELS as readonly string[]).includes(channel);
}

/**
 * A typed error from a handler (vault, cache) keeps its string `code`; an API error crosses as `API_<KIND>` with
 * the sentence written for the user (and the request id support asks for); a file-system or SQLite error crosses as
 * `STORAGE_UNAVAILABLE` with a sentence instead of its own text; anything else is INTERNAL.
 */
function thrownToError(thrown: unknown): { ok: false; error: IpcError } {
  if (thrown instanceof ApiError) {
    const reference = thrown.requestId ? ` (request id ${thrown.requestId})` : '';
    return failure(`API_${thrown.kind.toUpperCase()}`, `${thrown.userMessage}${reference}`);
  }
  if (isStorageError(thrown)) return failure('STORAGE_UNAVAILABLE', describeStorageError(thrown));
  if (!(thrown instanceof Error)) return failure('INTERNAL', String(thrown));
  const code = 'code' in thrown && typeof thrown.code === 'string' && thrown.code !== '' ? thrown.code : 'INTERNAL';
  return failure(code, thrown.message || 'The request failed.');
}

export function createIpcRouter(handlers: IpcHandlers): IpcRouter {
  async function run<C extends IpcChannel>(channel: C, rawInput: unknown): Promise<IpcResult<IpcOutput<C>>> {
    const schemas = ipcContract[channel];
    const input = schemas.input.safeParse(rawInput);
    if (!input.success) return refuse('INVALID_INPUT', `Invalid input for ${channel}.`, issuesOf(input.error));
    let returned: unknown;
    try {
      returned = await handlers[channel](input.data as IpcHandlerInput<C>);
    } catch (thrown) {
      return thrownToError(thrown);
    }
    const output = schemas.output.safeParse(returned);
    if (!output.success) {
      return refuse('INVALID_OUTPUT', `The ${channel} handler returned an invalid result.`, issuesOf(output.error));
    }
    return { ok: true, value: output.data as IpcOutput<C> };
  }

  return {
    channels: IPC_CHANNELS,
    async handle(channel, rawInput, sender, appOrigin) {
      if (!isChannel(channel)) return refuse('UNKNOWN_CHANNEL', `Unknown IPC channel "${channel}".`);
      if (sender.frameUrl === null || !sender.isMainFrame || !isAppUrl(sender.frameUrl, appOrigin)) {
        return refuse('FORBIDDEN_SENDER', `${channel} may be called only from the app's own main frame.`);
      }
      return run(channel, rawInput);
    },
  };
}
