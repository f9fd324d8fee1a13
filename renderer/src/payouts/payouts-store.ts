/**
 * Payout lookups of the active profile: the payout on screen (the answer just asked for, and every earlier check
 * of it from the cache), the recent lookups, and the watch list of those still pending.
 */
import { create } from 'zustand';
import type { IpcError } from '../../../shared/ipc/contract';
import { isPendingTransfer, type PayoutLookup, type PayoutLookupMode } from '../../../shared/payouts';
import { api, settle } from '../api';
import { useConnectivity } from '../connectivity-store';
import { loaded, type Loadable } from '../loadable';

export const WATCH_INTERVAL_MS = 30_000;
const RECENT_LIMIT = 50;

export interface Shown {
  payoutId: string;
  /** The check just asked for; null when the payout was opened from a list, which shows what the cache holds. */
  fresh: Loadable<PayoutLookup> | null;
  /** Retried with the same mode. */
  mode: PayoutLookupMode;
  history: Loadable<PayoutLookup[]>;
}

export interface WatchChange {
  payoutId: string;
  from: string;
  to: string | null;
}

interface WatchState {
  refreshing: boolean;
  lastRefreshedAt: string | null;
  /** When the screen's timer will refresh next; null while it is paused (offline, nothing to watch). */
  nextAt: string | null;
  /** Payouts whose status moved on the last refresh: they leave the list, so the desk is told where they went. */
  changes: WatchChange[];
  error: IpcError | null;
}

interface PayoutsStore {
  shown: Shown | null;
  recent: Loadable<PayoutLookup[]>;
  watch: WatchState;
  /** Reopened on the same profile, the payout on screen stays; on another, everything is read afresh. */
  open(profileId: string | null): Promise<void>;
  lookUp(payoutId: string, mode: PayoutLookupMode): Promise<void>;
  /** Shows a payout from the cache, asking nothing of the service. */
  show(payoutId: string): Promise<void>;
  /** Reads the shown payout's history from the cache again. */
  reloadHistory(): Promise<void>;
  refreshWatch(): Promise<void>;
  setNextWatch(at: string | null): void;
}

export const watched = (recent: readonly PayoutLookup[]): PayoutLookup[] =>
  recent.filter((l) => isPendingTransfer(l.transferStatus));

const IDLE_WATCH: WatchState = { refreshing: false, lastRefreshedAt: null, nextAt: null, changes: [], error: null };

export const usePayouts = create<PayoutsStore>()((set, get) => {
  // Answers that arrive after the profile changed are about the other profile's payouts, and are dropped.
  let generation = 0;
  let openedFor: string | null | undefined;

  async function loadRecent(g: number): Promise<PayoutLookup[] | null> {
    const result = await settle(() => api.payouts.recent({ limit: RECENT_LIMIT }));
    if (g !== generation) return null;
    set({ recent: loaded(result) });
    return result.ok ? result.value : null;
  }

  async function loadHistory(g: number, payoutId: string): Promise<void> {
    const history = loaded(await settle(() => api.payouts.history({ payoutId })));
    if (g !== generation) return;
    set((s) => (s.shown?.payoutId === payoutId ? { shown: { ...s.shown, history } } : {}));
  }

  return {
    shown: null,
    recent: { status: 'loading' },
    watch: IDLE_WATCH,

    async open(profileId) {
      if (profileId !== openedFor) {
        openedFor = profileId;
        generation += 1;
        set({ shown: null, recent: { status: 'loading' }, watch: IDLE_WATCH });
      }
      const g = generation;
      const shown = get().shown;
      await Promise.all([loadRecent(g), shown && loadHistory(g, shown.payoutId)]);
    },

    async lookUp(payoutId, mode) {
      const g = generation;
      const previous = get().shown;
      set({
        shown: {
          payoutId,
          mode,
          fresh: { status: 'loading' },
          // Looking the same payout up again keeps its timeline on screen while the answer is on its way.
          history: previous?.payoutId === payoutId ? previous.history : { status: 'loading' },
        },
      });
      const fresh = loaded(await settle(() => api.payouts.lookup({ payoutId, mode })));
      if (g !== generation || get().shown?.payoutId !== payoutId) return;
      set((s) => ({ shown: s.shown && { ...s.shown, fresh } }));
      await Promise.all([loadHistory(g, payoutId), loadRecent(g)]);
    },

    async show(payoutId) {
      const g = generation;
      set({ shown: { payoutId, mode: 'normal', fresh: null, history: { status: 'loading' } } });
      await loadHistory(g, payoutId);
    },

    async reloadHistory() {
      const shown = get().shown;
      if (!shown) return;
      set({ shown: { ...shown, history: { status: 'loading' } } });
      await loadHistory(generation, shown.payoutId);
    },

    async refreshWatch() {
      const g = generation;
      const recent = get().recent;
      if (get().watch.refreshing || recent.status !== 'ready') return;
      const before = watched(recent.value);
      set((s) => ({ watch: { ...s.watch, refreshing: true, error: null } }));
      let error: IpcError | null = null;
      // One at a time: a desk may watch dozens, and the gateways rate-limit bursts.
      for (const l of before) {
        const result = await settle(() => api.payouts.lookup({ payoutId: l.payoutId, mode: 'normal' }));
        if (g !== generation) return;
        if (!result.ok) {
          error = result.error;
          // The rest would only fail the same way.
          if (useConnectivity.getState().state?.state === 'offline') break;
        }
      }
      const after = await loadRecent(g);
      if (g !== generation) return;
      const now = new Date().toISOString();
      const changes = after
        ? before.flatMap((b): WatchChange[] => {
            const a = after.find((x) => x.payoutId === b.payoutId);
            return a && a.transferStatus !== b.transferStatus && !isPendingTransfer(a.transferStatus)
              ? [{ payoutId: b.payoutId, from: b.transferStatus ?? '', to: a.transferStatus }]
              : [];
          })
        : [];
      set((s) => ({ watch: { ...s.watch, refreshing: false, lastRefreshedAt: now, changes, error } }));
      const shown = get().shown;
      if (shown && before.some((b) => b.payoutId === shown.payoutId)) await loadHistory(g, shown.payoutId);
    },

    setNextWatch(at) {
      set((s) => ({ watch: { ...s.watch, nextAt: at } }));
    },
  };
});
