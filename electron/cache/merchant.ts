/**
 * Orders and subscriptions the console looked up, as it read them (amounts in paise), for offline review: the
 * latest answer per order or subscription with its time, and an order's refund attempts beside it. A stored body
 * that no longer reads with today's schema is treated as never seen rather than shown wrong.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { refundAttempt } from '../../shared/api/orders';
import {
  missingOrderFields,
  refundableBalance,
  storedOrder,
  type OrderView,
  type RecentOrder,
  type StoredOrder,
  type StoredRefundAttempt,
} from '../../shared/orders';
import {
  storedSubscription,
  type RecentSubscription,
  type StoredSubscription,
  type SubscriptionView,
} from '../../shared/subscriptions';
import { prepareAll } from './statements';

/** A desk's recent list: the newest lookups are what it reviews offline. */
const RECENT = 50;

const SQL = {
  putOrder: `INSERT INTO merchant_orders (order_id, body, fetched_at, refunds, refunds_error) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (order_id) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at,
               refunds = excluded.refunds, refunds_error = excluded.refunds_error`,
  order: `SELECT body, fetched_at, refunds, refunds_error FROM merchant_orders WHERE order_id = ?`,
  recentOrders: `SELECT body, fetched_at FROM merchant_orders ORDER BY fetched_at DESC, order_id LIMIT ${RECENT}`,
  putSubscription: `INSERT INTO merchant_subscriptions (subscription_id, receipt_id, body, fetched_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (subscription_id) DO UPDATE SET receipt_id = excluded.receipt_id, body = excluded.body,
                      fetched_at = excluded.fetched_at`,
  subscription: `SELECT body, fetched_at FROM merchant_subscriptions WHERE subscription_id = ?`,
  subscriptionByReceipt: `SELECT body, fetched_at FROM merchant_subscriptions WHERE receipt_id = ?
                          ORDER BY fetched_at DESC LIMIT 1`,
  recentSubscriptions: `SELECT body, fetched_at FROM merchant_subscriptions
                        ORDER BY fetched_at DESC, subscription_id LIMIT ${RECENT}`,
} as const;

const attempts = z.array(refundAttempt);

function read<T extends z.ZodType>(schema: T, json: string | null): z.output<T> | null {
  if (json === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** An order and its attempts as the screen shows them; the balance only when the attempts are known. */
export function orderViewOf(
  order: StoredOrder,
  refunds: StoredRefundAttempt[] | null,
  refundsError: string | null,
  fetchedAt: string,
  fromCache: boolean,
): OrderView {
  return {
    order,
    missing: missingOrderFields(order),
    refunds,
    refundsError,
    balance: refunds === null ? null : refundableBalance(order.amount, refunds),
    fetchedAt,
    fromCache,
  };
}

export function createMerchantRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  type Row = { body: string; fetched_at: string; refunds?: string | null; refunds_error?: string | null };
  const subscriptionView = (row: Row | undefined): SubscriptionView | null => {
    const subscription = row ? read(storedSubscription, row.body) : null;
    return subscription && row ? { subscription, fetchedAt: row.fetched_at, fromCache: true } : null;
  };
  return {
    putOrder(order: StoredOrder, refunds: StoredRefundAttempt[] | null, refundsError: string | null): OrderView {
      const at = now().toISOString();
      sql.putOrder.run(order.order_id, JSON.stringify(order), at, refunds && JSON.stringify(refunds), refundsError);
      return orderViewOf(order, refunds, refundsError, at, false);
    },
    order(orderId: string): OrderView | null {
      const row = sql.order.get(orderId) as Row | undefined;
      const order = row ? read(storedOrder, row.body) : null;
      if (!row || !order) return null;
      return orderViewOf(order, read(attempts, row.refunds ?? null), row.refunds_error ?? null, row.fetched_at, true);
    },
    recentOrders(): RecentOrder[] {
      return (sql.recentOrders.all() as Row[]).flatMap((row) => {
        const o = read(storedOrder, row.body);
        return o
          ? [
              {
                order_id: o.order_id,
                amount: o.amount,
                currency: o.currency,
                order_status: o.order_status,
                fetchedAt: row.fetched_at,
              },
            ]
          : [];
      });
    },
    putSubscription(subscription: StoredSubscription, receiptId: string | null): SubscriptionView {
      const at = now().toISOString();
      const receipt = receiptId ?? subscription.mer_reference_id ?? null;
      sql.putSubscription.run(subscription.subscription_id, receipt, JSON.stringify(subscription), at);
      return { subscription, fetchedAt: at, fromCache: false };
    },
    subscription(id: string, by: 'id' | 'receipt'): SubscriptionView | null {
      const stmt = by === 'id' ? sql.subscription : sql.subscriptionByReceipt;
      return subscriptionView(stmt.get(id) as Row | undefined);
    },
    recentSubscriptions(): RecentSubscription[] {
      return (sql.recentSubscriptions.all() as Row[]).flatMap((row) => {
        const s = read(storedSubscription, row.body);
        return s
          ? [
              {
                subscription_id: s.subscription_id,
                mer_reference_id: s.mer_reference_id ?? null,
                amount: s.amount,
                currency: s.currency,
                subscription_status: s.subscription_status,
                fetchedAt: row.fetched_at,
              },
            ]
          : [];
      });
    },
  };
}
export type MerchantRepository = ReturnType<typeof createMerchantRepository>;
