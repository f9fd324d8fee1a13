/**
 * Bulk beneficiary import, the part that needs no file system and no service: which column is which field, a
 * sheet's cell as the text of a field, each row checked by the same schema as the add form, and duplicates within
 * the file. Main adds the duplicates against the cache and what earlier runs of the same file did.
 *
 * Account numbers are identifiers, not quantities. A spreadsheet that stored one as a number keeps at most 15
 * significant digits and drops leading zeros; a number cell is taken only when it cannot have lost anything it
 * showed (an integer of at most 15 digits, padded back to the width of a "000…0" number format), and refused
 * otherwise, with the way to fix the file. A text cell in exponent form ("1.23457E+17", what a CSV saved from such
 * a sheet holds) is refused the same way.
 */
import { z } from 'zod';
import {
  BENEFICIARY_FIELDS,
  beneficiaryForm,
  normaliseBeneficiaryText,
  type BeneficiaryField,
  type BeneficiaryFields,
} from './beneficiaries';
import { asSentence, fieldSentence } from './messages';

/** One cell as a reader found it: text, a number with its display format, or nothing. */
export type SheetCell = string | { number: number; format: string | null } | null;

/** The most rows one import takes: a desk's vendor file is hundreds; this bounds memory and the preview. */
export const IMPORT_MAX_ROWS = 5_000;

/** The template's own headers, one per field. */
export const TEMPLATE_HEADERS: Record<BeneficiaryField, string> = {
  name: 'Name',
  account_number: 'Account number',
  ifsc: 'IFSC',
  vpa: 'UPI address',
  phone: 'Phone',
  email: 'Email',
  address: 'Address',
};

/**
 * Other headers vendor files and the bulk-payee templates of Indian payout services and banks use for the same
 * fields, compared after `headerKey` (so "A/C No.", "a/c no" and "A/C NO" are one header).
 * test/unit/beneficiary-import.test.ts names each template's header row and where it comes from.
 */
const ALIASES: Record<BeneficiaryField, readonly string[]> = {
  name: [
    'beneficiary name',
    'bene name',
    'beneficiary account name',
    'name of beneficiary',
    'payee name',
    'vendor name',
    'account holder name',
    'account name',
    // RazorpayX's contacts and fund accounts template: the account holder's name.
    'fund account name',
  ],
  account_number: [
    'account no',
    'account number',
    'bank account',
    'bank account number',
    'bank account no',
    'bank a/c no',
    'a/c no',
    'a/c number',
    'ac no',
    'beneficiary account number',
    'beneficiary account no',
    'beneficiary a/c no',
    'bene account no',
    'bene account number',
    'bene a/c no',
    'fund account number',
    // Cashfree's field name.
    'bankaccount',
  ],
  ifsc: [
    'ifsc code',
    'ifs code',
    'bene ifsc',
    'bene ifsc code',
    'beneficiary ifsc',
    'beneficiary ifsc code',
    'beneficiary bank ifsc',
    'fund account ifsc',
  ],
  vpa: ['upi', 'upi id', 'vpa', 'vpa address', 'upi handle', 'beneficiary vpa', 'bene vpa', 'fund account vpa'],
  phone: [
    'mobile',
    'mobile no',
    'mobile number',
    'phone number',
    'phone no',
    'contact number',
    'beneficiary mobile no',
    'beneficiary mobile number',
    'beneficiary phone',
    'beneficiary phone number',
    'bene mobile no',
    'fund account phone number',
  ],
  email: [
    'e-mail',
    'email address',
    'email id',
    'e-mail id',
    'mail id',
    'beneficiary email',
    'beneficiary email id',
    'bene email',
    'bene email id',
    'fund account email',
  ],
  address: ['beneficiary address', 'bene address', 'address1', 'address line 1'],
};

/**
 * A header compared without case, surrounding spaces, a required-field star, or the difference between "_", ".",
 * ":", "-" and a space.
 */
export function headerKey(header: string): string {
  return header
    .toLowerCase()
    .replace(/\*/g, '')
    .replace(/[\s_.:-]+/g, ' ')
    .trim();
}

const KNOWN_HEADERS = new Map<string, BeneficiaryField>([
  ...BENEFICIARY_FIELDS.map((f) => [headerKey(f), f] as const),
  ...BENEFICIARY_FIELDS.map((f) => [headerKey(TEMPLATE_HEADERS[f]), f] as const),
  ...BENEFICIARY_FIELDS.flatMap((f) => ALIASES[f].map((h) => [headerKey(h), f] as const)),
]);

/** A column's field chosen by the user for a header the console does not know; `ignore` leaves it out. */
export const headerMapping = z.record(z.string().max(200), z.union([z.enum(BENEFICIARY_FIELDS), z.literal('ignore')]));
export type HeaderMapping = z.output<typeof headerMapping>;

