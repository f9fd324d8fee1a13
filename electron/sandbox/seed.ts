/**
 * The seeded world: orders, plans, subscriptions, beneficiaries, payouts, payout accounts and webhooks.
 * Everything comes from one Rng seeded by `seed`, in a fixed order, and times are anchored to the start
 * of "today" in IST, so two sandboxes with the same seed on the same day hold identical data.
 */
import { epochMsToIst, isoUtcMicros, istToEpochMs } from '../../shared/time';
import { BANKS, CITIES, FIRST_NAMES, GATEWAYS, LAST_NAMES, UPI_HANDLES, type Bank } from './data/catalog';
import { Rng } from './random';
import {
  SandboxState,
  type AccountRec,
  type Address,
  type OrderRec,
  type OrderStatus,
  type PayoutRec,
  type PayoutStatus,
  type Person,
  type PlanRec,
  type SubscriptionRec,
} from './state';

const DAY_MS = 86_400_000;

interface Clock {
  /** Start of today in IST, epoch ms. */
  dayStart: number;
}

export function seedState(seed: number, todayIst: string): SandboxState {
  const state = new SandboxState(seed);
  const rng = new Rng(seed);
  const clock: Clock = { dayStart: istToEpochMs(`${todayIst} 00:00:00`) };

  seedOrders(state, rng, clock);
  seedPlansAndSubscriptions(state, rng);
  seedBeneficiariesAndPayouts(state, rng, clock);
  seedAccounts(state, rng);
  seedWebhooks(state, rng, clock);
  return state;
}

// ---- people and places ------------------------------------------------------------------------------

export function person(rng: Rng): Person {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  return {
    name: `${first} ${last}`,
    email: `${first}.${last}${rng.int(1, 99)}@example.in`.toLowerCase(),
    phone: `${rng.int(6, 9)}${rng.digits(9)}`,
  };
}

function address(rng: Rng, who: Person): Address {
  const [city, st, zip] = rng.pick(CITIES);
  const [firstname = '', lastname = ''] = who.name.split(' ');
  return {
    firstname,
    lastname,
    phone: who.phone,
    line1: `${rng.int(1, 400)}, ${rng.pick(['MG Road', 'Station Road', 'Link Road', 'Park Street', 'Ring Road'])}`,
    line2: rng.pick(['', 'Near City Mall', 'Opp. Post Office', '2nd Floor']),
    city,
    state: st,
    country: 'India',
    zipcode: zip,
  };
}

/**
 * A branch of the bank that exists. The draw is the six characters a made-up branch code once took, so every value
 * seeded after it is the same as before.
 */
export function ifscFor(rng: Rng, bank: Bank): string {
  const draw = parseInt(rng.base36(6), 36);
  return bank.branches[draw % bank.branches.length]!;
}

function vpaFor(rng: Rng, who: Person): string {
  const handle = rng.pick(Object.keys(UPI_HANDLES));
  return `${who.name.split(' ')[0]!.toLowerCase()}${rng.int(1, 999)}@${handle}`;
}

/** IST wall-clock text some days before today, at a seeded time of day. */
function pastIst(rng: Rng, clock: Clock, maxDaysAgo: number, minDaysAgo = 1): string {
  const days = rng.int(minDaysAgo, maxDaysAgo);
  return epochMsToIst(clock.dayStart - days * DAY_MS + rng.int(8 * 3600, 21 * 3600) * 1000);
}

function emptyNotes(): Record<string, string> {
  return { udf1: '', udf2: '', udf3: '', udf4: '', udf5: '', udf6: '', udf8: '', udf9: '', udf10: '' };
}

// ---- orders ---------------------------------------------------------------------------------------

/** The fixed mix of order states: something to capture, to refund, to process, and the dead ends. */
const ORDER_MIX: readonly OrderStatus[] = [
  'authorized',
  'authorized',
  'authorized',
  'authorized',
  'success',
  'success',
  'success',
  'success',
  'success',
  'partially_refunded',
  'refunded',
  'created',
  'created',
  'created',
  'failed',
];

/** The gateway's own (unmapped) status name of each order status; order handlers keep it in step. */
export const UNMAPPED_STATUS: Readonly<Record<OrderStatus, string>> = {
  created: 'CREATED',
  authorized: 'AUTHORIZED',
  captured: 'CAPTURED',
  success: 'CAPTURED',
  partially_refunded: 'PARTIAL_REFUND',
  refunded: 'REFUNDED',
  failed: 'FAILED',
};

