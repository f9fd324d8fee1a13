/**
 * The grid reader's sort lists warmed while it has nothing to read. A column's first sort reads its lists' marks,
 * blocks and heads cold: a first screen took 8–35 ms on the sync-shaped data set (580,000 records), 1–8 ms with
 * them kept (docs/performance/sort-warming.md). So once the reader has answered a new filter's first page and then
 * been idle for `idleMs`, it reads that filter's first screen in every order but the date's, both ways, one order a
 * turn of its event loop, and stops at the next request: a person's read waits at most for one order's (5–60 ms
 * cold). Each filter is warmed once for the file's data; once that changes, the filter's next first page starts again.
 */
import {
  firstSortDirection,
  type SettlementQuery,
  type SettlementSort,
  type SettlementSortColumn,
} from '../../shared/settlement-query';
import type { GridSource, SettlementRead } from './settlement-reader';

/** Longer than the search box's pause between keys (120 ms), so typing is not met by a warming read. */
export const WARM_IDLE_MS = 150;

/**
 * Every order but the date's, which reads the records by id and has nothing to warm: each column's first click
 * first, the amounts and the ids before the rest, then each the other way. Warming may be cut short by the next
 * request, so the sorts a person is likeliest to ask for go first.
 */
const LIKELIEST: readonly SettlementSortColumn[] = [
  'amount',
  'settled_amount',
  'utr',
  'order_id',
  'pg_transaction_id',
  'settlement_date',
  'order_date',
  'mer_service_fee',
  'mer_service_tax',
  'pg',
  'payment_mode',
  'order_status',
  'pg_status',
];
const ORDERS: readonly SettlementSort[] = [
  ...LIKELIEST.map((column) => ({ column, direction: firstSortDirection(column) })),
  ...LIKELIEST.map((column) => ({ column, direction: firstSortDirection(column) === 'asc' ? 'desc' : 'asc' }) as const),
];

export interface SortWarmingOptions {
  /** Reads the first screen of `query`'s filter in `sort` for its caches (`settlements.warmSort`). */
  warm(query: SettlementQuery, sort: SettlementSort, source: GridSource): void;
  /** The file's data generation (data-generation.ts): a filter is warmed again once it changes. */
  generation(): string;
  idleMs?: number;
}

export function createSortWarming({ warm, generation, idleMs = WARM_IDLE_MS }: SortWarmingOptions) {
  let target: { name: string; query: SettlementQuery; source: GridSource; left: SettlementSort[] } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let next: ReturnType<typeof setImmediate> | null = null;

  function pause() {
    if (timer !== null) clearTimeout(timer);
    if (next !== null) clearImmediate(next);
    timer = next = null;
  }

  function step() {
    timer = next = null;
    const t = target;
    const sort = t?.left.shift();
    if (!t || !sort) return;
    try {
      warm(t.query, sort, t.source);
    } catch {
      // A read that fails here fails the grid's own read too, which says why; warming has nothing to add.
      t.left.length = 0;
      return;
    }
    if (t.left.length > 0) next = setImmediate(step);
  }

  return {
    /**
     * A request came in: warming waits until the reader is idle again. A first page of a filter the keys serve (no
     * text search, current records) gives it that filter's other orders.
     */
    asked(read: SettlementRead): void {
      pause();
      if (read.read !== 'page') return;
      const { query, source } = read;
      if (query.after !== undefined || (query.position ?? 0) > 0) return;
      if (query.search !== undefined || (query.state ?? 'current') !== 'current') return;
      // The filter, whatever the page's order and size.
      const name = JSON.stringify([generation(), source, { ...query, sort: undefined, limit: undefined }]);
      if (target?.name === name) return;
      const shown = (o: SettlementSort) => o.column === query.sort?.column && o.direction === query.sort.direction;
      target = { name, query, source, left: ORDERS.filter((o) => !shown(o)) };
    },
    /** Every request is answered: warming goes on after `idleMs` with nothing asked. */
    idle(): void {
      pause();
      if (target && target.left.length > 0) timer = setTimeout(step, idleMs);
    },
  };
}
