/**
 * Schemas of the `beneficiaries.*` channels. `create` carries a key the form makes once per submission: a
 * second call with the same key (a double click, a retry after a lost answer) gets the first call's answer
 * or its error, and never creates a second beneficiary.
 */
import { z } from 'zod';
import {
  beneficiaryForm,
  beneficiaryListQuery,
  beneficiaryMatch,
  beneficiaryPage,
  cachedBeneficiary,
  vpaCheck,
  vpaCheckResult,
} from '../beneficiaries';
import type { DomainSchemas } from './contract';

export const beneficiariesChannels = {
  'beneficiaries.list': { input: beneficiaryListQuery, output: beneficiaryPage },
  'beneficiaries.create': {
    input: z.object({ requestKey: z.string().min(8).max(64), beneficiary: beneficiaryForm }).strict(),
    output: z.object({ beneficiary: cachedBeneficiary, message: z.string() }),
  },
  'beneficiaries.fetch': {
    input: z.object({ id: z.string().trim().min(1, 'must not be empty').max(64) }).strict(),
    output: cachedBeneficiary,
  },
  'beneficiaries.matches': { input: beneficiaryMatch, output: z.array(cachedBeneficiary) },
  'beneficiaries.verifyVpa': { input: vpaCheck, output: vpaCheckResult },
} satisfies DomainSchemas<'beneficiaries'>;
