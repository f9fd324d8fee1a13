/**
 * One interface request, start to finish: route, fault, body, auth, JSON, credentials, validation,
 * handler, shape. The order is deliberate: a 401 never reveals whether the body was valid, a 413 is
 * decided before any JSON is parsed, and a bad hash is reported before a bad field (as a gateway that
 * checks signatures at its edge would).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLASSIFY_LIMITS } from '../../shared/api/classification';
import { OPERATIONS, describeIssues, type OperationName } from '../../shared/api/operations';
import { basicMatches, checkBodyCredentials, unauthorized, type Credentials } from './auth';
import type { SettlementSource } from './data/settlements';
import type { Fault, FaultQueue } from './faults';
import { aiError, classifyReply } from './handlers/classification';
import { orderHandlers } from './handlers/orders';
import { paymentInfoHandlers } from './handlers/payment-info';
import { payoutHandlers } from './handlers/payouts';
import { CODE, fail, invalid, type Ctx, type Handler, type Handlers, type Reply } from './handlers/reply';
import { settlementHandlers } from './handlers/settlements';
import { subscriptionHandlers } from './handlers/subscriptions';
import { webhookHandlers } from './handlers/webhooks';
import { parseJson, readBody, sendJson } from './http-io';
import { prepareInput } from './requests';
import { AI_PREFIX, matchRoute, type Route } from './routes';
import type { SandboxState } from './state';

type MerchantOperation = Exclude<OperationName, 'classify'>;

const HANDLERS: Handlers<MerchantOperation> = {
  ...orderHandlers,
  ...paymentInfoHandlers,
  ...subscriptionHandlers,
  ...payoutHandlers,
  ...settlementHandlers,
  ...webhookHandlers,
};

/** The merchant API takes up to 1 MiB; classification's documented limit is 32 KiB. */
const MERCHANT_BODY_CAP = 1024 * 1024;

/** Operations whose document samples carry `request_id`; their errors carry one too. */
const SHOWS_REQUEST_ID = new Set<OperationName>([
  'order.refundAttempts',
  'order.process',
  'info.paymentMethods',
  'subscription.fetch',
  'subscription.fetchByReceipt',
  'subscription.cancel',
  'subscription.adhoc',
  'settlement.fetch',
  'webhook.update',
]);

export interface DispatchDeps {
  state: SandboxState;
  settlements: SettlementSource;
  faults: FaultQueue;
  creds: Credentials;
  now(): number;
  settlementDates(): readonly string[];
  nextRequestId(): string;
  sleep(ms: number): Promise<void>;
}

export async function handleInterface(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  deps: DispatchDeps,
): Promise<void> {
  const route = matchRoute(pathname);
  const ai = route ? route.host === 'ai' : pathname === AI_PREFIX || pathname.startsWith(`${AI_PREFIX}/`);
  const error = (http: number, message: string) => (ai ? aiError(http, message) : fail(http, message, http));
  if (!route) return send(res, error(404, `No operation at ${pathname}`));
  if (req.method !== 'POST') {
    const reply = error(405, `${req.method} is not allowed; every operation is POST`);
    return send(res, { ...reply, headers: { allow: 'POST' } });
  }

  const fault = deps.faults.take(pathname);
  const body = await readBody(req, ai ? CLASSIFY_LIMITS.maxBodyBytes : MERCHANT_BODY_CAP);
  if (fault) {
    const early = await applyEarlyFault(fault, req, deps, error);
    if (early === 'dropped') return;
    if (early) return send(res, early);
  }
  const reply = answer(route, req, body, deps, fault?.kind === 'variant-b' ? 'B' : 'A');
  const shaped = fault?.kind === 'variant-b' ? toVariantBError(reply) : reply;
  send(res, shaped, fault?.kind === 'malformed');
}

