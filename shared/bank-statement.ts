/**
 * Reading a bank statement a desk downloads from its bank: which column is which (the layouts Indian banks
 * export, recognised by their headers), exact amounts in the forms banks write them, the usual Indian date
 * formats, and the UTR of a NEFT, RTGS, IMPS or UPI credit from its narration or reference.
 *
 * Decisions, written down because a deployment may meet other banks:
 *  - A layout is a set of header synonyms per role (`LAYOUTS`); a file whose header row matches none needs a mapping
 *    (role -> header text), which is then remembered for its bank account.
 *  - Two-digit years are 20yy. Dates are day first (dd/mm), never mm/dd: no Indian bank writes month first.
 *  - A line's amount is signed: credit positive, debit negative. One signed column reads `Cr`/`Dr` suffixes,
 *    parentheses and a minus sign as banks use them; with a separate `Dr / Cr` column, that column decides.
 *  - A UTR is taken from the narration by rail (NEFT/RTGS: the bank-coded UTR such as `YESBN52026112400123` or a
 *    12-22 digit number; IMPS/UPI: the 12-digit RRN), else from the reference column when it has one of those
 *    shapes. A bank's own 16-digit `0000…` reference is not a UTR.
 */
import { z } from 'zod';
import { MoneyError, formatMinor, majorNumberToMinor, parseDecimalToMinor, sumMinor, type Minor } from './money';
import type { SheetCell } from './beneficiary-import';

export const STATEMENT_ROLES = [
  'date',
  'valueDate',
  'narration',
  'reference',
  'debit',
  'credit',
  'amount',
  'drCr',
  'balance',
] as const;
export type StatementRole = (typeof STATEMENT_ROLES)[number];

/** Role -> the header text of the column that holds it (as written in the file). */
export const columnMapping = z
  .object({
    date: z.string().min(1),
    valueDate: z.string().min(1).optional(),
    narration: z.string().min(1),
    reference: z.string().min(1).optional(),
    debit: z.string().min(1).optional(),
    credit: z.string().min(1).optional(),
    amount: z.string().min(1).optional(),
    drCr: z.string().min(1).optional(),
    balance: z.string().min(1).optional(),
  })
  .strict()
  .refine((m) => (m.credit !== undefined) !== (m.amount !== undefined), {
    message: 'map either a credit column (and a debit column) or one signed amount column',
  });
export type ColumnMapping = z.infer<typeof columnMapping>;

/** Header text as compared: lower case, letters and digits only ("Withdrawal Amt." -> "withdrawalamt"). */
export function headerKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

interface Layout {
  name: string;
  synonyms: Partial<Record<StatementRole, readonly string[]>>;
}

