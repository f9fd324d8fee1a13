/**
 * Schemas of the `subscriptions.*` channels, on the active profile. Cancel and charge carry a key per submission, as
 * orders do; the charge amount is integer paise in the subscription's currency.
 */
import { z } from 'zod';
import { currencyCode } from '../api/common';
import { orPending, typedReason } from '../approvals';
import { journalEntry } from '../journal';
import { recentSubscription, subscriptionView } from '../subscriptions';
import type { DomainSchemas } from './contract';

const id = z.string().trim().min(1, 'must not be empty').max(64);
const requestKey = z.string().min(8).max(64);

const actionResult = z.object({ outcome: journalEntry, view: subscriptionView.nullable(), message: z.string() });

export const subscriptionsChannels = {
  /** By the subscription's id, or by the merchant's receipt id (`by: "receipt"`); kept in the cache. */
  'subscriptions.fetch': {
    input: z.object({ id, by: z.enum(['id', 'receipt']).default('id') }).strict(),
    output: subscriptionView,
  },
  'subscriptions.cached': {
    input: z.object({ id, by: z.enum(['id', 'receipt']).default('id') }).strict(),
    output: subscriptionView.nullable(),
  },
  'subscriptions.recent': { input: z.undefined(), output: z.array(recentSubscription) },
  'subscriptions.actions': { input: z.object({ id }).strict(), output: z.array(journalEntry) },
  'subscriptions.cancel': { input: z.object({ requestKey, id }).strict(), output: orPending(actionResult) },
  'subscriptions.charge': {
    input: z
      .object({
        requestKey,
        id,
        amount: z.number().int().positive('must be more than zero'),
        currency: currencyCode,
        /** Needed above the policy's multiple of the subscription's own amount. */
        reason: typedReason.optional(),
      })
      .strict(),
    output: orPending(actionResult),
  },
  'subscriptions.checkStatus': {
    input: z.object({ attemptSeq: z.number().int().positive() }).strict(),
    output: z.object({ check: journalEntry, view: subscriptionView.nullable() }),
  },
  /** What the gateway told the desk about a charge whose outcome is unknown (the interface lists no charges). */
  'subscriptions.recordCharge': {
    input: z.object({ attemptSeq: z.number().int().positive(), charged: z.boolean() }).strict(),
    output: journalEntry,
  },
} satisfies DomainSchemas<'subscriptions'>;
