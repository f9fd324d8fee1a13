/**
 * Handlers of the `settlements.*` channels: reads of the active profile's cache, which work offline; the exception
 * workflow, on the same cache or the profile's desk (treasury/exception-queue.ts); and the triage, the one that asks the service.
 */
import type { MerchantApi } from '../api';
import type { Cache } from '../cache/database';
import { triageDate } from '../treasury/exception-triage';
import type { ProfileStore } from '../profiles/profile-store';
import type { ExceptionQueue } from '../treasury/exception-queue';
import type { IpcHandlers } from './router';

export function createSettlementHandlers(
  cacheFor: (profileId: string) => Cache,
  profiles: ProfileStore,
  apiFor: (profileId: string) => Pick<MerchantApi, 'classification' | 'close'>,
  exceptions: ExceptionQueue,
): Pick<
  IpcHandlers,
  | 'settlements.query'
  | 'settlements.totals'
  | 'settlements.aggregate'
  | 'settlements.facets'
  | 'settlements.changes'
  | 'settlements.changesSummary'
  | 'settlements.completeness'
  | 'settlements.exception'
  | 'settlements.exceptionAction'
  | 'settlements.triage'
> {
  const cache = () => cacheFor(profiles.active().id);
  const settlements = () => cache().settlements;
  return {
    'settlements.changes': (query) => cache().changes.page(query),
    'settlements.changesSummary': (range) => cache().changes.summary(range),
    'settlements.completeness': (range) => cache().manifests.completeness(range),
    'settlements.exception': ({ recordId }) => exceptions.detail(profiles.active().id, recordId),
    'settlements.exceptionAction': (request) => exceptions.act(profiles.active().id, request),
    'settlements.triage': async (request) => {
      const profileId = profiles.active().id;
      const api = apiFor(profileId);
      try {
        return await triageDate({ api, cache: cacheFor(profileId), request });
      } finally {
        api.close();
      }
    },
    // The grid's reads: exception states and "Exceptions only" by the cache's workflow or the desk's.
    'settlements.query': (query) => exceptions.gridPage(profiles.active().id, query),
    'settlements.totals': (filter) => exceptions.gridTotals(profiles.active().id, filter),
    'settlements.aggregate': (filter) => exceptions.gridAggregate(profiles.active().id, filter),
    'settlements.facets': (range) => settlements().facets(range),
  };
}
