/**
 * Subscriptions for the UI and the CLI: fetched by id or by the merchant's receipt id and kept in the cache;
 * cancelled and charged ad hoc under their standing instruction, journaled and sent once per submission as orders
 * are (merchant/orders.ts). An already-cancelled subscription's 1035 answer is said in plain words.
 *
 * Check status: a cancel is settled by refetching the subscription (cancelled or not). The interface has no list of
 * a subscription's charges, so an ad hoc charge whose answer was lost cannot be settled from here: the check
 * records the subscription as it is and keeps the outcome unknown, saying to ask the gateway; what the gateway says
 * is then recorded by the desk (`recordCharge`).
 */
import type { JournalEntry } from '../../shared/journal';
import { formatMoney, type Minor } from '../../shared/money';
import {
  ALREADY_CANCELLED_CODE,
  ALREADY_CANCELLED_WORDS,
  isCancelled,
  type SubscriptionView,
} from '../../shared/subscriptions';
import { ApiError, unlessApiError } from '../api/errors';
import type { Cache } from '../cache/database';
import { refuseWhileUnsettled } from '../journal/actions';
import type { Journals } from '../journal/registry';
import { createSubmissions, runJournaled } from '../journal/keyed-actions';
import type { Credentials } from '../profiles/credentials';

const EVENTS = ['subscription.cancel', 'subscription.charge'] as const;

export interface SubscriptionActionResult {
  outcome: JournalEntry;
  view: SubscriptionView | null;
  message: string;
}

/** The service's 1035: the subscription was cancelled before; nothing was done. */
export class AlreadyCancelledError extends Error {
  override name = 'AlreadyCancelledError';
  readonly code = 'ALREADY_CANCELLED';
  constructor() {
    super(ALREADY_CANCELLED_WORDS);
  }
}

/** An ad hoc charge far above the subscription's own amount, sent without a typed reason: nothing was sent. */
export class ChargeReasonError extends Error {
  override name = 'ChargeReasonError';
  readonly code = 'CHARGE_NEEDS_REASON';
}

/** How the console guards an ad hoc charge: above `planTimes` × the subscription's amount it needs `reason`. */
export interface ChargeGuard {
  reason?: string | undefined;
  planTimes: number;
}

export class SubscriptionCheckError extends Error {
  override name = 'SubscriptionCheckError';
  readonly code = 'STATUS_CHECK_INVALID';
}

const isAlreadyCancelled = (e: unknown) =>
  e instanceof ApiError && e.kind === 'api' && String(e.code) === String(ALREADY_CANCELLED_CODE);

/**
 * Refuses a charge above `planTimes` × the subscription's own amount without a reason, against a subscription
 * fetched just now (a proposal checks the one it fetched to describe itself, so it is fetched once).
 */
export function checkChargeGuard(
  subscription: { amount: Minor; currency: string },
  amount: Minor,
  guard: ChargeGuard,
): void {
  const own = subscription.amount;
  if (amount <= own * guard.planTimes || guard.reason?.trim()) return;
  const times = guard.planTimes === 1 ? '' : ` ${guard.planTimes} times`;
  throw new ChargeReasonError(
    `${formatMoney(amount, subscription.currency)} is more than${times} the subscription's own amount of ${formatMoney(own, subscription.currency)}: type the reason for this charge; nothing was sent.`,
  );
}

