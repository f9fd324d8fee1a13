import { useRef, useState, type KeyboardEvent } from 'react';

/**
 * Arrow-key navigation over a table's rows with one tab stop (roving tabindex): Tab enters the table on the last
 * row used, ↑/↓/Home/End move, Enter or Space opens the row. Written for the Payouts lists; nothing in it is
 * specific to them.
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
      const to =
        event.key === 'ArrowDown'
          ? index + 1
          : event.key === 'ArrowUp'
            ? index - 1
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? count - 1
                : null;
      if (to !== null) {
        event.preventDefault();
        rows.current[Math.min(Math.max(to, 0), count - 1)]?.focus();
      } else if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onActivate(index);
      }
    },
  });
}
