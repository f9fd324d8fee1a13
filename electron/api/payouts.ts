/** Beneficiaries, payout status, payout accounts and balances. */
import type { BeneficiaryCreateRequest } from '../../shared/api/payouts';
import type { ApiClient, CallOptions } from './client';

export function payoutsApi(client: ApiClient) {
  return {
    createBeneficiary: (b: BeneficiaryCreateRequest, o?: CallOptions) => client.call('beneficiary.create', b, o),
    async fetchBeneficiary(id: string, o?: CallOptions) {
      const r = await client.call('beneficiary.fetch', { id }, o);
      // Variant B carries no id; the one asked for is the one answered.
      return { ...r, data: { ...r.data, beneficiary_id: r.data.beneficiary_id ?? id } };
    },
    /** `advance` asks the gateway directly (a hard pull) instead of the service's stored status. */
    fetchPayout: (id: string, mode: 'normal' | 'advance' = 'normal', o?: CallOptions) =>
      client.call('payout.fetch', { id, fetch_type: mode }, o),
    accounts: (pg?: string, o?: CallOptions) => client.call('payout.accounts', pg ? { pg } : {}, o),
    balance: (filter: { pg?: string; account_number?: string } = {}, o?: CallOptions) =>
      client.call('payout.balance', filter, o),
  };
}
