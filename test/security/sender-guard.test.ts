/**
 * The sender guard on every channel: a call whose frame is missing, a subframe, or anything but the app's own page
 * comes back FORBIDDEN_SENDER and its handler never runs, whatever the (valid) input. Checked twice: with spy
 * handlers behind `createIpcRouter`, and through `registerIpc` on the real core (the wiring main.ts uses, with
 * Electron's senderFrame shape), where a handler that ran would leave a vault call, a request, an event or a byte.
 * Both for a packaged build (app://console) and for the dev server (http://localhost:5173).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core';
import { registerIpc, type IpcMainLike, type SenderFrameLike } from '../../electron/ipc/register';
import { createIpcRouter, type IpcHandlers } from '../../electron/ipc/router';
import { createLogger, createRedactor } from '../../electron/log';
import { IPC_CHANNELS, type IpcChannel } from '../../shared/ipc/channels';
import { ipcContract } from '../../shared/ipc/contract';
import { memoryStore } from '../support/memory-store';
import { APP_ORIGIN, recordingStore, recordingTransport, stateOf, validInputs } from './support';
import { testClock } from '../support/clock';

const DEV_ORIGIN = 'http://localhost:5173';
const APP_PAGE = `${APP_ORIGIN}/index.html`;

/** A frame as Electron describes it: its URL and its parent (null for a main frame); `null` for no frame at all. */
type Frame = SenderFrameLike | null;
const main = (url: string): Frame => ({ url, parent: null });
const sub = (url: string): Frame => ({ url, parent: { url: APP_PAGE } });

const HOSTILE_IN_BUILD: [string, Frame][] = [
  ['a missing frame (destroyed or navigated away)', null],
  ["a subframe of the app's own page", sub(APP_PAGE)],
  ['a subframe from a foreign origin', sub('https://evil.example/frame.html')],
  ['a foreign origin', main('https://evil.example/')],
  ['a foreign origin whose path mimics the app', main(`https://evil.example${new URL(APP_PAGE).pathname}`)],
  ['a look-alike host (suffix)', main(`${APP_ORIGIN}-evil/index.html`)],
  ['a look-alike host (subdomain)', main('app://console.evil.example/index.html')],
  ['the app host on a port', main('app://console:1/index.html')],
  ['another custom scheme', main('evil://console/index.html')],
  [
    'a file:// page, as builds before app:// loaded',
    main('file:///opt/Payout%20Console/resources/app.asar/out/renderer/index.html'),
  ],
  ['a file on another host (UNC)', main(`file://evil.example${new URL(APP_PAGE).pathname}`)],
  ['a data: page', main('data:text/html,<script>alert(1)</script>')],
  ['a blob: URL', main('blob:https://evil.example/0b1c')],
  ['javascript:', main('javascript:alert(1)')],
  ['about:blank', main('about:blank')],
  ['the dev server in a build', main('http://localhost:5173/')],
  ['the dev server by IP in a build', main('http://127.0.0.1:5173/index.html')],
  ['a URL with a tab that the parser would drop', main(APP_PAGE.replace('index', 'ind\tex'))],
  ['an empty URL', main('')],
];

const HOSTILE_IN_DEV: [string, Frame][] = [
  ['a missing frame', null],
  ['a subframe of the dev page', { url: `${DEV_ORIGIN}/`, parent: { url: `${DEV_ORIGIN}/` } }],
  ['another port', main('http://localhost:5174/')],
  ['https instead of http', main('https://localhost:5173/')],
  ['a look-alike host', main('http://localhost.evil.example:5173/')],
  ['credentials in the URL', main('http://user:pw@localhost:5173/')],
  ['a foreign origin', main('https://evil.example/')],
  ['the packaged build in dev', main(APP_PAGE)],
  ['a data: page', main('data:text/html,hi')],
];

function fakeIpcMain() {
  const listeners = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void listeners.set(channel, listener),
    removeHandler: (channel) => void listeners.delete(channel),
  };
  return { ipcMain, listeners };
}

/** Handlers that only record that they ran. */
function spyRouter() {
  const ran: IpcChannel[] = [];
  const handlers = Object.fromEntries(
    IPC_CHANNELS.map((c) => [
      c,
      () => {
        ran.push(c);
        throw new Error(`${c} ran`);
      },
    ]),
  ) as unknown as IpcHandlers;
  return { router: createIpcRouter(handlers), ran };
}

let dataDir: string;
let core: Core;
let profileId: string;
const vault = recordingStore(memoryStore());
const network = recordingTransport();
const events: unknown[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pc-sender-'));
  const redactor = createRedactor();
  core = createCore({
    now: testClock(),
    appVersion: '0.0.0-sender',
    dataDir,
    vault: vault.store,
    sandbox: { url: 'http://127.0.0.1:9', key: 'test_key', secret: 'sender_sandbox_secret' },
    log: createLogger('main', () => {}, redactor),
    redactor,
    transport: network.transport,
  });
  core.events.subscribe((event, payload) => events.push({ event, payload }));
  // A profile with a secret, so every valid input below would change something if its handler ran.
  profileId = core.profiles.create(validInputs('x')['profiles.create']).id;
  await core.credentials.set(profileId, 'sk_sender_guard_secret');
  vault.calls.length = 0;
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each([
  ['a packaged build', APP_ORIGIN, HOSTILE_IN_BUILD],
  ['the dev server', DEV_ORIGIN, HOSTILE_IN_DEV],
] as const)('sender guard in %s', (_mode, appOrigin, hostile) => {
  it.each(IPC_CHANNELS.map((c) => [c]))(`%s refuses ${hostile.length} foreign or missing senders`, async (channel) => {
    const input = validInputs(profileId)[channel];
    expect(ipcContract[channel].input.safeParse(input).success).toBe(true);

    // Spy handlers: the router itself refuses before any handler runs.
    const spy = spyRouter();
    const spyIpc = fakeIpcMain();
    registerIpc(spyIpc.ipcMain, spy.router, appOrigin);
    // The real core through the same registration main.ts does.
    const real = fakeIpcMain();
    registerIpc(real.ipcMain, core.router, appOrigin);
    const before = await stateOf(core, vault.store, dataDir);
    vault.calls.length = 0;

    for (const [name, frame] of hostile) {
      for (const { listeners } of [spyIpc, real]) {
        const reply = await listeners.get(channel)!({ senderFrame: frame }, input);
        expect(reply, name).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
        expect(JSON.stringify(reply), name).not.toContain('sk_sender_guard_secret');
      }
    }
    expect(spy.ran).toEqual([]);
    expect(vault.calls).toEqual([]);
    expect(network.requests).toEqual([]);
    expect(events).toEqual([]);
    expect(await stateOf(core, vault.store, dataDir)).toBe(before);

    // Control: the same input from the app's own main frame does reach the handler, so the refusals above mean
    // something.
    const ownPage = appOrigin === DEV_ORIGIN ? `${DEV_ORIGIN}/` : APP_PAGE;
    await spyIpc.listeners.get(channel)!({ senderFrame: main(ownPage) }, input);
    expect(spy.ran).toEqual([channel]);
  });
});

it('counts: every channel against every hostile sender, in both modes', () => {
  const calls = IPC_CHANNELS.length * (HOSTILE_IN_BUILD.length + HOSTILE_IN_DEV.length);
  console.log(
    `sender guard: ${IPC_CHANNELS.length} channels x ${HOSTILE_IN_BUILD.length} hostile senders (build) + ` +
      `${HOSTILE_IN_DEV.length} (dev) = ${calls} refused calls, each through spy handlers and the real core`,
  );
  expect(calls).toBeGreaterThan(0);
});
