/**
 * An amount in words as Indian cheques and payment advices write it, in the Indian system (thousand, lakh, crore):
 * 12345678 paise is "Rupees one lakh twenty-three thousand four hundred fifty-six and paise seventy-eight".
 * The confirmation of every money-moving action shows it beside the figures, so a slipped digit reads differently.
 * Works on the integer paise only (no float); beyond 99 crore the crore count is itself said in lakhs and thousands.
 */
import { integerMinor, type Minor } from './money';

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens}-${ONES[n % 10]}`;
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts = hundreds > 0 ? [`${ONES[hundreds]} hundred`] : [];
  if (rest > 0) parts.push(belowHundred(rest));
  return parts.join(' ');
}

/** A whole number in words, Indian grouping: 1,23,45,678 is "one crore twenty-three lakh forty-five thousand six hundred seventy-eight". */
export function wholeInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${n} is not a whole number to say in words`);
  if (n === 0) return 'zero';
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor(n / 100_000) % 100;
  const thousand = Math.floor(n / 1000) % 100;
  const rest = n % 1000;
  const parts: string[] = [];
  if (crore > 0) parts.push(`${wholeInWords(crore)} crore`);
  if (lakh > 0) parts.push(`${belowHundred(lakh)} lakh`);
  if (thousand > 0) parts.push(`${belowHundred(thousand)} thousand`);
  if (rest > 0) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/**
 * "Rupees one hundred and paise five" for 10005 paise; "Rupees one hundred" for 10000; "Rupees zero and paise fifty"
 * for 50. Another currency is named by its code with its minor units as hundredths ("USD twelve and 50/100").
 */
export function amountInWords(minor: Minor, currency = 'INR'): string {
  const value = integerMinor(minor);
  const sign = value < 0 ? 'minus ' : '';
  const abs = Math.abs(value);
  const whole = Math.floor(abs / 100);
  const paise = abs % 100;
  if (currency !== 'INR') {
    return `${sign}${currency} ${wholeInWords(whole)}${paise ? ` and ${String(paise).padStart(2, '0')}/100` : ''}`;
  }
  return `${sign}Rupees ${wholeInWords(whole)}${paise ? ` and paise ${belowHundred(paise)}` : ''}`;
}
