/**
 * The open caches of a running app: one SQLite file per profile (`<data>/cache/<profile id>.sqlite`), opened
 * when first needed and kept open (opens are not free), closed and deleted on request.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { CACHE_FILE_SUFFIXES, cacheFileSize, openCache, type Cache } from './database';
import type { Recovery } from './recovery';

export class CacheBusyError extends Error {
  override name = 'CacheBusyError';
  readonly code = 'CACHE_BUSY';
}

export function createCacheRegistry(options: {
  dataDir: string;
  log: Logger;
  nativeBinding?: string;
  now?: () => Date;
  /** Told of a cache file moved aside at open, for the user (notices.ts). */
  onRecovered?: (profileId: string, recovered: Recovery) => void;
}) {
  const caches = new Map<string, Cache>();
  const fileFor = (profileId: string) => join(options.dataDir, 'cache', `${profileId}.sqlite`);

  return {
    dir: join(options.dataDir, 'cache'),
    fileFor,
    /** `profileId` must be a known profile's id: callers resolve it through the profile store first. */
    cacheFor(profileId: string): Cache {
      let cache = caches.get(profileId);
      if (!cache) {
        cache = openCache(fileFor(profileId), { nativeBinding: options.nativeBinding, now: options.now });
        if (cache.recovered) options.onRecovered?.(profileId, cache.recovered);
        caches.set(profileId, cache);
        // The settlement records' integrity check, off the main thread while the app reads (integrity.ts).
        void cache.checkAfterOpen().then((check) => {
          if (check.status === 'damaged') options.log.warn('cache damaged', { profileId, ...check });
          else if (check.status === 'not-run') options.log.info('cache check not run', { profileId, ...check });
        });
      }
      return cache;
    },
    /** Bytes on disk, the WAL and shared-memory files included; 0 when the profile has no cache yet. */
    sizeOf: (profileId: string) => cacheFileSize(fileFor(profileId)),
    /**
     * Closes and deletes a profile's cache. `busyReason` says what is using it (a sync, an export) and refuses;
     * the next read opens an empty cache.
     */
    clear(profileId: string, busyReason: string | null): number {
      if (busyReason !== null) throw new CacheBusyError(`The cache cannot be cleared while ${busyReason}.`);
      const freed = cacheFileSize(fileFor(profileId));
      caches.get(profileId)?.close();
      caches.delete(profileId);
      for (const s of CACHE_FILE_SUFFIXES) rmSync(fileFor(profileId) + s, { force: true });
      return freed;
    },
    closeAll(): void {
      for (const cache of caches.values()) cache.close();
      caches.clear();
    },
  };
}
export type CacheRegistry = ReturnType<typeof createCacheRegistry>;
