/** Handlers of the `subscriptions.*` channels, for the active profile. */
import type { Approvals } from '../approvals/approvals';
import type { ProfileStore } from '../profiles/profile-store';
import type { SubscriptionService } from '../merchant/subscriptions';
import type { IpcHandlers } from './router';

type Handled = Extract<keyof IpcHandlers, `subscriptions.${string}`>;

export function createSubscriptionHandlers(
  service: SubscriptionService,
  approvals: Approvals,
  profiles: ProfileStore,
): Pick<IpcHandlers, Handled> {
  const active = () => profiles.active().id;
  return {
    'subscriptions.fetch': ({ id, by }) => service.fetch(active(), id, by ?? 'id'),
    'subscriptions.cached': ({ id, by }) => service.cached(active(), id, by ?? 'id'),
    'subscriptions.recent': () => service.recent(active()),
    'subscriptions.actions': ({ id }) => service.actions(active(), id),
    'subscriptions.cancel': ({ requestKey, id }) =>
      approvals.gate(active(), requestKey, { action: 'subscription.cancel', id }),
    'subscriptions.charge': ({ requestKey, id, amount, currency, reason }) =>
      approvals.gate(active(), requestKey, { action: 'subscription.charge', id, amount, currency, reason }),
    'subscriptions.checkStatus': ({ attemptSeq }) => service.checkStatus(active(), attemptSeq),
    'subscriptions.recordCharge': ({ attemptSeq, charged }) => service.recordCharge(active(), attemptSeq, charged),
  };
}
