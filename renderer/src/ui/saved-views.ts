/**
 * Saved views of a table, read and changed through main (the active profile's settings): the list as a query, each
 * change as a mutation that invalidates it. Which view a table shows now, and whether its default was applied this
 * session, is UI state here; whether the screen still matches that view is worked out from the screen's state, so
 * an export names a view only while what is on screen is that view.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { sameName, type SavedView, type ViewState } from '../../../shared/saved-views';
import { useActiveProfileId, useIpcMutation, useIpcQuery } from '../query/ipc-query';
import { useTablePrefsStore } from './table-prefs';

/** What a screen gives the views of its table: its state now (filters and sort) and how to take on a view's. */
export interface ViewBinding {
  /** The screen's filters and sort; columns and density come from the table's prefs. */
  current(): Pick<ViewState, 'filters' | 'sort'>;
  /** Sets the screen's filters and sort from a view (the screen checks the filters: a view may be older than it). */
  apply(state: ViewState): void;
}

interface AppliedViews {
  /** Per profile and table: the name of the view last applied (null when none or cleared). */
  applied: Record<string, string | null>;
  /** Per profile and table: whether the default view was applied this session (once, when the screen first opens). */
  defaulted: Record<string, true>;
  setApplied(key: string, name: string | null): void;
  markDefaulted(key: string): void;
}

export const useAppliedViews = create<AppliedViews>()((set) => ({
  applied: {},
  defaulted: {},
  setApplied: (key, name) => set((s) => ({ applied: { ...s.applied, [key]: name } })),
  markDefaulted: (key) => set((s) => ({ defaulted: { ...s.defaulted, [key]: true } })),
}));

/** JSON of a value with its object keys sorted, so two equal states compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether two views show the same thing (hidden columns in any order). */
export function sameState(a: ViewState, b: ViewState): boolean {
  const norm = (s: ViewState) => ({
    ...s,
    hidden: [...s.hidden].sort(),
    density: s.density ?? 'comfortable',
  });
  return canonical(norm(a)) === canonical(norm(b));
}

/** The whole state of a table now: the screen's filters and sort, the table's columns and density. */
export function stateOf(table: string, binding: ViewBinding): ViewState {
  const prefs = useTablePrefsStore.getState().tables[table];
  return { ...binding.current(), hidden: prefs?.hidden ?? [], density: prefs?.density ?? 'comfortable' };
}

export function useSavedViews(table: string, binding: ViewBinding) {
  const profileId = useActiveProfileId();
  const key = `${profileId ?? ''}:${table}`;
  const list = useIpcQuery('views.list', { table });
  const invalidates = ['views.'] as const;
  const save = useIpcMutation('views.save', { invalidates });
  const remove = useIpcMutation('views.remove', { invalidates });
  const setDefault = useIpcMutation('views.setDefault', { invalidates });
  const appliedName = useAppliedViews((s) => s.applied[key] ?? null);
  const defaulted = useAppliedViews((s) => s.defaulted[key] === true);
  const { setApplied, markDefaulted } = useAppliedViews.getState();

  function apply(view: SavedView) {
    binding.apply(view.state);
    useTablePrefsStore
      .getState()
      .set(table, { hidden: view.state.hidden, density: view.state.density ?? 'comfortable' });
    setApplied(key, view.name);
  }

  // The default view, once per table and session: the screen opens with it, and later visits keep what the desk set.
  const data = list.data;
  useEffect(() => {
    if (!data || defaulted || profileId === null) return;
    markDefaulted(key);
    const chosen = data.defaultName === null ? undefined : data.views.find((v) => sameName(v.name, data.defaultName!));
    if (chosen) apply(chosen);
    // `apply` is rebuilt each render; the effect is about the list arriving.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, defaulted, key, profileId]);

  return {
    list,
    /** The applied view's name, or null. Whether the screen still matches it is `currentName`'s question. */
    appliedName,
    apply,
    save,
    remove,
    setDefault,
    /** Forgets the applied view (the screen's own "Clear filters"). */
    clearApplied: () => setApplied(key, null),
    key,
  };
}

/** The name of the view the table shows now: the applied one, while the screen still matches it; else null. */
export function currentViewName(
  table: string,
  binding: ViewBinding,
  views: readonly SavedView[] | undefined,
  appliedName: string | null,
): string | null {
  if (appliedName === null || !views) return null;
  const view = views.find((v) => sameName(v.name, appliedName));
  return view && sameState(view.state, stateOf(table, binding)) ? view.name : null;
}
