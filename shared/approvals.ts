/**
 * Four eyes on money: on a desk, an action that moves money or changes where it goes becomes a **proposal** — the
 * exact request, frozen, with its maker — and leaves the console only after another person approves it (two above
 * a threshold). The policy, the proposals and every approval live in the desk database, whose functions check the
 * session's login (electron/desk/migrations/009-approvals.ts); these are their shapes for main, the CLI and the
 * renderer. With no desk there are no approvals: every action is sent as it is confirmed.
 */
import { z } from 'zod';
import { currencyCode } from './api/common';
import { beneficiaryForm } from './beneficiaries';
import { IMPORT_MAX_ROWS } from './beneficiary-import';
import { processForm } from './payment-tools';
import { planForm } from './plans';
import { webhookEdit } from './webhooks';

/** Every action the policy covers, in the order the Settings screen lists them. */
export const APPROVAL_ACTIONS = [
  'order.refund',
  'order.capture',
  'subscription.charge',
  'subscription.cancel',
  'beneficiary.add',
  'beneficiary.import',
  'webhook.update',
  'webhook.deactivate',
  'plan.create',
  'order.process',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

export const ACTION_LABELS: Readonly<Record<ApprovalAction, string>> = {
  'order.refund': 'Order refund (full or partial)',
  'order.capture': 'Order capture',
  'subscription.charge': 'Ad hoc charge',
  'subscription.cancel': 'Subscription cancel',
  'beneficiary.add': 'Beneficiary add',
  'beneficiary.import': 'Beneficiary import (each batch)',
  'webhook.update': 'Webhook update',
  'webhook.deactivate': 'Webhook deactivation',
  'plan.create': 'Plan create',
  'order.process': 'Process order',
};

const minor = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * One action's rule. `aboveMinor` 0 means every such action (an action without an amount needs approval whenever
 * `needsApproval` is on); `secondApproverAboveMinor` asks for a second approver above it.
 */
export const actionRule = z
  .object({
    needsApproval: z.boolean(),
    aboveMinor: minor,
    secondApproverAboveMinor: minor.nullable(),
    expiresHours: z.number().int().min(1).max(720),
  })
  .strict();
export type ActionRule = z.output<typeof actionRule>;

/** What a desk's policy is when nobody has set one: every action in the list needs one approver, for a day. */
export const DEFAULT_RULE: ActionRule = {
  needsApproval: true,
  aboveMinor: 0,
  secondApproverAboveMinor: null,
  expiresHours: 24,
};

/** Actions added after desks had stored a policy: a stored policy without their rule reads the safe default. */
const LATER_ACTIONS: ReadonlySet<ApprovalAction> = new Set(['beneficiary.import']);

export const approvalPolicy = z
  .object({
    rules: z.object(
      Object.fromEntries(
        APPROVAL_ACTIONS.map((a) => [a, LATER_ACTIONS.has(a) ? actionRule.default(DEFAULT_RULE) : actionRule]),
      ) as Record<ApprovalAction, typeof actionRule>,
    ),
    /**
     * An ad hoc charge above this many times the subscription's own amount needs a typed reason (with or without
     * approval, in both modes).
     */
    chargeReasonAbovePlanTimes: z.number().int().min(1).max(100),
  })
  .strict();
export type ApprovalPolicy = z.output<typeof approvalPolicy>;

export const DEFAULT_POLICY: ApprovalPolicy = {
  rules: Object.fromEntries(APPROVAL_ACTIONS.map((a) => [a, DEFAULT_RULE])) as Record<ApprovalAction, ActionRule>,
  chargeReasonAbovePlanTimes: 1,
};

/** How many approvers a rule asks for an amount (null: the action has none). The desk's SQL applies the same rule. */
export function approversNeeded(rule: ActionRule, amount: number | null): 0 | 1 | 2 {
  if (!rule.needsApproval) return 0;
  if (amount !== null && rule.aboveMinor > 0 && amount <= rule.aboveMinor) return 0;
  if (amount !== null && rule.secondApproverAboveMinor !== null && amount > rule.secondApproverAboveMinor) return 2;
  return 1;
}

const requestKey = z.string().min(8).max(64);
const id = z.string().trim().min(1, 'must not be empty').max(64);
/** A reason a person types: one line of words, not a blank. */
export const typedReason = z.string().trim().min(3, 'must say why in a few words').max(500);

/**
 * The request each action sends, as its form or command gives it (the channel's input without its key). A proposal
 * freezes it; the approving console sends exactly this.
 */
