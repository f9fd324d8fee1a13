/**
 * What the Settlements screen shows follows the store's filter and sort once their first rows are read
 * (renderer/src/settlements/shown-query.ts). The bridge here answers `app.info` and holds every rows' read, and
 * every read of the totals and the chart, until the test lets it go, so each step of the switch can be seen.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult } from '../../shared/ipc/contract';
import type { SettlementPageResult } from '../../shared/settlement-query';

interface HeldRead {
  search: string | undefined;
  answer(result: IpcResult<SettlementPageResult>): void;
}

interface HeldFigures {
  channel: string;
  search: string | undefined;
  answer(result: IpcResult<unknown>): void;
}

const bridge = vi.hoisted(() => ({ reads: [] as HeldRead[], figures: [] as HeldFigures[] }));
vi.mock('../../renderer/src/api', async (importOriginal) => {
  const { createIpcApi } = await import('../../shared/ipc/client');
  Object.defineProperty(window, 'api', {
    value: createIpcApi(
      (channel, input) => {
        if (channel === 'app.info') return Promise.resolve({ ok: true, value: { profile: { id: 'desk' } } });
        if (channel === 'settlements.totals' || channel === 'settlements.aggregate') {
          return new Promise((answer) =>
            bridge.figures.push({ channel, search: (input as { search?: string }).search, answer }),
          );
        }
        if (channel !== 'settlements.query') return new Promise(() => {});
        return new Promise((answer) =>
          bridge.reads.push({ search: (input as { search?: string }).search, answer: answer as HeldRead['answer'] }),
        );
      },
      () => () => {},
    ),
  });
  return importOriginal();
});

const { createQueryClient } = await import('../../renderer/src/query/client');
const { APP_INFO_KEY } = await import('../../renderer/src/query/ipc-query');
const { NO_FILTERS, DEFAULT_SORT, useSettlements } = await import('../../renderer/src/settlements/settlements-store');
const { FIGURES_GRACE_MS, SHOW_AFTER_MS, shownQuery, useShowWhenRead, useShownFilter } =
  await import('../../renderer/src/settlements/shown-query');

const ROWS: IpcResult<SettlementPageResult> = { ok: true, value: { rows: [], nextCursor: null, asOf: null } };

/** The screen's hooks: `open` mounts the switch as the screen does; closed, only what is shown is read. */
function renderShown(open: boolean) {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(
    () => {
      if (open) useShowWhenRead();
      return useShownFilter();
    },
    { wrapper },
  );
  // The switch reads ahead once the active profile is known (app.info has answered and the screen rendered again).
  const ready = () => waitFor(() => expect(client.getQueryData(APP_INFO_KEY)).toBeDefined());
  return { ...hook, ready };
}

/** The held read of `search`, once the read for it is out. */
async function readOf(search: string): Promise<HeldRead> {
  await waitFor(() => expect(bridge.reads.some((r) => r.search === search)).toBe(true));
  return bridge.reads.find((r) => r.search === search)!;
}

const search = (text: string) => act(() => useSettlements.getState().setFilters({ search: text }));

/** Lets the bridge's calls go out and their answers be taken in (promise callbacks only; no timer runs). */
const settleCalls = () => act(async () => {});

beforeEach(() => {
  bridge.reads = [];
  bridge.figures = [];
  useSettlements.setState({ filters: NO_FILTERS, sort: DEFAULT_SORT, chartCollapsed: false });
});

