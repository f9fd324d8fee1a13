/**
 * The 24 operations of the interface, in one table. The API client, the sandbox's router, the tests and
 * the operation table in docs/design/operations.md all read this, so an operation is described once.
 *
 * - `auth`: `basic` sends `Authorization: Basic base64(key:secret)`; `body` sends `key` and `hash` in the JSON.
 * - `credentials`: what a Basic operation also carries in its body, as the document's samples do.
 * - `safe`: may be repeated without effect, so the client may retry it. Money-moving and state-changing
 *   calls are never retried blindly; `afterUnknownOutcome` tells the user what to check instead.
 */
import { z } from 'zod';
import * as classify from './classification';
import * as orders from './orders';
import * as info from './payment-info';
import * as payouts from './payouts';
import * as settlements from './settlements';
import * as subs from './subscriptions';
import * as webhooks from './webhooks';

export type Host = 'base' | 'ai';

export interface OperationSpec {
  readonly title: string;
  readonly host: Host;
  readonly path: string;
  readonly auth: 'basic' | 'body';
  readonly credentials: 'key+hash' | 'key' | 'none';
  readonly safe: boolean;
  readonly request: z.ZodType<Record<string, unknown>>;
  readonly response: z.ZodType;
  /** Request fields that go into the path (`/api/v2/webhook/{id}`) instead of the body. */
  readonly pathParams?: readonly string[];
  readonly sendsUserAgent?: boolean;
  readonly afterUnknownOutcome?: string;
}

const basic = { host: 'base', auth: 'basic', credentials: 'none' } as const;
const basicSigned = { host: 'base', auth: 'basic', credentials: 'key+hash' } as const;
const bodySigned = { host: 'base', auth: 'body', credentials: 'key+hash' } as const;

