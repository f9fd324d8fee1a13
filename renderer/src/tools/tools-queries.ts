/** The payment tools' reads and actions. Listing, VPA and currency are asked for on demand; process order is an action. */
import { useIpcMutation, useIpcQuery } from '../query/ipc-query';

export const useMethods = () => useIpcMutation('tools.methods');
export const useProcessOrder = () => useIpcMutation('tools.process', { invalidates: ['journal.'] });
export const useVerifyVpa = () => useIpcMutation('beneficiaries.verifyVpa');
export const useCurrency = () => useIpcMutation('tools.currency');

/**
 * The order a Process order confirmation is about, fetched when it opens, so the confirmation shows what will be
 * paid; fetched fresh each time, never an answer from an earlier confirmation.
 */
export const useOrderToProcess = (orderId: string) =>
  useIpcQuery('orders.fetch', { id: orderId }, { staleTime: 0, gcTime: 0, retry: false });
