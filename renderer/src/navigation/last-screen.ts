/**
 * The screen the desk was on, kept for this window's session only (sessionStorage): a reload of the window reopens
 * it, while each start of the console opens on Today, the home screen, which answers what needs a person now
 * (docs/guide/screens.md, "Where the console opens"). An id that names no screen (an older build's) opens Today.
 */
import { screenById, type Screen } from './screens';

const KEY = 'payout-console.last-screen';

export function readLastScreen(): Screen | null {
  try {
    return screenById(sessionStorage.getItem(KEY));
  } catch {
    return null;
  }
}

export function rememberScreen(screen: Screen): void {
  try {
    sessionStorage.setItem(KEY, screen.id);
  } catch {
    // Storage refused (full, disabled): the console still works, a reload just opens Today.
  }
}
