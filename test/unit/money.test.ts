import { describe, expect, it } from 'vitest';
import {
  MoneyError,
  formatMinor,
  formatMoney,
  integerMinor,
  majorNumberToMinor,
  parseDecimalToMinor,
  sumMinor,
} from '../../shared/money';

describe('parseDecimalToMinor', () => {
  it.each([
    ['0.00', 0],
    ['0', 0],
    ['12.5', 1250],
    ['12.50', 1250],
    ['-3.10', -310],
    ['+7.01', 701],
    ['1.500', 150],
    ['  42.00 ', 4200],
    ['90071992547409.91', 9007199254740991],
  ])('%s -> %d paise', (text, minor) => {
    expect(parseDecimalToMinor(text)).toBe(minor);
  });

  it.each(['', 'abc', '1,000.00', '1.2.3', '.5', '5.', '1e3', 'NaN', '--1'])('refuses %j', (text) => {
    expect(() => parseDecimalToMinor(text)).toThrow(MoneyError);
  });

  it('refuses a value that would need rounding instead of rounding it', () => {
    expect(() => parseDecimalToMinor('1.005')).toThrow(/more than 2 decimal places/);
  });

  it('refuses values beyond exact integer range', () => {
    expect(() => parseDecimalToMinor('99999999999999999999.99')).toThrow(/too large/);
    expect(() => parseDecimalToMinor('-90071992547409.93')).toThrow(/too large/);
  });

  it('honours another scale', () => {
    expect(parseDecimalToMinor('1.234', 3)).toBe(1234);
    expect(parseDecimalToMinor('7', 0)).toBe(7);
  });
});

describe('majorNumberToMinor', () => {
  it.each([
    [0, 0],
    [1500.5, 150050],
    [0.1 + 0.2 - 0.3 + 12.34 - (0.1 + 0.2 - 0.3), 1234],
    [1234.56, 123456],
    [-0.07, -7],
    [1e6, 100000000],
  ])('%d -> %d', (value, minor) => {
    expect(majorNumberToMinor(value)).toBe(minor);
  });

  it('reads exponent forms exactly', () => {
    expect(majorNumberToMinor(1e-7 * 0)).toBe(0);
    expect(() => majorNumberToMinor(5e-7)).toThrow(/decimal places/);
    expect(() => majorNumberToMinor(1e21)).toThrow(/too large/);
  });

  it('refuses a float that is not what a sender with two decimals wrote', () => {
    expect(() => majorNumberToMinor(0.1 + 0.2)).toThrow(MoneyError);
    expect(() => majorNumberToMinor(Number.NaN)).toThrow(/finite/);
  });
});

describe('integerMinor, formatMinor, sumMinor', () => {
  it('accepts only safe integers', () => {
    expect(integerMinor(5)).toBe(5);
    expect(() => integerMinor(5.5)).toThrow(MoneyError);
    expect(() => integerMinor(2 ** 53)).toThrow(MoneyError);
  });

  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [123456, '1234.56'],
    [-100, '-1.00'],
    [9007199254740991, '90071992547409.91'],
  ])('formats %d as %s', (minor, text) => {
    expect(formatMinor(minor)).toBe(text);
    expect(parseDecimalToMinor(text)).toBe(minor);
  });

  it('formats every safe integer exactly, at any scale, as decimal arithmetic on the digits does', () => {
    // The reference: the digits of the BigInt, the point put in by position.
    const exact = (minor: number, scale: number) => {
      const digits = (minor < 0 ? -BigInt(minor) : BigInt(minor)).toString().padStart(scale + 1, '0');
      const point = digits.length - scale;
      return `${minor < 0 ? '-' : ''}${digits.slice(0, point)}${scale > 0 ? '.' + digits.slice(point) : ''}`;
    };
    const edges = [0, 1, 9, 10, 99, 100, 101, 999_999_999_999_999, Number.MAX_SAFE_INTEGER];
    for (let p = 1; p < 2 ** 53; p *= 7) edges.push(p, p - 1, p + 1);
    for (const scale of [0, 2, 3, 6])
      for (const minor of edges.flatMap((e) => [e, -e])) expect(formatMinor(minor, scale)).toBe(exact(minor, scale));
    expect(formatMinor(-0)).toBe('0.00');
  });

  it('sums exactly and refuses overflow', () => {
    expect(sumMinor([10, 20, -5])).toBe(25);
    expect(sumMinor(Array.from({ length: 1000 }, () => 1))).toBe(1000);
    expect(() => sumMinor([Number.MAX_SAFE_INTEGER, 1])).toThrow(/too large/);
  });
});

describe('exactness on both paths', () => {
  it('gives the same result below and above 15 digits, and no negative zero', () => {
    expect(parseDecimalToMinor('9999999999999.99')).toBe(999999999999999);
    expect(() => parseDecimalToMinor('99999999999999.99')).toThrow(/too large/);
    expect(Object.is(parseDecimalToMinor('-0.00'), 0)).toBe(true);
    expect(parseDecimalToMinor('-12345678901234.56')).toBe(-1234567890123456);
  });

  it('reads the common shape by hand exactly as the general rule does, at every length and scale', () => {
    // The reference: the digits as a BigInt, sign applied, checked against the exact integer range.
    const reference = (text: string, scale: number): number | 'refused' => {
      const m = /^\s*([+-])?(\d+)(?:\.(\d+))?\s*$/.exec(text);
      if (!m || /[^0]/.test((m[3] ?? '').slice(scale))) return 'refused';
      const minor = BigInt(m[2]! + (m[3] ?? '').slice(0, scale).padEnd(scale, '0')) * (m[1] === '-' ? -1n : 1n);
      if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < BigInt(Number.MIN_SAFE_INTEGER)) return 'refused';
      return Number(minor);
    };
    const texts: string[] = [];
    for (let whole = 1; whole <= 17; whole++) {
      const digits = '9876543210987654321'.slice(0, whole);
      for (const frac of ['', '.', '.5', '.05', '.50', '.500', '.501', '.1234']) {
        for (const sign of ['', '-', '+', ' ', '--']) texts.push(sign + digits + frac, sign + '0' + digits + frac);
      }
    }
    texts.push('-0', '-0.0', '0.00 ', '1.5x', '1.-5', '-', '-.5', '1..5', '٣.٥');
    for (const scale of [0, 2, 3]) {
      for (const text of texts) {
        const want = reference(text, scale);
        const got = (() => {
          try {
            return parseDecimalToMinor(text, scale);
          } catch (e) {
            if (e instanceof MoneyError) return 'refused';
            throw e;
          }
        })();
        expect(got, `${JSON.stringify(text)} at scale ${scale}`).toBe(want === 0 ? 0 : want);
        if (got === 0) expect(Object.is(got, 0), `${JSON.stringify(text)} gives no negative zero`).toBe(true);
      }
    }
  });
});

describe('formatMoney', () => {
  it.each([
    [123456789, '₹12,34,567.89'],
    [0, '₹0.00'],
    [-5, '-₹0.05'],
    [9007199254740991, '₹9,00,71,99,25,47,409.91'],
  ])('%d paise -> %s', (minor, text) => {
    expect(formatMoney(minor)).toBe(text);
  });
  it('uses the currency of the amount', () => {
    expect(formatMoney(150050, 'USD')).toBe('$1,500.50');
  });
});
