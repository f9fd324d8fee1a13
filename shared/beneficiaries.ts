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
});
export type CachedBeneficiary = z.output<typeof cachedBeneficiary>;

export const beneficiaryListQuery = z
  .object({
    search: z.string().trim().max(100).optional(),
    after: z.string().min(1).max(512).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict();
export type BeneficiaryListQuery = z.input<typeof beneficiaryListQuery>;

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

export const vpaCheckResult = z.object({
  vpa: z.string(),
  valid: z.boolean(),
  /** The account holder's name, when the service tells it. */
  accountName: z.string().nullable(),
});
export type VpaCheckResult = z.output<typeof vpaCheckResult>;
