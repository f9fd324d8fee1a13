/**
 * A core whose built-in Sandbox profile talks to a sandbox a test started (with the secret "embedded"), on a
 * data folder of the test's, with the tests' fixed clock and a silent log: the set-up of the integration tests that drive the router.
 * Also the calls those tests make on a core: a channel called as the app's main frame calls it, and the next
 * event of a kind.
 */
import type { PendingApproval } from '../../shared/approvals';
import { sent } from './approvals';
import { createCore, type Core, type CoreOptions } from '../../electron/core';
import { createLogger, createRedactor } from '../../electron/log';
import type { Sandbox } from '../../electron/sandbox/server';
import type { SecretStore } from '../../electron/vault/secret-store';
import type { IpcChannel, IpcEvent } from '../../shared/ipc/channels';
import type { IpcEventPayload, IpcInput, IpcOutput, IpcResult } from '../../shared/ipc/contract';
import { APP_ORIGIN, MAIN_FRAME } from '../security/support';
import { testClock } from './clock';

export const EMBEDDED_SECRET = 'embedded';

export function coreOnSandbox(
  sandbox: Sandbox,
  options: { dataDir: string; vault: SecretStore } & Partial<CoreOptions>,
): Core {
  const redactor = createRedactor();
  return createCore({
    appVersion: '0.0.0',
    sandbox: { url: sandbox.url, key: 'test_key', secret: EMBEDDED_SECRET },
    log: createLogger('test', () => {}, redactor),
    redactor,
    now: testClock(),
    ...options,
  });
}

/** A channel called from the app's own main frame, as the renderer calls it: the router's reply as it is. */
export async function call<C extends IpcChannel>(
  core: Core,
  channel: C,
  input: IpcInput<C>,
): Promise<IpcResult<IpcOutput<C>>> {
  return (await core.router.handle(channel, input, MAIN_FRAME, APP_ORIGIN)) as IpcResult<IpcOutput<C>>;
}

/** As `call`, for a call that must succeed: its value, or an error naming the channel, code and message. */
export async function ok<C extends IpcChannel>(core: Core, channel: C, input: IpcInput<C>): Promise<IpcOutput<C>> {
  const reply = await call(core, channel, input);
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.code} ${reply.error.message}`);
  return reply.value;
}

/** As `ok`, for a money action in local mode, where it is sent (never a proposal): the service's answer. */
export async function sentOk<C extends IpcChannel>(
  core: Core,
  channel: C,
  input: IpcInput<C>,
): Promise<Exclude<IpcOutput<C>, PendingApproval>> {
  return sent(await ok(core, channel, input)) as Exclude<IpcOutput<C>, PendingApproval>;
}

/** The payload of the first `event` (that `match` accepts) emitted from now on; stops listening once it came. */
export function nextEvent<E extends IpcEvent>(
  core: Core,
  event: E,
  match: (payload: IpcEventPayload<E>) => boolean = () => true,
): Promise<IpcEventPayload<E>> {
  return new Promise((resolve) => {
    const stop = core.events.subscribe((e, payload) => {
      if (e !== event || !match(payload as IpcEventPayload<E>)) return;
      stop();
      resolve(payload as IpcEventPayload<E>);
    });
  });
}

/** A settlement sync through the core's job, as the Sync button starts it: its finished event. */
export async function syncedThroughJob(
  core: Core,
  request: IpcInput<'sync.start'>,
): Promise<IpcEventPayload<'syncFinished'>> {
  const { jobId } = await ok(core, 'sync.start', request);
  return nextEvent(core, 'syncFinished', (p) => p.jobId === jobId);
}

/** How many synced dates still lack the search or sort keys the sync jobs write after a sync has answered. */
export function datesWithoutKeys(core: Core, profileId: string): number {
  return core
    .cacheFor(profileId)
    .db.prepare(
      `SELECT count(*) FROM settlement_days WHERE date NOT IN (SELECT date FROM settlement_keyed_days)
         OR date NOT IN (SELECT date FROM settlement_sorted_days)`,
    )
    .pluck()
    .get() as number;
}
