/**
 * The data folder and each profile's cache size, and clearing one. Sizes are read again after every sync and
 * export (both change what is on disk) and after a clear.
 */
import { create } from 'zustand';
import type { IpcOutput } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import { useCacheStatus } from '../cache-status-store';
import { loaded, type Loadable } from '../loadable';

export type CacheList = IpcOutput<'cache.list'>;
export type CacheEntry = CacheList['caches'][number];
export type ClearResult = IpcOutput<'cache.clear'>;

interface CacheStore {
  list: Loadable<CacheList>;
  /** ISO UTC time the sizes were last read; shown only beside sizes that were read. */
  readAt: string | null;
  /** Per profile, the last clear: running, what it freed, or why main refused. */
  clears: Partial<Record<string, Loadable<ClearResult>>>;
  load(): Promise<void>;
  clear(profileId: string): Promise<void>;
  /** Reads the sizes again whenever a sync or an export ends; returns the function that stops. */
  follow(): () => void;
}

export const useCaches = create<CacheStore>()((set, get) => {
  // A slow answer must not replace the sizes read after it (a clear, then a sync's end).
  let asked = 0;
  const putClear = (profileId: string, value: Loadable<ClearResult>) =>
    set((s) => ({ clears: { ...s.clears, [profileId]: value } }));

  return {
    list: { status: 'loading' },
    readAt: null,
    clears: {},

    async load() {
      const question = ++asked;
      const result = await settle(() => api.cache.list());
      if (question === asked) set({ list: loaded(result), readAt: new Date().toISOString() });
    },

    async clear(profileId) {
      putClear(profileId, { status: 'loading' });
      const result = await settle(() => api.cache.clear({ profileId }));
      putClear(profileId, loaded(result));
      if (!result.ok) return;
      // Main answers a cleared cache as never synced without opening (and so recreating) it.
      void useCacheStatus.getState().refresh();
      await get().load();
    },

    follow() {
      const reload = () => void get().load();
      const stops = [
        api.on.syncFinished(({ profileId }) => {
          // "Cleared: 12.4 MB freed" is no longer the news once a sync has filled the cache again.
          set((s) => ({ clears: { ...s.clears, [profileId]: undefined } }));
          reload();
        }),
        api.on.exportFinished(reload),
      ];
      return () => stops.forEach((stop) => stop());
    },
  };
});
