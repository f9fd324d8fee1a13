/**
 * A raw caller for tests of the sandbox itself: plain fetch, the registry's paths and auth kinds, and
 * `signBody` for hashes. It is deliberately not the app's API client, so the sandbox's tests check the
 * wire and not the client's normalization; every knob (credentials, hash, headers, raw body) can be bent
 * to provoke the error paths.
 */
import { OPERATIONS, resolvePath, type OperationName } from '../../shared/api/operations';
import { signBody } from '../../electron/api/signer';
import { SANDBOX_DEFAULTS } from '../../electron/sandbox/server';

export interface RawCallOptions {
  key?: string;
  secret?: string;
  /** Replaces the Authorization header; null sends none. */
  authorization?: string | null;
  /** Replaces the computed body hash; null leaves `hash` out. */
  hash?: string | null;
  /** Leaves `key` out of the body. */
  omitKey?: boolean;
  headers?: Record<string, string>;
  /** Sent as is instead of the JSON of the prepared body. */
  rawBody?: string;
  method?: string;
}

export interface RawResult {
  http: number;
  body: unknown;
  text: string;
  headers: Headers;
}

export function basicHeader(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`, 'utf8').toString('base64')}`;
}

export function operationUrl(
  baseUrl: string,
  name: OperationName,
  input: Record<string, unknown> = {},
): { url: string; body: Record<string, unknown> } {
  const spec = OPERATIONS[name];
  const { path, body } = resolvePath(spec, input);
  return { url: `${baseUrl}${spec.host === 'ai' ? '/ai' : ''}${path}`, body };
}

export async function rawCall(
  baseUrl: string,
  name: OperationName,
  input: Record<string, unknown> = {},
  opts: RawCallOptions = {},
): Promise<RawResult> {
  const key = opts.key ?? SANDBOX_DEFAULTS.key;
  const secret = opts.secret ?? SANDBOX_DEFAULTS.secret;
  const spec = OPERATIONS[name];
  const { url, body: fields } = operationUrl(baseUrl, name, input);
  let body: Record<string, unknown> = fields;
  if (spec.credentials !== 'none' && !opts.omitKey) body = { key, ...body };
  if (spec.credentials === 'key+hash') {
    const hash = opts.hash === undefined ? signBody(body, secret) : opts.hash;
    if (hash !== null) body = { ...body, hash };
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  const authorization =
    opts.authorization === undefined ? (spec.auth === 'basic' ? basicHeader(key, secret) : null) : opts.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const res = await fetch(url, {
    method: opts.method ?? 'POST',
    headers,
    body: opts.method === 'GET' ? undefined : (opts.rawBody ?? JSON.stringify(body)),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { http: res.status, body: parsed, text, headers: res.headers };
}

/** JSON to or from a test hook under /__sandbox. */
export async function hook<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ http: number; body: T }> {
  const res = await fetch(`${baseUrl}/__sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { http: res.status, body: (await res.json()) as T };
}

/** An order's refund attempts as the sandbox holds them: what was really sent, never the console's word for it. */
export async function refundAttempts(
  baseUrl: string,
  orderId: string,
  opts: RawCallOptions = {},
): Promise<{ refund_id: string; amount: number }[]> {
  const answer = await rawCall(baseUrl, 'order.refundAttempts', { order_id: orderId }, opts);
  return (answer.body as { data: { refund_id: string; amount: number }[] }).data;
}
