/**
 * Schemas of the `orders.*` channels, on the active profile. Capture and refund carry a key the screen makes once per
 * submission: a second call with the same key (a double click, a retry after a lost answer) gets the first call's
 * answer or error and never acts twice. Amounts are integer paise; the screen parses rupees with parseRupees.
 */
import { z } from 'zod';
import { journalEntry } from '../journal';
import { orPending } from '../approvals';
import { orderView, recentOrder } from '../orders';
import type { DomainSchemas } from './contract';

const orderId = z.string().trim().min(1, 'must not be empty').max(64);
const requestKey = z.string().min(8).max(64);

/** What an action did: the journal's outcome entry and the order as the service shows it afterwards. */
const actionResult = z.object({ outcome: journalEntry, view: orderView.nullable(), message: z.string() });

export const ordersChannels = {
  /** Fetches the order and its refund attempts from the service and keeps both in the cache. */
  'orders.fetch': { input: z.object({ id: orderId }).strict(), output: orderView },
  /** The order as last fetched (offline review); null when the cache has never seen it. */
  'orders.cached': { input: z.object({ id: orderId }).strict(), output: orderView.nullable() },
  /** Orders looked up recently, newest first, from the cache. */
  'orders.recent': { input: z.undefined(), output: z.array(recentOrder) },
  /** The journal's entries about an order (attempts, outcomes, checks), newest first. */
  'orders.actions': { input: z.object({ id: orderId }).strict(), output: z.array(journalEntry) },
  /** On a desk whose policy asks for approval, the answer is the proposal instead (`pendingApproval`). */
  'orders.capture': { input: z.object({ requestKey, orderId }).strict(), output: orPending(actionResult) },
  /** `amount` null refunds in full; otherwise a partial refund of that many paise, never above the refundable balance. */
  'orders.refund': {
    input: z
      .object({ requestKey, orderId, amount: z.number().int().positive('must be more than zero').nullable() })
      .strict(),
    output: orPending(actionResult),
  },
  /** Settles a capture or refund whose outcome is unknown: lists the refund attempts or refetches the order. */
  'orders.checkStatus': {
    input: z.object({ attemptSeq: z.number().int().positive() }).strict(),
    output: z.object({ check: journalEntry, view: orderView.nullable() }),
  },
} satisfies DomainSchemas<'orders'>;
