import { useEffect, type RefObject } from 'react';

/** Ctrl+F (Cmd+F on macOS) focuses the screen's search box instead of the browser's find bar. */
export function useFindShortcut(target: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f' && target.current) {
        event.preventDefault();
        target.current.focus();
        target.current.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [target]);
}
