/**
 * The active profile's "last synced" times for the status bar. Asked again after every sync, when the active
 * profile changes, after a balance refresh on the Accounts screen, and once a minute.
 */
import { create } from 'zustand';
import type { IpcOutput } from '../../shared/ipc/contract';
import { api, settle } from './api';
import { activeProfileId, useAppInfo } from './app-info-store';
import { loaded, type Loadable } from './loadable';

export type CacheStatus = IpcOutput<'cache.status'>;

const REFRESH_MS = 60_000;

interface CacheStatusStore {
  status: Loadable<CacheStatus>;
  refresh(): Promise<void>;
  /** Starts following syncs, profile switches and the clock; returns the function that stops. */
  follow(): () => void;
}

export const useCacheStatus = create<CacheStatusStore>()((set, get) => {
  // Answers can overtake each other (a profile switch during a slow read): only the newest question's counts.
  let asked = 0;

  return {
    status: { status: 'loading' },

    async refresh() {
      const question = ++asked;
      const result = await settle(() => api.cache.status());
      if (question === asked) set({ status: loaded(result) });
    },

    follow() {
      void get().refresh();
      const stopSync = api.on.syncFinished(() => void get().refresh());
      const stopProfile = useAppInfo.subscribe((now, before) => {
        if (activeProfileId(now.state) === activeProfileId(before.state)) return;
        // The previous profile's times must never show beside the new profile's name, not even for a moment.
        set({ status: { status: 'loading' } });
        void get().refresh();
      });
      const timer = setInterval(() => void get().refresh(), REFRESH_MS);
      return () => {
        stopSync();
        stopProfile();
        clearInterval(timer);
      };
    },
  };
});
