/** Handlers of the `orders.*` channels, for the active profile. */
import type { Approvals } from '../approvals/approvals';
import type { ProfileStore } from '../profiles/profile-store';
import type { OrderService } from '../merchant/orders';
import type { IpcHandlers } from './router';

type Handled = Extract<keyof IpcHandlers, `orders.${string}`>;

export function createOrderHandlers(
  service: OrderService,
  approvals: Approvals,
  profiles: ProfileStore,
): Pick<IpcHandlers, Handled> {
  const active = () => profiles.active().id;
  return {
    'orders.fetch': ({ id }) => service.fetch(active(), id),
    'orders.cached': ({ id }) => service.cached(active(), id),
    'orders.recent': () => service.recent(active()),
    'orders.actions': ({ id }) => service.actions(active(), id),
    'orders.capture': ({ requestKey, orderId }) =>
      approvals.gate(active(), requestKey, { action: 'order.capture', orderId }),
    'orders.refund': ({ requestKey, orderId, amount }) =>
      approvals.gate(active(), requestKey, { action: 'order.refund', orderId, amount }),
    'orders.checkStatus': ({ attemptSeq }) => service.checkStatus(active(), attemptSeq),
  };
}
