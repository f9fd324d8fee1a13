/**
 * Beneficiaries as the console keeps them: the API has no list operation, so the list is every beneficiary
 * this profile created or fetched, cached for search and offline review. The add form is checked by the
 * same schema the API client sends (`beneficiaryCreateRequest`), so a field error shows before anything is sent.
 */
import { z } from 'zod';
import { vpa } from './api/common';
import { beneficiaryCreateRequest } from './api/payouts';

export const cachedBeneficiary = z.object({
  beneficiary_id: z.string(),
  name: z.string(),
  vpa: z.string().nullable(),
  account_number: z.string().nullable(),
  ifsc: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  /** Fields the API sent that the contract does not name, kept as sent. */
  extra: z.record(z.string(), z.unknown()).nullable(),
  /** ISO UTC time the beneficiary was last created or fetched. */
  fetchedAt: z.string(),
  /** ISO UTC time a fetch last found a bank account, IFSC or UPI address other than the cached one; null if never. */
  bankDetailsChangedAt: z.string().nullable(),
});
export type CachedBeneficiary = z.output<typeof cachedBeneficiary>;

export const beneficiaryListQuery = z
  .object({
    search: z.string().trim().max(100).optional(),
    after: z.string().min(1).max(512).optional(),
    limit: z.number().int().min(1).max(500).optional(),
    /** Only payees whose bank details have changed. */
    changed: z.boolean().optional(),
  })
  .strict();
export type BeneficiaryListQuery = z.input<typeof beneficiaryListQuery>;

/** The list's filter as an export takes it: what the screen's search and "bank details changed" show. */
export const beneficiaryListFilter = beneficiaryListQuery.pick({ search: true, changed: true });
export type BeneficiaryListFilter = z.output<typeof beneficiaryListFilter>;

const bankDetails = z.object({
  account_number: z.string().nullable(),
  ifsc: z.string().nullable(),
  vpa: z.string().nullable(),
});
/** A fetch that found other bank details than the cached ones: what they were, what they became, and when. */
export const bankDetailChange = z.object({ changedAt: z.string(), before: bankDetails, after: bankDetails });
export type BankDetailChange = z.output<typeof bankDetailChange>;

export const beneficiaryPage = z.object({ rows: z.array(cachedBeneficiary), nextCursor: z.string().nullable() });

export const beneficiaryForm = beneficiaryCreateRequest;
export type BeneficiaryForm = z.input<typeof beneficiaryForm>;
/** The form after checking: what main creates from. */
export type BeneficiaryFields = z.output<typeof beneficiaryForm>;

/** The bank account or UPI address a new beneficiary would share with ones already cached. */
export const beneficiaryMatch = z
  .object({
    account_number: z.string().max(18).optional(),
    ifsc: z.string().max(11).optional(),
    vpa: z.string().max(255).optional(),
  })
  .strict();

export const vpaCheck = z.object({ vpa }).strict();

/** An IFSC as typed, to look up in Razorpay's IFSC list (main's `electron/treasury/ifsc.ts`). */
export const ifscQuery = z.object({ ifsc: z.string().trim().max(20) }).strict();

/** What the list says of an IFSC: its bank's name, and a warning when the list does not hold it. */
export const ifscCheck = z.object({
  ifsc: z.string(),
  bank: z.string().nullable(),
  warning: z.string().nullable(),
});
export type IfscCheck = z.output<typeof ifscCheck>;

export const vpaCheckResult = z.object({
  vpa: z.string(),
  valid: z.boolean(),
  /** The account holder's name, when the service tells it. */
  accountName: z.string().nullable(),
});
export type VpaCheckResult = z.output<typeof vpaCheckResult>;

/** The fields a beneficiary is created from, in the order forms, templates and results show them. */
export const BENEFICIARY_FIELDS = ['name', 'account_number', 'ifsc', 'vpa', 'phone', 'email', 'address'] as const;
export type BeneficiaryField = (typeof BENEFICIARY_FIELDS)[number];

/**
 * Text as a person types or a spreadsheet holds it, made into what the schema checks: the form and the import
 * both pass every field through this, so "+91 98765 43210", "1234 5678 9012" and "hdfc0001234" are accepted as
 * what they mean. Only separators people add for reading are removed and only case is changed; anything else is
 * left for the schema to refuse, never guessed at.
 */
export function normaliseBeneficiaryText(field: BeneficiaryField, text: string): string {
  const t = text.trim();
  switch (field) {
    case 'name':
    case 'address':
      return t.replace(/\s+/g, ' ');
    case 'account_number':
      return t.replace(/[\s-]/g, '');
    case 'ifsc':
      return t.replace(/\s/g, '').toUpperCase();
    case 'vpa':
      return t.replace(/\s/g, '').toLowerCase();
    case 'email':
      return t;
    case 'phone': {
      const digits = t.replace(/[\s\-().]/g, '');
      // +91 or 0091 (country code), or the 0 of a trunk prefix: an Indian mobile number is the 10 digits after it.
      const national = /^(?:\+91|0091)(\d{10})$/.exec(digits) ?? /^(?:91|0)([6-9]\d{9})$/.exec(digits);
      return national ? national[1]! : digits;
    }
  }
}
