/**
 * electron/main.ts under Node, with a stand-in `electron` module that records every call (there is no Electron
 * binary on our machines). What main wires is checked against the modules that decide it: the window's
 * webPreferences, the app:// handler, the session's content policy, request blocking and permission handlers, every
 * IPC channel registered once, the embedded sandbox started and stopped, and the updater only when the build has a
 * feed. Dropping any of these fails a test here.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '../../shared/ipc/channels';
import { APP_ENTRY, APP_SCHEME, APP_SCHEME_PRIVILEGES, serveAppFile } from '../../electron/app-protocol';
import {
  CONTENT_SECURITY_POLICY,
  denyAllPermissionChecks,
  denyAllPermissions,
  shouldBlockRendererRequest,
} from '../../electron/security';

/** What main did to Electron, in order, and what it handed over. */
const fake = vi.hoisted(() => {
  const state = {
    calls: [] as string[],
    isPackaged: false,
    userData: '',
    appHandlers: new Map<string, (...args: unknown[]) => unknown>(),
    windows: [] as { options: Record<string, unknown>; loaded: string[] }[],
    protocolHandlers: new Map<string, (request: { method: string; url: string }) => Promise<Response>>(),
    privileged: [] as unknown[],
    ipc: [] as { channel: string; listener: (event: unknown, input: unknown) => Promise<unknown> }[],
    onHeadersReceived: null as null | ((details: unknown, callback: (answer: unknown) => void) => void),
    onBeforeRequest: null as null | ((details: unknown, callback: (answer: unknown) => void) => void),
    permissionRequest: null as unknown,
    permissionCheck: null as unknown,
    devicePermission: null as unknown,
    errorBoxes: [] as string[],
    quits: 0,
    /** The save dialog's options, each time it was opened, and what it answers next. */
    saveDialogs: [] as { defaultPath?: string }[],
    saveAnswer: { canceled: true } as { canceled: boolean; filePath?: string },
    shown: [] as string[],
    sandboxes: [] as { options: unknown; url: string; closed: boolean }[],
    vaultServices: [] as string[],
    updater: {
      checks: 0,
      autoDownload: false,
      autoInstallOnAppQuit: false,
      logger: undefined as unknown,
      on: () => undefined,
    },
  };
  const reset = () => {
    state.calls = [];
    state.appHandlers.clear();
    state.windows = [];
    state.protocolHandlers.clear();
    state.privileged = [];
    state.ipc = [];
    state.onHeadersReceived = state.onBeforeRequest = null;
    state.permissionRequest = state.permissionCheck = state.devicePermission = null;
    state.errorBoxes = [];
    state.quits = 0;
    state.saveDialogs = [];
    state.saveAnswer = { canceled: true };
    state.shown = [];
    state.sandboxes = [];
    state.vaultServices = [];
    Object.assign(state.updater, { checks: 0, autoDownload: false, autoInstallOnAppQuit: false, logger: undefined });
  };
  return { state, reset };
});

