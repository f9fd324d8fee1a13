/**
 * Beneficiaries for the UI and the CLI: created and fetched through the API, recorded in the profile's cache.
 *
 * Creating is never retried blindly. The UI sends a key per submission; a second call with the same key gets
 * the first call's promise (a double click, a retry while the first is still out). A failure that certainly
 * created nothing (the service refused, the request never left) frees the key so the user can try again; an
 * outcome the client could not learn keeps it, so the same submission is not sent twice: the error says what
 * to check, and an edited form makes a new key.
 *
 * Every create is journaled: an "attempted" entry before the request leaves, and its outcome after (succeeded with
 * the new id, refused with the service's reason, or unknown with what to check), so a crash in between leaves an
 * attempt with no outcome, which reads as outcome unknown. `checkStatus` settles one by fetching the beneficiary the
 * desk found at the service and comparing it with what was asked (the API has no list to search).
 */
import { actionContext } from '../journal/action-context';
import type { BeneficiaryFields, CachedBeneficiary, VpaCheckResult } from '../../shared/beneficiaries';
import type { JournalEntry } from '../../shared/journal';
import { ApiError } from '../api/errors';
import type { Cache } from '../cache/database';
import { apiFailureOutcome } from '../journal/actions';
import { createSubmissions } from '../journal/keyed-actions';
import type { Journals } from '../journal/registry';
import type { Credentials } from '../profiles/credentials';

export interface CreatedBeneficiary {
  beneficiary: CachedBeneficiary;
  message: string;
}

export interface StatusCheck {
  /** The attempt's entry, now followed by the check's. */
  check: JournalEntry;
  /** The beneficiary, when the one found is the one that was asked for. */
  beneficiary: CachedBeneficiary | null;
}

/**
 * Called with the journal attempt's number once it is written and before the request leaves: a caller that keeps
 * its own record (the import) writes it there, so a crash after this point reads as "sent, outcome unknown".
 */
export type SentHook = (attemptSeq: number) => void;

export class StatusCheckError extends Error {
  override name = 'StatusCheckError';
  readonly code = 'STATUS_CHECK_INVALID';
}

/** What was asked, as the cache and the journal keep it. */
function asked(form: BeneficiaryFields) {
  return {
    name: form.name.trim(),
    vpa: form.vpa || null,
    account_number: form.account_number || null,
    ifsc: form.ifsc || null,
    phone: form.phone || null,
    email: form.email || null,
    address: form.address || null,
  };
}

/** The fields in which a fetched beneficiary differs from what an attempt asked for (phone, e-mail, address aside). */
function differences(wanted: Record<string, unknown>, found: Record<string, unknown>): string[] {
  return (['name', 'account_number', 'ifsc', 'vpa'] as const).filter(
    (k) => (wanted[k] ?? null) !== null && String(wanted[k]).toLowerCase() !== String(found[k] ?? '').toLowerCase(),
  );
}