export function createSubscriptionService(deps: {
  credentials: Credentials;
  cacheFor: (profileId: string) => Cache;
  journals: Journals;
}) {
  const once = createSubmissions<SubscriptionActionResult>();

  async function fetch(profileId: string, id: string, by: 'id' | 'receipt' = 'id'): Promise<SubscriptionView> {
    const { subscription } = await deps.credentials.withApi(profileId, (api) =>
      by === 'id' ? api.subscriptions.fetch(id) : api.subscriptions.fetchByReceipt(id),
    );
    return deps.cacheFor(profileId).merchant.putSubscription(subscription, by === 'receipt' ? id : null);
  }

  /** The subscription after an action; a failed lookup leaves the action's outcome as it is. */
  const refetched = (profileId: string, id: string) => unlessApiError(() => fetch(profileId, id));

  async function cancel(profileId: string, id: string): Promise<SubscriptionActionResult> {
    const { journal } = deps.journals.for(profileId);
    refuseWhileUnsettled(journal, EVENTS, 'subscriptionId', id);
    try {
      const { outcome } = await runJournaled(journal, {
        event: 'subscription.cancel',
        summary: `Asked the service to cancel subscription ${id}.`,
        subject: { subscriptionId: id },
        asked: { subscriptionId: id },
        send: () => deps.credentials.withApi(profileId, (api) => api.subscriptions.cancel(id)),
        succeeded: (a) => ({
          summary: `Cancelled subscription ${id}.`,
          data: { status: a.subscription.subscription_status },
          requestId: a.request_id,
        }),
      });
      return { outcome, message: 'Subscription cancelled.', view: await refetched(profileId, id) };
    } catch (e) {
      if (isAlreadyCancelled(e)) throw new AlreadyCancelledError();
      throw e;
    }
  }

  async function charge(profileId: string, id: string, amount: Minor, currency: string, guard: ChargeGuard) {
    const { journal } = deps.journals.for(profileId);
    refuseWhileUnsettled(journal, EVENTS, 'subscriptionId', id);
    // A charge is held against the subscription as the service shows it now: an amount re-typed on a form is no
    // guard against a ₹1,50,000 charge on a ₹499 subscription.
    checkChargeGuard((await fetch(profileId, id)).subscription, amount, guard);
    const money = formatMoney(amount, currency);
    const { outcome, answer } = await runJournaled(journal, {
      event: 'subscription.charge',
      summary: `Asked the service to charge ${money} under subscription ${id}.`,
      subject: { subscriptionId: id },
      asked: { amount, currency, ...(guard.reason?.trim() ? { reason: guard.reason.trim() } : {}) },
      send: () => deps.credentials.withApi(profileId, (api) => api.subscriptions.adhoc(id, amount, currency)),
      succeeded: (a) => ({
        summary: `Charged ${money} under subscription ${id}: transaction ${a.transaction.id} (${a.transaction.status}).`,
        data: {
          amount: a.transaction.amount,
          currency: a.transaction.currency,
          transactionId: a.transaction.id,
          status: a.transaction.status,
        },
        requestId: a.request_id,
      }),
    });
    return {
      outcome,
      message: `Transaction ${answer.transaction.id}: ${answer.transaction.status}.`,
      view: await refetched(profileId, id),
    };
  }

  return {
    fetch,
    cached: (profileId: string, id: string, by: 'id' | 'receipt') =>
      deps.cacheFor(profileId).merchant.subscription(id, by),
    recent: (profileId: string) => deps.cacheFor(profileId).merchant.recentSubscriptions(),

    actions(profileId: string, id: string): JournalEntry[] {
      const { journal } = deps.journals.for(profileId);
      return journal
        .list({ kind: 'action', text: id, limit: 200 })
        .filter((e) => e.event.startsWith('subscription.') && e.data['subscriptionId'] === id);
    },

    cancel: (profileId: string, requestKey: string, id: string) =>
      once(`${profileId}\0cancel\0${requestKey}`, () => cancel(profileId, id)),

    /** `amount` in minor units of `currency`, which must be the subscription's; `guard` from the desk's policy. */
    charge: (profileId: string, requestKey: string, id: string, amount: Minor, currency: string, guard: ChargeGuard) =>
      once(`${profileId}\0charge\0${requestKey}`, () => charge(profileId, id, amount, currency, guard)),

    /**
     * An ad hoc charge whose outcome is unknown, settled by what the desk learnt from the gateway (the interface
     * cannot tell): journaled as the desk's record, `succeeded` (charged) or `refused` (not charged).
     */
    recordCharge(profileId: string, attemptSeq: number, charged: boolean): JournalEntry {
      const { journal } = deps.journals.for(profileId);
      const attempt = journal.get(attemptSeq);
      const open = journal.unresolved().some((u) => u.attempt.seq === attemptSeq);
      if (!attempt || attempt.event !== 'subscription.charge' || attempt.outcome !== 'attempted' || !open) {
        throw new SubscriptionCheckError(`Entry ${attemptSeq} is not an ad hoc charge whose outcome is unknown.`);
      }
      const id = String(attempt.data['subscriptionId']);
      return journal.append({
        kind: 'action',
        event: 'subscription.charge.check',
        outcome: charged ? 'succeeded' : 'refused',
        refersTo: attemptSeq,
        summary: charged
          ? `Recorded by the desk: the gateway shows the charge under ${id} was made.`
          : `Recorded by the desk: the gateway shows no such charge under ${id}; it may be asked again.`,
        data: { subscriptionId: id, recordedBy: 'desk', charged },
      });
    },

    async checkStatus(
      profileId: string,
      attemptSeq: number,
    ): Promise<{ check: JournalEntry; view: SubscriptionView | null }> {
      const { journal } = deps.journals.for(profileId);
      const attempt = journal.get(attemptSeq);
      if (!attempt || !(EVENTS as readonly string[]).includes(attempt.event) || attempt.outcome !== 'attempted') {
        throw new SubscriptionCheckError(`Entry ${attemptSeq} is not an attempt to cancel or charge a subscription.`);
      }
      const id = String(attempt.data['subscriptionId']);
      const view = await fetch(profileId, id);
      const status = view.subscription.subscription_status;
      const entry =
        attempt.event === 'subscription.cancel'
          ? isCancelled(status)
            ? {
                outcome: 'succeeded' as const,
                summary: `Fetched subscription ${id}: it is ${status}, so the cancel took effect.`,
              }
            : {
                outcome: 'refused' as const,
                summary: `Fetched subscription ${id}: it is ${status}, so it was not cancelled. It may be asked again.`,
              }
          : {
              outcome: 'unknown' as const,
              summary: `Fetched subscription ${id} (${status}). The interface lists no charges, so whether the charge was made is still unknown: ask the gateway for the customer's charges before charging again.`,
            };
      const check = journal.append({
        kind: 'action',
        event: `${attempt.event}.check`,
        refersTo: attemptSeq,
        data: { subscriptionId: id, status },
        ...entry,
      });
      return { check, view };
    },
  };
}
export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
