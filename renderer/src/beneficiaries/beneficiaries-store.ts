/**
 * The cached beneficiaries of the active profile as the screen shows them: the pages read so far for the
 * current search, which row is selected, and whether its detail is open. Beneficiaries that arrive from the
 * service (created, fetched by id, refreshed) are put into the loaded rows at once, so the user sees them
 * without re-reading the list.
 */
import { create } from 'zustand';
import type { CachedBeneficiary } from '../../../shared/beneficiaries';
import type { IpcError, IpcInput, IpcOutput, IpcResult } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import type { Loadable } from '../loadable';

const PAGE_SIZE = 100;

interface Rows {
  rows: CachedBeneficiary[];
  nextCursor: string | null;
}

interface BeneficiariesStore {
  /** The search the loaded rows answer. */
  search: string;
  list: Loadable<Rows>;
  more: { status: 'idle' | 'loading' } | { status: 'failed'; error: IpcError };
  selectedId: string | null;
  detailOpen: boolean;
  load(search: string): Promise<void>;
  loadMore(): Promise<void>;
  select(id: string | null, open?: boolean): void;
  closeDetail(): void;
  /** Adds or replaces `b` in the loaded rows and selects it. */
  put(b: CachedBeneficiary): void;
  fetch(id: string): Promise<IpcResult<CachedBeneficiary>>;
  create(input: IpcInput<'beneficiaries.create'>): Promise<IpcResult<IpcOutput<'beneficiaries.create'>>>;
}

/** The cache's order: name without regard to ASCII case (SQLite's NOCASE), then id. */
function compare(a: CachedBeneficiary, b: CachedBeneficiary): number {
  const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const [na, nb] = [fold(a.name), fold(b.name)];
  if (na !== nb) return na < nb ? -1 : 1;
  return a.beneficiary_id < b.beneficiary_id ? -1 : a.beneficiary_id > b.beneficiary_id ? 1 : 0;
}

export const useBeneficiaries = create<BeneficiariesStore>()((set, get) => {
  // Only the newest list read may land: a slow answer to an older search must not replace a newer one.
  let generation = 0;

  return {
    search: '',
    list: { status: 'loading' },
    more: { status: 'idle' },
    selectedId: null,
    detailOpen: false,

    async load(search) {
      const mine = ++generation;
      // Keep showing the current rows while a new search is on its way; a skeleton only when there are none.
      if (get().list.status !== 'ready') set({ list: { status: 'loading' } });
      const query = search.trim() ? { search: search.trim(), limit: PAGE_SIZE } : { limit: PAGE_SIZE };
      const result = await settle(() => api.beneficiaries.list(query));
      if (mine !== generation) return;
      if (!result.ok) {
        set({ list: { status: 'failed', error: result.error }, more: { status: 'idle' } });
        return;
      }
      const { selectedId } = get();
      const kept = result.value.rows.some((r) => r.beneficiary_id === selectedId);
      set({
        search,
        list: { status: 'ready', value: result.value },
        more: { status: 'idle' },
        selectedId: kept ? selectedId : (result.value.rows[0]?.beneficiary_id ?? null),
        detailOpen: kept && get().detailOpen,
      });
    },

    async loadMore() {
      const { list, search, more } = get();
      if (list.status !== 'ready' || list.value.nextCursor === null || more.status === 'loading') return;
      const mine = generation;
      set({ more: { status: 'loading' } });
      const after = list.value.nextCursor;
      const result = await settle(() =>
        api.beneficiaries.list({ ...(search.trim() ? { search: search.trim() } : {}), after, limit: PAGE_SIZE }),
      );
      const current = get().list;
      if (mine !== generation || current.status !== 'ready') return;
      if (!result.ok) {
        set({ more: { status: 'failed', error: result.error } });
        return;
      }
      // A row put in by hand (just created or fetched) may also be on a later page.
      const known = new Set(current.value.rows.map((r) => r.beneficiary_id));
      const rows = [...current.value.rows, ...result.value.rows.filter((r) => !known.has(r.beneficiary_id))];
      set({
        list: { status: 'ready', value: { rows, nextCursor: result.value.nextCursor } },
        more: { status: 'idle' },
      });
    },

    select(id, open) {
      set((s) => ({ selectedId: id, detailOpen: open ?? s.detailOpen }));
    },

    closeDetail() {
      set({ detailOpen: false });
    },

    put(b) {
      const { list } = get();
      const value = list.status === 'ready' ? list.value : { rows: [], nextCursor: null };
      const rows = [...value.rows.filter((r) => r.beneficiary_id !== b.beneficiary_id), b].sort(compare);
      set({ list: { status: 'ready', value: { ...value, rows } }, selectedId: b.beneficiary_id });
    },

    async fetch(id) {
      const result = await settle(() => api.beneficiaries.fetch({ id }));
      if (result.ok) get().put(result.value);
      return result;
    },

    async create(input) {
      const result = await settle(() => api.beneficiaries.create(input));
      if (result.ok) get().put(result.value.beneficiary);
      return result;
    },
  };
});
