/**
 * Maker-checker for every action that moves money or changes where it goes, on the UI's and the CLI's one path.
 *
 * - `gate`: the confirmed action is sent at once in local mode, or where the desk's policy asks for no approval;
 *   otherwise it becomes a proposal — the exact request, frozen, with what the maker saw — and nothing is sent.
 *   Whether approval is needed is the desk database's answer (`approvers_needed`), so every console applies one
 *   rule; a desk that cannot be reached sends nothing, since the rule cannot be read.
 * - `review`: what the approver reads, fetched again now (the refundable balance, the subscription's own amount,
 *   the webhook's current URL, payees already holding those bank details), and why it is blocked, if it is.
 * - `approve`: checks the review, then asks the desk; only the last approval (under the proposal's row lock) is told
 *   to send, so two approvers approving at once send once. The approving console sends with the proposal's id as
 *   its submission key and records the outcome on the desk, where the maker sees it.
 * - A lost answer is "outcome unknown": the sending console's journal holds the attempt (tagged with the proposal's
 *   id), so its check status settles it — after a restart too (`recover`).
 */
import { importOutcome, OUTCOME_LABELS, type ImportReport } from '../../shared/beneficiary-import';
import type { JsonValue } from '../../shared/journal';
import {
  ACTION_LABELS,
  type BeneficiaryImportRequest,
  DEFAULT_POLICY,
  type ActionRequest,
  type ApprovalAction,
  type ApprovalCounts,
  type ApprovalPolicy,
  type ApprovalScope,
  type PendingApproval,
  type Proposal,
  type ProposalReview,
} from '../../shared/approvals';
import { ApiError } from '../api/errors';
import type { Desk } from '../desk/desk';
import type { DeskRegistry } from '../desk/registry';
import { DeskError } from '../desk/errors';
import { withActionContext } from '../journal/action-context';
import {
  ApprovalBlockedError,
  createActionCatalogue,
  secretNotHeld,
  type ApprovalServices,
  type Described,
} from './action-catalogue';
import { createSubmissions, createdNothing } from '../journal/keyed-actions';
import type { Journals } from '../journal/registry';
import type { Logger } from '../log';
import type { OrderService } from '../merchant/orders';
import type { PaymentToolService } from '../merchant/payment-tools';
import type { PlanService } from '../merchant/plans';
import type { SubscriptionService } from '../merchant/subscriptions';
import type { WebhookService } from '../merchant/webhooks';
import type { BeneficiaryService } from '../treasury/beneficiaries';

/** A sent batch as one outcome: unknown while any row is, failed when no row took effect; each row's outcome kept. */
function batchOutcome(report: ImportReport): {
  outcome: 'succeeded' | 'failed' | 'unknown';
  summary: string;
  rows: JsonValue;
} {
  const c = report.counts;
  const outcome = c.unknown > 0 ? 'unknown' : c.created + c.already_created + c.exists === 0 ? 'failed' : 'succeeded';
  const counted = importOutcome.options
    .filter((o) => c[o] > 0)
    .map((o) => `${c[o]} ${OUTCOME_LABELS[o].toLowerCase()}`)
    .join(', ');
  return {
    outcome,
    summary: `Imported ${report.fileName}: ${counted}.`,
    rows: report.rows.map(({ row, name, outcome: o, beneficiaryId, reason }) => ({
      row,
      name,
      outcome: o,
      beneficiaryId,
      reason,
    })),
  };
}

type Results = {
  'order.refund': Awaited<ReturnType<OrderService['refund']>>;
  'order.capture': Awaited<ReturnType<OrderService['capture']>>;
  'subscription.charge': Awaited<ReturnType<SubscriptionService['charge']>>;
  'subscription.cancel': Awaited<ReturnType<SubscriptionService['cancel']>>;
  'beneficiary.add': Awaited<ReturnType<BeneficiaryService['create']>>;
  'beneficiary.import': ImportReport;
  'webhook.update': Awaited<ReturnType<WebhookService['update']>>;
  'webhook.deactivate': Awaited<ReturnType<WebhookService['update']>>;
  'plan.create': Awaited<ReturnType<PlanService['create']>>;
  'order.process': Awaited<ReturnType<PaymentToolService['process']>>;
};

/** The journal events each action's attempt is written under (its service's own). */
const EVENT_OF: Readonly<Record<ApprovalAction, string>> = {
  'order.refund': 'order.refund',
  'order.capture': 'order.capture',
  'subscription.charge': 'subscription.charge',
  'subscription.cancel': 'subscription.cancel',
  'beneficiary.add': 'beneficiary.create',
  'beneficiary.import': 'beneficiary.create',
  'webhook.update': 'webhook.update',
  'webhook.deactivate': 'webhook.update',
  'plan.create': 'plan.create',
  'order.process': 'order.process',
};

