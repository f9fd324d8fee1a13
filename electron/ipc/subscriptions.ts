/** Handlers of the `subscriptions.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { SubscriptionService } from '../merchant/subscriptions';
import type { IpcHandlers } from './router';

type Handled = Extract<keyof IpcHandlers, `subscriptions.${string}`>;

export function createSubscriptionHandlers(
  service: SubscriptionService,
  profiles: ProfileStore,
): Pick<IpcHandlers, Handled> {
  const active = () => profiles.active().id;
  return {
    'subscriptions.fetch': ({ id, by }) => service.fetch(active(), id, by ?? 'id'),
    'subscriptions.cached': ({ id, by }) => service.cached(active(), id, by ?? 'id'),
    'subscriptions.recent': () => service.recent(active()),
    'subscriptions.actions': ({ id }) => service.actions(active(), id),
    'subscriptions.cancel': ({ requestKey, id }) => service.cancel(active(), requestKey, id),
    'subscriptions.charge': ({ requestKey, id, amount, currency }) =>
      service.charge(active(), requestKey, id, amount, currency),
    'subscriptions.checkStatus': ({ attemptSeq }) => service.checkStatus(active(), attemptSeq),
    'subscriptions.recordCharge': ({ attemptSeq, charged }) => service.recordCharge(active(), attemptSeq, charged),
  };
}
