/**
 * One call starts everything an end-to-end test needs: the sandbox with a fresh key and secret, the console's
 * core on a temporary data folder, the browser harness, and headless Debian Chromium with a page on the app,
 * the sandbox, the core and the page all on the tests' fixed clock. `close()` takes all of it down again.
 *
 * Secrets live in memory unless a test is about the OS keychain (`keychain: true`, with a keychain service of
 * the run's own, emptied at close): the built-in sandbox profile needs no stored secret, so every other screen
 * test runs wherever Chromium does.
 *
 * Chromium and the OS keychain are system components: where one is missing the tests skip loudly, and under
 * PAYOUT_CONSOLE_REQUIRE_SYSTEM=1 (CI) they fail instead.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createCore, type Core } from '../../electron/core';
import type { ExportTargets } from '../../electron/export/jobs';
import { createLogger, createRedactor, openLogFile } from '../../electron/log';
import type { Sandbox } from '../../electron/sandbox/server';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import type { SecretStore } from '../../electron/vault/secret-store';
import { startHarness, type Harness } from '../harness';
import { TEST_NOW, testClock } from '../support/clock';
import { coreOnSandbox } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { requireSystem } from '../support/system';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const APP_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * True when Chromium is here (and the OS keychain, for a test about it); call at the top of a test file and
 * `describe.runIf` on it.
 */
export async function e2eSystemReady(options: { keychain?: boolean } = {}): Promise<boolean> {
  const browser = requireSystem(
    'Chromium',
    existsSync(CHROMIUM) ? null : `${CHROMIUM} does not exist (apt install chromium)`,
  );
  if (!options.keychain) return browser;
  const probe = await createKeytarStore(`payout-console-e2e-probe-${randomBytes(4).toString('hex')}`).probe();
  const keychain = requireSystem('the OS keychain', probe.available ? null : probe.reason);
  return browser && keychain;
}

export interface StartAppOptions {
  /** The secret store, e.g. one whose keychain is missing; in memory unless given or `keychain` is set. */
  vault?: SecretStore;
  /** Store secrets in the real OS keychain, under a service of this run's own: for tests about the keychain. */
  keychain?: boolean;
  /** Runs before the page opens, so the page's first look already shows what it sets up. */
  prepare?(app: {
    core: Core;
    sandbox: Sandbox;
    merchant: { key: string; secret: string };
    dataDir: string;
  }): Promise<void> | void;
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  /** Settlement records a day in the sandbox (its default otherwise), e.g. several pages a day for a sync test. */
  settlementsPerDay?: number;
  /** Where exports go and how "Show in folder" shows one (the core's defaults otherwise: the data folder, no-op). */
  exportTargets?: Partial<ExportTargets>;
  /**
   * The page's clock: the tests' fixed day (the default), or the browser's own. Playwright's fixed clock runs the
   * page's timers, requestAnimationFrame and performance.now through its own scheduler, so frame times and
   * latencies measured in the page (test/bench/ui.ts) are the browser's only with `'browser'`.
   */
  pageClock?: 'fixed' | 'browser';
}

/** What runs beside the browser: the sandbox, the core on it and the harness that serves the renderer and its IPC. */
export interface AppCore {
  core: Core;
  sandbox: Sandbox;
  /** The sandbox's merchant key and secret, new for each start. */
  merchant: { key: string; secret: string };
  harness: Harness;
  dataDir: string;
  logFile: string;
  close(): Promise<void>;
}

export interface RunningApp extends AppCore {
  page: Page;
  /** Console errors and uncaught page errors, in order. */
  consoleErrors: string[];
}

/** A closer that runs the steps pushed to it in reverse, all of them, and reports every failure. */
function teardownList(first: () => Promise<unknown> | void) {
  const steps: (() => Promise<unknown> | void)[] = [first];
  const close = async () => {
    const failures: unknown[] = [];
    for (const step of steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, 'The e2e app did not close cleanly');
  };
  return { push: (step: () => Promise<unknown> | void) => steps.push(step), close };
}

