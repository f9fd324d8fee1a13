/**
 * The console's keyboard: `g` then a screen's key opens that screen, `/` focuses the screen's search, `?` shows
 * the list. Keys typed into a field are the field's, never a shortcut.
 */
import { useEffect } from 'react';
import { SCREENS, type Screen } from './screens';

/** How long after `g` the second key still counts. */
const CHORD_MS = 1_500;

const typingIn = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName));

/** The screen's search box: every screen marks its own with `data-search`. */
export function focusSearch(): boolean {
  const box = document.querySelector<HTMLInputElement>('main [data-search]');
  if (!box) return false;
  box.focus();
  box.select();
  return true;
}

export function useShortcuts(actions: { open(screen: Screen): void; showHelp(): void }): void {
  useEffect(() => {
    let chordAt = -Infinity;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      const key = event.key;
      if (event.timeStamp - chordAt < CHORD_MS) {
        chordAt = -Infinity;
        const screen = SCREENS.find((s) => s.key === key.toLowerCase());
        if (screen) {
          event.preventDefault();
          actions.open(screen);
        }
        return;
      }
      if (key === 'g') chordAt = event.timeStamp;
      else if (key === '/' && focusSearch()) event.preventDefault();
      else if (key === '?') {
        event.preventDefault();
        actions.showHelp();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}
