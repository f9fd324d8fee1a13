/** Plans: create (an action, journaled), fetch by id or merchant reference, and settling a lost create. */
import { useIpcMutation } from '../query/ipc-query';

export const useCreatePlan = () => useIpcMutation('plans.create', { invalidates: ['journal.'] });
export const useFetchPlan = () => useIpcMutation('plans.fetch');
export const useCheckPlanCreate = () => useIpcMutation('plans.checkCreate', { invalidates: ['journal.'] });
