/**
 * Events main pushes, turned into query updates: connectivity replaces its query's value, a sync's or an export's
 * progress and end are kept under the job's id (query/jobs.ts), the end of a sync makes the cached reads it changed
 * stale and is kept once the reads on screen have been read again, the keys a sync writes after it and the end of an
 * export make the cache sizes stale. Mounted once, by the app's root.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api';
import { CONNECTIVITY_KEY, invalidateAndReread, invalidateChannels } from './ipc-query';
import { recordJobEvent } from './jobs';

/**
 * What a finished sync changes: the settlements it stored, the "last synced" time, the size of the cache, whether its
 * recent dates hold what was synced (a re-fetch repairs them), and the journal (the sync's own entry, and whether a closed period changed after its close), and the exception queue.
 */
export const SYNC_CHANGES = [
  'settlements.',
  'recon.',
  'cache.status',
  'cache.list',
  'cache.integrity',
  'journal.',
  'exceptions.',
  'today.',
] as const;

/** What an exception's workflow state shows in: its detail, and the Settlements grid's rows and totals. */
export const GRID_STATES = [
  'settlements.exception',
  'settlements.query',
  'settlements.totals',
  'settlements.aggregate',
] as const;

export function useMainEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const stops = [
      api.on.connectivity((state) => client.setQueryData(CONNECTIVITY_KEY, state)),
      // A job's events, kept under its id for whichever screen follows it (query/jobs.ts).
      api.on.syncProgress((progress) => recordJobEvent(progress.jobId, { progress })),
      api.on.exportProgress((progress) => recordJobEvent(progress.jobId, { progress })),
      api.on.syncFinished((finished) => {
        const { profileId } = finished;
        // "Cleared: 12.4 MB freed" is no longer the news once a sync has filled that cache again.
        const mutations = client.getMutationCache();
        for (const m of mutations.findAll({ mutationKey: ['cache.clear', profileId] })) mutations.remove(m);
        // The end is told once the reads on screen hold what the sync stored: told first, "Sync completed … 80,000
        // records" stood for seconds beside the grid's and totals' answers from before it ("Nothing cached", ₹0.00).
        // A failed read ends in its own error, so the end is told either way.
        void invalidateAndReread(client, SYNC_CHANGES).finally(() => recordJobEvent(finished.jobId, { finished }));
      }),
      // The search and sort keys a sync writes after answering grow the cache file Settings shows the size of.
      api.on.syncKeysWritten(() => void invalidateChannels(client, ['cache.list'])),
      // An export is journaled too.
      api.on.exportFinished((finished) => {
        recordJobEvent(finished.jobId, { finished });
        void invalidateChannels(client, ['cache.list', 'journal.list']);
      }),
      api.on.fileMovedAside(() => void invalidateChannels(client, ['notices.list'])),
      // A bulk check (or its queued advance checks, run when the service came back) recorded lookups.
      api.on.payoutCheckProgress((p) => {
        if (p.finished) void invalidateChannels(client, ['payouts.']);
      }),
      // A watch round checked payouts (and may have noticed changes): its state and the lists it changed.
      api.on.payoutWatch(() => void invalidateChannels(client, ['payouts.', 'today.'])),
      // "Refresh all" moved on: Today shows each part's state; once it ended, balances were refreshed too.
      api.on.todayRefresh(
        (r) => void invalidateChannels(client, r.running ? ['today.'] : ['today.', 'accounts.', 'cache.status']),
      ),
      // Someone on the desk (this console or another) changed shared state, or the desk was lost or found again. The
      // Settlements grid shows the desk's exception states too (its State column, "Exceptions only").
      // Today shows the desk's queue, statements and approvals too.
      api.on.desk(
        ({ topic }) =>
          void invalidateChannels(client, [
            'today.',
            ...(topic === 'exceptions'
              ? ['exceptions.', ...GRID_STATES]
              : topic === 'journal'
                ? ['journal.']
                : topic === 'reconciliation'
                  ? ['recon.']
                  : topic === 'proposals' || topic === 'approval_policy'
                    ? ['approvals.']
                    : ['exceptions.', ...GRID_STATES, 'recon.', 'journal.', 'desk.']),
          ]),
      ),
    ];
    return () => stops.forEach((stop) => stop());
  }, [client]);
}
