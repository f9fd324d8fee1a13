/**
 * A SWIFT MT940 customer statement (corporate banking's `.sta`/`.mt940`/`.txt`) as a table the statement reader
 * already knows: one row per `:61:` line with its `:86:` narration, under headers of the `MT940` layout
 * (shared/bank-statement.ts), plus the statement's own opening (`:60F:`) and closing (`:62F:`) balances for the
 * completeness proof. Written here rather than taken from npm: the part a desk needs is these seven tags, which fit
 * in this file (docs/design/libraries.md). Amounts stay text (`1500.00`, comma decimal turned to a point), so the
 * reader's exact decimal parsing decides them.
 */
import type { SheetCell } from '../../shared/beneficiary-import';
import { parseDecimalToMinor, type Minor } from '../../shared/money';

/** The header row the MT940 layout recognises (shared/bank-statement.ts's LAYOUTS). */
export const MT940_HEADERS = ['Booking date', 'Value date', 'Details (:86:)', 'Reference (:61:)', 'Amount (:61:)'];

export interface Mt940Balances {
  opening: Minor | null;
  closing: Minor | null;
}

/** Whether a text is MT940: a `:20:` reference and a `:60F:`/`:61:` line, each at the start of a line. */
export function looksLikeMt940(text: string): boolean {
  return /^:20:/m.test(text) && /^:(?:60[FM]|61):/m.test(text);
}

/** `:60F:C261123INR2500000,00` -> signed paise (C positive, D negative); null when the field is not a balance. */
function balance(value: string): Minor | null {
  const m = /^([CD])(\d{6})([A-Z]{3})(\d{1,15},\d{0,2})$/.exec(value.trim());
  if (!m) return null;
  const minor = parseDecimalToMinor(m[4]!.replace(',', '.').replace(/\.$/, ''));
  return m[1] === 'D' ? -minor : minor;
}

const yymmdd = (s: string) => `20${s.slice(0, 2)}-${s.slice(2, 4)}-${s.slice(4, 6)}`;

/**
 * `:61:` = value date YYMMDD, entry date MMDD (optional), D/C/RD/RC, funds code (optional), amount with a comma
 * decimal, transaction type (N/S/F + 3), the account owner's reference, `//` the bank's reference (optional).
 */
const LINE_61 =
  /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d{1,12},\d{0,2})([NSF][A-Z0-9]{3})([^/]{0,16})(?:\/\/(.{0,16}))?$/;

/** Rows of the table with their line numbers in the file; a `:61:` that cannot be read keeps its text to be named. */
export function readMt940(text: string): { rows: { cells: SheetCell[]; n: number }[]; balances: Mt940Balances } {
  const fields: { tag: string; value: string; n: number }[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const tagged = /^:(\d{2}[A-Z]?):(.*)$/.exec(line);
    if (tagged) fields.push({ tag: tagged[1]!, value: tagged[2]!, n: i + 1 });
    else if (/^-\}?$|^\{/.test(line.trim()))
      return; // the SWIFT envelope's blocks and the message's end
    else if (fields.length > 0 && line.trim() !== '') fields.at(-1)!.value += `\n${line}`;
  });
  const rows: { cells: SheetCell[]; n: number }[] = [{ cells: [...MT940_HEADERS], n: 0 }];
  const balances: Mt940Balances = { opening: null, closing: null };
  let last: SheetCell[] | null = null;
  for (const f of fields) {
    if ((f.tag === '60F' || f.tag === '60M') && balances.opening === null) balances.opening = balance(f.value);
    else if (f.tag === '62F' || f.tag === '62M') balances.closing = balance(f.value);
    else if (f.tag === '61') {
      const [first, ...more] = f.value.split('\n');
      const m = LINE_61.exec(first!.trimEnd());
      if (!m) {
        // The reader names it: no date it can read.
        last = [first!, null, first!, null, null];
        rows.push({ cells: last, n: f.n });
        continue;
      }
      const value = yymmdd(m[1]!);
      let booking = value;
      if (m[2]) {
        // An entry date in January for a December value date is the next year's.
        const year = Number(m[1]!.slice(0, 2)) + (m[2].slice(0, 2) === '01' && m[1]!.slice(2, 4) === '12' ? 1 : 0);
        booking = `20${String(year).padStart(2, '0')}-${m[2].slice(0, 2)}-${m[2].slice(2, 4)}`;
      }
      // RD reverses a debit (money in), RC a credit (money out).
      const sign = m[3] === 'C' || m[3] === 'RD' ? '' : '-';
      const amount = `${sign}${m[5]!.replace(',', '.').replace(/\.$/, '')}`;
      const ref = [m[7]!.trim(), m[8]?.trim()].filter((r) => r && r !== 'NONREF').join(' ');
      last = [booking, value, more.join(' ').trim(), ref === '' ? null : ref, amount];
      rows.push({ cells: last, n: f.n });
    } else if (f.tag === '86' && last) {
      const details = f.value.replace(/\n/g, '').trim();
      last[2] = [last[2], details].filter((t) => typeof t === 'string' && t !== '').join(' ');
      last = null;
    }
  }
  return { rows, balances };
}
