/**
 * The IPC contract: one zod `input` and `output` schema per channel, gathered from the per-domain files.
 *
 * Adding a channel takes two steps in `shared/`: its name in `channels.ts`, its schemas in `<domain>.ts` spread into
 * `ipcContract` below. The `satisfies` clauses fail to compile until both agree; main then fails to compile until the
 * handler exists, and the preload exposes it with no change.
 */
import { z } from 'zod';
import { appChannels, connectivity } from './app';
import type { IpcChannel, IpcEvent } from './channels';
import { accountsChannels } from './accounts';
import { beneficiariesChannels, importProgressEvent } from './beneficiaries';
import { cacheChannels } from './cache';
import { credentialsChannels } from './credentials';
import { exportFinishedEvent, exportProgressEvent, exportsChannels } from './exports';
import { movedAsideNotice, noticesChannels } from './notices';
import { journalChannels } from './journal';
import { payoutCheckProgress } from '../payout-checks';
import { watchState } from '../payout-watch';
import { ordersChannels } from './orders';
import { payoutsChannels } from './payouts';
import { profilesChannels } from './profiles';
import { reconChannels } from './reconciliation';
import { settlementsChannels } from './settlements';
import { subscriptionsChannels } from './subscriptions';
import { syncChannels, syncFinishedEvent, syncKeysWrittenEvent, syncProgressEvent } from './sync';
import { classificationChannels, plansChannels, toolsChannels, webhooksChannels } from './merchant-tools';
import { viewsChannels } from './views';
import { exceptionsChannels } from './exceptions';
import { deskChannels } from './desk';
import { approvalsChannels } from './approvals';
import { deskEvent } from '../desk';
import { todayChannels } from './today';
import { refreshState } from '../today';

export interface IpcChannelSchemas {
  input: z.ZodType;
  output: z.ZodType;
}

/** One domain's schemas. A domain file declares its map with `satisfies DomainSchemas<'x'>`, so a name missing
 * from `channels.ts` is an excess property there, and the contract below fails if a listed name has no schemas. */
export type DomainSchemas<D extends string> = {
  [C in IpcChannel as C extends `${D}.${string}` ? C : never]: IpcChannelSchemas;
};

export const ipcContract = {
  ...appChannels,
  ...profilesChannels,
  ...credentialsChannels,
  ...syncChannels,
  ...settlementsChannels,
  ...reconChannels,
  ...beneficiariesChannels,
  ...payoutsChannels,
  ...accountsChannels,
  ...cacheChannels,
  ...exportsChannels,
  ...noticesChannels,
  ...journalChannels,
  ...ordersChannels,
  ...subscriptionsChannels,
  ...toolsChannels,
  ...plansChannels,
  ...webhooksChannels,
  ...classificationChannels,
  ...viewsChannels,
  ...exceptionsChannels,
  ...deskChannels,
  ...approvalsChannels,
  ...todayChannels,
} satisfies { [C in IpcChannel]: IpcChannelSchemas };

/** Payload schemas of the events main pushes to the renderer. */
export const ipcEvents = {
  connectivity,
  syncProgress: syncProgressEvent,
  syncFinished: syncFinishedEvent,
  syncKeysWritten: syncKeysWrittenEvent,
  exportProgress: exportProgressEvent,
  exportFinished: exportFinishedEvent,
  fileMovedAside: movedAsideNotice,
  payoutCheckProgress,
  payoutWatch: watchState,
  importProgress: importProgressEvent,
  desk: deskEvent,
  /** "Refresh all" on the Today screen: each part's state as it changes, and the end. */
  todayRefresh: refreshState,
} satisfies { [E in IpcEvent]: z.ZodType };

export type IpcEventPayload<E extends IpcEvent> = z.output<(typeof ipcEvents)[E]>;

type Contract = typeof ipcContract;

/** What the renderer passes. */
export type IpcInput<C extends IpcChannel> = z.input<Contract[C]['input']>;
/** What a handler in main receives: the input after its schema has checked and transformed it. */
export type IpcHandlerInput<C extends IpcChannel> = z.output<Contract[C]['input']>;
/** What a handler in main returns, before the output schema checks it. */
export type IpcHandlerOutput<C extends IpcChannel> = z.input<Contract[C]['output']>;
/** What the renderer receives. */
export type IpcOutput<C extends IpcChannel> = z.output<Contract[C]['output']>;

/** Codes the router produces itself. A handler's own typed error keeps its code (an API error code, a vault refusal). */
export type IpcRouterErrorCode =
  'UNKNOWN_CHANNEL' | 'FORBIDDEN_SENDER' | 'INVALID_INPUT' | 'INVALID_OUTPUT' | 'INTERNAL';

/** One problem with an input: the dotted path of the field and what is wrong with it. */
export interface IpcIssue {
  path: string;
  message: string;
}

export interface IpcError {
  code: string;
  message: string;
  /** For INVALID_INPUT and INVALID_OUTPUT: every field that broke the schema. */
  details?: IpcIssue[];
}

/** Errors cross the bridge as values: a thrown Error would lose its fields and leak its stack. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

type IpcMethod<C extends IpcChannel> =
  undefined extends IpcInput<C>
    ? (input?: IpcInput<C>) => Promise<IpcResult<IpcOutput<C>>>
    : (input: IpcInput<C>) => Promise<IpcResult<IpcOutput<C>>>;

type DomainOf<C extends string> = C extends `${infer D}.${string}` ? D : never;

/** `window.api`: channel `app.info` is `api.app.info()`; event `connectivity` is `api.on.connectivity(listener)`. */
export type IpcApi = {
  readonly [D in DomainOf<IpcChannel>]: {
    readonly [C in IpcChannel as C extends `${D}.${infer M}` ? M : never]: IpcMethod<C>;
  };
} & {
  readonly on: { readonly [E in IpcEvent]: (listener: (payload: IpcEventPayload<E>) => void) => () => void };
};
