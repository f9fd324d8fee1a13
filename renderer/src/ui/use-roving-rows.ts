import { useRef, useState, type KeyboardEvent } from 'react';

/**
 * Where a navigation key moves the active row of a list of `count` rows from `index`: ↑/↓ one row, Home/End the
 * first or last row, and PageUp/PageDown `pageStep` rows where the list pages at all (without `pageStep` they are
 * not navigation keys). Clamped to the rows (0 when there are none); null for any other key.
 */
export function rowKeyTarget(key: string, index: number, count: number, pageStep?: number): number | null {
  let to: number;
  switch (key) {
    case 'ArrowDown':
      to = index + 1;
      break;
    case 'ArrowUp':
      to = index - 1;
      break;
    case 'Home':
      to = 0;
      break;
    case 'End':
      to = count - 1;
      break;
    case 'PageDown':
      if (pageStep === undefined) return null;
      to = index + pageStep;
      break;
    case 'PageUp':
      if (pageStep === undefined) return null;
      to = index - pageStep;
      break;
    default:
      return null;
  }
  return Math.max(0, Math.min(count - 1, to));
}

/**
 * Arrow-key navigation over a table's rows with one tab stop (roving tabindex): Tab enters the table on the last
 * row used, ↑/↓/Home/End move, Enter or Space opens the row.
 */
export function useRovingRows(count: number, onActivate: (index: number) => void) {
  const [active, setActive] = useState(0);
  const rows = useRef<(HTMLElement | null)[]>([]);
  const current = Math.min(active, Math.max(count - 1, 0));

  return (index: number) => ({
    ref: (el: HTMLElement | null) => {
      rows.current[index] = el;
    },
    tabIndex: index === current ? 0 : -1,
    onFocus: () => setActive(index),
    onClick: () => onActivate(index),
    onKeyDown: (event: KeyboardEvent) => {
      const to = rowKeyTarget(event.key, index, count);
      if (to !== null) {
        event.preventDefault();
        rows.current[to]?.focus();
      } else if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onActivate(index);
      }
    },
  });
}