/** The layouts recognised by their headers, most specific first. Synonyms are `headerKey`s. */
export const LAYOUTS: readonly Layout[] = [
  {
    name: 'HDFC Bank',
    synonyms: {
      date: ['date'],
      narration: ['narration'],
      reference: ['chqrefno'],
      valueDate: ['valuedt'],
      debit: ['withdrawalamt'],
      credit: ['depositamt'],
      balance: ['closingbalance'],
    },
  },
  {
    name: 'ICICI Bank',
    synonyms: {
      date: ['transactiondate'],
      valueDate: ['valuedate'],
      narration: ['transactionremarks'],
      reference: ['chequenumber', 'chequenorefno', 'chqnorefno'],
      debit: ['withdrawalamountinr', 'withdrawalamtinr'],
      credit: ['depositamountinr', 'depositamtinr'],
      balance: ['balanceinr'],
    },
  },
  {
    name: 'State Bank of India',
    synonyms: {
      date: ['txndate'],
      valueDate: ['valuedate'],
      narration: ['description'],
      reference: ['refnochequeno'],
      debit: ['debit'],
      credit: ['credit'],
      balance: ['balance'],
    },
  },
  {
    name: 'Axis Bank',
    synonyms: {
      date: ['trandate'],
      narration: ['particulars'],
      reference: ['chqno'],
      debit: ['dr'],
      credit: ['cr'],
      balance: ['bal'],
    },
  },
  {
    // The table electron/import/mt940.ts makes of an MT940's :61: and :86: fields.
    name: 'MT940',
    synonyms: {
      date: ['bookingdate'],
      valueDate: ['valuedate'],
      narration: ['details86'],
      reference: ['reference61'],
      amount: ['amount61'],
    },
  },
  {
    // One signed column whose amounts carry the side as a suffix: `1,500.00(Dr)`, `2,00,000.00(Cr)`.
    name: 'Kotak Mahindra Bank',
    synonyms: {
      date: ['transactiondate', 'date'],
      valueDate: ['valuedate'],
      narration: ['description', 'narration'],
      reference: ['chqrefno', 'chequerefno', 'refno'],
      amount: ['withdrawaldrdepositcr'],
      balance: ['balance'],
    },
  },
  {
    // "Withdrawl" is the bank's own spelling.
    name: 'RBL Bank',
    synonyms: {
      date: ['transactiondate'],
      valueDate: ['valuedate'],
      narration: ['transactiondetails'],
      reference: ['chequeid', 'chequeno', 'refno'],
      debit: ['withdrawlamt', 'withdrawalamt'],
      credit: ['depositamt'],
      balance: ['balanceinr', 'balance'],
    },
  },
  {
    // Named so the import says whose statement it read, and so its reference column is read for a UTR: the generic
    // layout knows no "Cheque No/Reference No".
    name: 'Yes Bank',
    synonyms: {
      date: ['transactiondate'],
      valueDate: ['valuedate'],
      narration: ['description'],
      reference: ['chequenoreferenceno'],
      debit: ['withdrawals'],
      credit: ['deposits'],
      balance: ['runningbalance'],
    },
  },
  {
    name: 'IDFC FIRST Bank',
    synonyms: {
      date: ['transactiondate'],
      valueDate: ['valuedate'],
      narration: ['particulars'],
      reference: ['chequeno'],
      debit: ['debit'],
      credit: ['credit'],
      balance: ['balance'],
    },
  },
  {
    name: 'Generic',
    synonyms: {
      date: ['date', 'transactiondate', 'txndate', 'postingdate', 'trandate'],
      valueDate: ['valuedate', 'valuedt'],
      narration: ['narration', 'description', 'particulars', 'remarks', 'transactionremarks', 'details'],
      reference: ['reference', 'refno', 'chqrefno', 'chequeno', 'referenceno', 'utr'],
      debit: ['debit', 'withdrawal', 'withdrawals', 'debitamount', 'withdrawalamt', 'dr'],
      credit: ['credit', 'deposit', 'deposits', 'creditamount', 'depositamt', 'cr'],
      amount: ['amount', 'amountinr', 'transactionamount'],
      drCr: ['drcr', 'crdr', 'type', 'debitcredit'],
      balance: ['balance', 'closingbalance', 'runningbalance'],
    },
  },
];

/** The layout a header row matches, with the mapping it gives; null when none has date, narration and money. */
export function detectLayout(headers: readonly string[]): { layout: string; mapping: ColumnMapping } | null {
  const keys = headers.map(headerKey);
  for (const layout of LAYOUTS) {
    const found: Partial<Record<StatementRole, string>> = {};
    const used = new Set<number>();
    for (const role of STATEMENT_ROLES) {
      const names = layout.synonyms[role];
      if (!names) continue;
      const i = keys.findIndex((k, at) => !used.has(at) && names.includes(k));
      if (i >= 0) {
        used.add(i);
        found[role] = headers[i]!;
      }
    }
    if (found.credit && found.amount) delete found.amount;
    const parsed = columnMapping.safeParse(found);
    if (parsed.success) return { layout: layout.name, mapping: parsed.data };
  }
  return null;
}

