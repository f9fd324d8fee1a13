import { describe, expect, it } from 'vitest';
import {
  addDays,
  epochMsToIst,
  epochMsToIstDate,
  isCalendarDate,
  isIsoUtc,
  isIstDateTime,
  isoUtcMicros,
  istToEpochMs,
  istToIsoUtc,
} from '../../shared/time';

describe('IST wall-clock times', () => {
  it('are read as UTC+05:30', () => {
    expect(istToIsoUtc('2024-03-31 05:29:59')).toBe('2024-03-30T23:59:59.000Z');
    expect(istToIsoUtc('2024-01-01 00:00:00')).toBe('2023-12-31T18:30:00.000Z');
  });

  it('round trip through epoch milliseconds', () => {
    const text = '2025-11-22 18:45:07';
    expect(epochMsToIst(istToEpochMs(text))).toBe(text);
  });

  it('give the IST calendar date of an instant', () => {
    expect(epochMsToIstDate(Date.parse('2024-06-30T18:30:00Z'))).toBe('2024-07-01');
    expect(epochMsToIstDate(Date.parse('2024-06-30T18:29:59Z'))).toBe('2024-06-30');
  });

  it.each([
    '2024-02-30 10:00:00',
    '2024-13-01 00:00:00',
    '2024-01-01T00:00:00',
    '2024-01-01 24:00:00',
    '2024-1-1 0:0:0',
    '',
  ])('refuse %j', (text) => {
    expect(isIstDateTime(text)).toBe(false);
    expect(() => istToEpochMs(text)).toThrow(RangeError);
  });

  it('are read by position as the pattern reads them, one character changed anywhere', () => {
    const pattern = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
    const good = '2024-02-29 23:59:59';
    expect(isIstDateTime(good)).toBe(true);
    let refused = 0;
    for (let i = 0; i < good.length; i++) {
      for (const c of ['0', '9', '/', ':', '-', ' ', 'T', 'a', '٣', '\n']) {
        const text = good.slice(0, i) + c + good.slice(i + 1);
        const m = pattern.exec(text);
        const [y, mo, d, h, mi, s] = (m ?? []).slice(1).map(Number) as number[];
        // The month's length from the calendar (2000 + y % 400 has the same leap years as y).
        const year = 2000 + (y! % 400);
        const monthDays = (Date.UTC(year, mo!, 1) - Date.UTC(year, mo! - 1, 1)) / 86_400_000;
        const real = !!m && mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= monthDays && h! < 24 && mi! < 60 && s! < 60;
        expect(isIstDateTime(text), JSON.stringify(text)).toBe(real);
        if (!real) refused++;
      }
    }
    expect(refused).toBeGreaterThan(good.length * 5);
    expect(isIstDateTime(good + ' ')).toBe(false);
    expect(isIstDateTime(good + '\n')).toBe(false);
    expect(isIstDateTime(good.slice(1))).toBe(false);
  });
});

describe('calendar dates', () => {
  it('accept real dates only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2024-04-31')).toBe(false);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2024-00-10')).toBe(false);
    expect(isCalendarDate('2024-06-00')).toBe(false);
    expect(isCalendarDate('20240101')).toBe(false);
  });

  it('add days across month and year ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(() => addDays('2024-02-30', 1)).toThrow(RangeError);
  });
});

describe('ISO UTC', () => {
  it('checks the Z form and writes microseconds', () => {
    expect(isIsoUtc('2024-05-01T10:20:30.123456Z')).toBe(true);
    expect(isIsoUtc('2024-05-01T10:20:30+05:30')).toBe(false);
    expect(isoUtcMicros(Date.parse('2024-05-01T10:20:30.123Z'))).toBe('2024-05-01T10:20:30.123000Z');
  });
});
