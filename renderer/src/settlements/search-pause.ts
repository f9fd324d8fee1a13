/**
 * How long the search box waits after a change before it searches (SettlementsScreen.tsx). Every keystroke used to
 * wait a fixed 250 ms, which a person saw as the screen doing nothing after their last key (issue 33). Now:
 *  - at once when a whole identifier arrived in one change (a paste, a scanner, autofill: more than one character
 *    added), or when the text has the shape of a complete UTR (12 digits, as IMPS and UPI write it; 16 or 22
 *    letters and digits, as NEFT and RTGS do): the person is done typing;
 *  - otherwise after TYPING_PAUSE_MS, about the gap between two keys of someone typing, so a search is not sent
 *    for every letter of a word still being typed (each would read the cache and be dropped).
 * Enter and leaving the box search at once whatever the pause.
 */

/** The pause after a typed character, when the text may not be complete yet. */
export const TYPING_PAUSE_MS = 120;

const COMPLETE_UTR = /^(\d{12}|[A-Za-z0-9]{16}|[A-Za-z0-9]{22})$/;

export function searchPause(before: string, after: string): number {
  const text = after.trim();
  if (text.length - before.trim().length > 1) return 0;
  return COMPLETE_UTR.test(text) ? 0 : TYPING_PAUSE_MS;
}