export const OPERATIONS = {
  'order.fetch': {
    ...basicSigned,
    title: 'Fetch order',
    path: '/api/v2/order/fetch',
    safe: true,
    request: orders.orderIdRequest,
    response: orders.orderFetchResponse,
  },
  'order.capture': {
    ...basicSigned,
    title: 'Capture order payment',
    path: '/api/v2/order/capture',
    safe: false,
    request: orders.orderIdRequest,
    response: orders.messageResponse,
    afterUnknownOutcome: 'Fetch the order and look at its status before capturing again.',
  },
  'order.refund': {
    ...basicSigned,
    title: 'Refund order in full',
    path: '/api/v2/order/refund',
    safe: false,
    request: orders.orderIdRequest,
    response: orders.messageResponse,
    afterUnknownOutcome: "List the order's refund attempts before refunding again.",
  },
  'order.refundPartial': {
    ...basicSigned,
    title: 'Refund part of an order',
    path: '/api/v2/order/refund/partial',
    safe: false,
    request: orders.partialRefundRequest,
    response: orders.partialRefundResponse,
    afterUnknownOutcome: "List the order's refund attempts before refunding again.",
  },
  'order.refundAttempts': {
    ...basicSigned,
    title: 'List refund attempts',
    path: '/api/v2/order/refund/attempts',
    safe: true,
    request: orders.refundAttemptsRequest,
    response: orders.refundAttemptsResponse,
  },
  'order.process': {
    ...bodySigned,
    title: 'Process order (seamless checkout)',
    path: '/api/v1/order/process',
    safe: false,
    request: orders.processOrderRequest,
    response: orders.processOrderResponse,
    afterUnknownOutcome: 'Fetch the order and look at its status before processing it again.',
  },
  'info.paymentMethods': {
    ...basic,
    title: 'List payment methods',
    path: '/api/v2/info/payment/methods',
    safe: true,
    request: info.paymentMethodsRequest,
    response: info.paymentMethodsResponse,
    sendsUserAgent: true,
  },
  'info.vpa': {
    ...bodySigned,
    title: 'Validate UPI address',
    path: '/api/v1/info/vpa',
    safe: true,
    request: info.vpaRequest,
    response: info.vpaResponse,
  },
  'info.currency': {
    ...bodySigned,
    title: 'Currency conversion',
    path: '/api/v1/currency/get',
    safe: true,
    request: info.currencyRequest,
    response: info.currencyResponse,
  },
  'plan.create': {
    ...bodySigned,
    title: 'Create plan',
    path: '/api/v1/subscription/plan/create',
    safe: false,
    request: subs.planCreateRequest,
    response: subs.planCreateResponse,
    afterUnknownOutcome: 'Look for a plan with the same merchant reference id before creating it again.',
  },
  'plan.fetch': {
    ...bodySigned,
    title: 'Fetch plan',
    path: '/api/v1/subscription/plan/fetch',
    safe: true,
    request: subs.idRequest,
    response: subs.planFetchResponse,
  },
  'subscription.fetch': {
    ...bodySigned,
    title: 'Fetch subscription',
    path: '/api/v1/subscription/subscription/fetch',
    safe: true,
    request: subs.idRequest,
    response: subs.subscriptionResponse,
  },
  'subscription.fetchByReceipt': {
    ...bodySigned,
    title: 'Fetch subscription by receipt',
    path: '/api/v1/subscription/subscription/fetch/receipt',
    safe: true,
    request: subs.idRequest,
    response: subs.subscriptionResponse,
  },
  'subscription.cancel': {
    ...bodySigned,
    title: 'Cancel subscription',
    path: '/api/v1/subscription/cancel',
    safe: false,
    request: subs.idRequest,
    response: subs.subscriptionResponse,
    afterUnknownOutcome: 'Fetch the subscription and look at its status before cancelling again.',
  },
  'subscription.adhoc': {
    ...basicSigned,
    title: 'Ad hoc charge on a subscription',
    path: '/api/v2/subscription/adhoc',
    safe: false,
    request: subs.adhocRequest,
    response: subs.adhocResponse,
    afterUnknownOutcome: "Check the customer's charges for this subscription with the gateway before charging again.",
  },
  'beneficiary.create': {
    ...basic,
    title: 'Add beneficiary',
    path: '/api/v2/payout/beneficiary/create',
    safe: false,
    request: payouts.beneficiaryCreateRequest,
    response: payouts.beneficiaryCreateResponse,
    afterUnknownOutcome: 'Search the beneficiaries for this account number or UPI address before adding it again.',
  },
  'beneficiary.fetch': {
    ...basic,
    title: 'Fetch beneficiary',
    path: '/api/v2/payout/beneficiary/fetch',
    safe: true,
    request: payouts.beneficiaryFetchRequest,
    response: payouts.beneficiaryFetchResponse,
  },
  'payout.fetch': {
    ...basic,
    title: 'Fetch payout status',
    path: '/api/v2/payout/fetch',
    safe: true,
    request: payouts.payoutFetchRequest,
    response: payouts.payoutFetchResponse,
  },
  'payout.accounts': {
    ...basic,
    title: 'List payout accounts',
    path: '/api/v2/payout/accounts',
    safe: true,
    request: payouts.payoutAccountsRequest,
    response: payouts.payoutAccountsResponse,
  },
  'payout.balance': {
    ...basic,
    title: 'Check account balance',
    path: '/api/v2/payout/balance',
    safe: true,
    request: payouts.balanceRequest,
    response: payouts.balanceResponse,
  },
  'settlement.fetch': {
    ...basic,
    credentials: 'key',
    title: 'Fetch settlements',
    path: '/api/v2/settlement/fetch',
    safe: true,
    request: settlements.settlementFetchRequest,
    response: settlements.settlementFetchResponse,
  },
  'webhook.list': {
    ...basic,
    title: 'List webhooks',
    path: '/api/v2/webhook/list',
    safe: true,
    request: webhooks.webhookListRequest,
    response: webhooks.webhookListResponse,
  },
  'webhook.update': {
    ...basic,
    title: 'Update webhook',
    path: '/api/v2/webhook/{id}',
    safe: false,
    pathParams: ['id'],
    request: webhooks.webhookUpdateRequest,
    response: webhooks.webhookUpdateResponse,
    afterUnknownOutcome: 'List the webhooks to see whether the change took effect before sending it again.',
  },
  classify: {
    host: 'ai',
    auth: 'basic',
    credentials: 'none',
    title: 'Classify',
    path: '/v1/classify/',
    safe: true,
    request: classify.classifyRequest,
    response: classify.classifyResponse,
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATIONS)[N]['request']>;
export type OperationOutput<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['response']>;

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

/** `/api/v2/webhook/{id}` with `{id: "wh_1"}` -> `/api/v2/webhook/wh_1`; other fields stay for the body. */
export function resolvePath(
  spec: OperationSpec,
  input: Record<string, unknown>,
): { path: string; body: Record<string, unknown> } {
  const body = { ...input };
  let path = spec.path;
  for (const name of spec.pathParams ?? []) {
    const value = body[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`path parameter ${name} is missing`);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
    delete body[name];
  }
  return { path, body };
}

type Issue = z.core.$ZodIssue;

/**
 * A union (Variant A | Variant B) that fails reports only "invalid input" at its own path. The branch that
 * got furthest (deepest issue path, then fewest issues) is the variant the sender meant, so its issues name
 * the real field: `order.amount`, not `order`.
 */
function flattenIssues(
  issues: readonly Issue[],
  prefix: readonly PropertyKey[] = [],
): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, message: issue.message }];
    const depth = (branch: Issue[]) => Math.max(...branch.map((b) => b.path.length));
    const best = issue.errors.reduce((a, b) =>
      depth(b) > depth(a) || (depth(b) === depth(a) && b.length < a.length) ? b : a,
    );
    return flattenIssues(best, path);
  });
}

/** Readable list of a zod error's issues: `order.amount: expected number, received string`. */
export function describeIssues(error: z.ZodError): string {
  const issues = flattenIssues(error.issues);
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(body)'}: ${i.message}`)
    .join('; ')
    .concat(issues.length > 5 ? `; and ${issues.length - 5} more` : '');
}
