/**
 * Dates, times and counts as a person reads them, on the screens and in the sentences the core writes (journal
 * summaries, refusals): one definition for both, so the journal says what the screens say. Money is
 * `formatMoney` (money.ts): ₹ with en-IN grouping. Times are always India Standard Time with the zone stated,
 * whatever the machine's zone: the journal is read later on other machines, and the desk, the gateways and the
 * API all keep IST (docs/design/architecture.md, "Formats a person reads"). Dates are dd/mm/yyyy whatever the
 * machine's locale (a browser's date input follows the OS, which shows mm/dd/yyyy on an en-US machine); inside,
 * a date stays `YYYY-MM-DD`.
 */
import { epochMsToIst, isCalendarDate, isIstDateTime } from './time';

/** `YYYY-MM-DD` as `dd/mm/yyyy`; no date (an empty filter field) as empty text. */
export function formatDdMmYyyy(date: string): string {
  if (date === '') return '';
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y}`;
}

/** A calendar date (YYYY-MM-DD, already an IST date) as "22/11/2026". */
export const formatCalendarDate = formatDdMmYyyy;

const TYPED = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/;

/** `dd/mm/yyyy` (also d/m/yyyy, with . or - between) as `YYYY-MM-DD`; null for anything else or no such day. */
export function parseDdMmYyyy(text: string): string | null {
  const m = TYPED.exec(text);
  if (!m) return null;
  const date = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isCalendarDate(date) ? date : null;
}

/**
 * The one timestamp format, "22/11/2026, 2:03:22 pm IST": day first, 12-hour clock, the zone stated. Spelt out
 * from the digits rather than by Intl, so no machine locale or ICU version can reorder it or change its spaces
 * (a journal summary is hashed into the chain; the desk's SQL writes the same text, desk migration 11).
 */
function istWords(wallClock: string): string {
  const hour = Number(wallClock.slice(11, 13));
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${formatDdMmYyyy(wallClock.slice(0, 10))}, ${h12}:${wallClock.slice(14, 19)} ${hour < 12 ? 'am' : 'pm'} IST`;
}

/** An ISO UTC instant as "22/11/2026, 2:03:22 pm IST". */
export function formatIstInstant(iso: string): string {
  return istWords(epochMsToIst(Date.parse(iso)));
}

/** The API's IST wall-clock text ("2026-11-22 14:03:22") in the one timestamp format; other text as it came. */
export function formatIstWallClock(text: string): string {
  return isIstDateTime(text) ? istWords(text) : `${text} IST`;
}

/** A range of calendar dates as "01/06/2026 to 05/06/2026", or one date when it is one day. */
export function formatDateRange(from: string, to: string): string {
  return from === to ? formatDdMmYyyy(from) : `${formatDdMmYyyy(from)} to ${formatDdMmYyyy(to)}`;
}

const COUNT = new Intl.NumberFormat('en-IN');

/** A count as the desk reads it: en-IN grouping (12,34,567). */
export const formatCount = (n: number): string => COUNT.format(n);
