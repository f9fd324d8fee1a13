/**
 * Wiring only: app lifecycle, the window, the app:// scheme, session hardening, the embedded sandbox, IPC
 * registration and the update check. Every decision lives in `security.ts`, `app-protocol.ts`, `updates.ts`, `ipc/`
 * and the modules they call.
 */
import { join } from 'node:path';
import { BrowserWindow, Notification, app, dialog, ipcMain, nativeTheme, protocol, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { randomBytes } from 'node:crypto';
import { eventChannel } from '../shared/ipc/channels';
import { APP_ENTRY, APP_ORIGIN, APP_SCHEME, APP_SCHEME_PRIVILEGES, serveAppFile } from './app-protocol';
import { createCore, type Core } from './core';
import { sqliteNativeBinding } from './native-binding';
import { registerIpc } from './ipc/register';
import { SANDBOX_DEFAULTS, startSandbox } from './sandbox/server';
import { updatesEnabled } from './updates';
import { createLogger, createRedactor, openLogFile, type LogFile, type Logger } from './log';
import { createKeytarStore } from './vault/keytar-store';
import {
  CONTENT_SECURITY_POLICY,
  DEV_SERVER_CONTENT_SECURITY_POLICY,
  denyAllPermissionChecks,
  denyAllPermissions,
  isAllowedExternalUrl,
  isAppUrl,
  shouldBlockRendererRequest,
} from './security';

// Hosts the console may open in the system browser. Empty until a feature links somewhere; it adds its host here.
const EXTERNAL_HOSTS: readonly string[] = [];

// electron-vite dev sets this; a packaged app never trusts it.
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const rendererDir = join(import.meta.dirname, '../renderer');
const appOrigin = devServerUrl ? new URL(devServerUrl).origin : APP_ORIGIN;

let mainWindow: BrowserWindow | null = null;
let sandbox: Awaited<ReturnType<typeof startSandbox>> | null = null;
let core: Core | null = null;
let logFile: LogFile | null = null;

/** Serves the built renderer on app://console/ (app-protocol.ts decides what is served and with which headers). */
function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = await serveAppFile(request.method, request.url, rendererDir);
    return new Response(answer.body && new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  });
}

function hardenSession(): void {
  const { webRequest } = session.defaultSession;
  const policy = devServerUrl ? DEV_SERVER_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY;
  webRequest.onHeadersReceived((details, callback) => {
    // Why eng-disable: the policy is a constant from security.ts (checked by test/unit/security.test.ts); the
    // scanner cannot read a CSP held in a variable and reports it as unparseable.
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } }); // eng-disable CSP_GLOBAL_CHECK
  });
  // Main's own HTTP client runs on Node's stack, outside this session, so this blocks only the renderer.
  webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: shouldBlockRendererRequest(details.url, appOrigin) });
  });
  session.defaultSession.setPermissionRequestHandler(denyAllPermissions);
  session.defaultSession.setPermissionCheckHandler(denyAllPermissionChecks);
  session.defaultSession.setDevicePermissionHandler(denyAllPermissionChecks);
}

function hardenWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    const stayInApp = (details: { url: string; preventDefault(): void }) => {
      if (!isAppUrl(details.url, appOrigin)) details.preventDefault();
    };
    contents.on('will-navigate', stayInApp);
    contents.on('will-redirect', stayInApp);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      // Open the parsed form, so the OS handler sees exactly the URL that was checked.
      // Why eng-disable: only https URLs to an allow-listed host, in canonical form, get here (isAllowedExternalUrl,
      // table-tested with hostile URLs in test/unit/security.test.ts).
      if (isAllowedExternalUrl(url, EXTERNAL_HOSTS)) void shell.openExternal(new URL(url).href); // eng-disable OPEN_EXTERNAL_JS_CHECK
      return { action: 'deny' };
    });
  });
}

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Payout Console',
    // Matches the page background, so the window does not flash white in dark mode before the first paint.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#f6f7f9',
    // Written out here, not spread from a constant, so the security scan in CI reads and checks every value.
    webPreferences: {
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
      // A middle click must not open a window by a path that bypasses setWindowOpenHandler.
      disableBlinkFeatures: 'Auxclick',
      // The spellchecker downloads dictionaries from a Google CDN and sees every typed account number.
      spellcheck: false,
      // Why eng-disable: the preload is the bridge itself and exposes only the frozen contract API (one named
      // method per channel, no ipcRenderer), built by shared/ipc/client.ts.
      preload: join(import.meta.dirname, '../preload/preload.cjs'), // eng-disable PRELOAD_JS_CHECK
      devTools: !app.isPackaged,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
  void window.loadURL(devServerUrl ?? APP_ENTRY);
}

