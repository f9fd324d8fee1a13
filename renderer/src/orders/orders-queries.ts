/**
 * Orders of the active profile. What is on screen is always the cache's copy (`orders.cached`): a lookup or an action
 * refreshes it in main and invalidates the `orders.` reads, so online and offline show the same thing with its time.
 */
import { useIpcQuery } from '../query/ipc-query';
import { useJournaledAction } from '../query/journaled-action';

export const useRecentOrders = () => useIpcQuery('orders.recent');

export const useCachedOrder = (id: string | null) =>
  useIpcQuery('orders.cached', { id: id ?? '' }, { enabled: id !== null });

export const useOrderActions = (id: string | null) =>
  useIpcQuery('orders.actions', { id: id ?? '' }, { enabled: id !== null });

const CHANGED = ['orders.'] as const;
export const useFetchOrder = () => useJournaledAction('orders.fetch', CHANGED);
export const useCapture = () => useJournaledAction('orders.capture', CHANGED);
export const useRefund = () => useJournaledAction('orders.refund', CHANGED);
export const useOrderCheck = () => useJournaledAction('orders.checkStatus', CHANGED);
