/**
 * Orders for the UI and the CLI: looked up with their refund attempts and kept in the cache; captured and refunded
 * with every care money needs.
 *
 * - Each action is journaled (attempt before the request leaves, then its outcome: journal/actions.ts).
 * - A submission key is sent once (journal/submissions.ts): a double click or a retry after a lost answer never acts
 *   twice. A new submission on an order whose earlier capture or refund has an unknown outcome is refused until
 *   "check status" settles it, so a fresh key cannot act twice either.
 * - A refund's amount is checked here against the refundable balance the service shows just before sending (the
 *   attempts are listed first), whatever the screen or the command line already checked.
 * - Check status lists the refund attempts (a refund) or refetches the order (a capture) and journals what it found.
 */
import type { JournalEntry } from '../../shared/journal';
import { formatMoney, type Minor } from '../../shared/money';
import { refundProblem, refundState, type OrderView, type StoredRefundAttempt } from '../../shared/orders';
import { ApiError, unlessApiError } from '../api/errors';
import type { Cache } from '../cache/database';
import { refuseWhileUnsettled } from '../journal/actions';
import type { Journals } from '../journal/registry';
import { createSubmissions, runJournaled } from '../journal/keyed-actions';
import type { Credentials } from '../profiles/credentials';

const EVENTS = ['order.capture', 'order.refund'] as const;

export interface OrderActionResult {
  /** The journal's outcome entry. */
  outcome: JournalEntry;
  /** The order refetched after the action; null when that lookup failed (the action's outcome stands). */
  view: OrderView | null;
  message: string;
}

/** A refund the console will not send: more than the refundable balance, or nothing left. */
export class RefundRefusedError extends Error {
  override name = 'RefundRefusedError';
  readonly code = 'REFUND_NOT_ALLOWED';
}

export class OrderCheckError extends Error {
  override name = 'OrderCheckError';
  readonly code = 'STATUS_CHECK_INVALID';
}

/** Statuses an order has once its payment was captured (a later refund keeps it captured). */
const CAPTURED = /^(captured|success|successful|partially_refunded|refunded|charged)$/i;

