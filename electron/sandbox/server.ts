/**
 * The sandbox: the whole interface as a local, stateful HTTP service on 127.0.0.1. The same code runs
 * embedded in the app (its default profile), from `npm run sandbox`, and in tests.
 *   base_url = url             merchant API under /api/...
 *   ai_url   = url + "/ai"     classification at /ai/v1/classify/
 *   /__sandbox/...             test hooks (hooks.ts)
 * Data is seeded from `seed` and anchored to "today" in IST by `now`, so equal seeds on the same day give
 * identical data.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addDays, epochMsToIstDate } from '../../shared/time';
import { MAX_PER_DAY, SettlementSource } from './data/settlements';
import { handleInterface } from './dispatch';
import { FaultQueue } from './faults';
import { fail, invalid } from './handlers/reply';
import { HOOK_PREFIX, handleHook } from './hooks';
import { parseJson, readBody, sendJson } from './http-io';
import { hash32 } from './random';
import { seedState } from './seed';
import type { Fixtures } from './state';

export type { Fixtures } from './state';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  seed?: number;
  key?: string;
  secret?: string;
  settlementsPerDay?: number;
  /** The clock: "today" for settlements and seeded dates, and the time stamped on refunds and charges. */
  now?: () => number;
  /**
   * Serve the /__sandbox/ test hooks (default true). The app's embedded sandbox turns them off: any local
   * process could otherwise arm faults in it, and the app itself has no use for them.
   */
  hooks?: boolean;
  /**
   * How long a connection may take to send its request headers, and the whole request (defaults 10 s and 30 s): a
   * client that connects and then sends nothing, or half a request, is cut off instead of holding a socket forever.
   */
  timeouts?: { headersMs?: number; requestMs?: number };
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT`, the base_url; the ai_url is this plus `/ai`. */
  url: string;
  close(): Promise<void>;
  fixtures(): Fixtures;
}

export const SANDBOX_DEFAULTS = { key: 'test_key', secret: 'test_secret', seed: 1, settlementsPerDay: 300 } as const;
export const SETTLEMENT_DAYS = 90;
const HOOK_BODY_CAP = 64 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? SANDBOX_DEFAULTS.seed;
  const key = options.key ?? SANDBOX_DEFAULTS.key;
  const secret = options.secret ?? SANDBOX_DEFAULTS.secret;
  const perDay = options.settlementsPerDay ?? SANDBOX_DEFAULTS.settlementsPerDay;
  const now = options.now ?? Date.now;
  if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be a whole number');
  if (!key || !secret) throw new RangeError('key and secret must not be empty');
  if (!Number.isSafeInteger(perDay) || perDay < 0 || perDay > MAX_PER_DAY) {
    throw new RangeError(`settlementsPerDay must be a whole number from 0 to ${MAX_PER_DAY}`);
  }

  const state = seedState(seed, epochMsToIstDate(now()));
  const settlements = new SettlementSource(seed, perDay, state.gateways);
  const faults = new FaultQueue();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;

  // Built once per IST day rather than on every settlement fetch; callers only read it.
  let datesDay = '';
  let dates: readonly string[] = [];
  const settlementDates = (): readonly string[] => {
    const today = epochMsToIstDate(now());
    if (today !== datesDay) {
      dates = Array.from({ length: SETTLEMENT_DAYS }, (_, i) => addDays(today, i - (SETTLEMENT_DAYS - 1)));
      datesDay = today;
    }
    return dates;
  };
  // Fixtures go to callers that may keep or change them: a copy, never the cached list.
  const fixtures = () => state.fixtures([...settlementDates()]);
  const deps = {
    state,
    settlements,
    faults,
    creds: { key, secret },
    now,
    settlementDates,
    nextRequestId: () => {
      requests += 1;
      return `req_${hash32(seed, requests).toString(16).padStart(8, '0')}${requests.toString(16).padStart(6, '0')}`;
    },
    // Tracked so that close() can cancel delays armed by a fault.
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, ms);
        timers.add(t);
      }),
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const pathname = new URL(req.url ?? '/', 'http://sandbox').pathname;
    if (pathname.startsWith(HOOK_PREFIX) && options.hooks !== false) {
      const body = await readBody(req, HOOK_BODY_CAP);
      const json = body.tooLarge ? { ok: false as const, message: 'body too large' } : parseJson(body.text);
      const reply = json.ok
        ? handleHook(req.method ?? 'GET', pathname, json.value, { faults, settlements, fixtures, settlementDates })
        : invalid(`(body): ${json.message}`);
      return sendJson(res, reply.http, reply.body);
    }
    return handleInterface(req, res, pathname, deps);
  };

  const headersMs = options.timeouts?.headersMs ?? 10_000;
  const requestMs = Math.max(options.timeouts?.requestMs ?? 30_000, headersMs);
  const server = createServer(
    {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      keepAliveTimeout: 5_000,
      // How often Node checks those limits: often enough that a stalled socket goes within a fraction of the limit.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersMs / 4)),
    },
    (req, res) => {
      onRequest(req, res).catch((e: unknown) => {
        // A bug in the sandbox must still answer, or a test would wait for its timeout.
        if (!res.headersSent && !res.destroyed) {
          const reply = fail(500, `sandbox error: ${String(e)}`, 500);
          sendJson(res, reply.http, reply.body);
        }
      });
    },
  );

  // Node's header limit starts with the first byte; a client that connects and sends nothing is cut off here. The
  // limit is lifted once a request arrives, so a slow answer (a `delay` fault) is never cut.
  server.on('connection', (socket) => socket.setTimeout(headersMs, () => socket.destroy()));
  server.on('request', (req) => req.socket.setTimeout(0));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    fixtures,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      })),
  };
}