export function createBeneficiaryService(deps: {
  credentials: Credentials;
  cacheFor: (profileId: string) => Cache;
  journals: Journals;
}) {
  const once = createSubmissions<CreatedBeneficiary>();

  async function create(profileId: string, form: BeneficiaryFields, sent?: SentHook): Promise<CreatedBeneficiary> {
    const fields = asked(form);
    const { journal } = deps.journals.for(profileId);
    const attempt = journal.append({
      kind: 'action',
      event: 'beneficiary.create',
      outcome: 'attempted',
      summary: `Asked the service to add the beneficiary ${fields.name}.`,
      data: { ...actionContext(), asked: fields },
    });
    sent?.(attempt.seq);
    let answer: Awaited<ReturnType<ReturnType<Credentials['api']>['payouts']['createBeneficiary']>>;
    try {
      answer = await deps.credentials.withApi(profileId, (api) => api.payouts.createBeneficiary(form));
    } catch (e) {
      journal.append({ ...apiFailureOutcome(e, 'beneficiary.create'), refersTo: attempt.seq });
      throw e;
    }
    // The create answer carries only the id; what was sent is what the service stored.
    return journal.transact((append) => {
      const beneficiary = deps
        .cacheFor(profileId)
        .beneficiaries.upsert({ beneficiary_id: answer.beneficiary_id, ...fields });
      append({
        kind: 'action',
        event: 'beneficiary.create',
        outcome: 'succeeded',
        refersTo: attempt.seq,
        requestId: answer.request_id ?? null,
        summary: `Added the beneficiary ${fields.name} as ${answer.beneficiary_id}.`,
        data: { beneficiaryId: answer.beneficiary_id, message: answer.message },
      });
      return { beneficiary, message: answer.message };
    });
  }

  return {
    list: (profileId: string, query: { search?: string; after?: string; limit?: number; changed?: boolean }) =>
      deps.cacheFor(profileId).beneficiaries.list(query),

    create(
      profileId: string,
      requestKey: string,
      form: BeneficiaryFields,
      sent?: SentHook,
    ): Promise<CreatedBeneficiary> {
      return once(`${profileId}\0${requestKey}`, () => create(profileId, form, sent));
    },

    /**
     * Settles a create whose outcome is unknown: fetches the beneficiary the desk found at the service under
     * `beneficiaryId` and journals whether it is the one the attempt asked for. Not found, or different, leaves
     * the outcome unknown (with what was learnt); a match records it as succeeded and caches it.
     */
    async checkStatus(profileId: string, attemptSeq: number, beneficiaryId: string): Promise<StatusCheck> {
      const { journal } = deps.journals.for(profileId);
      const attempt = journal.get(attemptSeq);
      if (!attempt || attempt.event !== 'beneficiary.create' || attempt.outcome !== 'attempted') {
        throw new StatusCheckError(`Entry ${attemptSeq} is not an attempt to add a beneficiary.`);
      }
      const wanted = (attempt.data['asked'] ?? {}) as Record<string, unknown>;
      let found: Awaited<ReturnType<ReturnType<Credentials['api']>['payouts']['fetchBeneficiary']>>;
      try {
        found = await deps.credentials.withApi(profileId, (api) => api.payouts.fetchBeneficiary(beneficiaryId));
      } catch (e) {
        if (!(e instanceof ApiError) || e.kind !== 'api') throw e;
        const check = journal.append({
          kind: 'action',
          event: 'beneficiary.create.check',
          outcome: 'unknown',
          refersTo: attemptSeq,
          requestId: e.requestId ?? null,
          summary: `Looked up ${beneficiaryId}: the service has no such beneficiary; the outcome is still unknown.`,
          data: { beneficiaryId, reason: e.userMessage },
        });
        return { check, beneficiary: null };
      }
      const differ = differences(wanted, found.data);
      if (differ.length > 0) {
        const check = journal.append({
          kind: 'action',
          event: 'beneficiary.create.check',
          outcome: 'unknown',
          refersTo: attemptSeq,
          requestId: found.request_id ?? null,
          summary: `Looked up ${beneficiaryId}: it differs from what was asked (${differ.join(', ')}); the outcome is still unknown.`,
          data: { beneficiaryId, differs: differ },
        });
        return { check, beneficiary: null };
      }
      return journal.transact((append) => {
        const beneficiary = deps.cacheFor(profileId).beneficiaries.upsert(found.data);
        const check = append({
          kind: 'action',
          event: 'beneficiary.create.check',
          outcome: 'succeeded',
          refersTo: attemptSeq,
          requestId: found.request_id ?? null,
          summary: `Looked up ${beneficiaryId}: it is the beneficiary that was asked for, so the create succeeded.`,
          data: { beneficiaryId },
        });
        return { check, beneficiary };
      });
    },

    async fetch(profileId: string, id: string): Promise<CachedBeneficiary> {
      const { data } = await deps.credentials.withApi(profileId, (api) => api.payouts.fetchBeneficiary(id));
      return deps.cacheFor(profileId).beneficiaries.upsert(data);
    },

    changes: (profileId: string, id: string) => deps.cacheFor(profileId).beneficiaries.changes(id),

    matches: (profileId: string, m: { account_number?: string; ifsc?: string; vpa?: string }) =>
      deps.cacheFor(profileId).beneficiaries.matches(m),

    async verifyVpa(profileId: string, vpa: string): Promise<VpaCheckResult> {
      const r = await deps.credentials.withApi(profileId, (api) => api.paymentInfo.validateVpa(vpa));
      return { vpa, valid: r.isVPAValid, accountName: r.payerAccountName ?? null };
    },
  };
}
export type BeneficiaryService = ReturnType<typeof createBeneficiaryService>;
