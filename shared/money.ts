/**
 * Exact money. Every amount in a domain model is an integer number of minor units (paise for INR).
 *
 * The wire carries money three ways: integers already in minor units, decimal strings in major units
 * ("12.50"), and JSON numbers in major units (payout amount, balances). None is ever multiplied as a
 * float: decimals are parsed digit by digit, and JSON numbers go through their shortest round-trip
 * text (`String(n)`), which is exactly what the sender wrote for any value with two decimals or fewer.
 */

/** Integer minor units. A plain number, checked to be a safe integer wherever it is made. */
export type Minor = number;

export class MoneyError extends Error {
  override name = 'MoneyError';
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;
const EXPONENT = /^([+-])?(\d+)(?:\.(\d+))?e([+-]?\d+)$/i;

/**
 * Parses a decimal text in major units ("12.5", "-0.75", "1000") into minor units.
 * More fractional digits than `scale` are accepted only when the extra digits are zeros:
 * a value that would need rounding is refused rather than silently changed.
 */
export function parseDecimalToMinor(text: string, scale = 2): Minor {
  const plain = plainDecimalToMinor(text, scale);
  if (plain !== undefined) return plain;
  const trimmed = text.trim();
  const m = DECIMAL.exec(trimmed);
  if (!m) throw new MoneyError(`"${text}" is not a decimal amount`);
  const [, sign, whole, frac = ''] = m;
  return digitsToMinor(sign, whole!, frac, scale, text);
}

/**
 * The common shape ("6.88", "-120.5", "1000"), read digit by digit: a sync parses four amounts a record, and the
 * regex with its substrings was most of that. Only where the result is plainly exact (whole digits plus `scale` at
 * most 15, at most `scale` decimals); anything else (spaces, "+", extra zero decimals, more digits, bad text) is left
 * to the general path, which answers or refuses it.
 */
function plainDecimalToMinor(text: string, scale: number): Minor | undefined {
  const end = text.length;
  const negative = end > 0 && text.charCodeAt(0) === 45; // '-'
  let i = negative ? 1 : 0;
  let value = 0;
  const wholeFrom = i;
  for (; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  const whole = i - wholeFrom;
  if (whole === 0 || whole + scale > 15) return undefined;
  let decimals = 0;
  if (i < end) {
    if (text.charCodeAt(i) !== 46) return undefined; // '.'
    for (i++; i < end; i++, decimals++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return undefined;
      value = value * 10 + digit;
    }
    if (decimals === 0 || decimals > scale) return undefined;
  }
  for (; decimals < scale; decimals++) value *= 10;
  return negative && value !== 0 ? -value : value;
}

function digitsToMinor(sign: string | undefined, whole: string, frac: string, scale: number, original: string): Minor {
  const kept = frac.slice(0, scale).padEnd(scale, '0');
  if (/[^0]/.test(frac.slice(scale))) {
    throw new MoneyError(`"${original}" has more than ${scale} decimal places`);
  }
  const digits = whole + kept;
  // Up to 15 digits an integer is exact as a double; BigInt only where it could not be.
  if (digits.length <= 15) {
    const n = Number(digits);
    return sign === '-' && n !== 0 ? -n : n;
  }
  const minor = BigInt(digits) * (sign === '-' ? -1n : 1n);
  return toSafeMinor(minor, original);
}

/** Minor units from a JSON number given in major units (e.g. a balance of 1234.5 rupees). */
export function majorNumberToMinor(value: number, scale = 2): Minor {
  if (!Number.isFinite(value)) throw new MoneyError(`${value} is not a finite amount`);
  const text = String(value);
  const exp = EXPONENT.exec(text);
  if (!exp) return parseDecimalToMinor(text, scale);
  // Shift the decimal point by the exponent as text, so 1e21 or 5e-7 are handled exactly too.
  const [, sign, whole, frac = '', e] = exp;
  const digits = whole! + frac;
  const point = whole!.length + Number(e);
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  return digitsToMinor(sign, padded.slice(0, at), padded.slice(at), scale, text);
}

/** Minor units from a value that is already an integer count of minor units (the API's `integer` amounts). */
export function integerMinor(value: number): Minor {
  if (!Number.isSafeInteger(value)) throw new MoneyError(`${value} is not a whole number of minor units`);
  return value;
}

function toSafeMinor(value: bigint, original: string): Minor {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new MoneyError(`"${original}" is too large to hold exactly`);
  }
  return Number(value);
}

/** "1234.50" from 123450: the exact major-unit text, for display, CSV and the wire. */
export function formatMinor(minor: Minor, scale = 2): string {
  // Safe integers divide exactly in doubles: the export formats eight amounts a row, and BigInt was most of its cost.
  const unit = 10 ** scale;
  if (Number.isSafeInteger(minor) && Number.isSafeInteger(unit)) {
    const abs = Math.abs(minor);
    const frac = abs % unit;
    const whole = String((abs - frac) / unit);
    return `${minor < 0 ? '-' : ''}${whole}${scale > 0 ? '.' + String(frac).padStart(scale, '0') : ''}`;
  }
  const value = BigInt(integerMinor(minor));
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? '.' + frac : ''}`;
}

/** Sum of minor amounts, checked for overflow of the exact integer range. */
export function sumMinor(values: Iterable<Minor>): Minor {
  let total = 0n;
  for (const v of values) total += BigInt(integerMinor(v));
  return toSafeMinor(total, total.toString());
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * `₹12,34,567.89` for 123456789 paise: the amount's exact decimal text is handed to Intl, which formats a
 * numeric string without turning it into a float. Currencies group per their locale (en-IN lakh/crore for INR).
 */
export function formatMoney(minor: Minor, currency = 'INR'): string {
  let nf = formatters.get(currency);
  if (!nf) {
    nf = new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(currency, nf);
  }
  return nf.format(formatMinor(minor) as `${number}`);
}
