/**
 * How the console shows money and time: money from exact paise through the shared formatter (en-IN grouping for
 * INR: ₹12,34,567.89), times always in IST with the zone stated, whatever the machine's own zone is.
 */
import { formatMoney } from '../../../shared/money';
import { epochMsToIstDate, isIstDateTime, istToEpochMs } from '../../../shared/time';
import { formatDdMmYyyy } from './dates';

export { formatMoney };

/**
 * The one timestamp format: en-IN, day first, 12-hour clock, the zone stated. Spelt out part by part, so no
 * machine locale or ICU version can reorder it.
 */
const IST_TIME = new Intl.DateTimeFormat('en-IN', {
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  hour12: true,
  timeZone: 'Asia/Kolkata',
});

/** An ISO UTC instant as "22/11/2026, 2:03:22 pm IST". */
export function formatIstInstant(iso: string): string {
  const ms = Date.parse(iso);
  return `${formatCalendarDate(epochMsToIstDate(ms))}, ${IST_TIME.format(ms).toLowerCase()} IST`;
}

/** A calendar date (YYYY-MM-DD, already an IST date) as "22/11/2026". */
export const formatCalendarDate = formatDdMmYyyy;

/** The API's IST wall-clock text ("2026-11-22 14:03:22") in the one timestamp format; other text as it came. */
export function formatIstWallClock(text: string): string {
  return isIstDateTime(text) ? formatIstInstant(new Date(istToEpochMs(text)).toISOString()) : `${text} IST`;
}

const COUNT = new Intl.NumberFormat('en-IN');

/** A count as the desk reads it: en-IN grouping (12,34,567). */
export const formatCount = (n: number): string => COUNT.format(n);
