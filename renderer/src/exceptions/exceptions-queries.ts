/**
 * The exception queue's reads and its bulk action. In local mode they reach this console's cache, in desk mode the
 * desk's database; the `desk` event (query/main-events.ts) makes the queue stale when anyone on the desk acts.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { journalWaitingSentence, type DeskState, type QueueFilter } from '../../../shared/desk';
import { QUEUE_PAGE_SIZE } from '../../../shared/ipc/exceptions';
import { asSentence } from '../../../shared/messages';
import { useActiveProfileId, useIpcMutation, useIpcQuery } from '../query/ipc-query';

export function useQueue(filter: QueueFilter, offset: number) {
  const profileId = useActiveProfileId();
  return useIpcQuery(
    'exceptions.queue',
    { filter, offset, limit: QUEUE_PAGE_SIZE },
    // The page shown stays while the next one loads, so paging and filtering do not flash an empty table; never
    // another profile's page, though.
    {
      placeholderData: (previous, previousQuery) =>
        previousQuery?.queryKey[1] === profileId ? keepPreviousData(previous) : undefined,
    },
  );
}

/** A bulk action changes the queue and the Settlements screen's exception states. */
export const useBulkAction = () => useIpcMutation('exceptions.bulk', { invalidates: ['exceptions.', 'settlements.'] });

export const useDeskStatus = () => useIpcQuery('desk.status', {});

/** The desk line: who this console acts as, alone or on a desk. */
export function deskLine(state: DeskState): string {
  if (state.mode === 'local') return `Working alone as ${state.person}`;
  const waiting = state.journalWaiting === 0 ? '' : ` ${journalWaitingSentence(state.journalWaiting)}`;
  if (!state.reachable) return `Desk not reachable: ${asSentence(state.reason ?? 'no answer from the desk')}${waiting}`;
  const role = state.role ?? 'no role';
  const readOnly = state.writable ? '' : ` — read only${state.reason ? `: ${asSentence(state.reason)}` : ''}`;
  return `Desk ${state.host}/${state.database} as ${state.person} (${role})${readOnly}${waiting}`;
}
