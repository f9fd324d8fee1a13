/** File sizes as the desk reads them (the dates, times, counts and money are shared: test/unit/format.test.ts). */
import { describe, expect, it } from 'vitest';
import { formatBytes, formatExactBytes } from '../../renderer/src/settings/bytes';

describe('format', () => {
  it('sizes files in decimal units without ever showing 1000.0', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(999_960)).toBe('1.0 MB');
    expect(formatBytes(12_400_000)).toBe('12.4 MB');
    expect(formatExactBytes(1234567)).toBe('12,34,567 bytes');
  });
});