/** The sandbox, the core and the harness, as the app runs them (startApp), without a browser. */
export async function startAppCore(options: StartAppOptions = {}): Promise<AppCore> {
  const run = randomBytes(6).toString('hex');
  const merchant = { key: `merchant_${run}`, secret: `sk_${randomBytes(18).toString('base64url')}` };
  const dataDir = mkdtempSync(join(tmpdir(), 'payout-console-e2e-'));
  const ownKeychain = !options.vault && options.keychain === true;
  const vault = options.vault ?? (ownKeychain ? createKeytarStore(`payout-console-e2e-${run}`) : memoryStore());
  const teardown = teardownList(() => rmSync(dataDir, { recursive: true, force: true }));
  try {
    const sandbox = await startTestSandbox({ ...merchant, settlementsPerDay: options.settlementsPerDay });
    teardown.push(() => sandbox.close());
    const redactor = createRedactor();
    redactor.add(merchant.secret);
    // Written as each line is logged, so a test can read the file at once.
    const log = await openLogFile(join(dataDir, 'logs', 'main.log'), { sync: true });
    teardown.push(() => log.close());
    const logFile = log.current();
    const core = createCore({
      appVersion: APP_VERSION,
      dataDir,
      vault,
      sandbox: { url: sandbox.url, ...merchant },
      log: createLogger('main', log.stream, redactor),
      redactor,
      exportTargets: options.exportTargets,
      now: testClock(),
    });
    // Closed after the harness and the browser, before the sandbox and the data folder go.
    teardown.push(() => core.close());
    // A vault passed in belongs to the caller; the run's own keychain service is emptied here.
    if (ownKeychain) {
      teardown.push(async () => {
        for (const account of await vault.accounts()) await vault.delete(account);
      });
    }
    await options.prepare?.({ core, sandbox, merchant, dataDir });
    const harness = await startHarness(core);
    teardown.push(() => harness.close());
    return { core, sandbox, merchant, harness, dataDir, logFile, close: teardown.close };
  } catch (error) {
    await teardown.close().catch(() => {});
    throw error;
  }
}

/**
 * A page of Debian's Chromium on the harness at `url`, once its event stream is open (`streamOpen`: the harness's
 * own, which may run in another process).
 */
export async function openAppPage(
  url: string,
  streamOpen: () => Promise<void>,
  options: StartAppOptions = {},
): Promise<{ page: Page; consoleErrors: string[]; close(): Promise<void> }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({
      colorScheme: options.colorScheme ?? 'light',
      viewport: options.viewport ?? { width: 1280, height: 800 },
    });
    // The page's Date reads the tests' day too (timers run as usual): its default ranges match the sandbox's data.
    if (options.pageClock !== 'browser') await context.clock.setFixedTime(TEST_NOW);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    await page.goto(url);
    // A page whose bridge failed never opens the event stream: its first uncaught error ends the wait, with what it
    // logged; a page that only takes long is waited for (the hook's own timeout is the one bound).
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) =>
        reject(
          new Error(
            `The page failed before opening the harness event stream: ${error.message}; ` +
              `the page logged: ${consoleErrors.join(' | ') || 'nothing'}`,
          ),
        );
      page.once('pageerror', failed);
      void streamOpen().then(() => {
        page.off('pageerror', failed);
        resolve();
      });
    });
    return { page, consoleErrors, close: () => browser.close() };
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
}

export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const app = await startAppCore(options);
  try {
    const browser = await openAppPage(app.harness.url, () => app.harness.eventStreamOpen(), options);
    // The browser first, then the core and the rest.
    const teardown = teardownList(app.close);
    teardown.push(browser.close);
    return { ...app, page: browser.page, consoleErrors: browser.consoleErrors, close: teardown.close };
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
}

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url).pathname;

/**
 * Saves the page as it stands as `test-results/screenshots/<name>-<scheme>.png`, once per colour scheme, off any
 * focus ring or hover so the picture shows the resting state; a blank picture fails. The page is left in light, at
 * the viewport it had.
 */
export async function saveScreenshots(
  page: Page,
  name: string,
  options: { schemes?: readonly ('light' | 'dark')[]; height?: number } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const viewport = page.viewportSize();
  if (options.height && viewport) await page.setViewportSize({ width: viewport.width, height: options.height });
  for (const scheme of options.schemes ?? (['light', 'dark'] as const)) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(0, 0);
    const path = `${SCREENSHOTS}${name}-${scheme}.png`;
    await page.screenshot({ path });
    if (statSync(path).size < 10_000) throw new Error(`${path} is nearly empty: the screen did not render`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (options.height && viewport) await page.setViewportSize(viewport);
}

/** A second console beside the app's: its own core, data folder and harness, on the same sandbox and browser. */
export interface SecondConsole {
  core: Core;
  harness: Harness;
  page: Page;
  /** The second page's console errors and uncaught page errors, in order. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/**
 * Starts a second console named `<name>-laptop` on the app's sandbox, lets `prepare` join it to a desk (and sync, …)
 * before its page opens, and opens it in a second page of the app's browser (another origin: the second harness's
 * port, so its own storage), waiting until its event stream is open.
 */
export async function secondConsole(
  app: RunningApp,
  name: string,
  prepare: (core: Core) => Promise<void>,
): Promise<SecondConsole> {
  const dir = mkdtempSync(join(tmpdir(), `payout-console-e2e-${name}-`));
  const core = coreOnSandbox(app.sandbox, {
    dataDir: dir,
    vault: memoryStore(),
    consoleName: `${name}-laptop`,
    sandbox: { url: app.sandbox.url, ...app.merchant },
  });
  await prepare(core);
  const harness = await startHarness(core);
  const page = await app.page.context().newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
  await page.goto(harness.url);
  await harness.eventStreamOpen();
  return {
    core,
    harness,
    page,
    consoleErrors,
    async close() {
      await page.close();
      await harness.close();
      await core.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
