/** Handlers of the `settlements.*` channels: reads of the active profile's cache, which work offline. */
import type { Cache } from '../cache/database';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

export function createSettlementHandlers(
  cacheFor: (profileId: string) => Cache,
  profiles: ProfileStore,
): Pick<IpcHandlers, 'settlements.query' | 'settlements.totals' | 'settlements.aggregate' | 'settlements.facets'> {
  const settlements = () => cacheFor(profiles.active().id).settlements;
  return {
    'settlements.query': (query) => settlements().query(query),
    'settlements.totals': (filter) => settlements().totals(filter),
    'settlements.aggregate': (filter) => settlements().aggregate(filter),
    'settlements.facets': (range) => settlements().facets(range),
  };
}