function answer(
  route: Route,
  req: IncomingMessage,
  body: { text: string; tooLarge: boolean },
  deps: DispatchDeps,
  variant: 'A' | 'B',
): Reply {
  const spec = OPERATIONS[route.name];
  if (spec.auth === 'basic' && !basicMatches(req.headers.authorization, deps.creds)) {
    return route.host === 'ai' ? aiError(401, 'Missing or invalid credentials') : unauthorized();
  }
  if (route.host === 'ai') {
    if (body.tooLarge) return aiError(413, `Request body exceeds ${CLASSIFY_LIMITS.maxBodyBytes} bytes (32 KiB)`);
    const json = parseJson(body.text);
    return json.ok ? classifyReply(json.value) : aiError(422, json.message);
  }
  const name = route.name as MerchantOperation;
  const requestId = deps.nextRequestId();
  const withId = (reply: Reply) => addRequestId(reply, name, requestId);
  if (body.tooLarge) return withId(fail(413, `Request body exceeds ${MERCHANT_BODY_CAP} bytes`, 413));
  const json = parseJson(body.text);
  if (!json.ok) return withId(invalid(`(body): ${json.message}`));
  if (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
    return withId(invalid('(body): must be a JSON object'));
  const raw = json.value as Record<string, unknown>;

  const denied = checkBodyCredentials(spec, raw, deps.creds);
  if (denied) return withId(denied);
  const parsed = spec.request.safeParse(prepareInput(name, raw, route.pathParams));
  if (!parsed.success) return withId(invalid(describeIssues(parsed.error)));

  const ctx: Ctx = {
    state: deps.state,
    settlements: deps.settlements,
    variant,
    requestId,
    headers: req.headers,
    now: deps.now,
    settlementDates: deps.settlementDates,
  };
  const handler = HANDLERS[name] as Handler<MerchantOperation>;
  return withId(handler(parsed.data as never, ctx));
}

/** Faults that answer instead of the operation; 'dropped' when the connection was reset. */
async function applyEarlyFault(
  fault: Fault,
  req: IncomingMessage,
  deps: DispatchDeps,
  error: (http: number, message: string) => Reply,
): Promise<Reply | 'dropped' | null> {
  switch (fault.kind) {
    case 'drop':
      // An RST, not a FIN: the client sees ECONNRESET, as when a proxy dies mid-request.
      req.socket.resetAndDestroy();
      return 'dropped';
    case '429': {
      const reply = error(429, 'Too many requests; retry with backoff');
      return fault.retryAfter === undefined
        ? reply
        : { ...reply, headers: { 'retry-after': String(fault.retryAfter) } };
    }
    case '500':
      return error(500, 'Internal server error (sandbox fault)');
    case '503':
      return error(503, 'Service temporarily unavailable (sandbox fault)');
    case 'delay':
      await deps.sleep(fault.delayMs ?? 0);
      return null;
    case 'malformed':
    case 'variant-b':
      // These shape the operation's own answer (see handleInterface).
      return null;
  }
}

function addRequestId(reply: Reply, name: OperationName, requestId: string): Reply {
  const body = reply.body as Record<string, unknown>;
  if (!SHOWS_REQUEST_ID.has(name) || body.status !== false || 'request_id' in body) return reply;
  return { ...reply, body: { ...body, request_id: requestId } };
}

/** Variant B errors: `{status:false, message, code}`; a 400 says "Invalid request", the reason in `detail`. */
function toVariantBError(reply: Reply): Reply {
  const body = reply.body as { status?: unknown; error?: { message: string; code: unknown }; request_id?: string };
  if (body.status !== false || !body.error) return reply;
  const { message, code } = body.error;
  const b = code === CODE.invalid ? { message: 'Invalid request', code, detail: message } : { message, code };
  return { ...reply, body: { status: false, ...b, ...(body.request_id ? { request_id: body.request_id } : {}) } };
}

function send(res: ServerResponse, reply: Reply, truncate = false): void {
  if (res.destroyed || res.headersSent) return;
  sendJson(res, reply.http, reply.body, reply.headers, truncate);
}
