/** Handlers of the `approvals.*` channels: the active profile's desk policy, proposals and the steps on them. */
import type { Approvals } from '../approvals/approvals';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

type Handled = Extract<keyof IpcHandlers, `approvals.${string}`>;

export function createApprovalHandlers(approvals: Approvals, profiles: ProfileStore): Pick<IpcHandlers, Handled> {
  const active = () => profiles.active().id;
  return {
    'approvals.policy': () => approvals.policy(active()),
    'approvals.setPolicy': async ({ policy }) => ({ journalSeq: await approvals.setPolicy(active(), policy) }),
    'approvals.list': ({ scope }) => approvals.list(active(), scope),
    'approvals.counts': () => approvals.counts(active()),
    'approvals.review': ({ id }) => approvals.review(active(), id),
    'approvals.approve': ({ id }) => approvals.approve(active(), id),
    'approvals.reject': ({ id, reason }) => approvals.reject(active(), id, reason),
    'approvals.withdraw': ({ id }) => approvals.withdraw(active(), id),
    'approvals.checkStatus': ({ id }) => approvals.check(active(), id),
    'approvals.settle': ({ id, succeeded, note }) => approvals.settle(active(), id, succeeded, note),
  };
}
