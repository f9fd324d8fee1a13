/**
 * Orders: fetch, capture, full and partial refunds, refund attempts, seamless processing.
 *
 * Lifecycle: created -> (process) -> ... ; authorized -> captured (capture); success | captured |
 * partially_refunded -> partially_refunded | refunded (refunds). The refundable amount is the order
 * amount less every successful refund; a failed attempt is listed but refunds nothing.
 * Errors: fetch, capture, attempts and process say 202; refunds say 204 with a descriptive message, as the
 * document has it.
 */
import { formatMinor } from '../../../shared/money';
import { epochMsToIst, isoUtcMicros } from '../../../shared/time';
import { BANKS, WALLETS } from '../data/catalog';
import { UNMAPPED_STATUS } from '../seed';
import type { OrderRec, OrderStatus, RefundRec } from '../state';
import { CODE, fail, invalid, ok, rupees, type Ctx, type Handlers, type Reply } from './reply';

const REFUNDABLE: readonly OrderStatus[] = ['captured', 'success', 'partially_refunded'];

export const orderHandlers: Handlers<
  'order.fetch' | 'order.capture' | 'order.refund' | 'order.refundPartial' | 'order.refundAttempts' | 'order.process'
> = {
  'order.fetch': ({ id }, ctx) => {
    const order = ctx.state.orders.get(id);
    if (!order) return fail(CODE.generic, `Order ${id} not found`);
    return ok({ order: ctx.variant === 'B' ? orderB(order) : orderA(order) });
  },

  'order.capture': ({ id }, ctx) => {
    const order = ctx.state.orders.get(id);
    if (!order) return fail(CODE.generic, `Order ${id} not found`);
    if (order.status !== 'authorized') {
      const why =
        order.status === 'captured' ? 'it is already captured' : `its status is ${order.status}, not authorized`;
      return fail(CODE.generic, `Order ${id} cannot be captured: ${why}`);
    }
    setStatus(order, 'captured', ctx);
    const message = 'Order captured successfully';
    return ok(ctx.variant === 'B' ? { message, id } : { message });
  },

  'order.refund': ({ id }, ctx) => {
    const order = refundableOrder(id, ctx);
    if ('http' in order) return order;
    const refund = addRefund(order, refundable(order), 'Full', ctx);
    return ok({ message: 'Refund initiated successfully', id: refund.refund_id });
  },

  'order.refundPartial': ({ id, amount }, ctx) => {
    const order = refundableOrder(id, ctx);
    if ('http' in order) return order;
    const left = refundable(order);
    if (amount > left) {
      return fail(
        CODE.refund,
        `Refund amount ${formatMinor(amount)} exceeds the refundable amount ${formatMinor(left)} ${order.currency} of order ${id}`,
      );
    }
    const refund = addRefund(order, amount, 'Partial', ctx);
    const message = 'ORDER_PARTIALLY_REFUNDED_SUCCESSFULLY';
    return ok(ctx.variant === 'B' ? { message, refund_id: refund.refund_id } : { message, id: refund.refund_id });
  },

  'order.refundAttempts': ({ order_id }, ctx) => {
    const order = ctx.state.orders.get(order_id);
    if (!order) return fail(CODE.generic, `Order ${order_id} not found`);
    const message = order.refunds.length ? 'Refund attempts fetched' : 'No refund attempts for this order';
    if (ctx.variant === 'B') {
      const refund_attempts = order.refunds.map((r) => ({
        attempt_id: r.refund_id,
        status: r.status === 'success' ? 'processed' : 'failed',
        amount: r.amount,
      }));
      return ok({ message, refund_attempts, request_id: ctx.requestId });
    }
    return ok({ message, data: order.refunds.map((r) => ({ ...r })), request_id: ctx.requestId });
  },

  'order.process': (req, ctx) => {
    const order = ctx.state.orders.get(req.order_id);
    if (!order) return fail(CODE.generic, `Order ${req.order_id} not found`);
    if (order.status !== 'created' && order.status !== 'failed') {
      return fail(
        CODE.generic,
        `Order ${req.order_id} is ${order.status}; only a created or failed order can be processed`,
      );
    }
    // Beyond the shared schema: codes that name a bank or a wallet must name one that exists.
    if (req.method === 'nb' && !BANKS.some((b) => b.code === req.code)) {
      return invalid(`code: unknown bank code "${req.code}" (try ${BANKS.map((b) => b.code).join(', ')})`);
    }
    if (req.method === 'wallet' && !WALLETS.some(([code]) => code === req.code)) {
      return invalid(`code: unknown wallet "${req.code}" (try ${WALLETS.map(([c]) => c).join(', ')})`);
    }
    const paymentId = ctx.state.newId('pay');
    const token = ctx.state.newId('tok');
    order.payments.push(paymentId);
    if (ctx.variant === 'B') return ok({ message: 'Payment initiated', transaction_id: paymentId });
    return ok({
      payment_id: paymentId,
      data: paymentData(order, req.method, req.code, paymentId, token),
      request_id: ctx.requestId,
    });
  },
};

