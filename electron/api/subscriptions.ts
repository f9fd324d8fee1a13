/** Plans, subscriptions, cancellation and ad hoc charges under a standing instruction. */
import type { PlanCreateRequest } from '../../shared/api/subscriptions';
import type { ApiClient, CallOptions } from './client';

export function subscriptionsApi(client: ApiClient) {
  return {
    createPlan: (plan: PlanCreateRequest, o?: CallOptions) => client.call('plan.create', plan, o),
    fetchPlan: (id: string, o?: CallOptions) => client.call('plan.fetch', { id }, o),
    fetch: (id: string, o?: CallOptions) => client.call('subscription.fetch', { id }, o),
    fetchByReceipt: (receiptId: string, o?: CallOptions) =>
      client.call('subscription.fetchByReceipt', { id: receiptId }, o),
    cancel: (id: string, o?: CallOptions) => client.call('subscription.cancel', { id }, o),
    /** `amount` in minor units; sent as text, as the document shows. */
    adhoc: (id: string, amount: number, currency: string, o?: CallOptions) =>
      client.call('subscription.adhoc', { id, amount: String(amount), currency }, o),
  };
}
