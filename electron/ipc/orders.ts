/** Handlers of the `orders.*` channels, for the active profile. */
import type { ProfileStore } from '../profiles/profile-store';
import type { OrderService } from '../merchant/orders';
import type { IpcHandlers } from './router';

type Handled = Extract<keyof IpcHandlers, `orders.${string}`>;

export function createOrderHandlers(service: OrderService, profiles: ProfileStore): Pick<IpcHandlers, Handled> {
  const active = () => profiles.active().id;
  return {
    'orders.fetch': ({ id }) => service.fetch(active(), id),
    'orders.cached': ({ id }) => service.cached(active(), id),
    'orders.recent': () => service.recent(active()),
    'orders.actions': ({ id }) => service.actions(active(), id),
    'orders.capture': ({ requestKey, orderId }) => service.capture(active(), requestKey, orderId),
    'orders.refund': ({ requestKey, orderId, amount }) => service.refund(active(), requestKey, orderId, amount),
    'orders.checkStatus': ({ attemptSeq }) => service.checkStatus(active(), attemptSeq),
  };
}
