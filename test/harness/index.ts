/**
 * The browser test harness (never shipped): serves the built renderer on 127.0.0.1 and gives the page a
 * `window.api` that reaches the same router Electron's main process registers, over loopback HTTP.
 *
 *   GET  /index.html?token=T            the renderer's page, with the bridge script put before the app's own
 *   GET  /__harness/bridge.js?token=T   the bridge (bridge-entry.ts, bundled at start)
 *   POST /__harness/ipc                 {channel, input} with header x-harness-token: T → the router's IpcResult
 *   GET  /__harness/events?token=T      server-sent events from the core's event bus
 *
 * Each run has its own random token, and only requests naming this server's own host are answered, so neither
 * another local process nor a web page rebinding a host name to 127.0.0.1 can call the router. The page keeps
 * only the CSP of its meta tag (no header is added): the same policy the packaged app's `app://` page has as a header
 * and a meta tag (electron/app-protocol.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Core } from '../../electron/core';
import type { IpcSender } from '../../electron/ipc/router';
import { bridgeScript } from './bridge-build';
import { builtRenderer } from './renderer-build';
import { contentTypeOf, resolveInside } from './static-files';

const TOKEN_HEADER = 'x-harness-token';
const MAX_IPC_BODY = 1024 * 1024;
const APP_SCRIPT = /<script type="module"/;

export interface Harness {
  /** `http://127.0.0.1:PORT`: the app origin the router checks senders against. */
  origin: string;
  /** The page's address, token included. */
  url: string;
  token: string;
  /** Channels called through the bridge, in order, so a test can show that a form sent nothing. */
  calls: readonly string[];
  /**
   * Resolves when at least one page holds the event stream open; a page whose bridge failed never does, and no timer
   * says so (a busy machine is slow, not broken): the caller stops waiting on the page's own failure or its timeout.
   */
  eventStreamOpen(): Promise<void>;
  close(): Promise<void>;
}

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function injectBridge(html: string, token: string): string {
  if (!APP_SCRIPT.test(html)) throw new Error('The built index.html has no module script to put the bridge before');
  const tag = `<script src="/__harness/bridge.js?token=${encodeURIComponent(token)}"></script>\n    `;
  return html.replace(APP_SCRIPT, (script) => tag + script);
}

function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_IPC_BODY) {
        reject(new HttpRefusal(413, 'IPC body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new HttpRefusal(400, 'IPC body is not JSON'));
      }
    });
  });
}

export async function startHarness(core: Pick<Core, 'router' | 'events'>): Promise<Harness> {
  const [rendererDir, bridge] = await Promise.all([builtRenderer(), bridgeScript()]);
  const token = randomBytes(32).toString('base64url');
  const indexPath = resolveInside(rendererDir, '/index.html') ?? '';
  if (!indexPath) throw new Error(`${rendererDir} holds no index.html`);
  const indexHtml = injectBridge(readFileSync(indexPath, 'utf8'), token);

  const calls: string[] = [];
  const streams = new Set<ServerResponse>();
  const backlog: string[] = [];
  let streamWaiters: (() => void)[] = [];
  let origin = '';
  let host = '';

  const tokenMatches = (given: unknown): boolean => {
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const requireToken = (given: unknown) => {
    if (!tokenMatches(given)) throw new HttpRefusal(403, 'missing or wrong harness token');
  };
  const requireMethod = (req: IncomingMessage, ...methods: string[]) => {
    if (!methods.includes(req.method ?? '')) throw new HttpRefusal(405, `${req.method} not allowed`);
  };
  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
  };

  async function ipc(req: IncomingMessage, res: ServerResponse) {
    requireMethod(req, 'POST');
    requireToken(req.headers[TOKEN_HEADER]);
    if (req.headers.origin !== undefined && req.headers.origin !== origin) {
      throw new HttpRefusal(403, 'foreign origin');
    }
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) throw new HttpRefusal(415, 'JSON only');
    const body = await readJsonBody(req);
    if (typeof body !== 'object' || body === null || typeof (body as { channel?: unknown }).channel !== 'string') {
      throw new HttpRefusal(400, 'IPC body needs a string "channel"');
    }
    const { channel, input } = body as { channel: string; input?: unknown };
    calls.push(channel);
    // The page is the app's own main frame, as Electron would report it for the window's top-level document.
    const sender: IpcSender = { frameUrl: `${origin}/index.html`, isMainFrame: true };
    send(res, 200, 'application/json', JSON.stringify(await core.router.handle(channel, input, sender, origin)));
  }

  function eventStream(req: IncomingMessage, res: ServerResponse, url: URL) {
    requireMethod(req, 'GET');
    requireToken(url.searchParams.get('token'));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': open\n\n');
    for (const message of backlog.splice(0)) res.write(message);
    streams.add(res);
    req.on('close', () => streams.delete(res));
    for (const wake of streamWaiters) wake();
    streamWaiters = [];
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    if (req.headers.host !== host) throw new HttpRefusal(403, 'wrong Host header');
    const url = new URL(req.url ?? '/', origin);
    switch (url.pathname) {
      case '/__harness/ipc':
        return ipc(req, res);
      case '/__harness/events':
        return eventStream(req, res, url);
      case '/__harness/bridge.js':
        requireMethod(req, 'GET');
        requireToken(url.searchParams.get('token'));
        return send(res, 200, contentTypeOf('bridge.js'), bridge);
      case '/favicon.ico':
        // Chromium asks every http page for one; an Electron app:// window never does, so it is not a 404 to report.
        res.writeHead(204).end();
        return;
      case '/':
      case '/index.html':
        requireMethod(req, 'GET', 'HEAD');
        requireToken(url.searchParams.get('token'));
        return send(res, 200, contentTypeOf(indexPath), indexHtml);
    }
    requireMethod(req, 'GET', 'HEAD');
    const file = url.pathname.startsWith('/__harness/') ? null : resolveInside(rendererDir, url.pathname);
    // index.html has one route, the one that injects the bridge and checks the token.
    if (!file || file === indexPath) throw new HttpRefusal(404, 'not found');
    res.writeHead(200, { 'content-type': contentTypeOf(file) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }

  const server = createServer((req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-content-type-options', 'nosniff');
    route(req, res).catch((error: unknown) => {
      const status = error instanceof HttpRefusal ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) send(res, status, 'text/plain; charset=utf-8', message);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;

  const unsubscribe = core.events.subscribe((event, payload) => {
    const message = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    // Main may emit while the page's first reads run, before its stream is open (a cache moved aside by the status
    // bar's first read): kept for the first stream, as Electron delivers what main sends to a window that loaded.
    if (streams.size === 0) backlog.push(message);
    for (const stream of streams) stream.write(message);
  });

  return {
    origin,
    url: `${origin}/index.html?token=${encodeURIComponent(token)}`,
    token,
    calls,
    eventStreamOpen() {
      if (streams.size > 0) return Promise.resolve();
      return new Promise<void>((resolve) => streamWaiters.push(resolve));
    },
    async close() {
      unsubscribe();
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
