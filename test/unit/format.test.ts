/**
 * The shared formatters (shared/format.ts): what the screens show and the core's sentences say, the same text in
 * any machine zone and locale (the suite also runs under TZ=America/Los_Angeles).
 */
import { describe, expect, it } from 'vitest';
import {
  formatCalendarDate,
  formatCount,
  formatDateRange,
  formatDdMmYyyy,
  formatIstInstant,
  formatIstWallClock,
  parseDdMmYyyy,
} from '../../shared/format';
import { formatMoney } from '../../shared/money';

describe('shared formats', () => {
  it('shows IST whatever the zone of the machine, spelt out to the character', () => {
    // 18:45 UTC is 00:15 the next day in IST: the date must move with it, and midnight reads 12 am.
    expect(formatIstInstant('2026-12-31T18:45:00.000Z')).toBe('01/01/2027, 12:15:00 am IST');
    expect(formatIstInstant('2026-06-12T06:42:26Z')).toBe('12/06/2026, 12:12:26 pm IST');
    expect(formatIstInstant('2026-06-12T04:29:59Z')).toBe('12/06/2026, 9:59:59 am IST');
    expect(formatIstInstant('2026-06-12T17:29:59Z')).toBe('12/06/2026, 10:59:59 pm IST');
    expect(formatCalendarDate('2028-02-29')).toBe('29/02/2028');
  });

  it("has one timestamp format: the API's IST wall-clock text reads like every other time", () => {
    expect(formatIstWallClock('2026-11-22 14:03:22')).toBe(formatIstInstant('2026-11-22T08:33:22.000Z'));
    expect(formatIstWallClock('2026-11-22 14:03:22')).toBe('22/11/2026, 2:03:22 pm IST');
    expect(formatIstWallClock('2026-11-22 00:00:00')).toBe('22/11/2026, 12:00:00 am IST');
    // Text that is not a time is shown as it came, with the zone the API means.
    expect(formatIstWallClock('soon')).toBe('soon IST');
  });

  it('reads and writes dates as dd/mm/yyyy whatever the locale, and refuses days that do not exist', () => {
    expect(formatDdMmYyyy('2026-06-05')).toBe('05/06/2026');
    // An empty date field (the Journal's "From" with no date) shows empty, not "undefined/undefined/".
    expect(formatDdMmYyyy('')).toBe('');
    expect(parseDdMmYyyy('05/06/2026')).toBe('2026-06-05');
    expect(parseDdMmYyyy('5/6/2026')).toBe('2026-06-05');
    expect(parseDdMmYyyy('29/02/2028')).toBe('2028-02-29');
    expect(parseDdMmYyyy('29/02/2027')).toBeNull();
    expect(parseDdMmYyyy('06/31/2026')).toBeNull();
    expect(parseDdMmYyyy('2026-06-05')).toBeNull();
  });

  it('names a range of dates, or the one day it is', () => {
    expect(formatDateRange('2026-05-31', '2026-06-05')).toBe('31/05/2026 to 05/06/2026');
    expect(formatDateRange('2026-06-05', '2026-06-05')).toBe('05/06/2026');
  });

  it('groups counts and rupees the Indian way, exactly', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
    expect(formatMoney(123456789, 'INR')).toBe('₹12,34,567.89');
    expect(formatMoney(-260621, 'INR')).toBe('-₹2,606.21');
    expect(formatMoney(-5, 'INR')).toBe('-₹0.05');
  });
});