function orderA(o: OrderRec) {
  return {
    order_id: o.order_id,
    receipt_id: o.receipt_id,
    pg_transaction_id: o.pg_transaction_id,
    amount: o.amount,
    currency: o.currency,
    pg: o.pg,
    method: o.method,
    order_status: o.status,
    unmapped_status: o.unmapped_status,
    card_last_4: o.card_last_4,
    card_issuer: o.card_issuer,
    customer: { ...o.customer },
    notes: { ...o.notes },
    billing_address: { ...o.billing_address },
    shipping_address: { ...o.shipping_address },
    additional_charges: rupees(o.additional_charges),
    mdr: o.mdr,
    tpv: [],
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}

function orderB(o: OrderRec) {
  return {
    order_id: o.order_id,
    amount: o.amount,
    currency: o.currency,
    status: o.status,
    card_last_4: o.card_last_4,
    card_issuer: o.card_issuer,
  };
}

function refundable(o: OrderRec): number {
  return o.amount - o.refunds.filter((r) => r.status === 'success').reduce((s, r) => s + r.amount, 0);
}

function refundableOrder(id: string, ctx: Ctx): OrderRec | Reply {
  const order = ctx.state.orders.get(id);
  if (!order) return fail(CODE.refund, `Order ${id} not found; nothing to refund`);
  if (!REFUNDABLE.includes(order.status)) {
    const why =
      order.status === 'refunded'
        ? 'it has already been refunded in full'
        : `its status is ${order.status}, and only a captured order can be refunded`;
    return fail(CODE.refund, `Order ${id} cannot be refunded: ${why}`);
  }
  if (refundable(order) <= 0) return fail(CODE.refund, `Order ${id} has nothing left to refund`);
  return order;
}

function addRefund(order: OrderRec, amount: number, type: RefundRec['type'], ctx: Ctx): RefundRec {
  const refund: RefundRec = {
    refund_id: ctx.state.newId('rfnd'),
    amount,
    type,
    status: 'success',
    rrn: ctx.state.newDigits(12),
    attempted_at: isoUtcMicros(ctx.now()),
  };
  order.refunds.push(refund);
  setStatus(order, refundable(order) === 0 ? 'refunded' : 'partially_refunded', ctx);
  return refund;
}

function setStatus(order: OrderRec, status: OrderStatus, ctx: Ctx): void {
  order.status = status;
  order.unmapped_status = UNMAPPED_STATUS[status];
  order.updated_at = epochMsToIst(ctx.now());
}

/**
 * The `data` of a processed payment. UPI answers with a `upi://` link (intent, QR) or a collect request;
 * everything else redirects to a checkout page. The host `.invalid` is reserved, so nobody can mistake
 * a sandbox link for a real one.
 */
function paymentData(order: OrderRec, method: string, code: string, paymentId: string, token: string) {
  if (method === 'upi') {
    const link = new URLSearchParams({
      pa: 'sandboxmerchant@ybl',
      pn: 'Sandbox Merchant',
      am: formatMinor(order.amount),
      cu: order.currency,
      tr: paymentId,
    });
    return { type: code, token, url: `upi://pay?${link.toString()}`, param: [] };
  }
  return {
    type: 'redirect',
    token,
    url: `https://checkout.sandbox.invalid/pay/${encodeURIComponent(token)}`,
    param: [
      { name: 'payment_id', value: paymentId },
      { name: 'method', value: method },
      { name: 'code', value: code },
    ],
  };
}
