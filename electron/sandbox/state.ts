/**
 * The sandbox's mutable store: every resource the operations read and change. Amounts are integer paise;
 * handlers convert to the wire's units (rupee numbers, decimal strings) only when they answer.
 * Settlements are not here: they are computed on demand (data/settlements.ts) and only their
 * mutations are remembered.
 */
import { GATEWAYS } from './data/catalog';
import { Rng } from './random';

export interface Person {
  name: string;
  email: string;
  phone: string;
}

export interface Address {
  firstname: string;
  lastname: string;
  phone: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  country: string;
  zipcode: string;
}

export type OrderStatus =
  'created' | 'authorized' | 'captured' | 'success' | 'partially_refunded' | 'refunded' | 'failed';

export interface RefundRec {
  refund_id: string;
  amount: number;
  type: 'Full' | 'Partial';
  status: 'success' | 'failed';
  rrn: string;
  attempted_at: string;
}

export interface OrderRec {
  order_id: string;
  receipt_id: string;
  pg_transaction_id: string;
  amount: number;
  currency: string;
  pg: string;
  method: string;
  status: OrderStatus;
  unmapped_status: string;
  card_last_4: string;
  card_issuer: string;
  customer: Person;
  notes: Record<string, string>;
  billing_address: Address;
  shipping_address: Address;
  additional_charges: number;
  mdr: string;
  created_at: string;
  updated_at: string;
  refunds: RefundRec[];
  payments: string[];
}

export interface PlanRec {
  id: string;
  title: string;
  description: string;
  amount: number;
  frequency: number;
  cycle: number;
  currency: string;
  mer_reference_id: string;
  notes: Record<string, string>;
}

export interface AdhocRec {
  id: string;
  amount: number;
  currency: string;
  status: 'success';
  payment_attempt_at: string;
}

export interface SubscriptionRec {
  subscription_id: string;
  mer_reference_id: string;
  plan_id: string;
  amount: number;
  initial_amount: number | null;
  currency: string;
  status: 'active' | 'canceled';
  pg: string;
  customer: Person;
  notes: Record<string, string>;
  billing_address: Address;
  shipping_address: Address;
  charges: AdhocRec[];
}

export interface BeneficiaryRec {
  beneficiary_id: string;
  name: string;
  vpa: string;
  account_number: string;
  ifsc: string;
  phone: string;
  email: string;
  address: string;
}

export type PayoutStatus = 'success' | 'failed' | 'pending';

export interface PayoutRec {
  transfer_id: string;
  status: PayoutStatus;
  error: string;
  error_code: number | null;
  amount: number;
  fund_source: string;
  method: string;
  processed_at: string | null;
  ut_no: string | null;
  beneficiary_id: string;
  ack: string;
  /** How many `advance` fetches this payout has seen; drives the hard-pull rule in handlers/payouts.ts. */
  advanceFetches: number;
}

export interface AccountRec {
  account_number: string;
  ifsc_code: string;
  account_type: string;
  currency: string;
  available_balance: number;
  account_balance: number;
  minimum_balance: number;
  hold_fund: number | null;
  overdraft: number | null;
  transaction_limit: number;
}

export interface GatewayAccountsRec {
  pg: string;
  fails: boolean;
  accounts: AccountRec[];
}

export interface WebhookRec {
  id: string;
  url: string;
  topics: string[];
  active: boolean;
  created_at: string;
}

export interface Fixtures {
  /** `payments`: how many payments process order started on it, so a test sees that none started twice. */
  orders: { id: string; status: string; payments: number }[];
  payouts: { id: string; status: string }[];
  /** With the receipt id, and every ad hoc charge made (the interface has no list of them). */
  subscriptions: { id: string; status: string; receipt: string; charges: { id: string; amount: number }[] }[];
  plans: { id: string; reference: string; amount: number }[];
  beneficiaries: { id: string }[];
  webhooks: { id: string; status: string; url: string; topics: string[] }[];
  gateways: string[];
  settlementDates: string[];
  /** Payout fetches that reached the handler, by the id asked for (known or not) and fetch type. */
  payoutFetches: Record<string, { normal: number; advance: number }>;
}

export class SandboxState {
  readonly orders = new Map<string, OrderRec>();
  readonly plans = new Map<string, PlanRec>();
  readonly subscriptions = new Map<string, SubscriptionRec>();
  readonly beneficiaries = new Map<string, BeneficiaryRec>();
  readonly payouts = new Map<string, PayoutRec>();
  readonly gatewayAccounts: GatewayAccountsRec[] = [];
  readonly webhooks = new Map<string, WebhookRec>();
  /** Every payout fetch the service processed, so tests can tell that nothing was checked twice. */
  readonly payoutFetches = new Map<string, { normal: number; advance: number }>();
  readonly gateways: readonly string[] = GATEWAYS.map((g) => g.code);

  /** Ids of things made at run time come from their own stream, so seeding stays independent of use. */
  private readonly ids: Rng;

  constructor(seed: number) {
    this.ids = new Rng(seed ^ 0x1d5eed);
  }

  /** `prefix_` + 14 upper-case base-36 characters, as gateway ids look. */
  newId(prefix: string): string {
    return `${prefix}_${this.ids.base36(14)}`;
  }

  newDigits(n: number): string {
    return this.ids.digits(n);
  }

  planByIdOrReference(id: string): PlanRec | undefined {
    const direct = this.plans.get(id);
    if (direct) return direct;
    for (const p of this.plans.values()) if (p.mer_reference_id === id) return p;
    return undefined;
  }

  subscriptionByReceipt(receipt: string): SubscriptionRec | undefined {
    for (const s of this.subscriptions.values()) if (s.mer_reference_id === receipt) return s;
    return undefined;
  }

  fixtures(settlementDates: string[]): Fixtures {
    return {
      orders: [...this.orders.values()].map((o) => ({ id: o.order_id, status: o.status, payments: o.payments.length })),
      payouts: [...this.payouts.values()].map((p) => ({ id: p.transfer_id, status: p.status })),
      subscriptions: [...this.subscriptions.values()].map((s) => ({
        id: s.subscription_id,
        status: s.status,
        receipt: s.mer_reference_id,
        charges: s.charges.map((c) => ({ id: c.id, amount: c.amount })),
      })),
      plans: [...this.plans.values()].map((p) => ({ id: p.id, reference: p.mer_reference_id, amount: p.amount })),
      beneficiaries: [...this.beneficiaries.values()].map((b) => ({ id: b.beneficiary_id })),
      webhooks: [...this.webhooks.values()].map((w) => ({
        id: w.id,
        status: w.active ? 'active' : 'inactive',
        url: w.url,
        topics: [...w.topics],
      })),
      gateways: [...this.gateways],
      settlementDates,
      payoutFetches: Object.fromEntries([...this.payoutFetches].map(([id, n]) => [id, { ...n }])),
    };
  }
}
