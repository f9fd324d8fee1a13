/**
 * What the cache holds for the filter on screen: the rows (a PagedRows keyset source), the totals, the chart's
 * aggregates and the filter menus, each a query keyed by profile and filter. A new filter keeps the previous rows
 * on screen, marked busy, until its own are in; the totals and the chart say they are counting instead (the
 * Settlements screen); a finished sync makes all of them stale (main-events.ts).
 *
 * The rows' source keeps its own position-addressed page cache (paged-rows.ts); the query owns its creation,
 * its first page (loading and errors the same as every other read) and its disposal.
 */
import { keepPreviousData, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { IpcInput, IpcOutput } from '../../../shared/ipc/contract';
import type { SettlementFilter, SettlementSort } from '../../../shared/settlement-query';
import { api, settle } from '../api';
import { IpcFailure, ask, ipcKey, useActiveProfileId, useIpcMutation, useIpcQuery } from '../query/ipc-query';
import { GRID_STATES } from '../query/main-events';
import { PagedRows } from './paged-rows';

/** Resolves once the source's first page is in; a first page that failed is the query's error. */
function firstPage(source: PagedRows): Promise<PagedRows> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (source.loadingFirst && !source.error) return false;
      stop();
      if (source.error && source.count === 0) {
        source.dispose();
        reject(new IpcFailure(source.error));
      } else resolve(source);
      return true;
    };
    const stop = source.subscribe(() => void check());
    check();
  });
}

/** A source no query holds any more (its filter left the screen a while ago) stops reading and lets go of its rows. */
function useDisposeDroppedSources(): void {
  const client = useQueryClient();
  useEffect(
    () =>
      client.getQueryCache().subscribe((event) => {
        if (event.type !== 'removed') return;
        const data = event.query.state.data;
        if (data instanceof PagedRows) data.dispose();
      }),
    [client],
  );
}

/** The rows' query for a filter and sort: the hook below and the read before a new filter is shown (shown-query.ts). */
export function rowsQuery(profileId: string | null, filter: SettlementFilter, sort: SettlementSort) {
  return {
    queryKey: ipcKey(profileId, 'settlements.query', { filter, sort }),
    queryFn: async ({ client, queryKey }: { client: QueryClient; queryKey: QueryKey }) => {
      const source = await firstPage(
        new PagedRows(filter, sort, (query) => settle(() => api.settlements.query(query))),
      );
      // Read again after a sync: the source it replaces stops reading now rather than at garbage collection.
      client.getQueryData<PagedRows>(queryKey)?.dispose();
      return source;
    },
    // Held in memory while shown; the placeholder of the next filter must outlive its own replacement.
    gcTime: 30_000,
    staleTime: Infinity,
  };
}

export function useSettlementRows(filter: SettlementFilter, sort: SettlementSort) {
  useDisposeDroppedSources();
  const profileId = useActiveProfileId();
  return useQuery<PagedRows, IpcFailure>({
    ...rowsQuery(profileId, filter, sort),
    enabled: profileId !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * A filter's totals or chart. Asked at the same time as its rows, not after them: the totals, the footer's "of N"
 * and the chart are what a person reads next, and waiting for the grid's first page put their read behind the rest
 * of that page (the UI bench's `final_ms`, issue 33). A new filter asks its rows first, then these
 * (shown-query.ts), and shows them together.
 */
export function figuresQuery(
  profileId: string | null,
  channel: 'settlements.totals' | 'settlements.aggregate',
  filter: SettlementFilter,
) {
  return {
    queryKey: ipcKey(profileId, channel, filter),
    queryFn: () => ask(channel, filter),
    // Held like the rows they describe (both read again after a sync): a screen switched to a filter whose figures
    // were asked with its rows (shown-query.ts) shows that answer instead of asking again.
    staleTime: Infinity,
  };
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

function useFigures<C extends 'settlements.totals' | 'settlements.aggregate'>(channel: C, filter: SettlementFilter) {
  const profileId = useActiveProfileId();
  const query = figuresQuery(profileId, channel, filter);
  return useQuery<IpcOutput<C>, IpcFailure>({
    ...query,
    // Asked here when the screen opens or a sync made them stale, in the same commit as the grid's rows, which sit
    // below them in the tree: a turn of the event loop first, so the rows' read goes out ahead of them.
    queryFn: async () => {
      await nextTask();
      return query.queryFn() as Promise<IpcOutput<C>>;
    },
    enabled: profileId !== null,
    placeholderData: keepPreviousData,
  });
}

export const useSettlementTotals = (filter: SettlementFilter) => useFigures('settlements.totals', filter);

/**
 * The table's row count is the totals' count for the same filter (one aggregate read instead of walking every
 * page); a source whose pages ran out already knows better and keeps its own.
 */
export function useRowCountFromTotals(filter: SettlementFilter, sort: SettlementSort): void {
  const rows = useSettlementRows(filter, sort);
  const totals = useSettlementTotals(filter);
  const source = rows.isPlaceholderData ? null : rows.data;
  const count = totals.isPlaceholderData ? undefined : totals.data?.count;
  useEffect(() => {
    if (source && count !== undefined) source.setTotal(count);
  }, [source, count]);
}

export const useSettlementAggregate = (filter: SettlementFilter) => useFigures('settlements.aggregate', filter);

export const useSettlementFacets = (from: string, to: string) =>
  useIpcQuery('settlements.facets', { from, to }, { placeholderData: keepPreviousData });

/** A bank credit's worth of the range's records, as the Batches view lists it. */
export type Batch = IpcOutput<'recon.batches'>['batches'][number];

export const useBatches = (range: { from: string; to: string; pg?: string | null }) =>
  useIpcQuery('recon.batches', { from: range.from, to: range.to, ...(range.pg ? { pg: range.pg } : {}) });

type RangeInput = { from: string; to: string; pg?: string };

export const useCompleteness = (range: RangeInput) => useIpcQuery('settlements.completeness', range);
/** Whether the cache's most recent dates hold what their sync stored (the mismatch banner); stale after each sync. */
export const useCacheIntegrity = () => useIpcQuery('cache.integrity');
export const useChangesSummary = (range: RangeInput) => useIpcQuery('settlements.changesSummary', range);
export const useChanges = (input: IpcInput<'settlements.changes'>) => useIpcQuery('settlements.changes', input);

const EXCEPTION_CHANGES = ['settlements.exception'] as const;
export const useException = (recordId: number) => useIpcQuery('settlements.exception', { recordId });
/** An action changes the record's state in its detail, the grid's State column and "Exceptions only", and the queue. */
export const useExceptionAction = () =>
  useIpcMutation('settlements.exceptionAction', { invalidates: [...GRID_STATES, 'exceptions.'] });
export const useTriage = () => useIpcMutation('settlements.triage', { invalidates: EXCEPTION_CHANGES });
