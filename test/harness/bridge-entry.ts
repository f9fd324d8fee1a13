/**
 * Runs in the page, before the app's module script: builds `window.api` with the app's own `createIpcApi`,
 * carrying calls over loopback HTTP to the harness and events back over server-sent events. It plays the part
 * of electron/preload.ts, so what the page gets is the preload's object in every respect but the transport.
 */
import { createIpcApi } from '../../shared/ipc/client';

function ownToken(): string {
  const script = document.currentScript;
  const token = script instanceof HTMLScriptElement ? new URL(script.src).searchParams.get('token') : null;
  if (!token) throw new Error('The harness bridge was loaded without its token');
  return token;
}

const token = ownToken();
// Opened at once, like the preload's IPC channel, so no event is missed between page load and a subscription.
const events = new EventSource(`/__harness/events?token=${encodeURIComponent(token)}`);
// Electron's channel is there before the page's first call; this one connects on its own socket. A call that went
// out first could make main emit an event (a cache moved aside on first read) to a stream not yet open, and the
// page would never hear of it. So calls wait for the stream, as they never need to under Electron.
const streamOpen = new Promise<void>((resolve) => events.addEventListener('open', () => resolve(), { once: true }));

const api = createIpcApi(
  async (channel, input) => {
    await streamOpen;
    const response = await fetch('/__harness/ipc', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-harness-token': token },
      body: JSON.stringify({ channel, input }),
    });
    if (!response.ok) throw new Error(`The harness refused ${channel}: HTTP ${response.status}`);
    return response.json();
  },
  (event, listener) => {
    const forward = (message: MessageEvent<string>) => listener(JSON.parse(message.data));
    events.addEventListener(event, forward);
    return () => events.removeEventListener(event, forward);
  },
);

// contextBridge.exposeInMainWorld gives a read-only, non-configurable property; so does this.
Object.defineProperty(window, 'api', { value: api, enumerable: true });
