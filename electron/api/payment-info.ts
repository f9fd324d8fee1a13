/** Payment information: methods listing, UPI address validation, currency conversion. */
import type { OperationInput } from '../../shared/api/operations';
import type { ApiClient, CallOptions } from './client';

export function paymentInfoApi(client: ApiClient) {
  return {
    methods: (filter: OperationInput<'info.paymentMethods'> = {}, o?: CallOptions) =>
      client.call('info.paymentMethods', filter, o),
    validateVpa: (vpa: string, o?: CallOptions) => client.call('info.vpa', { vpa }, o),
    currency: (from: string, to: string, o?: CallOptions) => client.call('info.currency', { from, to }, o),
  };
}
