/**
 * The desk's approvals, for the Approvals screen, the status bar and the forms' confirmations. Every read is the
 * desk's; the `desk` event with topic `proposals` or `approval_policy` (query/main-events.ts) makes them stale when
 * anyone on the desk proposes, approves, rejects or changes the policy.
 */
import { approversNeeded, DEFAULT_POLICY, type ApprovalAction, type ApprovalScope } from '../../../shared/approvals';
import { useIpcMutation, useIpcQuery } from '../query/ipc-query';

export const useProposals = (scope: ApprovalScope) => useIpcQuery('approvals.list', { scope });
export const useApprovalCounts = () => useIpcQuery('approvals.counts', {});
export const useApprovalPolicy = () => useIpcQuery('approvals.policy', {});
export const useProposalReview = (id: string | null) =>
  useIpcQuery('approvals.review', { id: id ?? '' }, { enabled: id !== null });

/**
 * A step on a proposal changes the desk's proposals; the approving console's send also journals the action and
 * changes what the order's or subscription's screen reads.
 */
const STEP_CHANGES = ['approvals.', 'journal.', 'orders.', 'subscriptions.', 'beneficiaries.', 'webhooks.', 'plans.'];
export const useApprove = () => useIpcMutation('approvals.approve', { invalidates: STEP_CHANGES });
export const useReject = () => useIpcMutation('approvals.reject', { invalidates: ['approvals.'] });
export const useWithdraw = () => useIpcMutation('approvals.withdraw', { invalidates: ['approvals.'] });
export const useCheckProposal = () => useIpcMutation('approvals.checkStatus', { invalidates: STEP_CHANGES });
export const useSettleProposal = () => useIpcMutation('approvals.settle', { invalidates: ['approvals.'] });
export const useSetPolicy = () => useIpcMutation('approvals.setPolicy', { invalidates: ['approvals.', 'journal.'] });

/**
 * Whether the desk's policy would send this action for approval: a hint for a confirmation's button ("Send for
 * approval"); the desk decides for real when it is confirmed. False in local mode and while the policy is unknown.
 */
export function useApprovalNeeded(action: ApprovalAction, amountMinor: number | null): boolean {
  const policy = useApprovalPolicy();
  if (policy.data?.mode !== 'desk') return false;
  return approversNeeded(policy.data.policy.rules[action], amountMinor) > 0;
}

/** A confirmation's button: "Send for approval" where the policy applies, the action's own word otherwise. */
export const confirmWord = (needed: boolean, own: string) => (needed ? 'Send for approval' : own);

/**
 * How many times a subscription's own amount an ad hoc charge may be before it needs a typed reason: the desk's
 * policy, or the default alone (the core applies the same in both modes and refuses without it).
 */
export function useChargeReasonTimes(): number {
  const policy = useApprovalPolicy();
  return policy.data?.mode === 'desk'
    ? policy.data.policy.chargeReasonAbovePlanTimes
    : DEFAULT_POLICY.chargeReasonAbovePlanTimes;
}
