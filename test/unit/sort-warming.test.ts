/**
 * When the grid reader warms its sort lists (electron/cache/sort-warming.ts): only after it has been idle, one order a
 * turn, never while a request is waiting, once per filter and data. The clock is Vitest's: nothing here races a timer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSortWarming } from '../../electron/cache/sort-warming';
import type { SettlementRead } from '../../electron/cache/settlement-reader';
import {
  SETTLEMENT_SORT_COLUMNS,
  firstSortDirection,
  type SettlementQuery,
  type SettlementSort,
} from '../../shared/settlement-query';

const IDLE = 150;
const RANGE = { from: '2025-03-01', to: '2025-03-31' };
const page = (query: SettlementQuery, source: 'local' | 'desk' = 'local'): SettlementRead => ({
  read: 'page',
  query,
  source,
});
const ALL_ORDERS = (SETTLEMENT_SORT_COLUMNS.length - 1) * 2;

function setup() {
  const warmed: { query: SettlementQuery; sort: SettlementSort; source: string }[] = [];
  let generation = 'g1';
  const warming = createSortWarming({
    warm: (query, sort, source) => warmed.push({ query, sort, source }),
    generation: () => generation,
    idleMs: IDLE,
  });
  return {
    warming,
    warmed,
    /** A request answered: what the worker does for each. */
    answer(read: SettlementRead) {
      warming.asked(read);
      warming.idle();
    },
    write: (next: string) => (generation = next),
  };
}

describe('sort warming', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] }));
  afterEach(() => vi.useRealTimers());

  it('warms every other order of a first page once the reader has been idle, one order a turn', () => {
    const { answer, warmed } = setup();
    answer(page({ ...RANGE, pg: 'razorpay', sort: { column: 'amount', direction: 'asc' }, limit: 64 }));
    vi.advanceTimersByTime(IDLE - 1);
    expect(warmed).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(warmed).toHaveLength(1);
    vi.advanceTimersToNextTimer();
    expect(warmed).toHaveLength(2);
    vi.runAllTimers();
    expect(warmed).toHaveLength(ALL_ORDERS - 1);
    // The order on screen is already read; every other is read once, both ways, with the page's filter and source.
    const orders = warmed.map(({ sort }) => `${sort.column} ${sort.direction}`);
    expect(new Set(orders).size).toBe(ALL_ORDERS - 1);
    expect(orders).not.toContain('amount asc');
    expect(orders).toContain('amount desc');
    for (const w of warmed) expect(w).toMatchObject({ query: { ...RANGE, pg: 'razorpay' }, source: 'local' });
    // Each column's first click before any column's second: warming cut short has read the likelier ones.
    const firstClicks = warmed.slice(0, SETTLEMENT_SORT_COLUMNS.length - 1).map(({ sort }) => sort);
    for (const sort of firstClicks) expect(sort.direction).toBe(firstSortDirection(sort.column));
    expect(orders.slice(0, 3)).toEqual(['amount desc', 'settled_amount desc', 'utr asc']);
  });

  it('stops at a request and goes on after the next idle with the orders left', () => {
    const { warming, answer, warmed } = setup();
    answer(page({ ...RANGE, limit: 64 }));
    vi.advanceTimersByTime(IDLE);
    vi.advanceTimersToNextTimer();
    expect(warmed).toHaveLength(2);
    // The totals of the same filter: asked, then warming waits while it is read.
    warming.asked({ read: 'totals', filter: RANGE, source: 'local' });
    vi.runAllTimers();
    expect(warmed).toHaveLength(2);
    warming.idle();
    vi.runAllTimers();
    expect(warmed).toHaveLength(ALL_ORDERS);
    expect(new Set(warmed.map(({ sort }) => `${sort.column} ${sort.direction}`)).size).toBe(ALL_ORDERS);
  });

  it('warms a filter again only once the data has changed', () => {
    const { answer, warmed, write } = setup();
    answer(page({ ...RANGE, limit: 64 }));
    vi.runAllTimers();
    // The same filter read again, in another order and size: nothing more to warm.
    answer(page({ ...RANGE, sort: { column: 'utr', direction: 'desc' }, limit: 500 }));
    vi.runAllTimers();
    expect(warmed).toHaveLength(ALL_ORDERS);
    write('g2');
    answer(page({ ...RANGE, limit: 64 }));
    vi.runAllTimers();
    expect(warmed).toHaveLength(2 * ALL_ORDERS);
  });

  it('leaves alone what the keys do not serve or a page that is not a first one', () => {
    const { answer, warmed } = setup();
    answer(page({ ...RANGE, search: '1234', limit: 64 }));
    answer(page({ ...RANGE, state: 'vanished', limit: 64 }));
    answer(page({ ...RANGE, position: 40_000, limit: 90 }));
    answer(page({ ...RANGE, after: 'cursor', limit: 500 }));
    answer({ read: 'aggregate', filter: RANGE, source: 'local' });
    vi.runAllTimers();
    expect(warmed).toHaveLength(0);
  });

  it('ends a filter’s warming at a failed read, and warms the next filter', () => {
    const warmed: string[] = [];
    const warming = createSortWarming({
      warm: (query, sort) => {
        warmed.push(`${query.pg ?? 'all'} ${sort.column} ${sort.direction}`);
        if (query.pg === 'cashfree') throw new Error('the cache was closed');
      },
      generation: () => 'g1',
      idleMs: IDLE,
    });
    warming.asked(page({ ...RANGE, pg: 'cashfree', limit: 64 }));
    warming.idle();
    vi.runAllTimers();
    expect(warmed).toEqual(['cashfree amount desc']);
    warming.asked(page({ ...RANGE, pg: 'payu', limit: 64 }));
    warming.idle();
    vi.runAllTimers();
    expect(warmed).toHaveLength(1 + ALL_ORDERS);
  });
});
