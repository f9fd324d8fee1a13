import { create } from 'zustand';
import type { IpcOutput } from '../../shared/ipc/contract';
import { api, settle } from './api';
import { loaded, type Loadable } from './loadable';

export type AppInfo = IpcOutput<'app.info'>;

/** The active profile's id once the app info is in, else null. */
export const activeProfileId = (state: Loadable<AppInfo>): string | null =>
  state.status === 'ready' ? state.value.profile.id : null;

interface AppInfoStore {
  state: Loadable<AppInfo>;
  load(): Promise<void>;
}

export const useAppInfo = create<AppInfoStore>()((set) => ({
  state: { status: 'loading' },
  async load() {
    const result = await settle(() => api.app.info());
    set({ state: loaded(result) });
  },
}));
