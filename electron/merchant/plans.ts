/**
 * Subscription plans for the UI and the CLI: create (keyed and journaled, never sent twice) and fetch. A create
 * whose answer was lost is settled by `checkCreate`, which looks the plan up by the merchant reference id the
 * attempt sent (the service fetches a plan by its id or that reference) and journals what it found.
 */
import type { PlanCreateRequest } from '../../shared/api/subscriptions';
import type { JournalEntry } from '../../shared/journal';
import type { CreatedPlan, PlanRecord } from '../../shared/plans';
import { ApiError } from '../api/errors';
import { createSubmissions, runJournaled } from '../journal/keyed-actions';
import type { Journals } from '../journal/registry';
import type { Credentials } from '../profiles/credentials';

export class PlanCheckError extends Error {
  override name = 'PlanCheckError';
  readonly code = 'STATUS_CHECK_INVALID';
}

export function createPlanService(deps: { credentials: Credentials; journals: Journals }) {
  const once = createSubmissions<CreatedPlan>();

  async function create(profileId: string, plan: PlanCreateRequest): Promise<CreatedPlan> {
    const { journal } = deps.journals.for(profileId);
    const { answer, attempt } = await runJournaled(journal, {
      event: 'plan.create',
      summary: `Asked the service to create the plan "${plan.title}" (${plan.mer_reference_id}).`,
      asked: {
        title: plan.title,
        description: plan.description,
        amountMinor: Number(plan.amount),
        currency: plan.currency,
        frequency: plan.frequency,
        cycle: plan.cycle,
        mer_reference_id: plan.mer_reference_id,
        notes: plan.notes
          ? (Object.fromEntries(Object.entries(plan.notes).filter(([, v]) => v !== undefined)) as Record<
              string,
              string
            >)
          : null,
      },
      send: () => deps.credentials.withApi(profileId, (api) => api.subscriptions.createPlan(plan)),
      succeeded: (a) => ({
        requestId: a.request_id ?? null,
        summary: `Created the plan "${plan.title}" as ${a.plan_id}.`,
        data: { planId: a.plan_id, message: a.message },
      }),
    });
    return {
      planId: answer.plan_id,
      message: answer.message,
      requestId: answer.request_id ?? null,
      attemptSeq: attempt.seq,
    };
  }

  return {
    create: (profileId: string, requestKey: string, plan: PlanCreateRequest): Promise<CreatedPlan> =>
      once(`${profileId}\0${requestKey}`, () => create(profileId, plan)),

    async fetch(profileId: string, id: string): Promise<PlanRecord> {
      const { plan } = await deps.credentials.withApi(profileId, (api) => api.subscriptions.fetchPlan(id));
      return plan;
    },

    /**
     * Settles a plan create whose outcome is unknown: a plan found under the attempt's reference with its title,
     * amount and currency is journaled as succeeded; none, or a different one, leaves it unknown with what was learnt.
     */
    async checkCreate(
      profileId: string,
      attemptSeq: number,
    ): Promise<{ check: JournalEntry; plan: PlanRecord | null }> {
      const { journal } = deps.journals.for(profileId);
      const attempt = journal.get(attemptSeq);
      if (!attempt || attempt.event !== 'plan.create' || attempt.outcome !== 'attempted') {
        throw new PlanCheckError(`Entry ${attemptSeq} is not an attempt to create a plan.`);
      }
      const asked = (attempt.data['asked'] ?? {}) as Record<string, unknown>;
      const reference = String(asked['mer_reference_id']);
      let plan: PlanRecord;
      try {
        plan = (await deps.credentials.withApi(profileId, (api) => api.subscriptions.fetchPlan(reference))).plan;
      } catch (e) {
        if (!(e instanceof ApiError) || e.kind !== 'api') throw e;
        const check = journal.append({
          kind: 'action',
          event: 'plan.create.check',
          outcome: 'unknown',
          refersTo: attemptSeq,
          summary: `Looked for a plan with the reference ${reference}: the service has none; the outcome is still unknown.`,
          data: { reference, reason: e.userMessage },
        });
        return { check, plan: null };
      }
      const same =
        plan.title === asked['title'] && plan.amount === asked['amountMinor'] && plan.currency === asked['currency'];
      const check = journal.append({
        kind: 'action',
        event: 'plan.create.check',
        outcome: same ? 'succeeded' : 'unknown',
        refersTo: attemptSeq,
        summary: same
          ? `Found plan ${plan.id} with the reference ${reference}: the create succeeded.`
          : `Found plan ${plan.id} with the reference ${reference}, but it differs from what was asked; the outcome is still unknown.`,
        data: { reference, planId: plan.id },
      });
      return { check, plan: same ? plan : null };
    },
  };
}
export type PlanService = ReturnType<typeof createPlanService>;