vi.mock('electron', () => {
  const { state } = fake;
  const record = (name: string) => state.calls.push(name);
  class BrowserWindow {
    readonly record: { options: Record<string, unknown>; loaded: string[] };
    readonly webContents = { send: () => undefined };
    constructor(options: Record<string, unknown>) {
      this.record = { options, loaded: [] };
      state.windows.push(this.record);
      record('new BrowserWindow');
    }
    once() {}
    on() {}
    show() {}
    focus() {}
    restore() {}
    isMinimized() {
      return false;
    }
    loadURL(url: string) {
      this.record.loaded.push(url);
      return Promise.resolve();
    }
  }
  class Notification {
    static isSupported = () => false;
    show() {}
  }
  const app = {
    get isPackaged() {
      return state.isPackaged;
    },
    requestSingleInstanceLock: () => (record('app.requestSingleInstanceLock'), true),
    enableSandbox: () => record('app.enableSandbox'),
    whenReady: () => (record('app.whenReady'), Promise.resolve()),
    isReady: () => true,
    on: (event: string, handler: (...args: unknown[]) => unknown) => state.appHandlers.set(event, handler),
    getPath: (name: string) => join(state.userData, name),
    getVersion: () => '0.0.0-test',
    getName: () => 'Payout Console',
    quit: () => void (state.quits += 1),
    exit: () => record('app.exit'),
  };
  return {
    app,
    BrowserWindow,
    Notification,
    nativeTheme: { shouldUseDarkColors: false },
    protocol: {
      registerSchemesAsPrivileged: (list: unknown[]) => (
        record('protocol.registerSchemesAsPrivileged'),
        state.privileged.push(...list)
      ),
      handle: (scheme: string, handler: never) => (
        record('protocol.handle'),
        state.protocolHandlers.set(scheme, handler)
      ),
    },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (listener: never) => void (state.onHeadersReceived = listener),
          onBeforeRequest: (listener: never) => void (state.onBeforeRequest = listener),
        },
        setPermissionRequestHandler: (handler: unknown) => void (state.permissionRequest = handler),
        setPermissionCheckHandler: (handler: unknown) => void (state.permissionCheck = handler),
        setDevicePermissionHandler: (handler: unknown) => void (state.devicePermission = handler),
      },
    },
    ipcMain: {
      handle: (channel: string, listener: never) => void state.ipc.push({ channel, listener }),
      removeHandler: () => undefined,
    },
    dialog: {
      showErrorBox: (_title: string, message: string) => void state.errorBoxes.push(message),
      // Called with the window first, as main calls it when it has one.
      showSaveDialog: async (...args: unknown[]) => {
        state.saveDialogs.push(args.at(-1) as { defaultPath?: string });
        return state.saveAnswer;
      },
    },
    shell: {
      openExternal: async () => undefined,
      showItemInFolder: (file: string) => void state.shown.push(file),
    },
  };
});

vi.mock('electron-updater', () => {
  const { updater } = fake.state;
  return {
    default: {
      autoUpdater: Object.assign(updater, {
        checkForUpdatesAndNotify: async () => {
          updater.checks += 1;
          return null;
        },
      }),
    },
  };
});

// The OS keychain is not the subject here (it may be missing where the tests run): a store in memory, named as main names it.
vi.mock('../../electron/vault/keytar-store', async () => {
  const { memoryStore } = await import('../support/memory-store');
  return {
    createKeytarStore: (service: string) => {
      fake.state.vaultServices.push(service);
      return memoryStore();
    },
  };
});

// The real sandbox, recorded: main must start it, hand its address to the core and close it on quit.
vi.mock('../../electron/sandbox/server', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../electron/sandbox/server')>();
  return {
    ...real,
    startSandbox: async (options: Parameters<typeof real.startSandbox>[0]) => {
      const sandbox = await real.startSandbox(options);
      const entry = { options, url: sandbox.url, closed: false };
      fake.state.sandboxes.push(entry);
      return {
        ...sandbox,
        close: async () => {
          entry.closed = true;
          await sandbox.close();
        },
      };
    },
  };
});

const originalResourcesPath = (process as { resourcesPath?: string }).resourcesPath;
let folder: string;

beforeEach(() => {
  fake.reset();
  folder = mkdtempSync(join(tmpdir(), 'main-wiring-'));
  fake.state.userData = join(folder, 'userData');
  fake.state.isPackaged = false;
  delete process.env['ELECTRON_RENDERER_URL'];
  (process as { resourcesPath?: string }).resourcesPath = join(folder, 'resources');
  vi.resetModules();
});

afterEach(async () => {
  await quit();
  (process as { resourcesPath?: string }).resourcesPath = originalResourcesPath;
  rmSync(folder, { recursive: true, force: true });
});

/** Imports main (which starts the app) and waits until it has shown its window and looked for updates. */
async function startMain(): Promise<void> {
  await import('../../electron/main');
  await vi.waitFor(
    () => {
      expect(fake.state.errorBoxes).toEqual([]);
      expect(fake.state.windows[0]?.loaded).toHaveLength(1);
    },
    { timeout: 10_000 },
  );
}

/** What the app does on quit: main must stop the core and the sandbox, then quit for real. */
async function quit(): Promise<{ prevented: boolean }> {
  const beforeQuit = fake.state.appHandlers.get('before-quit');
  const result = { prevented: false };
  if (!beforeQuit || fake.state.quits > 0) return result;
  beforeQuit({ preventDefault: () => void (result.prevented = true) });
  await vi.waitFor(() => expect(fake.state.quits).toBe(1), { timeout: 10_000 });
  return result;
}

