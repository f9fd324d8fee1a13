/**
 * Reads of the settlement cache: the filter every read takes, the keyset-paged query, and the shapes of
 * rows, totals and aggregates. Amounts are integer paise; `asOf` is the ISO UTC time the range was last
 * synced (the oldest date's, when dates were synced at different times), null when none of it was.
 *
 * A record's `date` is the settlement date the API was asked for; a record is `vanished` when a later
 * sync of its date no longer returned it (kept, marked with the time, excluded from reads by default).
 */
import { z } from 'zod';
import { calendarDate } from './api/common';
import { SETTLEMENT_PAGE } from './api/settlements';
import { RULE_IDS, type RuleId } from './reconciliation';

/** The times and amounts: the first of the keyed columns, and sorted newest and largest first. */
const TIMES_AND_AMOUNTS = [
  'settlement_date',
  'order_date',
  'amount',
  'mer_service_fee',
  'mer_service_tax',
  'settled_amount',
] as const;

/**
 * The sort columns the cache keeps sort keys for (electron/cache/sort-keys.ts). A column's number in the key table is
 * its place here, so a new one goes at the end.
 */
export const KEYED_SORT_COLUMNS = [
  ...TIMES_AND_AMOUNTS,
  'order_id',
  'pg_transaction_id',
  'utr',
  // Few values, ordered by the rollup's counts (settlement-value-order.ts) for a first page and a jump; their keys
  // (migration 17) serve pages that continue a merge: a rare status's rows, a few of each date's, are then read from
  // the keys in order instead of walked for in every record of their dates.
  'order_status',
  'pg_status',
] as const;
export type KeyedSortColumn = (typeof KEYED_SORT_COLUMNS)[number];

/**
 * Rows the Settlements grid reads first for a new filter or order: more than a screen and the grid's overscan on a
 * tall window (60 rows at 1,700 pixels). Small reads cost a fraction of a page's time through the IPC bridge and its
 * parsing (test/bench/ui.ts). The cache warms its sort lists with first pages of this size (sort-warming.ts).
 */
export const GRID_FIRST_ROWS = 64;

/**
 * The sort columns a query may name; anything else is refused before SQL is involved. `date` (the
 * default, newest first) orders by date, then by the order the API listed the date's records; it, the gateway and
 * the payment mode have no sort keys.
 */
export const SETTLEMENT_SORT_COLUMNS = ['date', 'pg', 'payment_mode', ...KEYED_SORT_COLUMNS] as const;
export type SettlementSortColumn = (typeof SETTLEMENT_SORT_COLUMNS)[number];

const NEWEST_OR_LARGEST_FIRST: ReadonlySet<SettlementSortColumn> = new Set(['date', ...TIMES_AND_AMOUNTS]);

/**
 * The direction a column's header sorts in at its first click: the newest times and the largest amounts first, text
 * A to Z. The grid's reader warms that direction of every order before the other (sort-warming.ts).
 */
export const firstSortDirection = (column: SettlementSortColumn): 'asc' | 'desc' =>
  NEWEST_OR_LARGEST_FIRST.has(column) ? 'desc' : 'asc';

export const SETTLEMENT_STATES = ['current', 'vanished', 'all'] as const;

/** The dates the cache can hold: row ids are day × 2^32 (settlement-ids.ts), exact only from 1970 and below 2^53. */
export const CACHE_FIRST_DATE = '1970-01-01';
export const CACHE_LAST_DATE = '2999-12-31';
export const cacheDate = calendarDate.refine(
  (d) => d >= CACHE_FIRST_DATE && d <= CACHE_LAST_DATE,
  `must be from ${CACHE_FIRST_DATE} to ${CACHE_LAST_DATE}`,
);

/** A filter's text (a gateway, a status): short, so a pasted megabyte is refused before SQL or a file name sees it. */
export const filterText = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

const filterFields = {
  from: cacheDate,
  to: cacheDate,
  pg: filterText.optional(),
  paymentMode: filterText.optional(),
  orderStatus: filterText.optional(),
  pgStatus: filterText.optional(),
  /** Only records that break at least one reconciliation rule (or `rule`, when given). */
  exceptionsOnly: z.boolean().optional(),
  rule: z.enum(RULE_IDS as [RuleId, ...RuleId[]]).optional(),
  /**
   * With `exceptionsOnly` or `rule`, the Settlements grid leaves resolved exceptions out unless this is true
   * (treasury/exception-queue.ts says whose states: the cache's workflow, or the desk's). Exports ignore it.
   */
  includeResolved: z.boolean().optional(),
  /** An order id, gateway transaction id or UTR, in full or its start, any case. */
  search: z.string().trim().min(1).max(64).optional(),
  state: z.enum(SETTLEMENT_STATES).optional(),
};