async function start(): Promise<void> {
  await app.whenReady();
  serveRenderer();
  hardenSession();
  // The embedded sandbox's secret is new each run and known only to this process.
  const sandboxSecret = randomBytes(24).toString('base64url');
  sandbox = await startSandbox({ secret: sandboxSecret, hooks: false });
  const dataDir = app.getPath('userData');
  const redactor = createRedactor();
  redactor.add(sandboxSecret);
  logFile = await openLogFile(join(dataDir, 'logs', 'main.log'));
  core = createCore({
    appVersion: app.getVersion(),
    dataDir,
    log: createLogger('main', logFile.stream, redactor),
    redactor,
    vault: createKeytarStore(app.getName()),
    sandbox: { url: sandbox.url, key: SANDBOX_DEFAULTS.key, secret: sandboxSecret },
    sqliteNativeBinding: sqliteNativeBinding(),
    payoutWatch: true,
    osNotifications: {
      isSupported: () => Notification.isSupported(),
      show: (n) => new Notification(n).show(),
    },
    exportTargets: {
      // Opened on the data folder's exports/ with a name no running export holds; the person may go anywhere.
      async choose(suggestedName, defaultDir) {
        const options = { defaultPath: join(defaultDir, suggestedName) };
        const answer = mainWindow
          ? await dialog.showSaveDialog(mainWindow, options)
          : await dialog.showSaveDialog(options);
        return answer.canceled || !answer.filePath ? null : answer.filePath;
      },
      reveal: (file) => shell.showItemInFolder(file),
    },
  });
  registerIpc(ipcMain, core.router, appOrigin);
  core.events.subscribe((event, payload) => mainWindow?.webContents.send(eventChannel(event), payload));
  createWindow();
  checkForUpdates(core.log.child('updates'));
}

/** Looks for an update once at start when the build has a feed (updates.ts); downloads it and installs it on quit. */
function checkForUpdates(log: Logger): void {
  if (!updatesEnabled(app.isPackaged, process.resourcesPath)) {
    log.info('updates off: this build has no update feed');
    return;
  }
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = null;
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.on('error', (error) => log.warn('update check failed', { error }));
  autoUpdater.on('update-downloaded', (info) => log.info('update downloaded', { version: info.version }));
  autoUpdater.checkForUpdatesAndNotify().catch((error: unknown) => log.warn('update check failed', { error }));
}

function closeSandboxThenQuit(event: Electron.Event): void {
  // SQLite files are closed first and at once, so a quit never leaves a WAL half-checkpointed; a running export is
  // told to stop and given the time to remove its partial file.
  const exportsStopped = core?.close();
  core = null;
  if (!sandbox && !exportsStopped && !logFile) return;
  event.preventDefault();
  const closing = sandbox;
  sandbox = null;
  const log = logFile;
  logFile = null;
  // The log is closed last, so it keeps what the export and the sandbox say while they stop.
  Promise.all([exportsStopped, closing?.close()])
    .then(() => log?.close())
    .catch((error: unknown) => console.error('The app did not close cleanly:', error))
    .finally(() => app.quit());
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  // Before the app is ready, as Electron requires: the renderer's scheme is a standard, secure one.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
  hardenWebContents();
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('activate', () => {
    if (app.isReady() && !mainWindow && sandbox) createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', closeSandboxThenQuit);
  start().catch((error: unknown) => {
    dialog.showErrorBox('Payout Console could not start', error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
}
