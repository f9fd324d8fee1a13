/**
 * How the console shows money and time: money from exact paise through the shared formatter (en-IN grouping for
 * INR: ₹12,34,567.89), times always in IST with the zone stated, whatever the machine's own zone is.
 */
import { formatMoney } from '../../../shared/money';

export { formatMoney };

const IST_DATE_TIME = new Intl.DateTimeFormat('en-IN', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'Asia/Kolkata',
});
const IST_DATE = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' });

/** An ISO UTC instant as "22 Nov 2026, 2:03:22 pm IST". */
export function formatIstInstant(iso: string): string {
  return `${IST_DATE_TIME.format(new Date(iso))} IST`;
}

/** A calendar date (YYYY-MM-DD, already an IST date) as "22 Nov 2026". */
export function formatCalendarDate(date: string): string {
  return IST_DATE.format(new Date(`${date}T12:00:00+05:30`));
}

/** The API's IST wall-clock text ("2026-11-22 14:03:22") with its zone stated. */
export function formatIstWallClock(text: string): string {
  return `${text} IST`;
}

const COUNT = new Intl.NumberFormat('en-IN');

/** A count as the desk reads it: en-IN grouping (12,34,567). */
export const formatCount = (n: number): string => COUNT.format(n);
