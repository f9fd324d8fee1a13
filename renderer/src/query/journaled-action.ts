import { useQueryClient } from '@tanstack/react-query';
import type { IpcChannel } from '../../../shared/ipc/channels';
import { invalidateChannels, useIpcMutation } from './ipc-query';

/**
 * An action at the service that main journals: a failed one is journaled too (refused, or outcome unknown), so the
 * reads of `changed` (and the journal) go stale whichever way it ended, not only when it worked.
 */
export function useJournaledAction<C extends IpcChannel>(channel: C, changed: readonly string[]) {
  const client = useQueryClient();
  const stale = [...changed, 'journal.'];
  return useIpcMutation(channel, { invalidates: stale, onError: () => void invalidateChannels(client, stale) });
}
