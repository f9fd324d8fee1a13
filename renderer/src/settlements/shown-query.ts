/**
 * The filter and sort the screen shows, which follow the store's (settlements-store.ts) once the first rows for
 * them are read. A new search, filter or sort starts its rows' read as the store changes, before React renders
 * anything, with its totals' and chart's reads right behind it, and the screen switches in one render when all three
 * are in (or FIGURES_GRACE_MS after the rows, the figures then "counting…"): the previous answer stays on screen,
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
/** How long rows that are in wait for their totals and chart before they are shown without them. */
export const FIGURES_GRACE_MS = 50;

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

/** Mounted by the screen: while it is open, a new filter is shown once its first rows and figures are read. */
export function useShowWhenRead(): void {
  const client = useQueryClient();
  const profileId = useActiveProfileId();
  useEffect(() => {
    let latest = 0;
    readFirst = (wanted) => {
      const ticket = ++latest;
      if (profileId === null) return show(wanted);
      // Only the newest change is shown, and once: a search typed over an earlier one still being read replaces it.
      let shown = false;
      const showNewest = () => {
        clearTimeout(timer);
        if (ticket === latest && !shown) show(wanted);
        shown = true;
      };
      const timer = setTimeout(showNewest, SHOW_AFTER_MS);
      // The rows first, then the figures beside them, in that order on the cache's reader (each query's read goes
      // out as it is called).
      const rows = client.prefetchQuery(rowsQuery(profileId, wanted.filter, wanted.sort));
      const figures = Promise.all([
        client.prefetchQuery(figuresQuery(profileId, 'settlements.totals', wanted.filter)),
        useSettlements.getState().chartCollapsed
          ? undefined
          : client.prefetchQuery(figuresQuery(profileId, 'settlements.aggregate', wanted.filter)),
      ]);
      // A read that fails is shown too: the table then gives its error. The figures come a few milliseconds behind
      // the rows: shown in the same render, the screen is laid out and painted once with everything final, where
      // the rows, then the totals, then the chart each cost the page a render and a frame (test/bench/ui.ts).
      void rows.finally(() => {
        const grace = setTimeout(showNewest, FIGURES_GRACE_MS);
        void figures.finally(() => {
          clearTimeout(grace);
          showNewest();
        });
      });
    };
    return () => {
      readFirst = null;
      latest += 1;
      // Whatever was still being read is shown at once when the screen opens again.
      show(wantedOf(useSettlements.getState()));
    };
  }, [client, profileId]);
}
