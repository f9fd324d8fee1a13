/**
 * Orders: fetch, capture, full and partial refund, refund attempts, and seamless processing.
 *
 * Variant mapping (B -> domain, which uses Variant A's names):
 * - order fetch:      `order.status` -> `order_status`; B lists only order_id, amount, currency, status,
 *                     card_last_4, card_issuer, so the rest stay absent.
 * - capture:          B adds `id`; A has none (domain `id` optional).
 * - partial refund:   response B `refund_id` -> `id`; request B names the order `order_id` (we send A's `id`).
 * - refund attempts:  B list `refund_attempts` -> `data`; element `attempt_id` -> `refund_id`.
 * - process order:    B `{message, transaction_id}` -> `payment_id` = transaction_id, `message`, no `data`.
 */
import { z } from 'zod';
import {
  address,
  customer,
  idText,
  istDateTime,
  isoUtc,
  majorAmount,
  minorInt,
  nonEmpty,
  notes,
  positiveMinor,
  requestId,
  statusTrue,
  vpa,
} from './common';

// ---- domain --------------------------------------------------------------------------------------

export const order = z.looseObject({
  order_id: idText,
  receipt_id: z.string().optional(),
  pg_transaction_id: z.string().optional(),
  amount: minorInt,
  currency: z.string(),
  pg: z.string().optional(),
  method: z.string().optional(),
  order_status: z.string(),
  unmapped_status: z.string().optional(),
  card_last_4: z.string().nullish(),
  card_issuer: z.string().nullish(),
  customer: customer.optional(),
  notes: notes.optional(),
  billing_address: address.optional(),
  shipping_address: address.optional(),
  additional_charges: majorAmount.optional(),
  mdr: z.string().optional(),
  tpv: z.array(z.unknown()).optional(),
  created_at: istDateTime.optional(),
  updated_at: istDateTime.optional(),
});
export type Order = z.output<typeof order>;

export const refundAttempt = z.looseObject({
  refund_id: idText,
  amount: minorInt,
  type: z.string().optional(),
  status: z.string(),
  rrn: z.string().optional(),
  attempted_at: isoUtc.optional(),
});
export type RefundAttempt = z.output<typeof refundAttempt>;

export const paymentData = z.looseObject({
  type: z.string(),
  token: z.string().optional(),
  url: z.string().optional(),
  param: z.array(z.unknown()).optional(),
});

// ---- requests (what a caller gives; the client adds key and hash) ----------------------------------

export const orderIdRequest = z.object({ id: nonEmpty });

export const partialRefundRequest = z.object({ id: nonEmpty, amount: positiveMinor });

export const refundAttemptsRequest = z.object({ order_id: nonEmpty });

const UPI_CODES = ['collect', 'qr', 'intent'] as const;
export const processOrderRequest = z
  .object({
    order_id: nonEmpty,
    method: z.enum(['upi', 'nb', 'card', 'wallet', 'emi']),
    code: nonEmpty,
    vpa: vpa.optional(),
    card: z.record(z.string(), z.unknown()).optional(),
    device: z.enum(['android', 'ios']).optional(),
  })
  .superRefine((r, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (r.method === 'upi') {
      if (!(UPI_CODES as readonly string[]).includes(r.code)) issue('code', 'for upi must be collect, qr or intent');
      if (r.code === 'collect' && !r.vpa) issue('vpa', 'is required for a upi collect');
      if (r.code === 'intent' && !r.device) issue('device', 'is required for a upi intent (android or ios)');
    }
    if (r.method === 'card') {
      if (r.code !== 'card') issue('code', 'for card must be "card"');
      if (!r.card) issue('card', 'is required when method is card');
    }
  });
export type ProcessOrderRequest = z.input<typeof processOrderRequest>;

// ---- responses: wire (A | B) -> domain -------------------------------------------------------------

const orderB = z.looseObject({
  order_id: idText,
  amount: minorInt,
  currency: z.string(),
  status: z.string(),
  card_last_4: z.string().nullish(),
  card_issuer: z.string().nullish(),
});

export const orderFetchResponse = z
  .looseObject({ status: statusTrue, order: z.union([order, orderB]), request_id: requestId })
  .transform(({ order: o, request_id }) => {
    if ('order_status' in o) return { order: o as Order, request_id };
    const { status, ...rest } = o;
    return { order: { ...rest, order_status: status } as Order, request_id };
  });

export const messageResponse = z
  .looseObject({ status: statusTrue, message: z.string().optional(), id: idText.optional(), request_id: requestId })
  .transform(({ message, id, request_id }) => ({ message: message ?? '', id, request_id }));
export type MessageResult = z.output<typeof messageResponse>;

export const partialRefundResponse = z
  .looseObject({
    status: statusTrue,
    message: z.string().optional(),
    id: idText.optional(),
    refund_id: idText.optional(),
    request_id: requestId,
  })
  .refine((r) => r.id !== undefined || r.refund_id !== undefined, {
    message: 'id (or refund_id) is required',
    path: ['id'],
  })
  .transform(({ message, id, refund_id, request_id }) => ({
    message: message ?? '',
    id: (id ?? refund_id)!,
    request_id,
  }));

const attemptB = z
  .looseObject({ attempt_id: idText, status: z.string(), amount: minorInt })
  .transform(({ attempt_id, ...rest }) => ({ ...rest, refund_id: attempt_id }) as RefundAttempt);

export const refundAttemptsResponse = z.union([
  z
    .looseObject({
      status: statusTrue,
      message: z.string().optional(),
      data: z.array(refundAttempt),
      request_id: requestId,
    })
    .transform(({ message, data, request_id }) => ({ message: message ?? '', data, request_id })),
  z
    .looseObject({
      status: statusTrue,
      message: z.string().optional(),
      refund_attempts: z.array(attemptB),
      request_id: requestId,
    })
    .transform(({ message, refund_attempts, request_id }) => ({
      message: message ?? '',
      data: refund_attempts,
      request_id,
    })),
]);

export const processOrderResponse = z.union([
  z
    .looseObject({ status: statusTrue, payment_id: idText, data: paymentData, request_id: requestId })
    .transform(({ payment_id, data, request_id }) => ({
      payment_id,
      data,
      message: undefined as string | undefined,
      request_id,
    })),
  z
    .looseObject({ status: statusTrue, transaction_id: idText, message: z.string().optional(), request_id: requestId })
    .transform(({ transaction_id, message, request_id }) => ({
      payment_id: transaction_id,
      data: undefined as z.output<typeof paymentData> | undefined,
      message,
      request_id,
    })),
]);
export type Payment = z.output<typeof processOrderResponse>;
