/**
 * Orders as the console shows them: the fetched order with what a Variant B answer left out, its refund attempts and
 * the refundable balance, all in integer paise. The same shapes cross IPC, sit in the cache and go to `--json`.
 */
import { z } from 'zod';
import { order, refundAttempt } from './api/orders';
import { formatMoney, sumMinor, type Minor } from './money';

/**
 * The order as stored and sent on: the domain model after the wire was read. `additional_charges` is paise by
 * then (the wire's rupees were converted once), so it is read back as an integer, not converted again.
 */
export const storedOrder = order.extend({ additional_charges: z.number().int().optional() });
export type StoredOrder = z.output<typeof storedOrder>;
export type StoredRefundAttempt = z.output<typeof refundAttempt>;

/** Every field the interface documents for an order, in the order the detail shows them. */
export const ORDER_FIELDS = [
  'order_id',
  'receipt_id',
  'pg_transaction_id',
  'amount',
  'currency',
  'order_status',
  'unmapped_status',
  'pg',
  'method',
  'card_last_4',
  'card_issuer',
  'customer',
  'billing_address',
  'shipping_address',
  'notes',
  'additional_charges',
  'mdr',
  'tpv',
  'created_at',
  'updated_at',
] as const;

/** The documented fields an answer did not carry (a Variant B answer carries six of them). */
export function missingOrderFields(o: Record<string, unknown>): string[] {
  return ORDER_FIELDS.filter((f) => o[f] === undefined);
}

export type RefundState = 'succeeded' | 'failed' | 'pending';

/**
 * How an attempt's status counts against the balance. Only a clearly failed attempt frees its amount; anything the
 * console does not know as done or failed (pending, initiated, a status it has not seen) is held back as pending,
 * so the balance never offers money that may already be on its way back to the customer.
 */
export function refundState(status: string): RefundState {
  const s = status.toLowerCase();
  if (/fail|reject|cancel|revers|declin|error/.test(s)) return 'failed';
  if (/^(success|successful|processed|refunded|completed|done)$/.test(s)) return 'succeeded';
  return 'pending';
}

export interface RefundBalance {
  amount: Minor;
  refunded: Minor;
  pending: Minor;
  /** amount − refunded − pending, never below zero. */
  refundable: Minor;
}

/** The refundable balance of an order: its amount less its successful and pending refunds. */
export function refundableBalance(
  amount: Minor,
  attempts: readonly { amount: Minor; status: string }[],
): RefundBalance {
  const of = (state: RefundState) =>
    sumMinor(attempts.filter((a) => refundState(a.status) === state).map((a) => a.amount));
  const refunded = of('succeeded');
  const pending = of('pending');
  return { amount, refunded, pending, refundable: Math.max(0, amount - refunded - pending) };
}

/** Why a refund of `minor` cannot go ahead against this balance, or null when it can. */
export function refundProblem(minor: Minor, balance: RefundBalance, currency: string): string | null {
  if (balance.refundable === 0) return 'Nothing is left to refund on this order.';
  if (!Number.isSafeInteger(minor) || minor <= 0) return 'The refund must be more than zero.';
  if (minor > balance.refundable) {
    return `The refund of ${formatMoney(minor, currency)} is more than the refundable balance of ${formatMoney(balance.refundable, currency)}.`;
  }
  return null;
}

export const refundBalance = z.object({
  amount: z.number().int(),
  refunded: z.number().int(),
  pending: z.number().int(),
  refundable: z.number().int(),
});

/** An order with its refund attempts, as the Orders screen and `orders get --json` show it. */
export const orderView = z.object({
  order: storedOrder,
  /** Documented fields the answer did not carry. */
  missing: z.array(z.string()),
  /** Null when the attempts could not be listed (the reason is in `refundsError`). */
  refunds: z.array(refundAttempt).nullable(),
  refundsError: z.string().nullable(),
  balance: refundBalance.nullable(),
  /** When the console read it from the service (ISO UTC); a view from the cache keeps that time. */
  fetchedAt: z.string(),
  fromCache: z.boolean(),
});
export type OrderView = z.output<typeof orderView>;

/** A line of the recent orders list (from the cache). */
export const recentOrder = z.object({
  order_id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  order_status: z.string(),
  fetchedAt: z.string(),
});
export type RecentOrder = z.output<typeof recentOrder>;
