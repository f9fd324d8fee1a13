/**
 * Amounts as a person types them in rupees (a partial refund, an ad hoc charge, a plan, a conversion), and the size
 * above which a money-moving confirmation asks for the amount to be typed again. Rupees are parsed exactly into
 * paise (parseDecimalToMinor): never a float, never rounded, and every refusal says why. Forms, IPC inputs and the
 * CLI all read amounts here, so each says the same thing about "12.345", "-5" or "0".
 */
import { z } from 'zod';
import { formatMinor, MoneyError, parseDecimalToMinor, type Minor } from './money';

/** Above ₹1,00,000 the confirmation asks the desk to type the amount again. */
export const RETYPE_ABOVE_MINOR: Minor = 100_000_00;

/** Grouping commas as people type them: Indian (1,23,456.50) or western (123,456.50). */
const GROUPED = /^\d{1,3}(?:,\d{2})*,\d{3}(?:\.\d*)?$|^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/** A positive amount in rupees ("1500", "1,500.5", "₹ 1500.50") as paise; a MoneyError with the reason otherwise. */
export function parseRupees(text: string): Minor {
  const typed = text.trim().replace(/^₹\s*/, '');
  if (typed === '') throw new MoneyError('Enter an amount in rupees.');
  if (typed.startsWith('-')) throw new MoneyError('The amount must be more than zero; it is negative.');
  if (typed.includes(',') && !GROUPED.test(typed)) {
    throw new MoneyError(`"${text.trim()}" has commas in odd places; type it as 1,23,456.78 or 123456.78.`);
  }
  let minor: Minor;
  try {
    minor = parseDecimalToMinor(typed.replaceAll(',', ''));
  } catch (e) {
    if (e instanceof MoneyError && /decimal places/.test(e.message)) {
      throw new MoneyError(`"${text.trim()}" has more than two decimals; paise are the smallest unit.`);
    }
    if (e instanceof MoneyError && /too large/.test(e.message)) throw e;
    throw new MoneyError(`"${text.trim()}" is not an amount in rupees, such as 1500 or 1500.50.`);
  }
  if (minor <= 0) throw new MoneyError('The amount must be more than zero.');
  return minor;
}

const TYPED_WHOLE = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
const TYPED_PAISE = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Paise back as a person types rupees into a field ("2,50,00,000", "1,00,000.50"): what was typed stays readable
 * after saving, in the console's grouping, and parses back to the same paise. The exact decimal text goes to Intl,
 * never a float.
 */
export function formatRupeesTyped(minor: Minor): string {
  const text = formatMinor(minor) as `${number}`;
  return (minor % 100 === 0 ? TYPED_WHOLE : TYPED_PAISE).format(text);
}

/** parseRupees as a result, for forms that show the reason beside the field. */
export function checkRupees(text: string): { ok: true; minor: Minor } | { ok: false; reason: string } {
  try {
    return { ok: true, minor: parseRupees(text) };
  } catch (e) {
    if (e instanceof MoneyError) return { ok: false, reason: e.message };
    throw e;
  }
}

/** Rupees text in, positive paise out; the issue is checkRupees's reason. */
export const rupeesText = z.string().transform((text, ctx) => {
  const parsed = checkRupees(text);
  if (parsed.ok) return parsed.minor;
  ctx.addIssue({ code: 'custom', message: parsed.reason });
  return z.NEVER;
});
