import { useNavigation } from '../navigation/navigation-store';
import { useApprovalCounts } from './approvals-queries';

/** The status bar's count of proposals waiting for this person, a link to the Approvals screen; none alone. */
export function ApprovalsIndicator() {
  const counts = useApprovalCounts().data;
  const open = useNavigation((s) => s.open);
  if (!counts || counts.waiting === 0) return null;
  return (
    <button
      type="button"
      className="approvals-indicator"
      data-testid="approvals-waiting"
      onClick={() => open('approvals')}
    >
      {counts.waiting} to approve
    </button>
  );
}
