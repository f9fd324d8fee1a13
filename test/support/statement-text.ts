/**
 * How Indian banks print a statement's amounts and dates, for the tests' own statement writers (statement-kinds,
 * statement-layouts-scored): text the console must read, written without any of its code but the money formatter.
 */
import { formatMinor } from '../../shared/money';
import type { SheetInput } from './export-files';

/** `1,24,835.83`: Indian grouping, as the banks print. */
export const indian = (paise: number) => {
  const [whole, frac] = formatMinor(Math.abs(paise)).split('.');
  const w = whole!.length > 3 ? `${whole!.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${whole!.slice(-3)}` : whole!;
  return `${w}.${frac}`;
};
/** A number cell of rupees with two decimals shown. */
export const num = (paise: number): SheetInput => ({ n: paise / 100, fmt: '#,##0.00' });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `24/11/26` from `2026-11-24`. */
export const ddmmyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(2, 4)}`;
/** `24 Nov 2026` from `2026-11-24`. */
export const dMonY = (iso: string) =>
  `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
/** `24-Nov-2026` from `2026-11-24`. */
export const ddMonYyyy = (iso: string) =>
  `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;
/** A CSV field, quoted when it holds a quote or a comma. */
export const csvCell = (s: string) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