function seedOrders(state: SandboxState, rng: Rng, clock: Clock): void {
  for (const status of ORDER_MIX) {
    const who = person(rng);
    const method = rng.pick(['card', 'upi', 'nb', 'wallet'] as const);
    const amount = rng.int(50, 25_000) * 100 + rng.pick([0, 0, 50, 99]);
    const created = pastIst(rng, clock, 20, 2);
    const card = method === 'card';
    const order: OrderRec = {
      order_id: `ord_${rng.base36(14)}`,
      receipt_id: `rcpt_${rng.digits(8)}`,
      pg_transaction_id: `pay_${rng.base36(14)}`,
      amount,
      currency: 'INR',
      pg: rng.pick(GATEWAYS).code,
      method,
      status,
      unmapped_status: UNMAPPED_STATUS[status],
      card_last_4: card ? rng.digits(4) : '',
      card_issuer: card ? rng.pick(BANKS).title : '',
      customer: who,
      notes: { ...emptyNotes(), udf1: `cart-${rng.int(1000, 9999)}` },
      billing_address: address(rng, who),
      shipping_address: address(rng, who),
      additional_charges: rng.chance(0.3) ? rng.int(1, 50) * 100 : 0,
      mdr: rng.pick(['1.80', '2.00', '1.50', '0.00']),
      created_at: created,
      updated_at: created,
      refunds: [],
      payments: [],
    };
    addSeededRefunds(order, rng, clock);
    state.orders.set(order.order_id, order);
  }
}

/** Orders that start refunded carry the attempts that got them there (and one failed attempt, for colour). */
function addSeededRefunds(order: OrderRec, rng: Rng, clock: Clock): void {
  const at = (n: number) => isoUtcMicros(clock.dayStart - DAY_MS + n * 3_600_000 + rng.int(0, 999) * 1000);
  const attempt = (amount: number, type: 'Full' | 'Partial', status: 'success' | 'failed', n: number) =>
    order.refunds.push({
      refund_id: `rfnd_${rng.base36(14)}`,
      amount,
      type,
      status,
      rrn: rng.digits(12),
      attempted_at: at(n),
    });
  if (order.status === 'partially_refunded') {
    attempt(Math.floor(order.amount / 4), 'Partial', 'failed', 1);
    attempt(Math.floor(order.amount / 4), 'Partial', 'success', 2);
  } else if (order.status === 'refunded') {
    attempt(order.amount, 'Full', 'success', 3);
  }
}

// ---- plans and subscriptions -------------------------------------------------------------------------

function seedPlansAndSubscriptions(state: SandboxState, rng: Rng): void {
  const plans: PlanRec[] = [
    { title: 'Monthly Basic', frequency: 30, cycle: 12, amount: 49_900 },
    { title: 'Weekly Delivery', frequency: 7, cycle: 52, amount: 19_900 },
    { title: 'Annual Pro', frequency: 365, cycle: 3, amount: 499_900 },
  ].map((p, i) => ({
    id: `plan_${rng.base36(14)}`,
    title: p.title,
    description: `${p.title} plan, charged every ${p.frequency} days`,
    amount: p.amount,
    frequency: p.frequency,
    cycle: p.cycle,
    currency: 'INR',
    mer_reference_id: `planref_${i + 1}_${rng.digits(4)}`,
    notes: { udf1: '', udf2: '', udf3: '', udf4: '', udf5: '' },
  }));
  for (const p of plans) state.plans.set(p.id, p);

  const statuses = ['active', 'active', 'active', 'canceled', 'canceled'] as const;
  statuses.forEach((status, i) => {
    const plan = plans[i % plans.length]!;
    const who = person(rng);
    const sub: SubscriptionRec = {
      subscription_id: `sub_${rng.base36(14)}`,
      mer_reference_id: `subrcpt_${rng.digits(8)}`,
      plan_id: plan.id,
      amount: plan.amount,
      initial_amount: i % 2 === 0 ? null : 100,
      currency: plan.currency,
      status,
      pg: rng.pick(GATEWAYS).code,
      customer: who,
      notes: emptyNotes(),
      billing_address: address(rng, who),
      shipping_address: address(rng, who),
      charges: [],
    };
    state.subscriptions.set(sub.subscription_id, sub);
  });
}

// ---- beneficiaries and payouts ----------------------------------------------------------------------

