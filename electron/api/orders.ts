/** Order operations: fetch, capture, refunds and seamless processing. */
import type { ProcessOrderRequest } from '../../shared/api/orders';
import type { ApiClient, CallOptions } from './client';

export function ordersApi(client: ApiClient) {
  return {
    fetch: (id: string, o?: CallOptions) => client.call('order.fetch', { id }, o),
    capture: (id: string, o?: CallOptions) => client.call('order.capture', { id }, o),
    refund: (id: string, o?: CallOptions) => client.call('order.refund', { id }, o),
    /** `amount` in minor units. */
    refundPartial: (id: string, amount: number, o?: CallOptions) =>
      client.call('order.refundPartial', { id, amount }, o),
    refundAttempts: (orderId: string, o?: CallOptions) => client.call('order.refundAttempts', { order_id: orderId }, o),
    process: (request: ProcessOrderRequest, o?: CallOptions) => client.call('order.process', request, o),
  };
}
