/**
 * The search box's pause (renderer/src/settlements/search-pause.ts): none when the person is done (a pasted or
 * complete identifier), a typist's gap while a text may still be growing.
 */
import { describe, expect, it } from 'vitest';
import { TYPING_PAUSE_MS, searchPause } from '../../renderer/src/settlements/search-pause';

describe('the search box’s pause', () => {
  it('searches at once for a complete UTR, however it arrived', () => {
    expect(searchPause('12345678901', '123456789012')).toBe(0);
    expect(searchPause('SBIN0R2026061', 'SBIN0R2026061500')).toBe(0);
    expect(searchPause('HDFCR520260615001234', 'HDFCR52026061500123456')).toBe(0);
  });

  it('searches at once when more than one character arrived in one change (a paste)', () => {
    expect(searchPause('', 'pay_0A1B2C3D')).toBe(0);
    expect(searchPause('ord', 'ord_00Z9')).toBe(0);
  });

  it('waits a typist’s gap while a text may still be growing, shorter than the 250 ms it used to', () => {
    expect(searchPause('1234567890', '12345678901')).toBe(TYPING_PAUSE_MS);
    expect(searchPause('pay_0A1B', 'pay_0A1B2')).toBe(TYPING_PAUSE_MS);
    expect(searchPause('pay_0A1B2', 'pay_0A1B')).toBe(TYPING_PAUSE_MS);
    expect(TYPING_PAUSE_MS).toBeLessThan(250);
  });
});