const PAYOUT_MIX: readonly PayoutStatus[] = [
  'success',
  'success',
  'success',
  'success',
  'failed',
  'failed',
  'pending',
  'pending',
  'pending',
];

/** Failures a bank rail really reports, with the gateway's numeric code beside the text. */
const PAYOUT_FAILURES: readonly (readonly [number, string])[] = [
  [4032, 'Beneficiary account is closed or frozen'],
  [4051, 'Beneficiary bank is offline, try again later'],
  [4019, 'Invalid IFSC for beneficiary bank'],
];

function seedBeneficiariesAndPayouts(state: SandboxState, rng: Rng, clock: Clock): void {
  for (let i = 0; i < 6; i++) {
    const who = person(rng);
    const bank = rng.pick(BANKS);
    const byVpaOnly = i % 3 === 2;
    const id = `bene_${rng.base36(14)}`;
    state.beneficiaries.set(id, {
      beneficiary_id: id,
      name: who.name,
      vpa: byVpaOnly || i % 2 === 0 ? vpaFor(rng, who) : '',
      account_number: byVpaOnly ? '' : rng.digits(rng.int(9, 18)),
      ifsc: byVpaOnly ? '' : ifscFor(rng, bank),
      phone: who.phone,
      email: who.email,
      address: `${rng.int(1, 400)}, ${rng.pick(CITIES)[0]}`,
    });
  }
  const beneficiaryIds = [...state.beneficiaries.keys()];
  PAYOUT_MIX.forEach((status, i) => {
    const failure = rng.pick(PAYOUT_FAILURES);
    const bene = state.beneficiaries.get(beneficiaryIds[i % beneficiaryIds.length]!)!;
    const payout: PayoutRec = {
      transfer_id: `TRF${rng.digits(12)}`,
      status,
      error: status === 'failed' ? failure[1] : '',
      error_code: status === 'failed' ? failure[0] : null,
      amount: rng.int(500, 200_000) * 100 + rng.pick([0, 0, 25, 50]),
      fund_source: rng.pick(GATEWAYS.filter((g) => !g.accountsFail)).code,
      method: bene.account_number ? rng.pick(['neft', 'imps', 'rtgs']) : 'upi',
      processed_at: status === 'pending' ? null : pastIst(rng, clock, 10),
      ut_no: status === 'success' ? rng.digits(12) : null,
      beneficiary_id: bene.beneficiary_id,
      ack: `ACK${rng.digits(10)}`,
      advanceFetches: 0,
    };
    state.payouts.set(payout.transfer_id, payout);
  });
}

// ---- payout accounts and webhooks --------------------------------------------------------------------

function seedAccounts(state: SandboxState, rng: Rng): void {
  for (const g of GATEWAYS) {
    const count = g.code === 'razorpay' ? 2 : 1;
    const accounts: AccountRec[] = [];
    for (let i = 0; i < count; i++) {
      const balance = rng.int(100_000, 50_000_000) * 100 + rng.int(0, 99);
      const hold = rng.chance(0.5) ? rng.int(0, 50_000) * 100 : null;
      accounts.push({
        account_number: rng.digits(14),
        ifsc_code: ifscFor(rng, rng.pick(BANKS)),
        account_type: 'VIRTUAL',
        currency: 'INR',
        available_balance: balance - (hold ?? 0),
        account_balance: balance,
        minimum_balance: 0,
        hold_fund: hold,
        overdraft: i === 0 && g.code === 'cashfree' ? 1_000_000_00 : null,
        transaction_limit: 2_000_000_00,
      });
    }
    state.gatewayAccounts.push({ pg: g.code, fails: g.accountsFail, accounts });
  }
}

function seedWebhooks(state: SandboxState, rng: Rng, clock: Clock): void {
  const specs = [
    { path: 'payments', topics: ['order.paid', 'order.failed'], active: true },
    { path: 'paid-only', topics: ['order.paid'], active: true },
    { path: 'legacy', topics: ['order.failed'], active: false },
  ];
  for (const s of specs) {
    const id = `wh_${rng.base36(12)}`;
    const created = clock.dayStart - rng.int(30, 200) * DAY_MS + rng.int(0, 86_399) * 1000;
    state.webhooks.set(id, {
      id,
      url: `https://merchant.example.in/hooks/${s.path}`,
      topics: s.topics,
      active: s.active,
      created_at: new Date(created).toISOString(),
    });
  }
}
