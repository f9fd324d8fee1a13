/**
 * One error type for everything that goes wrong talking to the service. It carries what support needs
 * (operation, HTTP status, code, request id) and a sentence a treasury user understands, and it is built
 * so that no secret, Authorization header or hash can end up in it: messages are composed here, and any
 * text that came from the wire is scrubbed of the profile's secrets before it is stored.
 */
import type { OperationName } from '../../shared/api/operations';
import { NON_ASCII, holdsSecretPiece, secretBlocks, secretForms, secretPieces } from '../secret-forms';

export type ApiErrorKind =
  /** The caller's input broke the contract; nothing was sent. */
  | 'invalid_input'
  /** The service answered with an error body (envelope, Variant B, payout error). */
  | 'api'
  /** Credentials or request hash rejected. */
  | 'auth'
  /** 429 that retries did not get past, or on an operation that is not retried. */
  | 'rate_limited'
  /** 5xx that retries did not get past. */
  | 'unavailable'
  /** Could not reach the service (refused, DNS, reset before sending); the request was not processed. */
  | 'network'
  | 'tls'
  | 'timeout'
  /** A money-moving or state-changing call may or may not have taken effect. */
  | 'outcome_unknown'
  /** The service answered something that is not the documented shape. */
  | 'invalid_response'
  /** Any other HTTP status without a readable error body. */
  | 'http'
  | 'cancelled';

/** The kinds that mean the request never reached the service: the machine is offline, as far as it knows. */
export const UNREACHABLE_KINDS: ReadonlySet<string> = new Set<ApiErrorKind>(['network', 'timeout', 'tls']);

/** Whether `e` says the service could not be reached (nothing was processed). */
export function isUnreachable(e: unknown): e is ApiError {
  return e instanceof ApiError && UNREACHABLE_KINDS.has(e.kind);
}

/**
 * What `work` answers, or null when the service refused or could not be reached: for a read after an action, whose
 * failure must not change what the action came to. Anything else (a bug, a failing cache) still throws.
 */
export async function unlessApiError<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

export interface ApiErrorInit {
  kind: ApiErrorKind;
  operation: OperationName;
  message: string;
  userMessage: string;
  httpStatus?: number;
  code?: number | string | null;
  requestId?: string;
  retryable?: boolean;
  retryAfterMs?: number;
  /** For `outcome_unknown`: what to check before trying again. */
  check?: string;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly operation: OperationName;
  readonly httpStatus: number | undefined;
  readonly code: number | string | null;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly userMessage: string;
  readonly check: string | undefined;

  constructor(init: ApiErrorInit) {
    super(`${init.operation}: ${init.message}`);
    this.kind = init.kind;
    this.operation = init.operation;
    this.httpStatus = init.httpStatus;
    this.code = init.code ?? null;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.userMessage = init.userMessage;
    this.check = init.check;
  }

  /** A plain object for IPC, logs and the CLI: no stack, nothing that is not listed here. */
  toJSON() {
    return {
      kind: this.kind,
      operation: this.operation,
      httpStatus: this.httpStatus,
      code: this.code,
      message: this.message,
      userMessage: this.userMessage,
      requestId: this.requestId,
      retryable: this.retryable,
      check: this.check,
    };
  }
}

/** Replaces every occurrence of each form in `text`; `forms` come from secretForms(), longest first. */
function scrub(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) out = out.split(form).join('[redacted]');
  return out;
}

/** How a request's secret may come back in an answer: every form (to scrub), its pieces, and one search for all. */
export interface SecretEcho {
  forms: readonly string[];
  pieces: readonly string[];
  mention: RegExp;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * One search for every form of the secret in an answer's text, for a block of it (any echoed piece holds one), and
 * for what could spell it once parsed or decoded that the raw text does not show: a `\u` escape, a `\/` escape
 * (PHP writes `/` so) when the secret has a `/`, a percent escape, a non-ASCII character when the secret has one
 * (NFD). A single pattern, made per request from that request's secret and dropped with it: the engine looks for all
 * of them in one pass over the text (a search per form cost a third of parsing a settlement page). A match only
 * means the answer is looked at closely (`scrubAnswer`).
 */
export function secretEcho(secret: string): SecretEcho {
  const forms = secretForms(secret).sort((a, b) => b.length - a.length);
  const hints = [
    '\\\\u',
    ...(secret.includes('/') ? ['\\\\/'] : []),
    '%[0-9A-Fa-f]{2}',
    ...(NON_ASCII.test(secret) ? ['[\\u0080-\\uffff]'] : []),
  ];
  const mention = new RegExp([...hints, ...[...forms, ...secretBlocks(secret)].map(literal)].join('|'));
  return { forms, pieces: secretPieces(secret), mention };
}

/**
 * A parsed answer with every string (keys too) scrubbed: each form of the secret replaced, and a string that still
 * holds a piece of it once decoded (a `\/`-escaped or percent-encoded echo, a prefix, half of a split, NFD) replaced
 * whole, since where the piece sits in the raw string is not known. For an answer whose text `mention` matched.
 */
export function scrubAnswer(json: unknown, echo: SecretEcho): unknown {
  const clean = (text: string) => {
    const scrubbed = scrub(text, echo.forms);
    return holdsSecretPiece(scrubbed, echo.pieces) ? '[redacted]' : scrubbed;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return clean(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), walk(v)]));
  };
  return walk(json);
}
