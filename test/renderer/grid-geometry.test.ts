/** The grid's scroll range past the browser's height cap: every row a person goes to is the first one shown. */
import { describe, expect, it } from 'vitest';
import { MAX_SCROLL_PX, geometryOf, rowsInView, scrollPxFor } from '../../renderer/src/settlements/grid-geometry';

describe('grid geometry', () => {
  it.each([
    [2_000_000, 28, 560],
    [2_000_000, 20, 777],
    [700_000, 28, 300],
    [9_000_000, 28, 560],
  ])('at %i rows of %i px in a %i px view, a row put at the top is the first row shown', (rows, rowHeight, view) => {
    const { spacer, scale } = geometryOf(rows, view, rowHeight);
    expect(spacer).toBe(MAX_SCROLL_PX);
    expect(scale).toBeGreaterThan(1);
    // The browser keeps whole pixels: what it holds is an integer, and the grid's first row follows from it.
    const firstShown = (row: number) =>
      rowsInView(Math.round(scrollPxFor(row * rowHeight, scale)), { rows, scale, rowHeight, view })[0];
    const step = Math.floor(rows / 50_000);
    const wrong: number[] = [];
    for (let row = 0; row < rows - view / rowHeight; row += step) if (firstShown(row) !== row) wrong.push(row);
    expect(wrong).toEqual([]);
    // The row the bench found one off before the scroll position was rounded up, where the result reaches it.
    if (rows > 970_000) expect(firstShown(970_000)).toBe(970_000);
  });

  it('keeps one pixel for one pixel below the cap', () => {
    expect(geometryOf(1_000, 800, 28)).toEqual({ spacer: 28_000, scale: 1 });
    expect(scrollPxFor(28 * 123, 1)).toBe(28 * 123);
  });
});
