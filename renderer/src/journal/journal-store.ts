/**
 * The Journal screen's state: the active profile's entries under a filter, the last verification, the actions
 * whose outcome is unknown, and the closed settlement periods with the difference of one. Everything is read from
 * main; every change (a status check, a close) is journaled there and read back.
 */
import { create } from 'zustand';
import type { IpcInput, IpcOutput, IpcResult } from '../../../shared/ipc/contract';
import { api, settle } from '../api';
import { loaded, type Loadable } from '../loadable';

export type JournalFilter = IpcInput<'journal.list'>;
type Entries = IpcOutput<'journal.list'>;
export type JournalEntry = Entries['entries'][number];
type Verify = IpcOutput<'journal.verify'>;
type Unresolved = IpcOutput<'journal.unresolved'>;
export type ClosedPeriod = IpcOutput<'journal.periods'>[number];
type PeriodDiff = IpcOutput<'journal.periodDiff'>;
type Outcome = Loadable<string> | null;

interface JournalState {
  filter: JournalFilter;
  entries: Loadable<Entries>;
  selected: number | null;
  verification: Loadable<Verify> | null;
  unresolved: Loadable<Unresolved>;
  periods: Loadable<IpcOutput<'journal.periods'>>;
  diff: Loadable<PeriodDiff> | null;
  /** The last change asked of main (a status check, a close), in words, or its error. */
  outcome: Outcome;
  setFilter(filter: JournalFilter): void;
  select(seq: number | null): void;
  load(): Promise<void>;
  verify(): Promise<void>;
  checkStatus(attemptSeq: number, beneficiaryId: string): Promise<void>;
  /** A plan create whose outcome is unknown: looked up by the reference the attempt sent. */
  checkPlanCreate(attemptSeq: number): Promise<void>;
  closePeriod(from: string, to: string): Promise<void>;
  acknowledge(id: number): Promise<void>;
  reopen(id: number): Promise<void>;
  showDiff(id: number | null): Promise<void>;
}

export const useJournal = create<JournalState>()((set, get) => {
  let asked = 0;
  /** Runs a change, says how it went, and reads everything again (the change wrote entries). */
  async function change<T>(call: () => Promise<IpcResult<T>>, said: (v: T) => string) {
    set({ outcome: { status: 'loading' } });
    const result = await settle(call);
    set({
      outcome: result.ok ? { status: 'ready', value: said(result.value) } : { status: 'failed', error: result.error },
    });
    await get().load();
  }
  return {
    filter: {},
    entries: { status: 'loading' },
    selected: null,
    verification: null,
    unresolved: { status: 'loading' },
    periods: { status: 'loading' },
    diff: null,
    outcome: null,

    setFilter(filter) {
      set({ filter });
      void get().load();
    },
    select: (seq) => set({ selected: seq }),

    async load() {
      const question = ++asked;
      const [entries, unresolved, periods] = await Promise.all([
        settle(() => api.journal.list(get().filter)),
        settle(() => api.journal.unresolved()),
        settle(() => api.journal.periods()),
      ]);
      if (question !== asked) return;
      set({ entries: loaded(entries), unresolved: loaded(unresolved), periods: loaded(periods) });
    },

    async verify() {
      set({ verification: { status: 'loading' } });
      set({ verification: loaded(await settle(() => api.journal.verify())) });
    },

    checkStatus: (attemptSeq, beneficiaryId) =>
      change(
        () => api.journal.checkStatus({ attemptSeq, beneficiaryId }),
        (v) => v.check.summary,
      ),
    checkPlanCreate: (attemptSeq) =>
      change(
        () => api.plans.checkCreate({ attemptSeq }),
        (v) => v.check.summary,
      ),
    closePeriod: (from, to) =>
      change(
        () => api.journal.closePeriod({ from, to }),
        (p) => `Closed ${p.from} to ${p.to}: ${p.records} records.`,
      ),
    acknowledge: (id) =>
      change(
        () => api.journal.acknowledgePeriod({ id }),
        (p) => `Acknowledged the changes to ${p.from} to ${p.to}.`,
      ),
    reopen: (id) =>
      change(
        () => api.journal.reopenPeriod({ id }),
        () => 'Reopened the period.',
      ),

    async showDiff(id) {
      if (id === null) return set({ diff: null });
      set({ diff: { status: 'loading' } });
      set({ diff: loaded(await settle(() => api.journal.periodDiff({ id }))) });
    },
  };
});
