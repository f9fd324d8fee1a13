/**
 * What a handler answers, and the documented body shapes for success and error. HTTP status choices
 * (the document shows only 200 and 400):
 *   - validation failures, malformed JSON                    HTTP 400, envelope code 400
 *   - business errors (hash 204, order 202, already cancelled
 *     1035, refund 204, not found 404, ...)                  HTTP 200, envelope with that code
 * so a client can tell "fix the request" from "the service said no" by the HTTP status alone.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { ERROR_CODES } from '../../../shared/api/errors';
import type { OPERATIONS, OperationName } from '../../../shared/api/operations';
import type { SettlementSource } from '../data/settlements';
import type { SandboxState } from '../state';

export interface Reply {
  http: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Ctx {
  readonly state: SandboxState;
  readonly settlements: SettlementSource;
  /** Which documented shape to answer with; 'B' only while a `variant-b` fault is armed. */
  readonly variant: 'A' | 'B';
  readonly requestId: string;
  readonly headers: IncomingHttpHeaders;
  now(): number;
  /** The 90 settlement dates, oldest first, ending today in IST. */
  settlementDates(): readonly string[];
}

export type Input<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['request']>;
export type Handler<N extends OperationName> = (input: Input<N>, ctx: Ctx) => Reply;
export type Handlers<K extends OperationName> = { readonly [N in K]: Handler<N> };

/**
 * Codes of the error envelope: the documented ones (shared ERROR_CODES) plus the sandbox's own. 404 is the
 * sandbox's own choice: the document shows no not-found code.
 */
export const CODE = {
  generic: ERROR_CODES.generic,
  hash: ERROR_CODES.hashNotVerified,
  // The document gives refund failures the hash code too, with a message that says what went wrong.
  refund: ERROR_CODES.hashNotVerified,
  invalid: ERROR_CODES.invalidRequest,
  unauthorized: 401,
  notFound: 404,
  alreadyCancelled: ERROR_CODES.alreadyCancelled,
} as const;

export function ok(body: Record<string, unknown>): Reply {
  return { http: 200, body: { status: true, ...body } };
}

export function fail(code: number | string, message: string, http = 200): Reply {
  return { http, body: { status: false, error: { message, code } } };
}

/** A request the document's rules refuse: HTTP 400 naming the field (`amount: must be positive`). */
export function invalid(message: string): Reply {
  return fail(CODE.invalid, message, 400);
}

/** A `pg` the sandbox does not know: HTTP 400 naming the known ones; null when `pg` is absent or known. */
export function unknownGateway(pg: string | undefined, ctx: Ctx): Reply | null {
  if (pg === undefined || ctx.state.gateways.includes(pg)) return null;
  return invalid(`pg: unknown gateway "${pg}" (known: ${ctx.state.gateways.join(', ')})`);
}

/** Rupees as a JSON number from paise: exact for two decimals, which is what the wire carries. */
export function rupees(minor: number): number {
  return minor / 100;
}
