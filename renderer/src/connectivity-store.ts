import { create } from 'zustand';
import type { Connectivity } from '../../shared/ipc/app';
import { api, settle } from './api';

interface ConnectivityStore {
  /** Null until main has answered or pushed a state. */
  state: Connectivity | null;
  /** Follows main's connectivity events; returns the function that stops following. */
  follow(): () => void;
}

export const useConnectivity = create<ConnectivityStore>()((set, get) => ({
  state: null,
  follow() {
    const stop = api.on.connectivity((state) => set({ state }));
    void settle(() => api.app.connectivity()).then((result) => {
      // An event that arrived while the first answer was on its way is newer than that answer.
      if (result.ok && get().state === null) set({ state: result.value });
    });
    return stop;
  },
}));
