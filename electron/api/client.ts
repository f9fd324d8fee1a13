/**
 * The one request path for every operation (Stripe's RequestSender is the model): validate the caller's
 * input against the shared contract, add credentials, send, retry only what is safe to repeat, read the
 * answer into the domain model or into an `ApiError`.
 *
 * The client never keeps the secret: `secret()` is asked for it at each request (the vault answers), and
 * it lives only in local variables of that request.
 */
import { z } from 'zod';
import { ERROR_CODES, readErrorBody, readLooseErrorMessage } from '../../shared/api/errors';
import {
  OPERATIONS,
  describeIssues,
  resolvePath,
  type OperationInput,
  type OperationName,
  type OperationOutput,
  type OperationSpec,
} from '../../shared/api/operations';
import { jsonProblem } from '../../shared/json-value';
import { ApiError, scrubAnswer, secretEcho, type SecretEcho } from './errors';
import { DEFAULT_RETRY, backoffDelay, parseRetryAfter, sleep as realSleep, type RetryPolicy } from './retry';
import type { HashScheme } from '../../shared/profiles';
import { signBody } from './signer';
import { TransportError, createNodeTransport, type HttpResponse, type Transport } from './transport';
import { explain } from './user-messages';
import { checkSettlementPage } from './settlement-page-check';

/**
 * Answers checked by plain code before their schema, for the operations whose volume makes the schema the cost
 * (a sync's millions of settlement records). Each answers exactly what the schema would, or undefined, and the
 * schema then decides and names what is wrong. An answer one of them takes nests no deeper than a few levels (each
 * checks every value it passes), which is what lets the client skip its depth walk for it.
 */
const FAST_RESPONSES: Partial<Record<OperationName, (json: unknown) => unknown>> = {
  'settlement.fetch': checkSettlementPage,
};

export interface ApiProfile {
  baseUrl: string;
  aiUrl: string;
  key: string;
  hashScheme: HashScheme;
}

export interface RequestEvent {
  operation: OperationName;
  attempt: number;
  outcome: 'ok' | 'retry' | 'error';
  httpStatus?: number;
  ms: number;
  requestId?: string;
  errorKind?: string;
  /** For errors: the sentence the user would read. */
  userMessage?: string;
}

export interface ApiClientOptions {
  profile: ApiProfile;
  /** Asked for the merchant secret at each request; the client does not keep it. */
  secret: () => string | Promise<string>;
  transport?: Transport;
  timeouts?: { connectMs?: number; totalMs?: number };
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** One event per attempt, for logs and the connectivity indicator. Carries no secret by construction. */
  onEvent?: (event: RequestEvent) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ApiClient {
  call<N extends OperationName>(name: N, input: OperationInput<N>, options?: CallOptions): Promise<OperationOutput<N>>;
  /** Closes pooled connections of the built-in transport. */
  close(): void;
}

export const DEFAULT_TIMEOUTS = { connectMs: 5_000, totalMs: 30_000 };

type Outcome = { done: true; value: unknown } | { done: false; error: ApiError; retryAfterMs?: number };

export function createApiClient(options: ApiClientOptions): ApiClient {
  const own = options.transport ? undefined : createNodeTransport();
  const transport = options.transport ?? own!;
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const wait = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const { profile } = options;

  async function call<N extends OperationName>(name: N, input: OperationInput<N>, callOptions: CallOptions = {}) {
    const spec: OperationSpec = OPERATIONS[name];
    const parsed = spec.request.safeParse(input);
    if (!parsed.success) {
      const detail = describeIssues(parsed.error);
      throw new ApiError({
        kind: 'invalid_input',
        operation: name,
        message: `invalid request: ${detail}`,
        userMessage: `Check the form: ${detail}.`,
      });
    }
    const { path, body } = resolvePath(spec, parsed.data);
    const secret = await options.secret();
    const basic = Buffer.from(`${profile.key}:${secret}`, 'utf8').toString('base64');
    // Every form the secret can take in an echo (escaped, URL-encoded, inside base64, a piece of it): scrubbed from
    // all wire text.
    const secrets = secretEcho(secret);
    if (spec.auth === 'body' || spec.credentials !== 'none') body.key = profile.key;
    if (spec.auth === 'body' || spec.credentials === 'key+hash') body.hash = signBody(body, secret, profile.hashScheme);

    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': options.userAgent ?? 'PayoutConsole',
    };
    if (spec.auth === 'basic') headers.authorization = `Basic ${basic}`;
    const url = joinUrl(spec.host === 'ai' ? profile.aiUrl : profile.baseUrl, path);
    const payload = JSON.stringify(body);

    for (let attempt = 1; ; attempt++) {
      const started = now();
      const outcome = await attemptOnce(
        name,
        spec,
        { url, headers, body: payload, signal: callOptions.signal },
        secrets,
      );
      const ms = now() - started;
      if (outcome.done) {
        options.onEvent?.({
          operation: name,
          attempt,
          outcome: 'ok',
          ms,
          requestId: wireText((outcome.value as { request_id?: unknown }).request_id, 100),
        });
        return outcome.value as OperationOutput<N>;
      }
      const { error } = outcome;
      const retryAfter = outcome.retryAfterMs;
      const canRetry =
        spec.safe &&
        error.retryable &&
        attempt < policy.maxAttempts &&
        (retryAfter === undefined || retryAfter <= policy.maxRetryAfterMs);
      options.onEvent?.({
        operation: name,
        attempt,
        outcome: canRetry ? 'retry' : 'error',
        httpStatus: error.httpStatus,
        ms,
        requestId: error.requestId,
        errorKind: error.kind,
        userMessage: error.userMessage,
      });
      if (!canRetry) throw error;
      try {
        await wait(retryAfter ?? backoffDelay(attempt, policy, random), callOptions.signal);
      } catch {
        throw cancelled(name);
      }
    }
  }

