/** Schemas of the `settlements.*` channels: keyset pages, totals, aggregates and filter choices, all from the cache. */
import { z } from 'zod';
import {
  cacheDate,
  filterText,
  settlementAggregate,
  settlementFilter,
  settlementPage,
  settlementQuery,
  settlementTotals,
} from '../settlement-query';
import {
  changesPage,
  changesQuery,
  changesSummary,
  dateCompleteness,
  exceptionActionRequest,
  exceptionDetail,
  manifestQuery,
  triageRequest,
  triageSummary,
} from '../settlement-changes';
import type { DomainSchemas } from './contract';

/** The values the cached range holds, for the filter menus; with `pg`, the other menus list that gateway's values. */
export const settlementFacets = z.object({
  pgs: z.array(z.string()),
  paymentModes: z.array(z.string()),
  orderStatuses: z.array(z.string()),
  pgStatuses: z.array(z.string()),
});
export type SettlementFacets = z.output<typeof settlementFacets>;

export const settlementsChannels = {
  'settlements.query': { input: settlementQuery, output: settlementPage },
  'settlements.totals': { input: settlementFilter, output: settlementTotals },
  'settlements.aggregate': { input: settlementFilter, output: settlementAggregate },
  'settlements.facets': {
    input: z
      .object({ from: cacheDate, to: cacheDate, pg: filterText.optional() })
      .strict()
      .refine((r) => r.from <= r.to, { message: 'must not be before from', path: ['to'] }),
    output: settlementFacets,
  },
  'settlements.changes': { input: changesQuery, output: changesPage },
  'settlements.changesSummary': { input: manifestQuery, output: changesSummary },
  'settlements.completeness': { input: manifestQuery, output: z.array(dateCompleteness) },
  'settlements.exception': {
    input: z.object({ recordId: z.number().int().positive() }).strict(),
    output: exceptionDetail,
  },
  'settlements.exceptionAction': { input: exceptionActionRequest, output: exceptionDetail },
  /** Asks the classification service about each exception of the date (the record alone goes out). */
  'settlements.triage': { input: triageRequest, output: triageSummary },
} satisfies DomainSchemas<'settlements'>;
