/**
 * HTTP over node:http / node:https, with what `fetch` does not give us: a connect timeout separate from
 * the total one, and whether the request could have reached the server when it failed. That last fact
 * decides, for a payout or a refund, between "not sent, safe to try again" and "outcome unknown".
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

export type TransportFailure =
  'refused' | 'dns' | 'connect_timeout' | 'timeout' | 'reset' | 'tls' | 'aborted' | 'too_large' | 'other';

export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    readonly kind: TransportFailure,
    /** False only when the request certainly never reached the server. */
    readonly maybeSent: boolean,
    detail: string,
  ) {
    super(detail);
  }
}

/** A response larger than this is refused: the largest settlement page is well under 2 MiB. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

const TLS_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH|ERR_TLS_CERT)/;

function classify(err: NodeJS.ErrnoException, connected: boolean): TransportError {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return new TransportError('refused', false, 'connection refused');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new TransportError('dns', false, 'host name not found');
  if (TLS_CODES.test(code)) return new TransportError('tls', false, `TLS error (${code})`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || err.message === 'socket hang up') {
    return new TransportError('reset', connected, 'connection reset');
  }
  return new TransportError('other', connected, code || err.message);
}

/** Connections per origin in a transport's keep-alive pool. */
const MAX_SOCKETS = 8;

/** A transport with its own keep-alive pool; `destroy()` closes the pool's sockets. */
export function createNodeTransport(): Transport & { destroy(): void } {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
  };

  const send: Transport = (req) =>
    new Promise<HttpResponse>((resolve, reject) => {
      const url = new URL(req.url);
      const agent = agents[url.protocol as keyof typeof agents];
      if (!agent) return reject(new TransportError('other', false, `unsupported protocol ${url.protocol}`));
      const lib = url.protocol === 'https:' ? https : http;
      const payload = Buffer.from(req.body, 'utf8');
      let connected = false;
      let settled = false;
      const timers: NodeJS.Timeout[] = [];

      const fail = (error: TransportError) => {
        if (settled) return;
        settled = true;
        timers.forEach(clearTimeout);
        req.signal?.removeEventListener('abort', onAbort);
        r.destroy();
        reject(error);
      };
      const onAbort = () => fail(new TransportError('aborted', connected, 'cancelled'));

      const r = lib.request(url, {
        method: 'POST',
        agent,
        headers: { ...req.headers, 'content-length': String(payload.length) },
      });

      timers.push(
        setTimeout(
          () => fail(new TransportError('timeout', connected, `no complete answer within ${req.totalTimeoutMs} ms`)),
          req.totalTimeoutMs,
        ),
      );
      r.on('socket', (socket) => {
        // A reused keep-alive socket is already connected; only a fresh one can time out connecting.
        if (!socket.connecting) {
          connected = true;
          return;
        }
        const t = setTimeout(
          () => fail(new TransportError('connect_timeout', false, `no connection within ${req.connectTimeoutMs} ms`)),
          req.connectTimeoutMs,
        );
        timers.push(t);
        socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
          connected = true;
          clearTimeout(t);
        });
      });
      r.on('error', (err) => fail(classify(err, connected)));
      r.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES)
            fail(new TransportError('too_large', true, `response larger than ${MAX_RESPONSE_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('error', (err) => fail(classify(err, true)));
        res.on('aborted', () => fail(new TransportError('reset', true, 'response cut off')));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          timers.forEach(clearTimeout);
          req.signal?.removeEventListener('abort', onAbort);
          const headers: Record<string, string | undefined> = {};
          for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      });

      if (req.signal?.aborted) return onAbort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      r.end(payload);
    });

  return Object.assign(send, {
    destroy() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}
