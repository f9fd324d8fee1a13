/** For tests of local mode, where no action can become a proposal: the action's own answer, or a failure. */
import { isPendingApproval, type PendingApproval } from '../../shared/approvals';

export function sent<T>(answer: T | PendingApproval): T {
  if (isPendingApproval(answer))
    throw new Error(`Expected the action to be sent; it became proposal ${answer.pendingApproval.id}.`);
  return answer;
}