  async function attemptOnce(
    name: OperationName,
    spec: OperationSpec,
    req: { url: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
    secrets: SecretEcho,
  ): Promise<Outcome> {
    let res: HttpResponse;
    try {
      res = await transport({ ...req, connectTimeoutMs: timeouts.connectMs, totalTimeoutMs: timeouts.totalMs });
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      return { done: false, error: fromTransport(name, spec, e) };
    }
    return readResponse(name, spec, res, secrets, now);
  }

  return {
    call,
    close: () => own?.destroy(),
  };
}

/** What an answer comes to: its value, or the error it is and whether (and when) it may be asked again. */
function readResponse(
  name: OperationName,
  spec: OperationSpec,
  res: HttpResponse,
  secrets: SecretEcho,
  now: () => number,
): Outcome {
  const unreadable = (why: string) => unreadableAnswer(name, spec, res.status, why);
  let parsed: unknown;
  try {
    parsed = res.body.trim() === '' ? {} : JSON.parse(res.body);
  } catch {
    return unreadable('is not JSON');
  }
  const mentionsSecret = secrets.mention.test(res.body);
  // A success the operation's fast path takes is proven flat by it; every other answer is walked for its depth
  // before anything recursive (the scrub, the schema, the cache) reads it. Run on the text as it came: a body that
  // mentions the secret is scrubbed first and left to the schema.
  const fast = res.status < 400 && !mentionsSecret ? FAST_RESPONSES[name]?.(parsed) : undefined;
  const unbounded = fast === undefined ? jsonProblem(parsed) : null;
  if (unbounded) return unreadable(unbounded);
  const json = mentionsSecret ? scrubAnswer(parsed, secrets) : parsed;

  const errorBody = readErrorBody(json);
  const requestId = errorBody?.requestId === undefined ? undefined : wireText(errorBody.requestId, 100);
  const wireMessage = wireText(errorBody?.message ?? readLooseErrorMessage(json) ?? '', 500);

  const refused = refusalOf(name, spec, res, errorBody, requestId, wireMessage, now);
  if (refused) return refused;

  const isFailure = isStatusFalse(json) || res.status >= 400;
  if (!isFailure) {
    if (fast !== undefined) return { done: true, value: fast };
    const parsed = (spec.response as z.ZodType).safeParse(json);
    if (parsed.success) return { done: true, value: parsed.data };
    // Payout fetch answers `error_code` / `error_message` with `status: true` and no payout.
    if (!errorBody) {
      const detail = wireText(describeIssues(parsed.error), 500);
      // A success we cannot read on a money-moving call may still have moved the money: unknown, not refused.
      if (!spec.safe)
        return fail(outcomeUnknown(name, spec, `the answer does not have the documented shape: ${detail}`));
      return fail(
        new ApiError({
          kind: 'invalid_response',
          operation: name,
          httpStatus: res.status,
          message: `unexpected response: ${detail}`,
          userMessage: explain('invalid_response'),
        }),
      );
    }
  }
  if (errorBody || wireMessage) {
    return fail(
      new ApiError({
        kind: 'api',
        operation: name,
        httpStatus: res.status,
        code: errorBody?.code ?? res.status,
        requestId,
        message: wireMessage,
        userMessage: wireMessage ? `The service refused: ${wireMessage}.` : explain('api'),
      }),
    );
  }
  return fail(
    new ApiError({
      kind: 'http',
      operation: name,
      httpStatus: res.status,
      message: `HTTP ${res.status}`,
      userMessage: explain('http'),
    }),
  );
}

/** The answers that say "not now" or "not you" before anything else: rate limited, unavailable, or refused auth. */
function refusalOf(
  name: OperationName,
  spec: OperationSpec,
  res: HttpResponse,
  errorBody: ReturnType<typeof readErrorBody>,
  requestId: string | undefined,
  wireMessage: string,
  now: () => number,
): Outcome | null {
  if (res.status === 429) {
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now());
    return fail(
      new ApiError({
        kind: 'rate_limited',
        operation: name,
        httpStatus: 429,
        code: errorBody?.code,
        requestId,
        message: wireMessage || 'too many requests',
        userMessage: explain('rate_limited'),
        retryable: true,
        retryAfterMs,
      }),
      retryAfterMs,
    );
  }
  if (res.status >= 500) return fail(unavailable(name, spec, res.status, wireMessage, requestId));
  const hashRefused = errorBody?.code === ERROR_CODES.hashNotVerified && /hash/i.test(errorBody.message);
  if (res.status === 401 || res.status === 403 || hashRefused) {
    return fail(
      new ApiError({
        kind: 'auth',
        operation: name,
        httpStatus: res.status,
        code: errorBody?.code ?? res.status,
        requestId,
        message: wireMessage || `HTTP ${res.status}`,
        userMessage: explain(res.status === 401 || res.status === 403 ? 'auth' : 'hash'),
      }),
    );
  }
  return null;
}

