/** The payment tools' reads and actions. Listing, VPA and currency are asked for on demand; process order is an action. */
import { useIpcMutation } from '../query/ipc-query';

export const useMethods = () => useIpcMutation('tools.methods');
export const useProcessOrder = () => useIpcMutation('tools.process', { invalidates: ['journal.'] });
export const useVerifyVpa = () => useIpcMutation('beneficiaries.verifyVpa');
export const useCurrency = () => useIpcMutation('tools.currency');
