/**
 * The Journal screen's reads and actions: entries under a filter, the actions whose outcome is unknown, closed
 * periods and the difference of one are queries; verifying, a status check and closing, acknowledging or reopening
 * a period are mutations. Every action writes journal entries (and a status check may cache a beneficiary), so each
 * invalidates the journal's reads; the Settlements screen's closed-period marks read `journal.periods` too.
 */
import { keepPreviousData, useMutationState } from '@tanstack/react-query';
import type { IpcInput, IpcOutput } from '../../../shared/ipc/contract';
import { ipcErrorOf, useIpcMutation, useIpcQuery } from '../query/ipc-query';
import type { Loadable } from '../loadable';

export type JournalFilter = IpcInput<'journal.list'>;
export type JournalEntry = IpcOutput<'journal.list'>['entries'][number];
export type ClosedPeriod = IpcOutput<'journal.periods'>[number];

export const useJournalEntries = (filter: JournalFilter) =>
  useIpcQuery('journal.list', filter, { placeholderData: keepPreviousData });
export const useUnresolvedActions = () => useIpcQuery('journal.unresolved');
/** The closed periods, all of them or those touching a date range. */
export const useClosedPeriods = (range?: { from: string; to: string }) => useIpcQuery('journal.periods', range);
export const usePeriodDiff = (id: number | null) =>
  useIpcQuery('journal.periodDiff', { id: id ?? 1 }, { enabled: id !== null });

/** Recomputing every hash is asked for, not kept on screen: a mutation, so it runs only when pressed. */
export const useJournalVerify = () =>
  useIpcMutation('journal.verify', { invalidates: ['journal.lastVerification', 'today.'] });
/** The last verification, whoever ran it (this app, another session, `journal verify`): what Today's row shows. */
export const useLastVerification = () => useIpcQuery('journal.lastVerification');

/** The key every journal action shares, so the screen can say how the last one went (`useLastJournalAction`). */
const ACTION = ['journal.action'] as const;
const CHANGES = ['journal.', 'beneficiaries.'] as const;

export const useStatusCheck = () =>
  useIpcMutation('journal.checkStatus', {
    mutationKey: ACTION,
    invalidates: CHANGES,
    meta: { said: (v: IpcOutput<'journal.checkStatus'>) => v.check.summary },
  });
/** A plan create whose outcome is unknown: looked up by the reference the attempt sent. */
export const useCheckPlanCreate = () =>
  useIpcMutation('plans.checkCreate', {
    mutationKey: ACTION,
    invalidates: ['journal.', 'plans.'],
    meta: { said: (v: IpcOutput<'plans.checkCreate'>) => v.check.summary },
  });
export const useClosePeriod = () =>
  useIpcMutation('journal.closePeriod', {
    mutationKey: ACTION,
    invalidates: CHANGES,
    meta: { said: (p: ClosedPeriod) => `Closed ${p.from} to ${p.to}: ${p.records} records.` },
  });
export const useAcknowledgePeriod = () =>
  useIpcMutation('journal.acknowledgePeriod', {
    mutationKey: ACTION,
    invalidates: CHANGES,
    meta: { said: (p: ClosedPeriod) => `Acknowledged the changes to ${p.from} to ${p.to}.` },
  });
export const useReopenPeriod = () =>
  useIpcMutation('journal.reopenPeriod', {
    mutationKey: ACTION,
    invalidates: CHANGES,
    meta: { said: () => 'Reopened the period.' },
  });

/** How the last journal action went, in words, or its error; null before any. */
export function useLastJournalAction(): Loadable<string> | null {
  const states = useMutationState({
    filters: { mutationKey: ACTION },
    select: (m) => ({
      status: m.state.status,
      data: m.state.data,
      error: m.state.error,
      said: m.options.meta?.said as ((v: unknown) => string) | undefined,
    }),
  });
  const last = states.at(-1);
  if (!last) return null;
  if (last.status === 'success') return { status: 'ready', value: last.said?.(last.data) ?? 'Done.' };
  if (last.status === 'error') return { status: 'failed', error: ipcErrorOf(last.error) };
  return { status: 'loading' };
}
