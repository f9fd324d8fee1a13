/**
 * The screen the desk was on, kept in the renderer's own storage (Electron keeps it with the app's data), so the
 * console reopens where it was left. An id that names no screen any more (an older build's) opens Welcome.
 */
import { screenById, type Screen } from './screens';

const KEY = 'payout-console.last-screen';

export function readLastScreen(): Screen | null {
  try {
    return screenById(localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

export function rememberScreen(screen: Screen): void {
  try {
    localStorage.setItem(KEY, screen.id);
  } catch {
    // Storage refused (full, disabled): the console still works, it just reopens on Welcome.
  }
}
