/**
 * Beneficiaries for the UI and the CLI: created and fetched through the API, recorded in the profile's cache.
 *
 * Creating is never retried blindly. The UI sends a key per submission; a second call with the same key gets
 * the first call's promise (a double click, a retry while the first is still out). A failure that certainly
 * created nothing (the service refused, the request never left) frees the key so the user can try again; an
 * outcome the client could not learn keeps it, so the same submission is not sent twice: the error says what
 * to check, and an edited form makes a new key.
 */
import type { BeneficiaryFields, CachedBeneficiary, VpaCheckResult } from '../../shared/beneficiaries';
import { ApiError } from '../api/errors';
import type { Cache } from '../cache/database';
import type { Credentials } from '../profiles/credentials';

/** Keys remembered per process; far more than one desk creates between restarts. */
const REMEMBERED_KEYS = 500;

export interface CreatedBeneficiary {
  beneficiary: CachedBeneficiary;
  message: string;
}

function createdNothing(e: unknown): boolean {
  return e instanceof ApiError && e.kind !== 'outcome_unknown' && e.kind !== 'invalid_response';
}

export function createBeneficiaryService(deps: { credentials: Credentials; cacheFor: (profileId: string) => Cache }) {
  const submissions = new Map<string, Promise<CreatedBeneficiary>>();

  async function create(profileId: string, form: BeneficiaryFields): Promise<CreatedBeneficiary> {
    const answer = await deps.credentials.withApi(profileId, (api) => api.payouts.createBeneficiary(form));
    // The create answer carries only the id; what was sent is what the service stored.
    const beneficiary = deps.cacheFor(profileId).beneficiaries.upsert({
      beneficiary_id: answer.beneficiary_id,
      name: form.name.trim(),
      vpa: form.vpa || null,
      account_number: form.account_number || null,
      ifsc: form.ifsc || null,
      phone: form.phone || null,
      email: form.email || null,
      address: form.address || null,
    });
    return { beneficiary, message: answer.message };
  }

  return {
    list: (profileId: string, query: { search?: string; after?: string; limit?: number }) =>
      deps.cacheFor(profileId).beneficiaries.list(query),

    create(profileId: string, requestKey: string, form: BeneficiaryFields): Promise<CreatedBeneficiary> {
      const key = `${profileId}\0${requestKey}`;
      const pending = submissions.get(key);
      if (pending) return pending;
      const submission = create(profileId, form);
      submissions.set(key, submission);
      if (submissions.size > REMEMBERED_KEYS) submissions.delete(submissions.keys().next().value!);
      submission.catch((e: unknown) => {
        if (createdNothing(e)) submissions.delete(key);
      });
      return submission;
    },

    async fetch(profileId: string, id: string): Promise<CachedBeneficiary> {
      const { data } = await deps.credentials.withApi(profileId, (api) => api.payouts.fetchBeneficiary(id));
      return deps.cacheFor(profileId).beneficiaries.upsert(data);
    },

    matches: (profileId: string, m: { account_number?: string; ifsc?: string; vpa?: string }) =>
      deps.cacheFor(profileId).beneficiaries.matches(m),

    async verifyVpa(profileId: string, vpa: string): Promise<VpaCheckResult> {
      const r = await deps.credentials.withApi(profileId, (api) => api.paymentInfo.validateVpa(vpa));
      return { vpa, valid: r.isVPAValid, accountName: r.payerAccountName ?? null };
    },
  };
}
export type BeneficiaryService = ReturnType<typeof createBeneficiaryService>;
