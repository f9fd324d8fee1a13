/** Subscriptions as the console shows them: the fetched subscription, in integer paise, and the recent ones cached. */
import { z } from 'zod';
import { subscription } from './api/subscriptions';

export { subscription as storedSubscription };
export type StoredSubscription = z.output<typeof subscription>;

/** The service's code for "already cancelled", said in plain words wherever it is shown. */
export const ALREADY_CANCELLED_CODE = 1035;
export const ALREADY_CANCELLED_WORDS =
  'This subscription was already cancelled (the service answered 1035): nothing more was done and nothing will be charged under it.';

export const subscriptionView = z.object({
  subscription,
  fetchedAt: z.string(),
  fromCache: z.boolean(),
});
export type SubscriptionView = z.output<typeof subscriptionView>;

export const recentSubscription = z.object({
  subscription_id: z.string(),
  mer_reference_id: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  subscription_status: z.string(),
  fetchedAt: z.string(),
});
export type RecentSubscription = z.output<typeof recentSubscription>;

/** A cancelled subscription, whichever spelling the service uses. */
export const isCancelled = (status: string) => /^cancel+ed$/i.test(status);