/** A body that cannot be read: a safe call can be asked again; a money-moving one that succeeded probably happened. */
function unreadableAnswer(name: OperationName, spec: OperationSpec, status: number, why: string): Outcome {
  if (status >= 500) return fail(unavailable(name, spec, status));
  if (!spec.safe && status < 300) return fail(outcomeUnknown(name, spec, `the answer ${why}`));
  return fail(
    new ApiError({
      kind: 'invalid_response',
      operation: name,
      httpStatus: status,
      message: `HTTP ${status} body ${why}`,
      userMessage: explain('invalid_response'),
      retryable: spec.safe,
    }),
  );
}

const fail = (error: ApiError, retryAfterMs?: number): Outcome => ({ done: false, error, retryAfterMs });

function fromTransport(name: OperationName, spec: OperationSpec, e: TransportError): ApiError {
  if (e.kind === 'aborted') return cancelled(name);
  if (!spec.safe && e.maybeSent) return outcomeUnknown(name, spec, e.message);
  const kind = e.kind === 'tls' ? 'tls' : e.kind === 'timeout' || e.kind === 'connect_timeout' ? 'timeout' : 'network';
  return new ApiError({
    kind,
    operation: name,
    message: e.message,
    userMessage: explain(kind, e.kind),
    // A request that never left is safe to send again whatever the operation; the loop retries only safe ones.
    retryable: e.kind !== 'tls' && e.kind !== 'dns' && e.kind !== 'too_large',
  });
}

function outcomeUnknown(name: OperationName, spec: OperationSpec, why: string): ApiError {
  return new ApiError({
    kind: 'outcome_unknown',
    operation: name,
    message: `outcome unknown (${why})`,
    userMessage:
      `${spec.title}: the outcome is unknown — check its status before trying again. ${spec.afterUnknownOutcome ?? ''}`.trim(),
    check: spec.afterUnknownOutcome,
  });
}

function unavailable(
  name: OperationName,
  spec: OperationSpec,
  status: number,
  message?: string,
  requestId?: string,
): ApiError {
  // 503 means "not processed"; any other 5xx on a money-moving call may have happened before the failure.
  if (!spec.safe && status !== 503) return outcomeUnknown(name, spec, `HTTP ${status}`);
  return new ApiError({
    kind: 'unavailable',
    operation: name,
    httpStatus: status,
    requestId,
    message: message || `HTTP ${status}`,
    userMessage: explain('unavailable'),
    retryable: true,
  });
}

function cancelled(name: OperationName): ApiError {
  return new ApiError({ kind: 'cancelled', operation: name, message: 'cancelled', userMessage: explain('cancelled') });
}

function isStatusFalse(json: unknown): boolean {
  return (
    typeof json === 'object' &&
    json !== null &&
    ((json as { status?: unknown }).status === false || (json as { status?: unknown }).status === 'false')
  );
}

/**
 * Text from the wire as it may be shown or logged (already scrubbed of the secret with the rest of the answer): one
 * line without control or bidi-formatting characters, cut to `max` characters. Anything but a string is dropped.
 */
function wireText(value: string, max: number): string;
function wireText(value: unknown, max: number): string | undefined;
function wireText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
