/**
 * The order a table's sort means, in one place: the renderer's tables (ui/DataTable.tsx) sort on screen with it and
 * a list export (electron/export/list-sheets.ts) sorts its file with it, so an export follows what the desk saw.
 * Numbers as numbers, text by en-IN collation with digits compared as numbers, empty values last whichever the
 * direction, ties in the order the items came.
 */
export type SortKey = string | number | null;

const COLLATOR = new Intl.Collator('en-IN', { numeric: true, sensitivity: 'base' });

export function sortByKey<T>(items: readonly T[], keyOf: (item: T) => SortKey, direction: 'asc' | 'desc'): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return items
    .map((item, index) => {
      const key = keyOf(item);
      return { item, index, key: key === '' ? null : key };
    })
    .sort((a, b) => {
      if (a.key === null || b.key === null) return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
      const order =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : COLLATOR.compare(String(a.key), String(b.key));
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map((r) => r.item);
}