const APPROVING_NEEDS_SECRET =
  'Approving checks the request with the service and may send it, which needs a console that holds the API secret; this one holds none.';

export function createApprovals(deps: {
  desks: DeskRegistry;
  journals: Journals;
  services: ApprovalServices;
  log: Logger;
  /**
   * Whether this console can call the service for the profile. A desk may keep the API secret on approvers' and
   * admins' consoles only: an operator's console then proposes and reviews, and sends nothing.
   */
  holdsSecret: (profileId: string) => Promise<boolean>;
}) {
  const { orders, subscriptions, plans, beneficiaryImport: importService } = deps.services;
  const proposeOnce = createSubmissions<PendingApproval>();
  /** Proposals this process is sending now: not to be "recovered" while their answer is on its way. */
  const inFlight = new Set<string>();

  async function deskOf(profileId: string): Promise<Desk | null> {
    return deps.desks.for(profileId);
  }

  async function policyOf(profileId: string): Promise<ApprovalPolicy> {
    const desk = await deskOf(profileId);
    return desk ? (await desk.approvals.policy()).policy : DEFAULT_POLICY;
  }

  const { describe, execute, guard, facts } = createActionCatalogue(deps.services, policyOf);

  async function gate<R extends ActionRequest>(
    profileId: string,
    requestKey: string,
    request: R,
  ): Promise<Results[R['action']] | PendingApproval> {
    const desk = await deskOf(profileId);
    if (!desk) return (await execute(profileId, requestKey, request)) as Results[R['action']];
    const r = request as ActionRequest;
    const online = await deps.holdsSecret(profileId);
    const described = await describe(profileId, r, online);
    const needed = await desk.approvals.needed(r.action, described.amount);
    if (needed === 0) {
      if (!online) throw sendingNeedsSecret(r.action);
      return (await execute(profileId, requestKey, request)) as Results[R['action']];
    }
    await guard(profileId, r, described);
    return propose(profileId, requestKey, desk, r, described);
  }

  /** An action the desk's policy lets through without approval, on a console that cannot send it. */
  const sendingNeedsSecret = (action: ApprovalAction) =>
    secretNotHeld(`The desk's policy sends ${ACTION_LABELS[action].toLowerCase()} without approval, and sending it`);

  /** The request frozen on the desk with its maker; a double click proposes once, as a direct send is sent once. */
  function propose(
    profileId: string,
    requestKey: string,
    desk: Desk,
    r: ActionRequest,
    described: Described,
  ): Promise<PendingApproval> {
    return proposeOnce(`${profileId}\0${requestKey}`, async () => ({
      pendingApproval: await desk.approvals.propose({
        action: r.action,
        request: r as unknown as Record<string, unknown>,
        ...described,
      }),
    }));
  }

  /** An import's ready rows as one proposal where the desk's policy asks, or null to send them now. */
  async function proposeImport(profileId: string, r: BeneficiaryImportRequest): Promise<PendingApproval | null> {
    const desk = await deskOf(profileId);
    if (!desk) return null;
    if ((await desk.approvals.needed(r.action, null)) === 0) {
      if (!(await deps.holdsSecret(profileId))) throw sendingNeedsSecret(r.action);
      return null;
    }
    return propose(profileId, `import\0${r.digest}`, desk, r, await describe(profileId, r));
  }

  async function requireDesk(profileId: string): Promise<Desk> {
    const desk = await deskOf(profileId);
    if (!desk) {
      throw new DeskError(
        'DESK_REFUSED',
        'Approvals need a desk: this profile works alone, so actions are sent as confirmed.',
      );
    }
    return desk;
  }

  async function proposalOf(desk: Desk, id: string): Promise<Proposal> {
    const p = await desk.approvals.get(id);
    if (!p) throw new DeskError('DESK_REFUSED', `No proposal ${id} is on the desk.`);
    return p;
  }

  async function review(profileId: string, id: string): Promise<ProposalReview> {
    const desk = await requireDesk(profileId);
    const p = await proposalOf(desk, id);
    const online = await deps.holdsSecret(profileId);
    const { facts: lines, blocked } =
      p.state === 'pending' ? await facts(profileId, p, online) : { facts: [], blocked: null };
    const me = desk.status().person;
    const role = desk.status().role;
    const cannot =
      p.state !== 'pending'
        ? `It is ${p.state}.`
        : p.maker === me
          ? 'You proposed it: another person must approve it.'
          : role !== 'approver' && role !== 'admin'
            ? 'Approving takes the approver role.'
            : p.approvals.some((a) => a.person === me)
              ? 'You have approved it already.'
              : !online
                ? APPROVING_NEEDS_SECRET
                : null;
    return {
      proposal: p,
      facts: lines,
      blocked,
      canApprove: cannot === null && blocked === null,
      cannotApproveReason: cannot,
    };
  }

  /** Sends an approved proposal and records the answer on the desk, where its maker sees it. */
  async function send(profileId: string, desk: Desk, p: Proposal): Promise<Proposal> {
    inFlight.add(p.id);
    try {
      let outcome: 'succeeded' | 'failed' | 'unknown';
      let summary: string;
      let rows: JsonValue | undefined;
      try {
        const result = (await withActionContext({ proposalId: p.id }, () =>
          execute(profileId, `proposal:${p.id}`, p.request as unknown as ActionRequest),
        )) as { outcome?: { summary: string }; message?: string | null };
        if (p.action === 'beneficiary.import') {
          ({ outcome, summary, rows } = batchOutcome(result as unknown as ImportReport));
        } else {
          outcome = 'succeeded';
          summary = result.outcome?.summary ?? `Sent: ${p.summary}${result.message ? ` (${result.message})` : ''}`;
        }
      } catch (e) {
        const known = createdNothing(e) || (!(e instanceof ApiError) && e instanceof Error && 'code' in e);
        outcome = known ? 'failed' : 'unknown';
        const why = e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : String(e);
        summary = known
          ? `Not done: ${why}`
          : `Outcome unknown — check status on ${desk.status().person}'s console: ${why}`;
      }
      try {
        await desk.approvals.recordOutcome(p.id, outcome, summary, { action: p.action, ...(rows ? { rows } : {}) });
      } catch (e) {
        // The journal here holds the attempt and its answer; `recover` records it once the desk answers.
        deps.log.warn('proposal outcome not recorded on the desk', { proposalId: p.id, error: e });
      }
      return (await desk.approvals.get(p.id)) ?? p;
    } finally {
      inFlight.delete(p.id);
    }
  }

  async function approve(profileId: string, id: string): Promise<Proposal> {
    const desk = await requireDesk(profileId);
    // The last approval sends from this console, and any approval first checks the request with the service.
    if (!(await deps.holdsSecret(profileId)))
      throw secretNotHeld('Approving', 'an approver whose console holds it approves it');
    const p = await proposalOf(desk, id);
    // Only a pending one is checked; anything else the desk refuses with who moved it and when.
    const checked = p.state === 'pending' ? await facts(profileId, p) : { blocked: null, sendContext: {} };
    if (checked.blocked) throw new ApprovalBlockedError(`Not approved: ${checked.blocked}`);
    const permit = await desk.approvals.approve(id, checked.sendContext);
    if (permit.state === 'expired') {
      throw new DeskError(
        'DESK_REFUSED',
        `This proposal expired at ${p.expiresAt} before it was approved; nothing was sent.`,
      );
    }
    // Under the proposal's row lock the desk told exactly one approver to send: this one, or nobody yet.
    if (!permit.send) return proposalOf(desk, id);
    return send(profileId, desk, await proposalOf(desk, id));
  }

  /**
   * Proposals this console approved and began sending whose answer never reached the desk (the console stopped,
   * the desk was lost): recorded from this console's journal — its outcome, or unknown when only the attempt is
   * there — or, with no attempt at all, as not sent.
   */
  async function recover(profileId: string, desk: Desk): Promise<void> {
    const mine = (await desk.approvals.list('open')).filter(
      (p) => p.state === 'sending' && p.sender === desk.status().person && !inFlight.has(p.id),
    );
    const { journal } = deps.journals.for(profileId);
    for (const p of mine) {
      if (p.action === 'beneficiary.import') {
        await recordBatch(profileId, desk, p, { recovered: true });
        continue;
      }
      const attempt = journal
        .list({ kind: 'action', text: p.id, limit: 20 })
        .find((e) => e.outcome === 'attempted' && e.event === EVENT_OF[p.action] && e.data['proposalId'] === p.id);
      const answer = attempt ? journal.followUps(attempt.seq).find((e) => e.outcome !== 'unknown') : undefined;
      const [outcome, summary]: ['succeeded' | 'failed' | 'unknown', string] = !attempt
        ? ['failed', `Not sent: the approving console stopped before sending ${p.summary}`]
        : !answer
          ? ['unknown', `Outcome unknown — check status: the answer to ${p.summary} was lost.`]
          : answer.outcome === 'succeeded'
            ? ['succeeded', answer.summary]
            : ['failed', `Not done: ${answer.summary}`];
      await desk.approvals.recordOutcome(p.id, outcome, summary, { action: p.action, recovered: true });
    }
  }

  /** A batch's outcome as this console's records and journal tell it now, recorded on the desk unless unknown. */
  async function recordBatch(profileId: string, desk: Desk, p: Proposal, detail: object): Promise<void> {
    const report = await importService.settleBatch(profileId, p.request as unknown as BeneficiaryImportRequest);
    const { outcome, summary, rows } = batchOutcome(report);
    if (outcome === 'unknown' && p.state === 'unknown') return;
    await desk.approvals.recordOutcome(p.id, outcome, summary, { action: p.action, rows, ...detail });
  }

  /**
   * Settles an unknown outcome from this console's journal, with its service's own check (orders, subscriptions,
   * plans); other actions are settled by `settle` once the person has looked.
   */
  async function check(profileId: string, id: string): Promise<Proposal> {
    const desk = await requireDesk(profileId);
    await recover(profileId, desk);
    const p = await proposalOf(desk, id);
    if (p.state !== 'unknown') return p;
    const { journal } = deps.journals.for(profileId);
    const attempt = journal
      .list({ kind: 'action', text: p.id, limit: 20 })
      .find((e) => e.outcome === 'attempted' && e.data['proposalId'] === p.id);
    if (!attempt) {
      throw new DeskError(
        'DESK_REFUSED',
        `This console did not send it: ${p.sender} checks its status on their console, or records what the service shows.`,
      );
    }
    if (p.action === 'beneficiary.import') {
      // Each row's lost answer is settled by its own status check on the Journal screen; here the rows are read.
      await recordBatch(profileId, desk, p, {});
      return proposalOf(desk, id);
    }
    const checked =
      p.action === 'order.refund' || p.action === 'order.capture'
        ? (await orders.checkStatus(profileId, attempt.seq)).check
        : p.action === 'subscription.cancel' || p.action === 'subscription.charge'
          ? (await subscriptions.checkStatus(profileId, attempt.seq)).check
          : p.action === 'plan.create'
            ? (await plans.checkCreate(profileId, attempt.seq)).check
            : null;
    if (checked === null) {
      throw new DeskError(
        'DESK_REFUSED',
        `The interface cannot tell whether ${ACTION_LABELS[p.action].toLowerCase()} took effect: look at the service and record what it shows.`,
      );
    }
    if (checked.outcome === 'unknown') return p;
    await desk.approvals.recordOutcome(
      p.id,
      checked.outcome === 'succeeded' ? 'succeeded' : 'failed',
      checked.summary,
      { action: p.action, checkSeq: checked.seq },
    );
    return proposalOf(desk, id);
  }

  return {
    gate,
    review,
    approve,
    check,

    async settle(profileId: string, id: string, succeeded: boolean, note: string): Promise<Proposal> {
      const desk = await requireDesk(profileId);
      await desk.approvals.recordOutcome(
        id,
        succeeded ? 'succeeded' : 'failed',
        `Recorded by ${desk.status().person} from the service's own records: ${succeeded ? 'done' : 'not done'}. ${note}`,
        { recordedBy: desk.status().person, note },
      );
      return proposalOf(desk, id);
    },

    async reject(profileId: string, id: string, reason: string): Promise<Proposal> {
      const desk = await requireDesk(profileId);
      await desk.approvals.reject(id, reason);
      return proposalOf(desk, id);
    },

    async withdraw(profileId: string, id: string): Promise<Proposal> {
      const desk = await requireDesk(profileId);
      await desk.approvals.withdraw(id);
      return proposalOf(desk, id);
    },

    async list(profileId: string, scope: ApprovalScope): Promise<Proposal[]> {
      const desk = await requireDesk(profileId);
      await recover(profileId, desk);
      return desk.approvals.list(scope);
    },

    proposeImport,

    /** The status bar's figures; null in local mode. */
    async counts(profileId: string): Promise<ApprovalCounts | null> {
      const desk = await deskOf(profileId);
      return desk ? desk.approvals.counts() : null;
    },

    /** The policy the forms label their buttons by (the desk decides); local mode has none. */
    async policy(
      profileId: string,
    ): Promise<{ mode: 'local' } | { mode: 'desk'; policy: ApprovalPolicy; version: number; holdsSecret: boolean }> {
      const desk = await deskOf(profileId);
      if (!desk) return { mode: 'local' };
      return { mode: 'desk', ...(await desk.approvals.policy()), holdsSecret: await deps.holdsSecret(profileId) };
    },

    async setPolicy(profileId: string, policy: ApprovalPolicy): Promise<number> {
      const desk = await requireDesk(profileId);
      return desk.approvals.setPolicy(policy);
    },
  };
}
export type Approvals = ReturnType<typeof createApprovals>;