describe('the filter the Settlements screen shows', () => {
  it('is a new search once its first rows are read, and the read goes out before it is shown', async () => {
    const { result, ready } = renderShown(true);
    await ready();
    search('UTR-ONE');
    const read = await readOf('UTR-ONE');
    expect(result.current.search).toBeUndefined();
    act(() => read.answer(ROWS));
    await waitFor(() => expect(result.current.search).toBe('UTR-ONE'));
  });

  describe('with its totals and chart (on the test’s own timers)', () => {
    /** The search typed, its reads out: rows, then totals and chart, in that order. */
    async function typed(text: string) {
      search(text);
      await settleCalls();
      const rows = bridge.reads.find((r) => r.search === text)!;
      const figures = bridge.figures.filter((f) => f.search === text);
      return { rows, figures };
    }

    it('asks for the rows, then the totals and chart at once, and shows the rows when the figures are in', async () => {
      const { result, ready } = renderShown(true);
      await ready();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const { rows, figures } = await typed('TOGETHER');
        // Asked in the same turn as the rows, behind them: no timer has run.
        expect(figures.map((f) => f.channel)).toEqual(['settlements.totals', 'settlements.aggregate']);
        act(() => rows.answer(ROWS));
        await settleCalls();
        await act(() => vi.advanceTimersByTimeAsync(FIGURES_GRACE_MS - 1));
        expect(result.current.search).toBeUndefined();
        figures[0]!.answer({ ok: true, value: {} });
        await settleCalls();
        expect(result.current.search).toBeUndefined();
        figures[1]!.answer({ ok: true, value: {} });
        await settleCalls();
        expect(result.current.search).toBe('TOGETHER');
      } finally {
        vi.useRealTimers();
      }
    });

    it(`shows the rows without their figures ${FIGURES_GRACE_MS} ms after they are in`, async () => {
      const { result, ready } = renderShown(true);
      await ready();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const { rows } = await typed('FIGURES-SLOW');
        act(() => rows.answer(ROWS));
        await settleCalls();
        await act(() => vi.advanceTimersByTimeAsync(FIGURES_GRACE_MS - 1));
        expect(result.current.search).toBeUndefined();
        await act(() => vi.advanceTimersByTimeAsync(1));
        expect(result.current.search).toBe('FIGURES-SLOW');
      } finally {
        vi.useRealTimers();
      }
    });

    it('asks for no chart when it is collapsed, and waits only for the totals', async () => {
      const { result, ready } = renderShown(true);
      await ready();
      useSettlements.setState({ chartCollapsed: true });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const { rows, figures } = await typed('NO-CHART');
        expect(figures.map((f) => f.channel)).toEqual(['settlements.totals']);
        act(() => rows.answer(ROWS));
        figures[0]!.answer({ ok: true, value: {} });
        await settleCalls();
        expect(result.current.search).toBe('NO-CHART');
      } finally {
        vi.useRealTimers();
      }
    });
  });

  it(`shows a search whose rows take longer than ${SHOW_AFTER_MS} ms as loading, then`, async () => {
    const { result, ready } = renderShown(true);
    await ready();
    search('SLOW');
    await readOf('SLOW');
    expect(result.current.search).toBeUndefined();
    await waitFor(() => expect(result.current.search).toBe('SLOW'), { timeout: SHOW_AFTER_MS * 5 });
  });

  it('shows only the newest of two searches, whichever read answers first', async () => {
    const { result, ready } = renderShown(true);
    await ready();
    search('FIRST');
    const first = await readOf('FIRST');
    search('SECOND');
    const second = await readOf('SECOND');
    act(() => second.answer(ROWS));
    await waitFor(() => expect(result.current.search).toBe('SECOND'));
    act(() => first.answer(ROWS));
    await new Promise((resolve) => setTimeout(resolve, SHOW_AFTER_MS * 2));
    expect(result.current.search).toBe('SECOND');
  });

  it('shows a search whose read failed, so the table can give the error', async () => {
    const { result, ready } = renderShown(true);
    await ready();
    search('BROKEN');
    const read = await readOf('BROKEN');
    act(() => read.answer({ ok: false, error: { code: 'CACHE_UNREADABLE', message: 'The cache could not be read.' } }));
    await waitFor(() => expect(result.current.search).toBe('BROKEN'));
  });

  it('keeps the filter shown when only the order changes, so what shows the filter alone is not rendered again', async () => {
    const { result, ready } = renderShown(true);
    await ready();
    search('SAME');
    act(() => void readOf('SAME').then((read) => read.answer(ROWS)));
    await waitFor(() => expect(result.current.search).toBe('SAME'));
    const shown = result.current;
    const sort = { column: 'amount', direction: 'desc' } as const;
    act(() => useSettlements.getState().setSort(sort));
    await waitFor(() => expect(bridge.reads).toHaveLength(2));
    act(() => bridge.reads[1]!.answer(ROWS));
    await waitFor(() => expect(shownQuery().sort).toEqual(sort));
    expect(result.current).toBe(shown);
    // A filter that does change is a new object, as before.
    search('OTHER');
    act(() => void readOf('OTHER').then((read) => read.answer(ROWS)));
    await waitFor(() => expect(result.current.search).toBe('OTHER'));
  });

  it('follows the store at once while the screen is closed, and reads nothing', async () => {
    const { result } = renderShown(false);
    search('ELSEWHERE');
    expect(result.current.search).toBe('ELSEWHERE');
    expect(bridge.reads).toEqual([]);
  });
});
