/**
 * Where the settlements grid's rows sit in its scroll range. Browsers cap an element's height, so past
 * MAX_SCROLL_PX the spacer stops growing and a scrolled pixel stands for `scale` pixels of rows.
 */
export const MAX_SCROLL_PX = 16_000_000;

export interface Geometry {
  spacer: number;
  /** Content pixels per scrolled pixel: 1 until the spacer hits its cap. */
  scale: number;
}

export function geometryOf(rows: number, view: number, rowHeight: number): Geometry {
  const content = rows * rowHeight;
  const spacer = Math.min(content, MAX_SCROLL_PX);
  return { spacer, scale: content > spacer && spacer > view ? (content - view) / (spacer - view) : 1 };
}

/**
 * The scroll position that shows content from `offset`. The browser keeps a scroll position in whole pixels, and
 * at a scale above 1 `offset / scale` rarely is one: rounded down, the row wanted at the top ("go to row 970,000")
 * started a scaled pixel below the view's top and the row before it was shown first. Rounded up it starts at most
 * `scale` pixels (less than a row) above it.
 */
export const scrollPxFor = (offset: number, scale: number): number => Math.ceil(offset / scale);

/** The first and last rows in view at a scroll position. */
export function rowsInView(
  top: number,
  g: { rows: number; scale: number; rowHeight: number; view: number },
): [first: number, last: number] {
  const offset = top * g.scale;
  return [
    Math.min(Math.floor(offset / g.rowHeight), Math.max(0, g.rows - 1)),
    Math.min(g.rows - 1, Math.floor((offset + g.view - 1) / g.rowHeight)),
  ];
}