const rangeInOrder = { message: 'must not be before from', path: ['to'] };

export const settlementFilter = z
  .object(filterFields)
  .strict()
  .refine((f) => f.from <= f.to, rangeInOrder);
export type SettlementFilter = z.input<typeof settlementFilter>;

export const settlementSort = z
  .object({ column: z.enum(SETTLEMENT_SORT_COLUMNS), direction: z.enum(['asc', 'desc']) })
  .strict();
export type SettlementSort = z.output<typeof settlementSort>;

export const settlementQuery = z
  .object({
    ...filterFields,
    /** Default: newest settlement first. */
    sort: settlementSort.optional(),
    /** The `nextCursor` of the previous page, with the same filter and sort. */
    after: z.string().min(1).max(512).optional(),
    /** Instead of `after`: the page starts at this row of the result, 0 being the first (a jump, "go to row"). */
    position: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    limit: z.number().int().min(1).max(SETTLEMENT_PAGE.maxLimit).optional(),
  })
  .strict()
  .refine((f) => f.from <= f.to, rangeInOrder)
  .refine((f) => f.after === undefined || f.position === undefined, {
    message: 'give a cursor or a position, not both',
    path: ['position'],
  });
export type SettlementQuery = z.input<typeof settlementQuery>;

const minor = z.number().int();
const asOf = z.string().nullable();

/** What the grid's state column says of an exception: its state, or `assigned` for an unresolved one with an owner. */
export const EXCEPTION_LABELS = ['open', 'acknowledged', 'assigned', 'resolved'] as const;
export type ExceptionLabel = (typeof EXCEPTION_LABELS)[number];

export const cachedException = z.object({
  rule: z.enum(RULE_IDS as [RuleId, ...RuleId[]]),
  values: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
});

export const cachedSettlement = z.object({
  id: z.number().int(),
  date: z.string(),
  pg: z.string(),
  pg_transaction_id: z.string(),
  settlement_date: z.string(),
  order_id: z.string().nullable(),
  order_date: z.string(),
  utr: z.string().nullable(),
  order_status: z.string(),
  pg_status: z.string(),
  payment_mode: z.string(),
  amount: minor,
  mer_service_fee: minor,
  mer_service_tax: minor,
  merchant_subvention_amount: minor,
  cgst: minor,
  igst: minor,
  sgst: minor,
  settled_amount: minor,
  dispute_id: z.string().nullable(),
  description: z.string().nullable(),
  /** Fields the API sent that the contract does not name, kept as sent. */
  extra: z.record(z.string(), z.unknown()).nullable(),
  exceptions: z.array(cachedException),
  /** ISO UTC time a re-sync found the record gone; null while the API still returns it. */
  vanishedAt: z.string().nullable(),
  /** The Settlements grid's rows only: the exception's workflow state, null for a record that breaks no rule. */
  exceptionState: z.enum(EXCEPTION_LABELS).nullable().optional(),
});
export type CachedSettlement = z.output<typeof cachedSettlement>;

export const settlementPage = z.object({
  rows: z.array(cachedSettlement),
  nextCursor: z.string().nullable(),
  asOf,
});
export type SettlementPageResult = z.output<typeof settlementPage>;

/** Sums of records; the amount split by line kind (`lineKind`, shared/reconciliation.ts): sales + refunds + chargebacks = amount, refunds and chargebacks signed (0 or less). */
export const settlementSums = z.object({
  count: z.number().int().nonnegative(),
  amount: minor,
  fees: minor,
  taxes: minor,
  settled: minor,
  sales: minor,
  refunds: minor,
  chargebacks: minor,
});
export type SettlementSums = z.output<typeof settlementSums>;

export const settlementTotals = settlementSums.extend({ asOf });
export type SettlementTotals = z.output<typeof settlementTotals>;

export const settlementAggregate = z.object({
  byDate: z.array(settlementSums.extend({ date: z.string(), pg: z.string(), paymentMode: z.string() })),
  total: settlementSums,
  asOf,
});
export type SettlementAggregate = z.output<typeof settlementAggregate>;
