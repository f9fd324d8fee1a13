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

describe('format', () => {
  it('shows IST whatever the zone of the machine', () => {
    // 18:45 UTC is 00:15 the next day in IST: the date must move with it.
    expect(formatIstInstant('2026-12-31T18:45:00.000Z')).toMatch(/^1 Jan 2027, 12:15:00\s?am IST$/);
    expect(formatCalendarDate('2028-02-29')).toBe('29 Feb 2028');
    expect(formatIstWallClock('2026-11-22 14:03:22')).toBe('2026-11-22 14:03:22 IST');
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
