import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConnectivity } from '../../electron/connectivity';
import { createAppHandlers } from '../../electron/ipc/app';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { registerIpc, senderOf, type IpcMainLike } from '../../electron/ipc/register';
import { createIpcRouter, type IpcHandlers, type IpcSender } from '../../electron/ipc/router';
import type { ActiveProfile } from '../../shared/ipc/app';
import { IPC_CHANNELS } from '../../shared/ipc/channels';
import { createIpcApi } from '../../shared/ipc/client';
import { testClock } from '../support/clock';

const APP_ORIGIN = 'app://console';
const MAIN_FRAME: IpcSender = { frameUrl: `${APP_ORIGIN}/index.html`, isMainFrame: true };
const PROFILE: ActiveProfile = {
  id: 'sandbox',
  name: 'Sandbox',
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:4010',
};
const profiles = createProfileStore({
  dataDir: mkdtempSync(join(tmpdir(), 'pc-router-')),
  sandbox: { url: PROFILE.baseUrl, key: 'test_key' },
});

/** The real app.* handlers; the other channels are not reached by these tests and say so if they are. */
function routerWith(handlers: Partial<IpcHandlers> = {}) {
  const unused = Object.fromEntries(
    IPC_CHANNELS.map((c) => [
      c,
      () => {
        throw new Error(`${c} is not used by this test`);
      },
    ]),
  ) as unknown as IpcHandlers;
  return createIpcRouter({
    ...unused,
    ...createAppHandlers({
      appVersion: '0.1.0',
      profiles,
      connectivity: createConnectivity(
        () => {},
        () => new Date(testClock()()),
        () => profiles.active().id,
      ),
    }),
    ...handlers,
  });
}

describe('createIpcRouter', () => {
  it('answers a known channel from the app main frame', async () => {
    const result = await routerWith().handle('app.info', undefined, MAIN_FRAME, APP_ORIGIN);
    expect(result).toEqual({ ok: true, value: { appVersion: '0.1.0', profile: PROFILE } });
  });

  it.each(['app.unknown', 'app', '', '__proto__', 'constructor', 'toString'])(
    'rejects the unknown channel %j',
    async (channel) => {
      const result = await routerWith().handle(channel, undefined, MAIN_FRAME, APP_ORIGIN);
      expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    },
  );

  it.each<[string, IpcSender]>([
    ['a destroyed frame', { frameUrl: null, isMainFrame: true }],
    ['a subframe of the app', { frameUrl: `${APP_ORIGIN}/index.html`, isMainFrame: false }],
    ['a foreign page', { frameUrl: 'https://evil.io/', isMainFrame: true }],
    ['a look-alike folder', { frameUrl: `${APP_ORIGIN}-evil/index.html`, isMainFrame: true }],
    ['a data: page', { frameUrl: 'data:text/html,<script>1</script>', isMainFrame: true }],
    ['the dev server in a build', { frameUrl: 'http://localhost:5173/', isMainFrame: true }],
  ])('rejects %s as sender, before the handler runs', async (_name, sender) => {
    let ran = false;
    const router = routerWith({
      'app.info': () => {
        ran = true;
        return { appVersion: '0.1.0', profile: PROFILE };
      },
    });
    const result = await router.handle('app.info', undefined, sender, APP_ORIGIN);
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(ran).toBe(false);
  });

  it('rejects invalid input before the handler runs', async () => {
    let ran = false;
    const router = routerWith({
      'app.info': () => {
        ran = true;
        return { appVersion: '0.1.0', profile: PROFILE };
      },
    });
    const result = await router.handle('app.info', { sql: 'DROP TABLE payouts' }, MAIN_FRAME, APP_ORIGIN);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(ran).toBe(false);
  });

  it('rejects an output that breaks the contract', async () => {
    const router = routerWith({
      'app.info': () => ({
        appVersion: '0.1.0',
        profile: { ...PROFILE, environment: 'staging' as 'sandbox' },
      }),
    });
    const result = await router.handle('app.info', undefined, MAIN_FRAME, APP_ORIGIN);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_OUTPUT', details: [expect.objectContaining({ path: 'profile.environment' })] },
    });
  });

  it('turns a thrown error into a code and a message, with no stack', async () => {
    const router = routerWith({
      'app.info': () => {
        throw new Error('keychain locked');
      },
    });
    const result = await router.handle('app.info', undefined, MAIN_FRAME, APP_ORIGIN);
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'keychain locked' } });
    expect(JSON.stringify(result)).not.toMatch(/at .*\.ts|stack/);
  });

  it('keeps the code of a typed error and survives a thrown non-Error', async () => {
    const typed = Object.assign(new Error('Hash not verified'), { code: 'API_204', stack: 'secret stack' });
    const rejectsTyped = routerWith({ 'app.info': () => Promise.reject(typed) });
    expect(await rejectsTyped.handle('app.info', undefined, MAIN_FRAME, APP_ORIGIN)).toEqual({
      ok: false,
      error: { code: 'API_204', message: 'Hash not verified' },
    });
    const throwsString = routerWith({
      'app.info': () => {
        throw 'plain string';
      },
    });
    expect(await throwsString.handle('app.info', undefined, MAIN_FRAME, APP_ORIGIN)).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'plain string' },
    });
  });
});

describe('registerIpc and the preload api', () => {
  function fakeIpcMain() {
    const listeners = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
    const ipcMain: IpcMainLike = {
      handle: (channel, listener) => void listeners.set(channel, listener),
      removeHandler: (channel) => void listeners.delete(channel),
    };
    return { ipcMain, listeners };
  }

  it('registers exactly the contract channels and removes them again', () => {
    const { ipcMain, listeners } = fakeIpcMain();
    const unregister = registerIpc(ipcMain, routerWith(), APP_ORIGIN);
    expect([...listeners.keys()]).toEqual([...IPC_CHANNELS]);
    unregister();
    expect(listeners.size).toBe(0);
  });

  it('reads the sender from the frame that sent the call', () => {
    expect(senderOf(null)).toEqual({ frameUrl: null, isMainFrame: false });
    expect(senderOf({ url: 'file:///a/index.html', parent: null })).toEqual({
      frameUrl: 'file:///a/index.html',
      isMainFrame: true,
    });
    expect(senderOf({ url: 'file:///a/index.html', parent: {} }).isMainFrame).toBe(false);
  });

  it('carries api.app.info() from the preload through ipcMain to the router', async () => {
    const { ipcMain, listeners } = fakeIpcMain();
    registerIpc(ipcMain, routerWith(), APP_ORIGIN);
    const mainFrame = { url: `${APP_ORIGIN}/index.html`, parent: null };
    const api = createIpcApi(
      async (channel, input) => listeners.get(channel)?.({ senderFrame: mainFrame }, input),
      () => () => {},
    );

    expect(Object.isFrozen(api) && Object.isFrozen(api.app)).toBe(true);
    expect(await api.app.info()).toEqual({
      ok: true,
      value: { appVersion: '0.1.0', profile: PROFILE },
    });
    expect(typeof api.on.connectivity).toBe('function');
  });

  it('refuses a channel name that is not domain.method', () => {
    expect(() =>
      createIpcApi(
        async () => undefined,
        () => () => {},
        ['app.info.extra'],
      ),
    ).toThrow(/domain\.method/);
    expect(() =>
      createIpcApi(
        async () => undefined,
        () => () => {},
        ['info'],
      ),
    ).toThrow(/domain\.method/);
  });
});
