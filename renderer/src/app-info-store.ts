import { create } from 'zustand';
import type { IpcError, IpcOutput } from '../../shared/ipc/contract';
import { api, settle } from './api';

export type AppInfo = IpcOutput<'app.info'>;

export type AppInfoState =
  { status: 'loading' } | { status: 'ready'; info: AppInfo } | { status: 'failed'; error: IpcError };

interface AppInfoStore {
  state: AppInfoState;
  load(): Promise<void>;
}

export const useAppInfo = create<AppInfoStore>()((set) => ({
  state: { status: 'loading' },
  async load() {
    const result = await settle(() => api.app.info());
    set({ state: result.ok ? { status: 'ready', info: result.value } : { status: 'failed', error: result.error } });
  },
}));
