/** Webhook endpoints: list and update. */
import type { OperationInput } from '../../shared/api/operations';
import type { ApiClient, CallOptions } from './client';

export function webhooksApi(client: ApiClient) {
  return {
    /** `active`: true for active only, false for inactive only, omitted for all. */
    list: (active?: boolean, o?: CallOptions) => client.call('webhook.list', active === undefined ? {} : { active }, o),
    update: (change: OperationInput<'webhook.update'>, o?: CallOptions) => client.call('webhook.update', change, o),
  };
}
