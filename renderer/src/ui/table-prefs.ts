/**
 * Which columns a table shows and how dense it is, remembered per table in the renderer's storage. A zustand
 * store, since it is UI state: the column chooser and a saved view both set it.
 */
import { useEffect } from 'react';
import { create } from 'zustand';

export type Density = 'comfortable' | 'compact';

/** Below this window height a list opens compact: at 1280×800 the comfortable rows left 15 settlements on screen. */
export const COMPACT_BELOW_PX = 900;

/** The density of a table nobody has chosen one for, from the window's height as it opens. */
export function defaultDensity(): Density {
  return window.innerHeight < COMPACT_BELOW_PX ? 'compact' : 'comfortable';
}

export interface TablePrefs {
  hidden: string[];
  density: Density;
}

const KEY = 'payout-console.tables';

function readAll(): Record<string, TablePrefs> {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, Partial<TablePrefs>>;
    return Object.fromEntries(
      Object.entries(parsed).map(([id, p]) => [
        id,
        {
          hidden: Array.isArray(p.hidden) ? p.hidden.filter((h) => typeof h === 'string') : [],
          density: p.density === 'compact' || p.density === 'comfortable' ? p.density : defaultDensity(),
        },
      ]),
    );
  } catch {
    return {};
  }
}

interface TablePrefsStore {
  tables: Record<string, TablePrefs>;
  set(table: string, prefs: Partial<TablePrefs>): void;
  /** A table's defaults, held for the session but not stored: nothing was chosen. */
  hold(table: string, prefs: TablePrefs): void;
}

export const useTablePrefsStore = create<TablePrefsStore>()((set, get) => ({
  tables: readAll(),
  set(table, prefs) {
    const current = get().tables[table];
    const next = { hidden: current?.hidden ?? [], density: current?.density ?? defaultDensity(), ...prefs };
    set((s) => ({ tables: { ...s.tables, [table]: next } }));
    try {
      localStorage.setItem(KEY, JSON.stringify(get().tables));
    } catch {
      // Storage refused: the choice holds until the window closes.
    }
  },
  hold: (table, prefs) => set((s) => ({ tables: { ...s.tables, [table]: prefs } })),
}));

/** A table's prefs; columns marked hidden by default are hidden until chosen. */
export function useTablePrefs(
  table: string,
  columns: readonly { id: string; optional?: boolean; hiddenByDefault?: boolean }[],
) {
  const stored = useTablePrefsStore((s) => s.tables[table]);
  const setPrefs = useTablePrefsStore((s) => s.set);
  const hold = useTablePrefsStore((s) => s.hold);
  const hiddenList = stored?.hidden ?? columns.filter((c) => c.hiddenByDefault).map((c) => c.id);
  // The defaults held once shown, so a view saved before any choice keeps the columns hidden by default hidden.
  const unset = stored === undefined;
  useEffect(() => {
    if (unset) hold(table, { hidden: hiddenList, density: defaultDensity() });
    // Only whether anything is stored matters: later choices are the chooser's and the views'.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [table, unset]);
  const hidden = new Set(hiddenList.filter((id) => columns.some((c) => c.id === id && c.optional)));
  return {
    hidden,
    density: stored?.density ?? defaultDensity(),
    toggle(id: string) {
      const next = new Set(hidden);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setPrefs(table, { hidden: [...next] });
    },
    setDensity: (density: Density) => setPrefs(table, { density }),
  };
}