export interface ColumnMap {
  /** The field of each column, or null for a column left out. */
  fields: (BeneficiaryField | null)[];
  /** Headers neither known nor mapped: the mapping step asks about these, and nothing is created until it has. */
  unknown: string[];
  /**
   * Problems that stop the import: a column neither known, mapped nor left out, a field named by two columns, no
   * name column, no account or UPI column.
   */
  problems: string[];
}

/** Which column is which field: the known headers, then the user's mapping (which wins) for the others. */
export function mapColumns(headers: readonly string[], mapping: HeaderMapping = {}): ColumnMap {
  const byKey = new Map(Object.entries(mapping).map(([h, f]) => [headerKey(h), f] as const));
  const unknown: string[] = [];
  const fields = headers.map((h) => {
    const chosen = byKey.get(headerKey(h));
    if (chosen) return chosen === 'ignore' ? null : chosen;
    const known = KNOWN_HEADERS.get(headerKey(h));
    if (known) return known;
    if (h.trim() !== '') unknown.push(h);
    return null;
  });
  const problems: string[] = [];
  // A column left unread by default could be the one holding the account numbers: each is a choice the user makes.
  if (unknown.length > 0) {
    const named = unknown.map((h) => `"${h}"`).join(', ');
    problems.push(
      unknown.length === 1
        ? `The column ${named} is not mapped: choose its field or leave it out.`
        : `The columns ${named} are not mapped: choose a field for each or leave it out.`,
    );
  }
  for (const f of BENEFICIARY_FIELDS) {
    const columns = headers.filter((_, i) => fields[i] === f);
    if (columns.length > 1) problems.push(`Two columns are ${TEMPLATE_HEADERS[f]}: "${columns.join('" and "')}".`);
  }
  if (!fields.includes('name')) problems.push('No column is the Name.');
  if (!fields.includes('account_number') && !fields.includes('vpa')) {
    problems.push('No column is the Account number or the UPI address.');
  }
  return { fields, unknown, problems };
}

const EXPONENT = /^[+-]?\d+(?:\.\d+)?e[+-]?\d+$/i;
const SPREADSHEET_DIGITS = 15;
const LOST_DIGITS =
  'has lost digits in the spreadsheet (it was stored as a number); format the column as Text, type the number again and re-import';

/** A cell as a field's text, or the reason it cannot be one. */
export function cellText(field: BeneficiaryField, cell: SheetCell): { text: string } | { problem: string } {
  if (cell === null) return { text: '' };
  if (typeof cell === 'string') {
    if ((field === 'account_number' || field === 'phone') && EXPONENT.test(cell.trim())) {
      return { problem: `is in exponent form (${cell.trim()}) and ${LOST_DIGITS}` };
    }
    return { text: cell };
  }
  const { number, format } = cell;
  if (field !== 'account_number' && field !== 'phone') return { text: String(number) };
  if (!Number.isSafeInteger(number) || number < 0) return { problem: `is not a whole number (${number})` };
  const digits = String(number);
  if (digits.length > SPREADSHEET_DIGITS) return { problem: `has more than 15 digits and ${LOST_DIGITS}` };
  // A "000000000000" format shows the leading zeros a number cannot hold: they are part of what the sheet showed.
  const width = format && /^0+$/.test(format) ? format.length : 0;
  return { text: digits.padStart(width, '0') };
}

export type RowProblem = { field: BeneficiaryField | null; message: string };

export interface CheckedRow {
  /** The row's number in the sheet (the header is row 1), as a person would find it. */
  row: number;
  /** The fields after normalising, as they would be sent (empty optional fields left out). */
  fields: BeneficiaryFields | null;
  /** What the row holds, normalised, for the preview and the results even when it is invalid. */
  values: Record<BeneficiaryField, string>;
  problems: RowProblem[];
  /** The earlier row of this file with the same bank account (number + IFSC) or UPI address. */
  duplicateOfRow: number | null;
}

/** The keys two beneficiaries are the same payee by: the bank account at its branch, and the UPI address. */
export function payeeKeys(v: Partial<Record<BeneficiaryField, string>>): string[] {
  const keys: string[] = [];
  if (v.account_number && v.ifsc) keys.push(`account:${v.account_number}:${v.ifsc.toUpperCase()}`);
  if (v.vpa) keys.push(`vpa:${v.vpa.toLowerCase()}`);
  return keys;
}

