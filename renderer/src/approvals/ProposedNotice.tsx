import { sentForApprovalText, type Proposal } from '../../../shared/approvals';

/** What a form shows when the desk took its request as a proposal: nothing was sent; an approver sends it. */
export function ProposedNotice({ proposal }: { proposal: Proposal | null }) {
  if (!proposal) return null;
  return (
    <p className="notice" role="status">
      {sentForApprovalText(proposal)}
    </p>
  );
}