const sameHeader = (a: string | undefined, b: string | undefined) =>
  (a === undefined ? undefined : headerKey(a)) === (b === undefined ? undefined : headerKey(b));

/** Whether every header a saved mapping names is in this header row. */
export function mappingFits(mapping: ColumnMapping, headers: readonly string[]): boolean {
  const keys = new Set(headers.map(headerKey));
  return Object.values(mapping).every((h) => keys.has(headerKey(h)));
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoDate(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Days from 1899-12-30 (Excel's serial date 0, 1900 leap-year bug included) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET = 25_569;

/**
 * `YYYY-MM-DD` from a statement's date cell: dd/mm/yy, dd/mm/yyyy, dd-mm-yyyy, dd.mm.yyyy, dd-MMM-yy(yy),
 * d MMM yyyy, an ISO date (a date cell read from a workbook), or an Excel serial number. Null when it is none.
 */
export function parseStatementDate(cell: SheetCell): string | null {
  if (cell === null) return null;
  if (typeof cell !== 'string') {
    const n = cell.number;
    if (!Number.isInteger(n) || n < 20_000 || n > 80_000) return null;
    const ms = (n - EXCEL_EPOCH_OFFSET) * 86_400_000;
    return new Date(ms).toISOString().slice(0, 10);
  }
  const text = cell.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+Z?)?$/.exec(text);
  if (iso) return isoDate(+iso[1]!, +iso[2]!, +iso[3]!);
  const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
  const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(text);
  if (numeric) return isoDate(year(numeric[3]!), +numeric[2]!, +numeric[1]!);
  const named = /^(\d{1,2})[\s/-]([A-Za-z]{3,4})[\s/,-]*(\d{2}|\d{4})$/.exec(text);
  if (named) {
    const m = MONTHS[named[2]!.toLowerCase()];
    return m === undefined ? null : isoDate(year(named[3]!), m, +named[1]!);
  }
  return null;
}

/**
 * Paise from a statement's amount cell: `1,23,456.78`, `123456.78`, `1,234.00 Cr`, `500.00 Dr` or `500.00(Dr)` (negative),
 * `(1,234.00)` (negative), `-1234`, with or without `₹`/`INR`/`Rs.`. Null for an empty cell. Throws MoneyError
 * (with the text) for anything else, never rounds: a third decimal that is not zero is refused.
 */
export function parseStatementAmount(cell: SheetCell): Minor | null {
  if (cell === null) return null;
  if (typeof cell !== 'string') return majorNumberToMinor(cell.number);
  let text = cell.trim().replace(/^(?:₹|INR|Rs\.?)\s*/i, '');
  if (text === '' || text === '-') return null;
  let sign = 1;
  const suffix = /\s*\(?(cr|dr)\.?\)?$/i.exec(text);
  if (suffix) {
    if (suffix[1]!.toLowerCase() === 'dr') sign = -1;
    text = text.slice(0, suffix.index).trim();
  }
  const parens = /^\((.*)\)$/.exec(text);
  if (parens) {
    sign = -sign;
    text = parens[1]!.trim();
  }
  text = text.replace(/^(?:₹|INR|Rs\.?)\s*/i, '');
  // Commas group digits (Indian 1,23,456 or western 123,456), never as a decimal point.
  if (!/^[+-]?(?:\d+|\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3})(?:\.\d+)?$/.test(text)) {
    throw new MoneyError(`"${cell}" is not an amount`);
  }
  const minor = parseDecimalToMinor(text.replace(/,/g, ''));
  return sign * minor === 0 ? 0 : sign * minor;
}

export type Rail = 'NEFT' | 'RTGS' | 'IMPS' | 'UPI';

/** A UTR issued by a bank: its 4-letter code, then letters and digits (NEFT 16, RTGS 22 characters). */
const BANK_UTR = /^[A-Z]{4}[A-Z0-9]{12,18}$/;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const NUMERIC_UTR = /^\d{12,22}$/;
const RRN = /^\d{12}$/;
/** A bank's own reference: zeros then a serial, as HDFC writes for NEFT; not the payer's UTR. */
const BANK_SERIAL = /^0000\d{12}$/;

/** The rail a narration names, and the UTR (or RRN) of the transfer; null when there is none to be found. */
export function extractUtr(narration: string, reference: string | null): { rail: Rail | null; utr: string | null } {
  const upper = narration.toUpperCase();
  const rail =
    (['RTGS', 'NEFT', 'IMPS', 'UPI'] as const).find((r) => new RegExp(`(^|[^A-Z])${r}([^A-Z]|$)`).test(upper)) ?? null;
  const tokens = upper.split(/[-/*:|\s,]+/).filter((t) => t !== '');
  const ref = reference?.trim().toUpperCase() ?? '';
  let utr: string | null = null;
  if (rail === 'NEFT' || rail === 'RTGS') {
    utr =
      tokens.find((t) => BANK_UTR.test(t) && !IFSC.test(t) && /\d{6}/.test(t)) ??
      [...tokens].reverse().find((t) => NUMERIC_UTR.test(t) && !BANK_SERIAL.test(t)) ??
      null;
  } else if (rail === 'IMPS' || rail === 'UPI') {
    utr = tokens.find((t) => RRN.test(t)) ?? null;
  }
  if (utr === null && ref !== '' && !BANK_SERIAL.test(ref)) {
    if (
      (BANK_UTR.test(ref) && /\d{6}/.test(ref) && !IFSC.test(ref)) ||
      RRN.test(ref) ||
      (rail && NUMERIC_UTR.test(ref))
    )
      utr = ref;
  }
  return { rail, utr };
}

/** One line of a statement as read: amount signed (credit +, debit -), paise. */
export interface StatementLineIn {
  rowNumber: number;
  date: string;
  valueDate: string | null;
  narration: string;
  reference: string | null;
  amount: Minor;
  balance: Minor | null;
  rail: Rail | null;
  utr: string | null;
}

export interface BadStatementRow {
  rowNumber: number;
  reason: string;
}

/** A cell as the text it shows (trimmed); a number cell as its number. */
export function cellText(cell: SheetCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  return typeof cell === 'string' ? cell.trim() : String(cell.number);
}

/** A reference cell: a number cell keeps the digits it shows (leading zeros by its format). */
function referenceText(cell: SheetCell | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  if (typeof cell === 'string') return cell.trim() || null;
  const digits = /^0+$/.exec(cell.format ?? '');
  return Number.isSafeInteger(cell.number)
    ? String(cell.number).padStart(digits ? digits[0].length : 0, '0')
    : String(cell.number);
}

const SEPARATOR = /^\*+$/;

/** What a statement says about itself in its summary or footer rows (null where it does not say). */
export interface StatedSummary {
  opening: Minor | null;
  closing: Minor | null;
  debits: Minor | null;
  credits: Minor | null;
  debitCount: number | null;
  creditCount: number | null;
}
type Figure = keyof StatedSummary;

export const NO_SUMMARY: StatedSummary = {
  opening: null,
  closing: null,
  debits: null,
  credits: null,
  debitCount: null,
  creditCount: null,
};

/** A summary cell's label (as a `headerKey`) and the figure it names: HDFC's, Axis's and the common wordings. */
const FIGURE_LABELS: readonly (readonly [RegExp, Figure])[] = [
  [/^openingbal(ance)?$/, 'opening'],
  [/^closingbal(ance)?$/, 'closing'],
  [/^(drcount|debitcount|noofdebits|noofwithdrawals)$/, 'debitCount'],
  [/^(crcount|creditcount|noofcredits|noofdeposits)$/, 'creditCount'],
  [/^(debits|totaldebits?|totalwithdrawals?)$/, 'debits'],
  [/^(credits|totalcredits?|totaldeposits?)$/, 'credits'],
];
/** A heading that starts a statement's summary or footer: what follows it is not lines until a line is read. */
const SUMMARY_HEADING =
  /^(statementsummary|accountsummary|transactiontotals?|(grand)?totals?|legends?(used.*)?|endofstatement|generatedon.*|thisisacomputergenerated.*)$/;
const TOTALS = /^(transactiontotals?|(grand)?totals?)$/;

function figureOf(figure: Figure, cell: SheetCell | undefined): number | null {
  if (cell === null || cell === undefined) return null;
  try {
    if (figure === 'debitCount' || figure === 'creditCount') {
      const n = typeof cell === 'string' ? Number(cell.trim().replace(/,/g, '')) : cell.number;
      return Number.isSafeInteger(n) && n >= 0 ? n : null;
    }
    const minor = parseStatementAmount(cell);
    return figure === 'debits' && minor !== null ? Math.abs(minor) : minor;
  } catch {
    return null;
  }
}

/**
 * Reads a statement's summary and footer rows: a label and its figure in one row (Axis: `OPENING BALANCE ...
 * 25,00,000.00`), a row of labels with their figures in the row below (HDFC's STATEMENT SUMMARY), a totals row with
 * its figures in the withdrawal and deposit columns (Axis: TRANSACTION TOTAL), and text under a heading (ICICI's
 * Legends). `take` is asked first for each row that is not a statement line.
 */
class SummaryReader {
  readonly stated: StatedSummary = { ...NO_SUMMARY };
  readonly rows: number[] = [];
  private labelsAbove: (Figure | null)[] | null = null;
  /** After a heading or a closing figure, rows that are not lines are the footer. */
  private inFooter = false;

  constructor(private readonly columns: { debit: number; credit: number }) {}

  /** Whether the row is the summary's (kept in `rows`); false leaves it to be read as a line. */
  take(row: readonly SheetCell[], rowNumber: number, isLine: boolean): boolean {
    if (isLine) {
      this.inFooter = false;
      this.labelsAbove = null;
      return false;
    }
    const keys = row.map((c) => headerKey(cellText(c)));
    const labels = keys.map((k) => FIGURE_LABELS.find(([re]) => re.test(k))?.[1] ?? null);
    if (this.labelsAbove) {
      this.labelsAbove.forEach((f, i) => f && this.set(f, figureOf(f, row[i])));
      this.labelsAbove = null;
      return this.kept(rowNumber);
    }
    const heading = keys.find((k) => SUMMARY_HEADING.test(k));
    if (!heading && labels.every((l) => l === null)) return this.inFooter && this.kept(rowNumber);
    const figures = row.map((c, i) => (labels[i] === null && cellText(c) !== '' ? c : null));
    if (labels.filter((l) => l !== null).length >= 2 && figures.every((f) => f === null)) {
      this.labelsAbove = labels;
    } else {
      labels.forEach((f, i) => {
        if (!f) return;
        const value = row.slice(i + 1).find((c) => figureOf(f, c) !== null);
        this.set(f, figureOf(f, value));
      });
      if (heading && TOTALS.test(heading)) {
        this.set('debits', figureOf('debits', row[this.columns.debit]));
        this.set('credits', figureOf('credits', row[this.columns.credit]));
      }
    }
    if (heading || labels.some((l) => l !== null && l !== 'opening')) this.inFooter = true;
    return this.kept(rowNumber);
  }

  private set(f: Figure, value: number | null): void {
    if (value !== null) this.stated[f] = value;
  }

  private kept(rowNumber: number): true {
    this.rows.push(rowNumber);
    return true;
  }
}

/**
 * The completeness proof: the statement's opening balance plus the credits read less the debits read must be its
 * closing balance, and the totals and counts it states must be those of the lines read. `problems` names each gap
 * in a sentence; `holds` is null when the statement states no opening and closing balance.
 */
export interface CompletenessProof {
  stated: StatedSummary;
  read: { credits: Minor; debits: Minor; creditCount: number; debitCount: number };
  holds: boolean | null;
  problems: string[];
  sentence: string;
}

export function proveComplete(stated: StatedSummary, lines: readonly { amount: Minor }[]): CompletenessProof {
  const credits = lines.filter((l) => l.amount > 0);
  const debits = lines.filter((l) => l.amount < 0);
  const read = {
    credits: sumMinor(credits.map((l) => l.amount)),
    debits: -sumMinor(debits.map((l) => l.amount)),
    creditCount: credits.length,
    debitCount: debits.length,
  };
  const rupees = (m: Minor) => `₹${formatMinor(m)}`;
  const problems: string[] = [];
  let holds: boolean | null = null;
  if (stated.opening !== null && stated.closing !== null) {
    const reached = stated.opening + read.credits - read.debits;
    holds = reached === stated.closing;
    if (!holds) {
      const gap = stated.closing - reached;
      problems.push(
        `The opening balance ${rupees(stated.opening)} plus the credits read (${rupees(read.credits)}) less the debits ` +
          `read (${rupees(read.debits)}) is ${rupees(reached)}, not the closing balance ${rupees(stated.closing)}: ` +
          `${rupees(Math.abs(gap))} of ${gap > 0 ? 'credits' : 'debits'} is missing from the lines read.`,
      );
    }
  }
  const compare = (what: string, statedValue: number | null, readValue: number, show: (n: number) => string) => {
    if (statedValue === null || statedValue === readValue) return;
    holds = false;
    problems.push(`The statement states ${what} of ${show(statedValue)}; the lines read hold ${show(readValue)}.`);
  };
  compare('credits', stated.credits, read.credits, rupees);
  compare('debits', stated.debits, read.debits, rupees);
  compare('a credit count', stated.creditCount, read.creditCount, String);
  compare('a debit count', stated.debitCount, read.debitCount, String);
  const sentence =
    holds === null
      ? 'The statement states no opening and closing balance, so its completeness is not proved.'
      : holds
        ? `Complete: opening ${rupees(stated.opening!)} + credits ${rupees(read.credits)} − debits ${rupees(read.debits)} = closing ${rupees(stated.closing!)}.`
        : `NOT COMPLETE: ${problems.join(' ')}`;
  return { stated, read, holds, problems, sentence };
}

/**
 * The lines of a statement from its data rows (after the header) under a mapping. A row of asterisks is a
 * separator; a row with no date and no amount but text in the narration continues the line above (banks wrap long
 * narrations); a row with neither date nor amount nor narration is skipped. The statement's summary, totals and
 * footer rows are read as its summary (SummaryReader), not as lines. Anything else that cannot be read is a bad row
 * with its number and reason; the good rows are kept.
 */
export function readStatementRows(
  headers: readonly string[],
  rows: readonly (readonly SheetCell[])[],
  rowNumbers: readonly number[],
  mapping: ColumnMapping,
): { lines: StatementLineIn[]; bad: BadStatementRow[]; summary: StatedSummary; summaryRows: number[] } {
  const keys = headers.map(headerKey);
  const col = (role: StatementRole): number => {
    const h = mapping[role];
    return h === undefined ? -1 : keys.indexOf(headerKey(h));
  };
  const at = Object.fromEntries(STATEMENT_ROLES.map((r) => [r, col(r)])) as Record<StatementRole, number>;
  const get = (row: readonly SheetCell[], role: StatementRole) => (at[role] < 0 ? null : (row[at[role]] ?? null));
  const lines: StatementLineIn[] = [];
  const bad: BadStatementRow[] = [];
  let previous: StatementLineIn | null = null;
  const summary = new SummaryReader({ debit: at.debit, credit: at.credit });
  rows.forEach((row, i) => {
    const rowNumber = rowNumbers[i]!;
    const dateText = cellText(get(row, 'date'));
    const narration = cellText(get(row, 'narration'));
    if (SEPARATOR.test(dateText) || (dateText === '' && SEPARATOR.test(narration))) return;
    if (summary.take(row, rowNumber, parseStatementDate(get(row, 'date')) !== null)) {
      previous = null;
      return;
    }
    const moneyCells = (['debit', 'credit', 'amount'] as const).map((r) => cellText(get(row, r)));
    if (dateText === '' && moneyCells.every((c) => c === '')) {
      if (narration !== '' && previous) previous.narration = `${previous.narration} ${narration}`;
      return;
    }
    const fail = (reason: string) => {
      bad.push({ rowNumber, reason });
      previous = null;
    };
    const date = parseStatementDate(get(row, 'date'));
    if (date === null)
      return fail(dateText === '' ? 'no date' : `date "${dateText}" is not dd/mm/yy, dd/mm/yyyy or dd-MMM-yyyy`);
    const valueText = cellText(get(row, 'valueDate'));
    const valueDate = valueText === '' ? null : parseStatementDate(get(row, 'valueDate'));
    if (valueText !== '' && valueDate === null) return fail(`value date "${valueText}" is not a date`);
    let amount: Minor;
    let balance: Minor | null;
    try {
      if (mapping.amount !== undefined) {
        const signed = parseStatementAmount(get(row, 'amount'));
        if (signed === null) return fail('no amount');
        const drCr = cellText(get(row, 'drCr')).toLowerCase();
        if (mapping.drCr !== undefined && !/^(dr|cr|d|c|debit|credit)\.?$/.test(drCr)) {
          return fail(drCr === '' ? 'no Dr/Cr' : `"${drCr}" is neither Dr nor Cr`);
        }
        amount = mapping.drCr === undefined ? signed : drCr.startsWith('d') ? -Math.abs(signed) : Math.abs(signed);
      } else {
        const debit = parseStatementAmount(get(row, 'debit'));
        const credit = parseStatementAmount(get(row, 'credit'));
        if ((debit ?? 0) !== 0 && (credit ?? 0) !== 0) return fail('both a withdrawal and a deposit');
        if (debit === null && credit === null) return fail('no amount: neither a withdrawal nor a deposit');
        if ((debit ?? 0) < 0 || (credit ?? 0) < 0) return fail('a negative amount in a withdrawal or deposit column');
        amount = (credit ?? 0) - (debit ?? 0);
      }
      balance = parseStatementAmount(get(row, 'balance'));
    } catch (e) {
      return fail(e instanceof Error ? e.message : String(e));
    }
    if (amount === 0) return fail('an amount of zero');
    if (narration === '') return fail('no narration');
    const reference = referenceText(get(row, 'reference'));
    const line: StatementLineIn = {
      rowNumber,
      date,
      valueDate,
      narration,
      reference,
      amount,
      balance,
      rail: null,
      utr: null,
    };
    lines.push(line);
    previous = line;
  });
  // The UTR once continuation rows have completed each narration.
  for (const l of lines) Object.assign(l, extractUtr(l.narration, l.reference));
  return { lines, bad, summary: summary.stated, summaryRows: summary.rows };
}

/** Where the header row is: the first of the first 30 rows that a layout (or the saved mapping) recognises. */
export function findHeaderRow(
  table: readonly (readonly SheetCell[])[],
  saved: ColumnMapping | null,
): { index: number; headers: string[]; layout: string; mapping: ColumnMapping } | null {
  for (let i = 0; i < Math.min(table.length, 30); i++) {
    const headers = table[i]!.map(cellText);
    const found = detectLayout(headers);
    if (saved && mappingFits(saved, headers)) {
      // A mapping that is a known layout's is named after it.
      const same = found !== null && STATEMENT_ROLES.every((r) => sameHeader(found.mapping[r], saved[r]));
      return { index: i, headers, layout: same ? found.layout : 'Saved mapping', mapping: saved };
    }
    if (found) return { index: i, headers, ...found };
  }
  return null;
}
