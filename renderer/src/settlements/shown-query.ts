/**
 * The filter and sort the screen shows, which follow the store's (settlements-store.ts) once the first rows for
 * them are read. A new search, filter or sort starts its rows' read as the store changes, before React renders
 * anything, and the screen switches in one render when the rows are in: the previous answer stays on screen,
 * unmarked, meanwhile. Reads that take longer than SHOW_AFTER_MS switch then, and the screen shows the new filter
 * as loading (the previous rows dimmed, marked busy) as it did before.
 *
 * Measured with the UI bench (test/bench/ui.ts): rendering the screen for the new filter first, then again for its
 * rows, kept the page's one thread busy with a frame of its own (a render, the paint and the compositor's commit)
 * while the rows' answer waited behind it.
 *
 * The controls (the search box, the menus) follow the store at once; the figures, the chart, the table and an
 * export follow what is shown, so they always agree with each other.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { create } from 'zustand';
import { shallow } from 'zustand/shallow';
import type { SettlementFilter, SettlementSort } from '../../../shared/settlement-query';
import { useActiveProfileId } from '../query/ipc-query';
import { figuresQuery, rowsQuery } from './settlements-queries';
import { filterOf, useSettlements } from './settlements-store';

/** How long a new filter may wait for its first rows before the screen shows it as loading. */
export const SHOW_AFTER_MS = 100;

export interface ShownQuery {
  filter: SettlementFilter;
  sort: SettlementSort;
}

const wantedOf = (state: ReturnType<typeof useSettlements.getState>): ShownQuery => ({
  filter: filterOf(state.range, state.filters),
  sort: state.sort,
});

const useShown = create<ShownQuery>(() => wantedOf(useSettlements.getState()));

/**
 * Shows `wanted`, keeping the filter object on screen when only the sort changed: what reads the filter alone (the
 * totals, the chart, the "Synced" time) then does not render again for a new order of the same rows.
 */
function show(wanted: ShownQuery): void {
  const { filter } = useShown.getState();
  useShown.setState(shallow(filter, wanted.filter) ? { ...wanted, filter } : wanted, true);
}

/** Set while the screen is open: reads a new filter's first rows before showing it. Closed, the store is followed. */
let readFirst: ((wanted: ShownQuery) => void) | null = null;

useSettlements.subscribe((state, previous) => {
  if (state.range === previous.range && state.filters === previous.filters && state.sort === previous.sort) return;
  const wanted = wantedOf(state);
  if (readFirst) readFirst(wanted);
  else show(wanted);
});

/** What is shown now, outside React (an export asked for takes what is on screen). */
export const shownQuery = (): ShownQuery => useShown.getState();
export const useShownFilter = (): SettlementFilter => useShown((s) => s.filter);
export const useShownSort = (): SettlementSort => useShown((s) => s.sort);

/** Mounted by the screen: while it is open, a new filter is shown once its first rows are read (or SHOW_AFTER_MS). */
export function useShowWhenRead(): void {
  const client = useQueryClient();
  const profileId = useActiveProfileId();
  useEffect(() => {
    let latest = 0;
    readFirst = (wanted) => {
      const ticket = ++latest;
      // Only the newest change is shown: a search typed over an earlier one that is still being read replaces it.
      const showNewest = () => {
        if (ticket === latest) show(wanted);
      };
      if (profileId === null) return showNewest();
      const timer = setTimeout(showNewest, SHOW_AFTER_MS);
      // A read that fails is shown too: the table then gives its error.
      void client.prefetchQuery(rowsQuery(profileId, wanted.filter, wanted.sort)).finally(() => {
        clearTimeout(timer);
        showNewest();
      });
      // The figures beside the rows are asked now too, behind them: shown with the rows, they are then in or nearly.
      void client.prefetchQuery(figuresQuery(profileId, 'settlements.totals', wanted.filter));
      if (!useSettlements.getState().chartCollapsed) {
        void client.prefetchQuery(figuresQuery(profileId, 'settlements.aggregate', wanted.filter));
      }
    };
    return () => {
      readFirst = null;
      latest += 1;
      // Whatever was still being read is shown at once when the screen opens again.
      show(wantedOf(useSettlements.getState()));
    };
  }, [client, profileId]);
}
