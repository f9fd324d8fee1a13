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

/** Written out literally so the planner can use the index over records with exceptions. */
export const EXCEPTIONS_SQL = 'AND exception_flags <> 0';

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
}

export interface ParsedFilter {
  params: FilterParams;
  exceptionsOnly: boolean;
  /** True when the rollup answers totals and aggregates: current records, no text search. */
  rollupCovers: boolean;
}

/** A filter already checked by `settlementFilter` or `settlementQuery`. */
export function toSqlFilter(f: z.output<typeof settlementFilter>): ParsedFilter {
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
  };
  const exceptionsOnly = f.exceptionsOnly === true || f.rule !== undefined;
  const rollupCovers = params.state === 'current' && params.search === null;
  return { params, exceptionsOnly, rollupCovers };
}
