/**
 * The settlement filter as SQL: one fixed WHERE text with every optional filter written as
 * `(:x IS NULL OR ...)`, so each read is a named prepared statement and a caller's values only ever
 * travel as parameters. The date range is an id range (`:lo`, `:hi`), left to each statement.
 */
import type { z } from 'zod';
import type { SETTLEMENT_STATES, settlementFilter } from '../../shared/settlement-query';
import { prefixPattern } from './cursor';
import { idRange } from './settlement-ids';
import { ruleBit } from './settlement-rows';
import { searchBounds } from './settlement-search';

export const FILTER_SQL = `
  (:pg IS NULL OR pg = :pg)
  AND (:mode IS NULL OR payment_mode = :mode)
  AND (:orderStatus IS NULL OR order_status = :orderStatus)
  AND (:pgStatus IS NULL OR pg_status = :pgStatus)
  AND (:ruleBit IS NULL OR exception_flags & :ruleBit <> 0)
  AND (:search IS NULL OR order_id LIKE :search ESCAPE '\\' OR pg_transaction_id LIKE :search ESCAPE '\\'
       OR utr LIKE :search ESCAPE '\\')
  AND (CASE :state WHEN 'current' THEN vanished_at IS NULL WHEN 'vanished' THEN vanished_at IS NOT NULL ELSE 1 END)`;

const SAME_KEY = (t: string) =>
  `${t}.date = settlements.date AND ${t}.pg = settlements.pg AND ${t}.pg_transaction_id = settlements.pg_transaction_id
   AND ${t}.settlement_date = settlements.settlement_date`;

/**
 * `exception_flags <> 0` is written out literally so the planner can use the index over records with exceptions.
 * `:hideResolved` leaves resolved exceptions out (the grid's "Exceptions only"): 1 by the cache's own workflow,
 * 2 by the desk's states copied into the cache; a primary-key probe per exception, no round trip to the desk.
 */
export const EXCEPTIONS_SQL = `AND exception_flags <> 0
  AND (:hideResolved = 0
       OR (:hideResolved = 1 AND NOT EXISTS (SELECT 1 FROM settlement_exception_states st
                                             WHERE st.state = 'resolved' AND ${SAME_KEY('st')}))
       OR (:hideResolved = 2 AND NOT EXISTS (SELECT 1 FROM desk_exception_states ds
                                             WHERE ds.state = 'resolved' AND ${SAME_KEY('ds')})))`;

/** Whose workflow states say an exception is resolved: the cache's own, or the desk's copy; null: none are left out. */
export type ResolvedSource = 'local' | 'desk' | null;

export interface FilterParams {
  from: string;
  to: string;
  /** The ids of the date range (settlement-ids.ts). */
  lo: number;
  hi: number;
  pg: string | null;
  mode: string | null;
  orderStatus: string | null;
  pgStatus: string | null;
  ruleBit: number | null;
  /** The LIKE pattern every searched row is checked with: a UTR, transaction id or order id starting with the text. */
  search: string | null;
  /** The same text as a key range of the search indexes (settlement-search.ts). */
  searchLo: string | null;
  searchHi: string | null;
  state: (typeof SETTLEMENT_STATES)[number];
  /** 0: resolved exceptions are read like the rest; 1 and 2: left out, by the cache's or the desk's states. */
  hideResolved: 0 | 1 | 2;
}

export interface ParsedFilter {
  params: FilterParams;
  exceptionsOnly: boolean;
  /** True when the rollup answers totals and aggregates: current records, no text search. */
  rollupCovers: boolean;
}

/**
 * A filter already checked by `settlementFilter` or `settlementQuery`. `resolved` names whose states leave resolved
 * exceptions out of an exceptions view (the grid's reads); without it (exports, the CLI) none are left out.
 */
export function toSqlFilter(f: z.output<typeof settlementFilter>, resolved: ResolvedSource = null): ParsedFilter {
  const params: FilterParams = {
    from: f.from,
    to: f.to,
    ...idRange(f.from, f.to),
    pg: f.pg ?? null,
    mode: f.paymentMode ?? null,
    orderStatus: f.orderStatus ?? null,
    pgStatus: f.pgStatus ?? null,
    ruleBit: f.rule === undefined ? null : ruleBit(f.rule),
    search: f.search === undefined ? null : prefixPattern(f.search),
    ...(f.search === undefined ? { searchLo: null, searchHi: null } : searchBounds(f.search)),
    state: f.state ?? 'current',
    hideResolved: 0,
  };
  const exceptionsOnly = f.exceptionsOnly === true || f.rule !== undefined;
  if (exceptionsOnly && resolved !== null && f.includeResolved !== true) {
    params.hideResolved = resolved === 'local' ? 1 : 2;
  }
  // The rollup and the sort keys know a record's rules, not its workflow state: leaving resolved ones out reads the
  // records through the index over exceptions instead.
  const rollupCovers = params.state === 'current' && params.search === null && params.hideResolved === 0;
  return { params, exceptionsOnly, rollupCovers };
}
