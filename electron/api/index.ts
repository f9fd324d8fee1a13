/** The merchant API as the rest of the main process uses it: one client, grouped by domain. */
import { classificationApi } from './classification';
import { createApiClient, type ApiClientOptions } from './client';
import { ordersApi } from './orders';
import { paymentInfoApi } from './payment-info';
import { payoutsApi } from './payouts';
import { settlementsApi } from './settlements';
import { subscriptionsApi } from './subscriptions';
import { webhooksApi } from './webhooks';

export function createMerchantApi(options: ApiClientOptions) {
  const client = createApiClient(options);
  return {
    client,
    orders: ordersApi(client),
    paymentInfo: paymentInfoApi(client),
    subscriptions: subscriptionsApi(client),
    payouts: payoutsApi(client),
    settlements: settlementsApi(client),
    webhooks: webhooksApi(client),
    classification: classificationApi(client),
    close: () => client.close(),
  };
}
export type MerchantApi = ReturnType<typeof createMerchantApi>;

export { ApiError } from './errors';
export type { ApiClient, ApiClientOptions, ApiProfile } from './client';
