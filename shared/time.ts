/**
 * Time on the wire. The API writes two kinds of timestamp:
 *  - `YYYY-MM-DD HH:MM:SS` with no zone: treated as India Standard Time (UTC+05:30, no DST),
 *    the merchant's and the gateways' local time;
 *  - ISO 8601 with `Z` (refund attempts, ad hoc charges, webhooks): UTC.
 * Both are kept as the original text; these helpers give the UTC instant when one is needed.
 */

const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// Plain arithmetic rather than a Date round trip: settlement pages check two timestamps per record.
function validParts(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): boolean {
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo) && h <= 23 && mi <= 59 && s <= 59;
}

/** True for a real calendar date written `YYYY-MM-DD` (rejects 2024-02-30). */
export function isCalendarDate(text: string): boolean {
  const m = DAY.exec(text);
  return !!m && validParts(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** True for a real `YYYY-MM-DD HH:MM:SS` local time. */
export function isIstDateTime(text: string): boolean {
  // Read by position rather than by LOCAL's match and its six substrings: two of these a settlement record.
  if (
    text.length !== 19 ||
    text.charCodeAt(4) !== 45 || // '-'
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 || // ' '
    text.charCodeAt(13) !== 58 || // ':'
    text.charCodeAt(16) !== 58
  ) {
    return false;
  }
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 2);
  const d = digitsAt(text, 8, 2);
  const h = digitsAt(text, 11, 2);
  const mi = digitsAt(text, 14, 2);
  const s = digitsAt(text, 17, 2);
  return y >= 0 && mo >= 0 && d >= 0 && h >= 0 && mi >= 0 && s >= 0 && validParts(y, mo, d, h, mi, s);
}

/** The number written by `count` ASCII digits at `from`, or -1 if any of them is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

export function isIsoUtc(text: string): boolean {
  return ISO_UTC.test(text) && !Number.isNaN(Date.parse(text));
}

/** Epoch milliseconds of an IST wall-clock time `YYYY-MM-DD HH:MM:SS`. */
export function istToEpochMs(text: string): number {
  const m = LOCAL.exec(text);
  if (!m || !isIstDateTime(text)) throw new RangeError(`"${text}" is not a YYYY-MM-DD HH:MM:SS time`);
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s) - IST_OFFSET_MS;
}

/** ISO UTC text of an IST wall-clock time. */
export function istToIsoUtc(text: string): string {
  return new Date(istToEpochMs(text)).toISOString();
}

/** IST wall-clock text `YYYY-MM-DD HH:MM:SS` for an instant. */
export function epochMsToIst(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The IST calendar date `YYYY-MM-DD` for an instant. */
export function epochMsToIstDate(ms: number): string {
  return epochMsToIst(ms).slice(0, 10);
}

/** `YYYY-MM-DD` plus `days` (negative allowed), calendar-exact. */
export function addDays(date: string, days: number): string {
  if (!isCalendarDate(date)) throw new RangeError(`"${date}" is not a YYYY-MM-DD date`);
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** ISO 8601 UTC with microseconds, the API's format for refund attempts and ad hoc charges. */
export function isoUtcMicros(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
