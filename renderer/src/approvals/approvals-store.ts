/** The Approvals screen's UI state only: which proposals it lists and the one whose review is open. */
import { create } from 'zustand';
import type { ApprovalScope } from '../../../shared/approvals';

interface ApprovalsUi {
  scope: ApprovalScope;
  selected: string | null;
  setScope(scope: ApprovalScope): void;
  select(id: string | null): void;
}

export const useApprovalsUi = create<ApprovalsUi>()((set) => ({
  scope: 'waiting',
  selected: null,
  setScope: (scope) => set({ scope, selected: null }),
  select: (selected) => set({ selected }),
}));
