/** Webhooks: the list (a read, by filter) and an update (an action, journaled; it refreshes the list). */
import { useIpcMutation, useIpcQuery } from '../query/ipc-query';

export const useWebhooks = (active: boolean | undefined) =>
  useIpcQuery('webhooks.list', active === undefined ? {} : { active }, { retry: false });
export const useUpdateWebhook = () => useIpcMutation('webhooks.update', { invalidates: ['webhooks.', 'journal.'] });
