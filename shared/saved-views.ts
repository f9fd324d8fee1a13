/**
 * Saved views of a table: the filters, sort and columns on screen under a name, one of them the table's default.
 * Stored per profile in the settings file (electron/profiles/profile-store.ts), not in a profile's cache, so clearing
 * a cache keeps them. A view's filters are the screen's own (each screen checks them when it applies a view), so
 * here they are only bounded: short keys and plain values, never a blob.
 */
import { z } from 'zod';

/** Enough views for a desk's habits; a list longer than this is no longer a menu. */
export const MAX_VIEWS_PER_TABLE = 30;
export const VIEW_NAME_MAX = 60;

export const viewName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(VIEW_NAME_MAX, `must be at most ${VIEW_NAME_MAX} characters`);

/** Which table a view belongs to: the id its columns are remembered under ("settlements", "payouts.recent"). */
export const viewTable = z.string().regex(/^[a-z][a-z0-9.-]{0,39}$/, 'must be a table id such as "settlements"');

const key = z.string().min(1).max(40);
const filterValue = z.union([z.string().max(200), z.number().finite(), z.boolean(), z.null()]);

export const viewState = z
  .object({
    filters: z.record(key, filterValue).refine((f) => Object.keys(f).length <= 30, 'must hold at most 30 filters'),
    sort: z
      .object({ column: key, direction: z.enum(['asc', 'desc']) })
      .strict()
      .nullable(),
    /** Columns hidden by the column chooser. */
    hidden: z.array(key).max(60),
    density: z.enum(['comfortable', 'compact']).optional(),
  })
  .strict();
export type ViewState = z.output<typeof viewState>;

export const savedView = z.object({ name: viewName, state: viewState }).strict();
export type SavedView = z.output<typeof savedView>;

/** A table's views, in the order saved, and the name of the one the screen opens with (null: the screen's own). */
export const tableViews = z
  .object({ views: z.array(savedView).max(MAX_VIEWS_PER_TABLE), defaultName: viewName.nullable() })
  .strict()
  .refine((t) => t.defaultName === null || t.views.some((v) => sameName(v.name, t.defaultName!)), {
    message: 'must name one of the views',
    path: ['defaultName'],
  });
export type TableViews = z.output<typeof tableViews>;

export const NO_VIEWS: TableViews = { views: [], defaultName: null };

/** View names are matched without regard to case: "Month end" and "month end" are one view. */
export function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase('en-IN') === b.trim().toLocaleLowerCase('en-IN');
}

/** `views` with `view` saved: one of the same name is replaced in place, a new one goes last. */
export function withView(t: TableViews, view: SavedView): TableViews {
  const at = t.views.findIndex((v) => sameName(v.name, view.name));
  if (at >= 0) {
    const views = [...t.views];
    views[at] = view;
    // The default keeps pointing at the replaced view under its new spelling.
    const defaultName = t.defaultName !== null && sameName(t.defaultName, view.name) ? view.name : t.defaultName;
    return { views, defaultName };
  }
  return { views: [...t.views, view], defaultName: t.defaultName };
}

export function withoutView(t: TableViews, name: string): TableViews {
  return {
    views: t.views.filter((v) => !sameName(v.name, name)),
    defaultName: t.defaultName !== null && sameName(t.defaultName, name) ? null : t.defaultName,
  };
}
