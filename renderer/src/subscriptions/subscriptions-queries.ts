/** Subscriptions of the active profile; as on the Orders screen, what is shown is the cache's copy with its time. */
import { useIpcQuery } from '../query/ipc-query';
import { useJournaledAction } from '../query/journaled-action';

export const useRecentSubscriptions = () => useIpcQuery('subscriptions.recent');

export const useCachedSubscription = (shown: { id: string; by: 'id' | 'receipt' } | null) =>
  useIpcQuery('subscriptions.cached', { id: shown?.id ?? '', by: shown?.by ?? 'id' }, { enabled: shown !== null });

export const useSubscriptionActions = (id: string | null) =>
  useIpcQuery('subscriptions.actions', { id: id ?? '' }, { enabled: id !== null });

const CHANGED = ['subscriptions.'] as const;
export const useFetchSubscription = () => useJournaledAction('subscriptions.fetch', CHANGED);
export const useCancelSubscription = () => useJournaledAction('subscriptions.cancel', CHANGED);
export const useChargeSubscription = () => useJournaledAction('subscriptions.charge', CHANGED);
export const useSubscriptionCheck = () => useJournaledAction('subscriptions.checkStatus', CHANGED);
export const useRecordCharge = () => useJournaledAction('subscriptions.recordCharge', CHANGED);
