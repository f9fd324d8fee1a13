/** Money, counts, sizes and times as the desk reads them, the same in any machine zone. */
import { describe, expect, it } from 'vitest';
import { formatBytes, formatExactBytes } from '../../renderer/src/settings/bytes';
import {
  formatCalendarDate,
  formatCount,
  formatIstInstant,
  formatIstWallClock,
  formatMoney,
} from '../../renderer/src/ui/format';
import { formatDdMmYyyy, parseDdMmYyyy } from '../../renderer/src/ui/dates';

describe('format', () => {
  it('shows IST whatever the zone of the machine', () => {
    // 18:45 UTC is 00:15 the next day in IST: the date must move with it.
    expect(formatIstInstant('2026-12-31T18:45:00.000Z')).toMatch(/^01\/01\/2027, 12:15:00\s?am IST$/);
    expect(formatCalendarDate('2028-02-29')).toBe('29/02/2028');
  });

  it("has one timestamp format: the API's IST wall-clock text reads like every other time", () => {
    expect(formatIstWallClock('2026-11-22 14:03:22')).toBe(formatIstInstant('2026-11-22T08:33:22.000Z'));
    expect(formatIstWallClock('2026-11-22 14:03:22')).toMatch(/^22\/11\/2026, 2:03:22\s?pm IST$/);
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

  it('groups counts and rupees the Indian way, exactly', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
    expect(formatMoney(123456789, 'INR')).toBe('₹12,34,567.89');
    expect(formatMoney(-5, 'INR')).toMatch(/^-₹0\.05$/);
  });

  it('sizes files in decimal units without ever showing 1000.0', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(999_960)).toBe('1.0 MB');
    expect(formatBytes(12_400_000)).toBe('12.4 MB');
    expect(formatExactBytes(1234567)).toBe('12,34,567 bytes');
  });
});
