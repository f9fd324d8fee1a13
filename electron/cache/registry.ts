/**
 * The open caches of a running app: one SQLite file per profile (`<data>/cache/<profile id>.sqlite`), opened
 * when first needed and kept open (opens are not free), closed and cleared on request.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { CACHE_FILE_SUFFIXES, cacheFileSize, openCache, type Cache } from './database';
import type { Recovery } from './recovery';

export class CacheBusyError extends Error {
  override name = 'CacheBusyError';
  readonly code = 'CACHE_BUSY';
}

/** What clearing a cache keeps: the audit journal and the closed periods (electron/journal/). */
const CARRIED_OVER = ['journal', 'period_closes', 'period_close_records'] as const;

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

  /** `profileId` must be a known profile's id: callers resolve it through the profile store first. */
  function cacheFor(profileId: string): Cache {
    let cache = caches.get(profileId);
    if (!cache) {
      cache = openCache(fileFor(profileId), { nativeBinding: options.nativeBinding, now: options.now });
      if (cache.recovered) options.onRecovered?.(profileId, cache.recovered);
      caches.set(profileId, cache);
      // The settlement records' integrity check, off the main thread while the app reads (integrity.ts).
      const opened = cache;
      void opened.checkAfterOpen().then((check) => {
        // A check stopped by closing or clearing the cache has nothing to say (and its data folder may be gone).
        if (caches.get(profileId) !== opened) return;
        if (check.status === 'damaged') options.log.warn('cache damaged', { profileId, ...check });
        else if (check.status === 'not-run') options.log.info('cache check not run', { profileId, ...check });
      });
    }
    return cache;
  }

  return {
    dir: join(options.dataDir, 'cache'),
    fileFor,
    cacheFor,
    /** Bytes on disk, the WAL and shared-memory files included; 0 when the profile has no cache yet. */
    sizeOf: (profileId: string) => cacheFileSize(fileFor(profileId)),
    /**
     * Closes and deletes a profile's cache, keeping its audit journal and closed periods: they are copied into the
     * fresh file, since a journal that a "clear cache" could erase would prove nothing. `busyReason` says what is
     * using it (a sync, an export) and refuses. Returns the bytes freed.
     */
    async clear(profileId: string, busyReason: string | null): Promise<number> {
      if (busyReason !== null) throw new CacheBusyError(`The cache cannot be cleared while ${busyReason}.`);
      const file = fileFor(profileId);
      const before = cacheFileSize(file);
      if (before === 0) return 0;
      // Opened (and so migrated) first, so the old file is sure to have the tables that are carried over.
      cacheFor(profileId);
      // Closed with its grid's read worker, which must let go of the file first (Windows renames no file another
      // thread holds open); a read asked meanwhile may open it again, so until no connection is left.
      for (let open = caches.get(profileId); open; open = caches.get(profileId)) {
        caches.delete(profileId);
        await open.close();
      }
      const kept = `${file}.clearing`;
      for (const s of CACHE_FILE_SUFFIXES) if (existsSync(file + s)) renameSync(file + s, kept + s);
      const fresh = cacheFor(profileId);
      fresh.db.prepare('ATTACH DATABASE ? AS old').run(kept);
      try {
        fresh.db.transaction(() => {
          for (const table of CARRIED_OVER) fresh.db.exec(`INSERT INTO main.${table} SELECT * FROM old.${table}`);
        })();
      } finally {
        fresh.db.exec('DETACH DATABASE old');
      }
      for (const s of CACHE_FILE_SUFFIXES) rmSync(kept + s, { force: true });
      return Math.max(0, before - cacheFileSize(file));
    },
    /** Closes every connection at once; resolves when their settlement-read workers have stopped. */
    closeAll(): Promise<void> {
      const closed = [...caches.values()].map((cache) => cache.close());
      caches.clear();
      return Promise.all(closed).then(() => undefined);
    },
  };
}
export type CacheRegistry = ReturnType<typeof createCacheRegistry>;
