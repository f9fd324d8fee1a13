/**
 * A positive amount of money as a person types it (rupees, "1,250.50" or "1250.5"), parsed exactly into paise by
 * shared/money.ts: never a float. Forms, IPC inputs and the CLI read amounts through this one schema, so each says
 * the same thing about "12.345", "-5" or "0".
 */
import { z } from 'zod';
import { MoneyError, parseDecimalToMinor } from './money';

// Grouped the Indian way (1,00,000) or the international way (100,000); any other comma is a typo.
const GROUPED = /^(?:\d{1,2}(?:,\d{2})*,\d{3}|\d{1,3}(?:,\d{3})+)(?:\.\d*)?$/;

/** Paise from rupees as typed, or the sentence that says what is wrong with it. */
export function parseRupees(text: string): { ok: true; minor: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Enter an amount in rupees.' };
  if (trimmed.startsWith('-')) return { ok: false, message: 'The amount cannot be negative.' };
  const plain = GROUPED.test(trimmed) ? trimmed.replaceAll(',', '') : trimmed;
  let minor: number;
  try {
    minor = parseDecimalToMinor(plain);
  } catch (e) {
    if (e instanceof MoneyError && /decimal places/.test(e.message)) {
      return { ok: false, message: 'Use at most two decimal places (paise).' };
    }
    if (e instanceof MoneyError && /too large/.test(e.message))
      return { ok: false, message: 'The amount is too large.' };
    return { ok: false, message: 'Enter an amount in rupees, such as 499 or 1,250.50.' };
  }
  if (minor === 0) return { ok: false, message: 'The amount must be more than zero.' };
  return { ok: true, minor };
}

/** Rupees text in, positive paise out; the issue is parseRupees's sentence. */
export const rupeesText = z.string().transform((text, ctx) => {
  const parsed = parseRupees(text);
  if (parsed.ok) return parsed.minor;
  ctx.addIssue({ code: 'custom', message: parsed.message });
  return z.NEVER;
});
