/**
 * Handlers of the `cache.*` channels: sizes per profile, the active profile's "last synced" times, clearing
 * (journaled), and the check of its most recent dates.
 */
import type { CacheRegistry } from '../cache/registry';
import type { Cache } from '../cache/database';
import { RECENT_DATES } from '../cache/settlement-verify';
import type { Journals } from '../journal/registry';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

export function createCacheHandlers(deps: {
  caches: CacheRegistry;
  profiles: ProfileStore;
  journals: Journals;
  dataDir: string;
  /** What is using a profile's cache right now (a sync, an export), or null. */
  busyReason(profileId: string): string | null;
}): Pick<IpcHandlers, 'cache.list' | 'cache.status' | 'cache.clear' | 'cache.integrity'> {
  return {
    'cache.list': () => ({
      dataDir: deps.dataDir,
      caches: deps.profiles.list().map((p) => ({
        profileId: p.id,
        file: deps.caches.fileFor(p.id),
        sizeBytes: deps.caches.sizeOf(p.id),
      })),
    }),
    'cache.status': () => {
      const profileId = deps.profiles.active().id;
      // Asking must not create a cache: a profile never synced has none (a cleared one keeps its journal).
      if (deps.caches.sizeOf(profileId) === 0) return { profileId, settlementsSyncedAt: null, balancesAt: null };
      const cache = deps.caches.cacheFor(profileId);
      return {
        profileId,
        settlementsSyncedAt: cache.settlements.lastSyncedAt(),
        balancesAt: cache.accounts.overview().asOf,
      };
    },
    'cache.clear': async ({ profileId }) => {
      const id = deps.profiles.get(profileId).id;
      const freedBytes = await deps.caches.clear(id, deps.busyReason(id));
      deps.journals.for(id).journal.append({
        kind: 'cache',
        event: 'cache.cleared',
        outcome: 'done',
        summary: `Cleared the local cache (${freedBytes.toLocaleString('en-IN')} bytes freed); the journal and closed periods were kept.`,
        data: { freedBytes },
      });
      return { cleared: true, freedBytes };
    },
    'cache.integrity': async () => {
      const profileId = deps.profiles.active().id;
      if (deps.caches.sizeOf(profileId) === 0) return verifyRecent(null);
      return verifyRecent(deps.caches.cacheFor(profileId));
    },
  };
}

/**
 * The cache's most recent dates checked, off main (Cache.verifyApart); a profile with no cache has nothing to check
 * (and asking makes none).
 */
function verifyRecent(cache: Cache | null) {
  return cache === null
    ? { from: null, to: null, dates: 0, records: 0, undigested: [], mismatches: [], affectedDates: [] }
    : cache.verifyApart(cache.settlements.verifier.dates().slice(-RECENT_DATES));
}
