/**
 * The renderer's one way to read and act: hooks over TanStack Query, against the real core (router, cache, sync)
 * on a real sandbox over loopback, bridged into jsdom's `window.api` by the same `createIpcApi` the preload uses.
 * A read is keyed by the active profile (a switch never shows the previous profile's answer), a mutation
 * invalidates what it changed, and the end of a sync (an event from main) makes the cached reads stale.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import type { IpcInvoke, IpcSubscribe } from '../../shared/ipc/client';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, coreOnSandbox, nextEvent } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { APP_ORIGIN, MAIN_FRAME } from '../security/support';

// `renderer/src/api.ts` reads window.api when it is imported: the bridge must be there first, and reaches the
// core once beforeAll has started it.
const bridge = vi.hoisted(() => {
  const target: { invoke?: IpcInvoke; subscribe?: IpcSubscribe } = {};
  return target;
});
vi.mock('../../renderer/src/api', async (importOriginal) => {
  const { createIpcApi } = await import('../../shared/ipc/client');
  Object.defineProperty(window, 'api', {
    value: createIpcApi(
      (channel, input) => bridge.invoke!(channel, input),
      (event, listener) => bridge.subscribe!(event, listener),
    ),
  });
  return importOriginal();
});

const { useIpcQuery, useIpcMutation, useActiveProfileId } = await import('../../renderer/src/query/ipc-query');
const { useMainEvents } = await import('../../renderer/src/query/main-events');
const { useConnectivity } = await import('../../renderer/src/query/app-queries');
const { createQueryClient } = await import('../../renderer/src/query/client');
const { useProfileChange } = await import('../../renderer/src/settings/settings-queries');
const { useSettlementRows, useSettlementTotals, useSettlementAggregate } =
  await import('../../renderer/src/settlements/settlements-queries');
const { useJob, useJobStart, forgetJob } = await import('../../renderer/src/query/jobs');
const { useSyncJob, useSyncStart } = await import('../../renderer/src/settlements/sync-queries');
const { useSettlements } = await import('../../renderer/src/settlements/settlements-store');
const { useSavedViews, useAppliedViews, currentViewName } = await import('../../renderer/src/ui/saved-views');
const { useTableViews, useTableFilters } = await import('../../renderer/src/ui/table-views');
const { useTableSorts } = await import('../../renderer/src/ui/table-sorts');
const { z } = await import('zod');

let sandbox: Sandbox;
let core: Core;
const range = { from: addDays(TEST_TODAY, -2), to: addDays(TEST_TODAY, -1) };

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 40 });
  core = coreOnSandbox(sandbox, { dataDir: mkdtempSync(join(tmpdir(), 'pc-query-hooks-')), vault: memoryStore() });
  bridge.invoke = (channel, input) => core.router.handle(channel, input, MAIN_FRAME, APP_ORIGIN);
  bridge.subscribe = (event, listener) =>
    core.events.subscribe((e, payload) => {
      if (e === event) listener(payload);
    });
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
});

function wrapper() {
  const client = createQueryClient();
  function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  }
  return { client, Wrapper };
}

describe('query hooks over the real core', () => {
  it('turns a finished sync (an event from main) into fresh totals, equal to the cache', async () => {
    const { Wrapper } = wrapper();
    const { result } = renderHook(
      () => {
        useMainEvents();
        return { totals: useSettlementTotals(range), sync: useIpcMutation('sync.start') };
      },
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(result.current.totals.data?.count).toBe(0));
    const finished = nextEvent(core, 'syncFinished');
    await act(() => result.current.sync.mutateAsync(range));
    await finished;
    const cached = core.cacheFor('sandbox').settlements.totals(range);
    expect(cached.count).toBeGreaterThan(0);
    await waitFor(() => expect(result.current.totals.data?.count).toBe(cached.count));
    expect(result.current.totals.data?.settled).toBe(cached.settled);
  });

  it('keys every read by the active profile: a switch shows the new profile’s data and its own connectivity', async () => {
    const { Wrapper } = wrapper();
    const other = core.profiles.create({
      name: 'Second desk',
      environment: 'custom',
      baseUrl: sandbox.url,
      aiUrl: `${sandbox.url}/ai`,
      key: 'test_key',
    });
    const { result } = renderHook(
      () => {
        useMainEvents();
        return {
          status: useIpcQuery('cache.status'),
          connectivity: useConnectivity(),
          test: useIpcMutation('credentials.test'),
          activate: useProfileChange('profiles.activate'),
        };
      },
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(result.current.status.data?.settlementsSyncedAt).toEqual(expect.any(String)));
    await act(() => result.current.test.mutateAsync({ profileId: 'sandbox' }));
    await waitFor(() => expect(result.current.connectivity?.state).toBe('online'));

    await act(() => result.current.activate.mutateAsync({ id: other.id }));
    // Never the previous profile's answer, not even for a render: no data until the new profile's arrives.
    await waitFor(() =>
      expect(result.current.status.data).toMatchObject({ settlementsSyncedAt: null, balancesAt: null }),
    );
    expect(result.current.connectivity).toEqual({ state: 'unknown', since: null });

    await act(() => result.current.activate.mutateAsync({ id: 'sandbox' }));
    await waitFor(() => expect(result.current.status.data?.settlementsSyncedAt).toEqual(expect.any(String)));
    await waitFor(() => expect(result.current.connectivity?.state).toBe('online'));
  });

  it('asks a new filter’s totals and chart right behind its rows, without waiting for the rows’ answer', async () => {
    const { Wrapper } = wrapper();
    const calls: string[] = [];
    const invoke = bridge.invoke!;
    // The rows' first read is answered only once the totals and the chart have been asked: figures that waited for
    // the grid's first page (as they once did) would never be asked, and the rows never answered.
    let figuresAsked = () => {};
    const bothAsked = new Promise<void>((resolve) => (figuresAsked = resolve));
    bridge.invoke = async (channel, input) => {
      calls.push(`${channel} asked`);
      if (calls.includes('settlements.totals asked') && calls.includes('settlements.aggregate asked')) figuresAsked();
      if (channel === 'settlements.query') await bothAsked;
      try {
        return await invoke(channel, input);
      } finally {
        calls.push(`${channel} answered`);
      }
    };
    try {
      // Totals first in the tree, as on the screen (the totals bar is above the grid).
      const { result } = renderHook(
        () => ({
          totals: useSettlementTotals(range),
          aggregate: useSettlementAggregate(range),
          rows: useSettlementRows(range, { column: 'date', direction: 'desc' }),
        }),
        { wrapper: Wrapper },
      );
      await waitFor(() => expect(result.current.totals.data).toBeDefined());
      await waitFor(() => expect(result.current.aggregate.data).toBeDefined());
      await waitFor(() => expect(result.current.rows.data?.count).toBeGreaterThan(0));
      // The rows still go out first: main answers one read at a time, and the grid's first rows are the screen.
      expect(calls.indexOf('settlements.query asked')).toBeLessThan(calls.indexOf('settlements.totals asked'));
      expect(calls.indexOf('settlements.query asked')).toBeLessThan(calls.indexOf('settlements.aggregate asked'));
      expect(calls.indexOf('settlements.totals asked')).toBeLessThan(calls.indexOf('settlements.query answered'));
    } finally {
      bridge.invoke = invoke;
    }
  });

  it('a failed read is main’s error, shown as it is, and a mutation that failed changes nothing', async () => {
    const { Wrapper } = wrapper();
    const { result } = renderHook(
      () => ({
        totals: useIpcQuery('settlements.totals', { from: range.to, to: range.from }),
        create: useIpcMutation('profiles.create', { invalidates: ['profiles.'] }),
      }),
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(result.current.totals.isError).toBe(true));
    expect(result.current.totals.error?.error.code).toBe('INVALID_INPUT');
    await act(async () => {
      await result.current.create
        .mutateAsync({ name: '', environment: 'custom', baseUrl: 'ftp://x', aiUrl: 'ftp://x', key: '' })
        .catch(() => undefined);
    });
    expect(result.current.create.error?.error.code).toBe('INVALID_INPUT');
  });

  it('follows a job from its start to its end by its events, kept under the job’s id whichever arrives first', async () => {
    const { Wrapper, client } = wrapper();
    const key = ['sync.start'];
    const { result } = renderHook(
      () => {
        useMainEvents();
        return {
          start: useJobStart('sync.start', key),
          state: useJob<'sync.start', unknown, { summary: unknown }>(key),
        };
      },
      { wrapper: Wrapper },
    );
    expect(result.current.state.job.phase).toBe('idle');
    // These dates are cached already (the first test synced them): main can finish before its answer arrives.
    await act(() => result.current.start.mutateAsync(range));
    await waitFor(() => expect(result.current.state.job.phase).toBe('finished'));
    const job = result.current.state.job;
    expect(job.phase === 'finished' && job.request).toEqual(range);
    expect(job.phase === 'finished' && job.result.summary).toMatchObject({ status: 'completed' });
    // Dismissed: back to idle, and a failed start is its own error, not a job.
    act(() => forgetJob(client, key));
    await waitFor(() => expect(result.current.state.job.phase).toBe('idle'));
    await act(() => result.current.start.mutateAsync({ from: range.to, to: range.from }).catch(() => undefined));
    await waitFor(() => expect(result.current.state.error?.code).toBe('INVALID_INPUT'));
    expect(result.current.state.job.phase).toBe('idle');
  });

  it('keeps a sync with its profile and ends it when it ends, across profile switches and a refetch of everything', async () => {
    const { Wrapper, client } = wrapper();
    const other = core.profiles.create({
      name: 'Third desk',
      environment: 'custom',
      baseUrl: sandbox.url,
      aiUrl: `${sandbox.url}/ai`,
      key: 'test_key',
    });
    useSettlements.setState((s) => ({ range: { ...s.range, from: range.from, to: range.to, pg: null } }));
    const { result } = renderHook(
      () => {
        useMainEvents();
        return {
          profile: useActiveProfileId(),
          sync: useSyncStart(),
          job: useSyncJob().job,
          activate: useProfileChange('profiles.activate'),
        };
      },
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(result.current.profile).toBe('sandbox'));
    expect(result.current.job.phase).toBe('idle');
    act(() => result.current.sync.start());
    await waitFor(() => expect(result.current.job.phase).toBe('finished'));

    // Another profile has no sync of its own: no "Syncing" bar, Sync is free.
    await act(() => result.current.activate.mutateAsync({ id: other.id }));
    await waitFor(() => expect(result.current.job.phase).toBe('idle'));
    expect(result.current.sync.busy).toBe(false);
    // Back: the sync that ended is still ended, never "running" again.
    await act(() => result.current.activate.mutateAsync({ id: 'sandbox' }));
    await waitFor(() => expect(result.current.job.phase).toBe('finished'));
    // Back online every read is refetched; the job's end stays.
    await act(() => client.invalidateQueries());
    await act(() => client.resetQueries());
    await waitFor(() => expect(result.current.job.phase).toBe('finished'));
    expect(result.current.sync.busy).toBe(false);
  });

  it('saved views: saved through main, the default applied once on first open, and named only while unchanged', async () => {
    const table = 'hooks-test';
    let screen = { filters: { search: 'acme' } as Record<string, string | null>, sort: null };
    const applied: unknown[] = [];
    const binding = {
      current: () => screen,
      apply: (state: { filters: Record<string, unknown> }) => {
        applied.push(state.filters);
        screen = { ...screen, filters: state.filters as Record<string, string | null> };
      },
    };
    const view = {
      name: 'Acme',
      state: { filters: { search: 'acme' }, sort: null, hidden: [], density: 'comfortable' as const },
    };
    const first = wrapper();
    const { result } = renderHook(() => useSavedViews(table, binding), { wrapper: first.Wrapper });
    await waitFor(() => expect(result.current.list.data).toEqual({ views: [], defaultName: null }));
    await act(() => result.current.save.mutateAsync({ table, view }));
    await act(() => result.current.setDefault.mutateAsync({ table, name: 'acme' }));
    await waitFor(() => expect(result.current.list.data?.defaultName).toBe('Acme'));
    // Nothing was applied: the default is for opening the screen, not for saving it.
    expect(applied).toEqual([]);

    // A "restart": a new query cache, the screen changed, then opened; the default view is applied once.
    screen = { filters: { search: null }, sort: null };
    // The first open marked the table's default as handled; a restart starts with no such mark.
    act(() => useAppliedViews.setState({ applied: {}, defaulted: {} }));
    const second = wrapper();
    const reopened = renderHook(() => useSavedViews(table, binding), { wrapper: second.Wrapper });
    await waitFor(() => expect(applied).toEqual([{ search: 'acme' }]));
    const views = () => reopened.result.current.list.data?.views;
    await waitFor(() =>
      expect(currentViewName(table, binding, views(), reopened.result.current.appliedName)).toBe('Acme'),
    );
    reopened.rerender();
    expect(applied).toHaveLength(1);
    screen = { filters: { search: 'other' }, sort: null };
    expect(currentViewName(table, binding, views(), reopened.result.current.appliedName)).toBeNull();
  });

  it('a list’s views (useTableViews): filters and sort saved, the default restored after a restart, a bad value left out', async () => {
    const table = 'orders.recent-test';
    const fields = { status: z.enum(['paid', 'failed']), search: z.string().max(10) };
    const first = wrapper();
    const { result } = renderHook(() => useTableViews(table, fields), { wrapper: first.Wrapper });
    await waitFor(() => expect(result.current.menu.views.list.data).toEqual({ views: [], defaultName: null }));
    act(() => {
      result.current.setFilter('status', 'failed');
      result.current.setFilter('search', 'acme');
      useTableSorts.getState().set(table, { column: 'amount', direction: 'desc' });
    });
    expect(result.current.filters).toEqual({ status: 'failed', search: 'acme' });
    // An emptied filter is gone, not an empty value a view would keep.
    act(() => result.current.setFilter('search', ''));
    expect(result.current.filters).toEqual({ status: 'failed' });

    const state = {
      filters: { status: 'failed', search: 'far too long for it' },
      sort: { column: 'amount', direction: 'desc' as const },
      hidden: [],
      density: 'comfortable' as const,
    };
    await act(() => result.current.menu.views.save.mutateAsync({ table, view: { name: 'Failed', state } }));
    await act(() => result.current.menu.views.setDefault.mutateAsync({ table, name: 'Failed' }));

    // A restart: nothing on screen, a new query cache; the default view is applied, its bad search left out.
    act(() => {
      useAppliedViews.setState({ applied: {}, defaulted: {} });
      useTableFilters.setState({ filters: {} });
      useTableSorts.setState({ sorts: {} });
    });
    const second = wrapper();
    const reopened = renderHook(() => useTableViews(table, fields), { wrapper: second.Wrapper });
    await waitFor(() => expect(reopened.result.current.filters).toEqual({ status: 'failed' }));
    expect(useTableSorts.getState().sorts[table]).toEqual({ column: 'amount', direction: 'desc' });
    // What is on screen differs from the view (its search was dropped), so an export names no view.
    expect(reopened.result.current.viewName()).toBeNull();
  });
});