export const actionRequest = z.discriminatedUnion('action', [
  z.object({ action: z.literal('order.refund'), orderId: id, amount: z.number().int().positive().nullable() }).strict(),
  z.object({ action: z.literal('order.capture'), orderId: id }).strict(),
  z
    .object({
      action: z.literal('subscription.charge'),
      id,
      amount: z.number().int().positive(),
      currency: currencyCode,
      reason: typedReason.optional(),
    })
    .strict(),
  z.object({ action: z.literal('subscription.cancel'), id }).strict(),
  z.object({ action: z.literal('beneficiary.add'), beneficiary: beneficiaryForm }).strict(),
  z
    .object({
      action: z.literal('beneficiary.import'),
      fileName: z.string().max(255),
      /** The file's digest: with each row's number, the key that stops a retry creating a payee twice. */
      digest: z.string().regex(/^[0-9a-f]{64}$/),
      /** The file's valid rows, each exactly as it will be sent. */
      rows: z
        .array(z.object({ row: z.number().int().positive(), beneficiary: beneficiaryForm }).strict())
        .min(1)
        .max(IMPORT_MAX_ROWS),
    })
    .strict(),
  z.object({ action: z.literal('webhook.update'), change: webhookEdit }).strict(),
  z.object({ action: z.literal('webhook.deactivate'), change: webhookEdit }).strict(),
  z.object({ action: z.literal('plan.create'), plan: planForm }).strict(),
  z.object({ action: z.literal('order.process'), order: processForm }).strict(),
]);
export type ActionRequest = z.output<typeof actionRequest>;
export type ActionRequestInput = z.input<typeof actionRequest>;

export const PROPOSAL_STATES = [
  'pending',
  'sending',
  'succeeded',
  'failed',
  'unknown',
  'rejected',
  'withdrawn',
  'expired',
] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

export const PROPOSAL_STATE_LABELS: Readonly<Record<ProposalState, string>> = {
  pending: 'Waiting for approval',
  sending: 'Approved — being sent',
  succeeded: 'Sent — done',
  failed: 'Sent — refused by the service',
  unknown: 'Outcome unknown — check status',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
};

export const proposal = z.object({
  id: z.string(),
  action: z.enum(APPROVAL_ACTIONS),
  request: z.record(z.string(), z.unknown()),
  /** What the thresholds were applied to, in paise; null for an action without an amount. */
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  summary: z.string(),
  /** What the maker saw when proposing (the order's amount, the webhook's old URL, …). */
  context: z.record(z.string(), z.unknown()),
  maker: z.string(),
  makerConsole: z.string(),
  madeAt: z.string(),
  expiresAt: z.string(),
  needed: z.number().int().min(1).max(2),
  approvals: z.array(z.object({ person: z.string(), at: z.string() })),
  state: z.enum(PROPOSAL_STATES),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** A rejection's reason. */
  reason: z.string().nullable(),
  sender: z.string().nullable(),
  outcomeSummary: z.string().nullable(),
  outcomeAt: z.string().nullable(),
  /** What the sending console fetched again just before sending (a refund's known attempts), for check status. */
  sendContext: z.record(z.string(), z.unknown()).nullable(),
});
export type Proposal = z.output<typeof proposal>;

/** What an action channel answers when the policy sent the request for approval instead of to the service. */
export const pendingApproval = z.object({ pendingApproval: proposal });
export type PendingApproval = z.output<typeof pendingApproval>;

export const isPendingApproval = (v: unknown): v is PendingApproval =>
  typeof v === 'object' && v !== null && 'pendingApproval' in v;

/** What a form or command says when its request went for approval instead of to the service. */
export function sentForApprovalText(p: Proposal): string {
  const who = p.needed === 2 ? 'two approvers' : 'an approver';
  return `Sent for approval (proposal ${p.id}): ${p.summary} Nothing is sent until ${who} other than you approve it.`;
}

/** An action's answer, or its proposal. */
export const orPending = <T extends z.ZodType>(result: T) => z.union([pendingApproval, result]);

export const APPROVAL_SCOPES = ['waiting', 'mine', 'open', 'all'] as const;
export type ApprovalScope = (typeof APPROVAL_SCOPES)[number];

export const approvalCounts = z.object({
  /** Waiting for this person's approval (made by someone else, not yet approved by them). */
  waiting: z.number().int(),
  /** This person's own, waiting for someone else. */
  mine: z.number().int(),
  /** Pending proposals that expire within the next 24 hours. */
  expiringToday: z.number().int(),
  /** Approved ones whose outcome is not known. */
  unknown: z.number().int(),
});
export type ApprovalCounts = z.output<typeof approvalCounts>;

/** What the approver reviews: the proposal and what the console fetched again just now to check it. */
export const proposalReview = z.object({
  proposal,
  /** Lines to read beside the request (label and value), each fetched or looked up at review time. */
  facts: z.array(z.object({ label: z.string(), value: z.string() })),
  /** Why this proposal cannot be approved now (a refund above what is refundable now, changed bank details…). */
  blocked: z.string().nullable(),
  /** Whether this person may approve it (not the maker, an approver, not yet approved by them). */
  canApprove: z.boolean(),
  cannotApproveReason: z.string().nullable(),
});
export type ProposalReview = z.output<typeof proposalReview>;

export { requestKey as approvalRequestKey };

/** An import's valid rows as one proposal. */
export type BeneficiaryImportRequest = Extract<ActionRequest, { action: 'beneficiary.import' }>;