describe('electron/main.ts wiring', () => {
  it('takes the single-instance lock, enables the sandbox and registers app:// before the app is ready', async () => {
    await startMain();
    const { calls, privileged } = fake.state;
    expect(calls.slice(0, 3)).toEqual([
      'app.requestSingleInstanceLock',
      'app.enableSandbox',
      'protocol.registerSchemesAsPrivileged',
    ]);
    expect(calls.indexOf('protocol.registerSchemesAsPrivileged')).toBeLessThan(calls.indexOf('app.whenReady'));
    expect(privileged).toEqual([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
  });

  it('opens one window with every webPreference the security review asks for, on the app:// entry', async () => {
    await startMain();
    expect(fake.state.windows).toHaveLength(1);
    const { options, loaded } = fake.state.windows[0]!;
    expect(options['webPreferences']).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
      preload: expect.stringMatching(/[/\\]preload[/\\]preload\.cjs$/),
      devTools: true,
    });
    expect(loaded).toEqual([APP_ENTRY]);
  });

  it('serves app:// through serveAppFile from the renderer folder', async () => {
    await startMain();
    const handler = fake.state.protocolHandlers.get(APP_SCHEME);
    expect(handler).toBeDefined();
    const rendererDir = new URL('../../renderer', import.meta.url).pathname;
    for (const [method, url] of [
      ['GET', APP_ENTRY],
      ['GET', 'app://console/../package.json'],
      ['POST', APP_ENTRY],
    ] as const) {
      const response = await handler!({ method, url });
      const expected = await serveAppFile(method, url, rendererDir);
      expect(response.status, `${method} ${url}`).toBe(expected.status);
      // A Response names its headers in lower case.
      const want = Object.fromEntries(Object.entries(expected.headers).map(([k, v]) => [k.toLowerCase(), v]));
      expect(Object.fromEntries(response.headers)).toEqual(want);
    }
  });

  it("sets the content policy on every answer of the session and blocks the renderer's requests as security.ts says", async () => {
    await startMain();
    const { onHeadersReceived, onBeforeRequest } = fake.state;
    let headers: unknown;
    onHeadersReceived!({ responseHeaders: { 'X-Kept': ['yes'] } }, (answer) => (headers = answer));
    expect(headers).toEqual({
      responseHeaders: { 'X-Kept': ['yes'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    for (const url of [APP_ENTRY, 'https://evil.example/steal', 'http://127.0.0.1:1/', 'data:text/plain,x']) {
      let answer: unknown;
      onBeforeRequest!({ url }, (a) => (answer = a));
      expect(answer, url).toEqual({ cancel: shouldBlockRendererRequest(url, 'app://console') });
    }
    let evil: unknown;
    onBeforeRequest!({ url: 'https://evil.example/steal' }, (a) => (evil = a));
    expect(evil).toEqual({ cancel: true });
  });

  it('denies every permission request, check and device', async () => {
    await startMain();
    // The module instance main loaded (each test loads main afresh).
    const security = await import('../../electron/security');
    expect(fake.state.permissionRequest).toBe(security.denyAllPermissions);
    expect(fake.state.permissionCheck).toBe(security.denyAllPermissionChecks);
    expect(fake.state.devicePermission).toBe(security.denyAllPermissionChecks);
    const granted: boolean[] = [];
    (fake.state.permissionRequest as typeof denyAllPermissions)({}, 'media', (g) => granted.push(g));
    expect(granted).toEqual([false]);
    expect((fake.state.permissionCheck as typeof denyAllPermissionChecks)()).toBe(false);
  });

  it('keeps every web contents in the app: no navigation out, no webview, no window but a denied one', async () => {
    await startMain();
    const created = fake.state.appHandlers.get('web-contents-created');
    const on = new Map<string, (event: { url?: string; preventDefault(): void }) => void>();
    let openHandler: ((details: { url: string }) => unknown) | undefined;
    created!(
      {},
      { on: (name: string, fn: never) => on.set(name, fn), setWindowOpenHandler: (fn: never) => (openHandler = fn) },
    );
    for (const name of ['will-navigate', 'will-redirect']) {
      let prevented = 0;
      on.get(name)!({ url: 'https://evil.example/', preventDefault: () => void (prevented += 1) });
      on.get(name)!({ url: APP_ENTRY, preventDefault: () => void (prevented += 1) });
      expect(prevented, name).toBe(1);
    }
    let webview = false;
    on.get('will-attach-webview')!({ preventDefault: () => void (webview = true) });
    expect(webview).toBe(true);
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('registers every IPC channel once, and nothing else, on the router with the app origin', async () => {
    await startMain();
    const channels = fake.state.ipc.map((h) => h.channel);
    expect(channels.toSorted()).toEqual([...IPC_CHANNELS].sort());
    expect(new Set(channels).size).toBe(channels.length);
    const info = fake.state.ipc.find((h) => h.channel === 'app.info')!;
    const fromApp = (await info.listener({ senderFrame: { url: APP_ENTRY, parent: null } }, undefined)) as {
      ok: boolean;
    };
    expect(fromApp.ok).toBe(true);
    const foreign = (await info.listener(
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      undefined,
    )) as {
      ok: boolean;
      error?: { code: string };
    };
    expect(foreign).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
  });

  it('starts the embedded sandbox with a secret of its own and no test hooks, and stops it on quit', async () => {
    await startMain();
    expect(fake.state.sandboxes).toHaveLength(1);
    const [sandbox] = fake.state.sandboxes;
    expect(sandbox!.options).toMatchObject({ hooks: false, secret: expect.stringMatching(/^[\w-]{32}$/) });
    expect(fake.state.vaultServices).toEqual(['Payout Console']);
    expect(sandbox!.closed).toBe(false);
    const { prevented } = await quit();
    expect(prevented).toBe(true);
    expect(sandbox!.closed).toBe(true);
    expect(fake.state.quits).toBe(1);
  });

  it("opens the save dialog on the data folder's exports, writes nothing when it is cancelled, and shows a file written", async () => {
    await startMain();
    const fromApp = { senderFrame: { url: APP_ENTRY, parent: null } };
    const invoke = async (channel: string, input: unknown) => {
      const reply = (await fake.state.ipc.find((h) => h.channel === channel)!.listener(fromApp, input)) as {
        ok: boolean;
        value?: { file: string | null; jobId: string | null };
      };
      expect(reply.ok, channel).toBe(true);
      return reply.value!;
    };
    // The stand-in app keeps each of its paths under the test's folder, userData too.
    const exportsDir = join(fake.state.userData, 'userData', 'exports');
    expect(await invoke('beneficiaries.importTemplate', undefined)).toEqual({ file: null, jobId: null });
    expect(fake.state.saveDialogs).toEqual([
      { defaultPath: join(exportsDir, 'sandbox-beneficiary-import-template.xlsx') },
    ]);
    expect(existsSync(exportsDir) ? readdirSync(exportsDir) : []).toEqual([]);

    const chosen = join(folder, 'chosen.xlsx');
    fake.state.saveAnswer = { canceled: false, filePath: chosen };
    const saved = await invoke('beneficiaries.importTemplate', undefined);
    expect(saved.file).toBe(chosen);
    expect(existsSync(chosen)).toBe(true);
    expect(await invoke('exports.reveal', { jobId: saved.jobId })).toEqual({ revealed: true });
    expect(fake.state.shown).toEqual([chosen]);
  });

  it('never looks for updates in development', async () => {
    await startMain();
    expect(fake.state.updater.checks).toBe(0);
  });

  it('never looks for updates in a packaged build without a feed', async () => {
    fake.state.isPackaged = true;
    await startMain();
    expect(fake.state.windows[0]!.options['webPreferences']).toMatchObject({ devTools: false });
    expect(fake.state.updater.checks).toBe(0);
  });

  it('looks for updates once, downloading and installing on quit, in a packaged build with a feed', async () => {
    fake.state.isPackaged = true;
    const resources = join(folder, 'resources');
    (process as { resourcesPath?: string }).resourcesPath = resources;
    await import('node:fs').then((fs) => fs.mkdirSync(resources, { recursive: true }));
    writeFileSync(join(resources, 'app-update.yml'), 'provider: generic\nurl: https://updates.example/\n');
    await startMain();
    await vi.waitFor(() => expect(fake.state.updater.checks).toBe(1));
    expect(fake.state.updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, logger: null });
  });
});