/** Every data row checked by the form's schema after normalising, with duplicates within the file marked. */
export function checkRows(
  columns: ColumnMap,
  rows: readonly (readonly SheetCell[])[],
  /** Where each row stands in the file; by default right after a one-row header. */
  rowNumbers: readonly number[] = rows.map((_, i) => i + 2),
): CheckedRow[] {
  const seen = new Map<string, number>();
  return rows.map((cells, i) => {
    const row = rowNumbers[i]!;
    const problems: RowProblem[] = [];
    const values = Object.fromEntries(BENEFICIARY_FIELDS.map((f) => [f, ''])) as Record<BeneficiaryField, string>;
    columns.fields.forEach((field, c) => {
      if (!field) return;
      const got = cellText(field, cells[c] ?? null);
      if ('problem' in got) problems.push({ field, message: got.problem });
      else values[field] = normaliseBeneficiaryText(field, got.text);
    });
    const sent = Object.fromEntries(
      Object.entries(values).filter(([k, v]) => k === 'name' || (v !== '' && !problems.some((p) => p.field === k))),
    );
    const parsed = beneficiaryForm.safeParse(sent);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as BeneficiaryField | undefined;
        // A cell already refused above is not reported a second time as missing.
        if (field && problems.some((p) => p.field === field)) continue;
        problems.push({ field: field ?? null, message: issue.message });
      }
    }
    const valid = problems.length === 0 && parsed.success;
    let duplicateOfRow: number | null = null;
    // Only a valid row can be the first of a payee: a later good row is not held back by an invalid one.
    for (const key of valid ? payeeKeys(values) : []) {
      const first = seen.get(key);
      if (first !== undefined) duplicateOfRow ??= first;
      else seen.set(key, row);
    }
    return {
      row,
      fields: valid ? parsed.data : null,
      values,
      problems,
      duplicateOfRow,
    };
  });
}

/** What became of a row, in a preview (what would happen) or a run (what did). */
export const importOutcome = z.enum([
  /** Preview: would be created. */
  'ready',
  /** Run: created now. */
  'created',
  /** An earlier run of this same file created it. */
  'already_created',
  /** The row does not pass the form's checks. */
  'invalid',
  /** An earlier row of the file is the same payee. */
  'duplicate',
  /** The cache already has this payee (bank account + IFSC, or UPI address). */
  'exists',
  /** The service refused it: nothing was created, a rerun sends it again. */
  'refused',
  /** The answer was lost: it may have been created; never sent again until its status is checked. */
  'unknown',
  /** The run was cancelled before this row was sent. */
  'not_sent',
]);
export type ImportOutcome = z.output<typeof importOutcome>;

/** What each outcome is called in the results, as a person reads it. */
export const OUTCOME_LABELS: Record<ImportOutcome, string> = {
  ready: 'Ready',
  created: 'Created',
  already_created: 'Already created by an earlier run',
  invalid: 'Invalid',
  duplicate: 'Duplicate in the file',
  exists: 'Already a beneficiary',
  refused: 'Refused by the service',
  unknown: 'Outcome unknown — check status',
  not_sent: 'Not sent',
};

export const importRowResult = z.object({
  row: z.number().int(),
  name: z.string(),
  account_number: z.string(),
  ifsc: z.string(),
  vpa: z.string(),
  /** The IFSC's bank as Razorpay's IFSC list names it (electron/treasury/ifsc.ts), or null. */
  bank: z.string().nullable(),
  /** Why the IFSC may be wrong (the list does not hold it): a warning, the row is still sent. */
  ifscWarning: z.string().nullable(),
  outcome: importOutcome,
  beneficiaryId: z.string().nullable(),
  /** Why, in words: the form's problems, the duplicate's row or id, the service's reason. */
  reason: z.string().nullable(),
});
export type ImportRowResult = z.output<typeof importRowResult>;

export const importReport = z.object({
  fileName: z.string(),
  /** SHA-256 of the file's bytes: with the row number, the key that stops a rerun creating a payee twice. */
  digest: z.string(),
  headers: z.array(z.string()),
  columns: z.array(z.enum(BENEFICIARY_FIELDS).nullable()),
  unknownHeaders: z.array(z.string()),
  problems: z.array(z.string()),
  rows: z.array(importRowResult),
  counts: z.record(importOutcome, z.number().int()),
});
export type ImportReport = z.output<typeof importReport>;

export function countOutcomes(rows: readonly { outcome: ImportOutcome }[]): Record<ImportOutcome, number> {
  const counts = Object.fromEntries(importOutcome.options.map((o) => [o, 0])) as Record<ImportOutcome, number>;
  for (const r of rows) counts[r.outcome]++;
  return counts;
}

/** The problems of a row in one sentence per problem, its field named as the template names it. */
export function describeProblems(problems: readonly RowProblem[]): string {
  return problems
    .map((p) => (p.field ? fieldSentence(TEMPLATE_HEADERS[p.field], p.message) : asSentence(p.message)))
    .join(' ');
}
