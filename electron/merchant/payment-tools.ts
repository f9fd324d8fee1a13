/**
 * Payment tools for the UI and the CLI: the payment-method listing, process order (seamless checkout) and currency
 * conversion. Process order starts a payment, so it is keyed and journaled like every action at the service
 * (journal/keyed-actions.ts): never sent twice, and a lost answer is "outcome unknown", never a guess.
 */
import type { PaymentMethods } from '../../shared/api/payment-info';
import type { ProcessOrderRequest } from '../../shared/api/orders';
import { groupMethods, type Conversion, type MethodGroups, type ProcessedPayment } from '../../shared/payment-tools';
import { createSubmissions, runJournaled } from '../journal/keyed-actions';
import type { Journals } from '../journal/registry';
import type { Credentials } from '../profiles/credentials';

export interface MethodListing {
  listing: PaymentMethods;
  groups: MethodGroups;
  requestId: string | null;
}

export function createPaymentToolService(deps: { credentials: Credentials; journals: Journals }) {
  const once = createSubmissions<ProcessedPayment>();

  async function process(profileId: string, request: ProcessOrderRequest): Promise<ProcessedPayment> {
    const { journal } = deps.journals.for(profileId);
    const how = request.vpa ? ` to ${request.vpa}` : request.device ? ` on ${request.device}` : '';
    const { answer, attempt } = await runJournaled(journal, {
      event: 'order.process',
      summary: `Asked the service to process order ${request.order_id} by ${request.method} (${request.code})${how}.`,
      asked: {
        order_id: request.order_id,
        method: request.method,
        code: request.code,
        vpa: request.vpa ?? null,
        device: request.device ?? null,
      },
      send: () => deps.credentials.withApi(profileId, (api) => api.orders.process(request)),
      succeeded: (a) => ({
        requestId: a.request_id ?? null,
        summary: `Order ${request.order_id}: payment ${a.payment_id} started${a.data ? ` (${a.data.type})` : ''}.`,
        // The token and link open the payment: the journal keeps that there is one, not the link itself.
        data: { paymentId: a.payment_id, type: a.data?.type ?? null, link: a.data?.url ? 'returned' : null },
      }),
    });
    return {
      paymentId: answer.payment_id,
      type: answer.data?.type ?? null,
      token: answer.data?.token ?? null,
      url: answer.data?.url ?? null,
      params: answer.data?.param ?? [],
      message: answer.message ?? null,
      requestId: answer.request_id ?? null,
      attemptSeq: attempt.seq,
    };
  }

  return {
    async methods(
      profileId: string,
      query: { amount?: number; currency?: string; pg?: string },
    ): Promise<MethodListing> {
      const filter = {
        ...(query.amount !== undefined ? { amount: String(query.amount) } : {}),
        ...(query.currency ? { currency: query.currency } : {}),
        ...(query.pg ? { pg: query.pg } : {}),
      };
      const answer = await deps.credentials.withApi(profileId, (api) => api.paymentInfo.methods(filter));
      return { listing: answer.data, groups: groupMethods(answer.data), requestId: answer.request_id ?? null };
    },

    /** One payment per `requestKey`: a double click or a retry after a lost answer never starts a second. */
    process: (profileId: string, requestKey: string, request: ProcessOrderRequest): Promise<ProcessedPayment> =>
      once(`${profileId}\0${requestKey}`, () => process(profileId, request)),

    async currency(profileId: string, from: string, to: string): Promise<Conversion> {
      const answer = await deps.credentials.withApi(profileId, (api) => api.paymentInfo.currency(from, to));
      return {
        from: answer.from ?? from,
        to: answer.to ?? to,
        rate: answer.conversion_rate,
        requestId: answer.request_id ?? null,
      };
    },
  };
}
export type PaymentToolService = ReturnType<typeof createPaymentToolService>;