export function createOrderService(deps: {
  credentials: Credentials;
  cacheFor: (profileId: string) => Cache;
  journals: Journals;
}) {
  const once = createSubmissions<OrderActionResult>();

  async function attemptsOf(profileId: string, orderId: string): Promise<StoredRefundAttempt[]> {
    const r = await deps.credentials.withApi(profileId, (api) => api.orders.refundAttempts(orderId));
    return r.data;
  }

  async function fetch(profileId: string, orderId: string): Promise<OrderView> {
    const { order } = await deps.credentials.withApi(profileId, (api) => api.orders.fetch(orderId));
    let refunds: StoredRefundAttempt[] | null = null;
    let refundsError: string | null = null;
    try {
      refunds = await attemptsOf(profileId, orderId);
    } catch (e) {
      // The order itself answered: show it, and say why its attempts (and so its balance) are not known.
      if (!(e instanceof ApiError)) throw e;
      refundsError = e.userMessage;
    }
    return deps.cacheFor(profileId).merchant.putOrder(order, refunds, refundsError);
  }

  /** The order after an action; a failed lookup leaves the action's outcome as it is. */
  const refetched = (profileId: string, orderId: string) => unlessApiError(() => fetch(profileId, orderId));

  async function capture(profileId: string, orderId: string): Promise<OrderActionResult> {
    const { journal } = deps.journals.for(profileId);
    refuseWhileUnsettled(journal, EVENTS, 'orderId', orderId);
    const { outcome, answer } = await runJournaled(journal, {
      event: 'order.capture',
      summary: `Asked the service to capture order ${orderId}.`,
      subject: { orderId },
      asked: { orderId },
      send: () => deps.credentials.withApi(profileId, (api) => api.orders.capture(orderId)),
      succeeded: (a) => ({
        summary: `Captured order ${orderId}.`,
        data: { message: a.message },
        requestId: a.request_id,
      }),
    });
    return { outcome, message: answer.message, view: await refetched(profileId, orderId) };
  }

  async function refund(profileId: string, orderId: string, amount: Minor | null): Promise<OrderActionResult> {
    const { journal } = deps.journals.for(profileId);
    refuseWhileUnsettled(journal, EVENTS, 'orderId', orderId);
    // The balance the service shows now, not what the screen saw a minute ago.
    const view = await fetch(profileId, orderId);
    if (view.refunds === null || view.balance === null) {
      throw new RefundRefusedError(
        `The refund attempts of ${orderId} could not be listed (${view.refundsError}), so the refundable balance is not known; nothing was sent.`,
      );
    }
    const currency = view.order.currency;
    const wanted = amount ?? view.balance.refundable;
    const problem = refundProblem(wanted, view.balance, currency);
    if (problem) throw new RefundRefusedError(`${problem} Nothing was sent.`);
    const type = amount === null ? 'full' : 'partial';
    const known = view.refunds.map((r) => r.refund_id);
    const { outcome, answer } = await runJournaled(journal, {
      event: 'order.refund',
      summary: `Asked the service to refund ${formatMoney(wanted, currency)} of order ${orderId} (${type}).`,
      subject: { orderId },
      asked: { type, amount: wanted, currency, refundableBefore: view.balance.refundable, known },
      send: () =>
        deps.credentials.withApi(profileId, (api) =>
          amount === null ? api.orders.refund(orderId) : api.orders.refundPartial(orderId, amount),
        ),
      succeeded: (a) => ({
        summary: `Refunded ${formatMoney(wanted, currency)} of order ${orderId}${a.id ? ` as ${a.id}` : ''}.`,
        data: { type, amount: wanted, currency, refundId: a.id ?? null, message: a.message },
        requestId: a.request_id,
      }),
    });
    return { outcome, message: answer.message, view: await refetched(profileId, orderId) };
  }

  /** A refund's check: an attempt the service lists that was not there before, of the amount asked. */
  async function checkRefund(profileId: string, attempt: JournalEntry) {
    const orderId = String(attempt.data['orderId']);
    const asked = (attempt.data['asked'] ?? {}) as { known?: string[]; amount?: number };
    const known = new Set(asked.known ?? []);
    const amount = Number(asked.amount);
    const view = await fetch(profileId, orderId);
    if (view.refunds === null) {
      return {
        view,
        entry: {
          outcome: 'unknown' as const,
          summary: `Could not list the refund attempts of ${orderId} (${view.refundsError}); the outcome is still unknown.`,
          data: { orderId },
        },
      };
    }
    const fresh = view.refunds.filter((r) => !known.has(r.refund_id) && r.amount === amount);
    if (fresh.length > 0) {
      const r = fresh[0]!;
      return {
        view,
        entry: {
          // The service made the attempt; one that failed moved no money.
          outcome: refundState(r.status) === 'failed' ? ('refused' as const) : ('succeeded' as const),
          summary: `Listed the refund attempts of ${orderId}: ${r.refund_id} for ${formatMoney(r.amount, view.order.currency)} (${r.status}) is this refund.`,
          data: { orderId, refundId: r.refund_id, status: r.status, amount: r.amount, found: fresh.length },
        },
      };
    }
    return {
      view,
      entry: {
        outcome: 'refused' as const,
        summary: `Listed the refund attempts of ${orderId}: none is this refund, so it was not made. It may be asked again.`,
        data: { orderId, attempts: view.refunds.length },
      },
    };
  }

  async function checkCapture(profileId: string, attempt: JournalEntry) {
    const orderId = String(attempt.data['orderId']);
    const view = await fetch(profileId, orderId);
    const status = view.order.order_status;
    const captured = CAPTURED.test(status);
    return {
      view,
      entry: {
        outcome: captured ? ('succeeded' as const) : ('refused' as const),
        summary: captured
          ? `Fetched order ${orderId}: its status is ${status}, so the capture took effect.`
          : `Fetched order ${orderId}: its status is ${status}, so it was not captured. It may be asked again.`,
        data: { orderId, status },
      },
    };
  }

  return {
    fetch,
    cached: (profileId: string, orderId: string) => deps.cacheFor(profileId).merchant.order(orderId),
    recent: (profileId: string) => deps.cacheFor(profileId).merchant.recentOrders(),

    /** The journal's entries about this order, newest first. */
    actions(profileId: string, orderId: string): JournalEntry[] {
      const { journal } = deps.journals.for(profileId);
      return journal
        .list({ kind: 'action', text: orderId, limit: 200 })
        .filter((e) => e.event.startsWith('order.') && e.data['orderId'] === orderId);
    },

    capture: (profileId: string, requestKey: string, orderId: string) =>
      once(`${profileId}\0capture\0${requestKey}`, () => capture(profileId, orderId)),

    /** `amount` null: a full refund of what is refundable. */
    refund: (profileId: string, requestKey: string, orderId: string, amount: Minor | null) =>
      once(`${profileId}\0refund\0${requestKey}`, () => refund(profileId, orderId, amount)),

    async checkStatus(profileId: string, attemptSeq: number): Promise<{ check: JournalEntry; view: OrderView | null }> {
      const { journal } = deps.journals.for(profileId);
      const attempt = journal.get(attemptSeq);
      if (!attempt || !(EVENTS as readonly string[]).includes(attempt.event) || attempt.outcome !== 'attempted') {
        throw new OrderCheckError(`Entry ${attemptSeq} is not an attempt to capture or refund an order.`);
      }
      const { view, entry } =
        attempt.event === 'order.refund'
          ? await checkRefund(profileId, attempt)
          : await checkCapture(profileId, attempt);
      const check = journal.append({
        kind: 'action',
        event: `${attempt.event}.check`,
        refersTo: attemptSeq,
        ...entry,
      });
      return { check, view };
    },
  };
}
export type OrderService = ReturnType<typeof createOrderService>;
