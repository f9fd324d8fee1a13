/**
 * What the console knows of each action that can need approval: how to describe it for a proposal (its amount for the
 * thresholds, a sentence, what the maker saw), how to send it through the service that owns it, the guards that hold
 * before it is proposed, and what the approver reads beside it — fetched again at review time — with what blocks it.
 */
import type { JsonValue } from '../../shared/journal';
import type { ActionRequest, ApprovalPolicy, Proposal, ProposalReview } from '../../shared/approvals';
import type { BeneficiaryFields } from '../../shared/beneficiaries';
import { amountInWords } from '../../shared/amount-words';
import { formatMoney } from '../../shared/money';
import type { OrderService } from '../merchant/orders';
import type { PaymentToolService } from '../merchant/payment-tools';
import type { PlanService } from '../merchant/plans';
import { ChargeReasonError, checkChargeGuard, type SubscriptionService } from '../merchant/subscriptions';
import { CredentialError } from '../profiles/credentials';
import type { WebhookService } from '../merchant/webhooks';
import type { BeneficiaryService } from '../treasury/beneficiaries';
import type { BeneficiaryImportService } from '../treasury/beneficiary-import';
import { ifscDirectory } from '../treasury/ifsc';

/** An approval the console will not give: what it fetched again says the request no longer holds. */
export class ApprovalBlockedError extends Error {
  override name = 'ApprovalBlockedError';
  readonly code = 'APPROVAL_BLOCKED';
}

export interface ApprovalServices {
  orders: OrderService;
  subscriptions: SubscriptionService;
  tools: PaymentToolService;
  plans: PlanService;
  webhooks: WebhookService;
  beneficiaries: BeneficiaryService;
  beneficiaryImport: BeneficiaryImportService;
}

export interface Reviewed {
  facts: ProposalReview['facts'];
  blocked: string | null;
  /** What the sending console records before it sends (a refund's known attempts), for check status. */
  sendContext: Record<string, JsonValue>;
}

/**
 * What a console that holds no API secret cannot do for an action: the sentence that says so and who can. Such a
 * console proposes from what the maker typed and what it read before (the cache's copy of an order or
 * subscription); the approving console, which holds the secret, checks it all with the service again.
 */
export function secretNotHeld(
  what: string,
  instead = 'ask an approver or admin, whose console holds it',
): CredentialError {
  return new CredentialError(
    'SECRET_NOT_HELD',
    `${what} needs a console that holds the API secret; this console holds none for this profile: ${instead}.`,
  );
}

/** A proposal's context mark: made on a console without the secret, so nothing in it was checked with the service. */
const WITHOUT_SECRET = 'withoutSecret';

/** The actions whose description and review read the service: an order, a subscription, the webhooks. */
const LOOKS_UP: ReadonlySet<ActionRequest['action']> = new Set([
  'order.refund',
  'order.capture',
  'order.process',
  'subscription.charge',
  'subscription.cancel',
  'webhook.update',
  'webhook.deactivate',
]);

/** What a proposal is about, for its thresholds and for the people who read it. */
export interface Described {
  amount: number | null;
  currency: string | null;
  summary: string;
  context: Record<string, JsonValue>;
}

const money = (amount: number, currency: string | null) =>
  `${formatMoney(amount, currency ?? 'INR')} (${amountInWords(amount, currency ?? 'INR')})`;

const lastDigits = (account: string | undefined) => (account ? `ending ${account.slice(-4)}` : '');

/** A webhook change as one action: switching an endpoint off is a deactivation, whatever else the change holds. */
export const webhookAction = (change: { active?: boolean | undefined }): 'webhook.update' | 'webhook.deactivate' =>
  change.active === false ? 'webhook.deactivate' : 'webhook.update';

export function createActionCatalogue(
  services: ApprovalServices,
  policyOf: (profileId: string) => Promise<ApprovalPolicy>,
) {
  const { orders, subscriptions, tools, plans, webhooks, beneficiaries, beneficiaryImport } = services;

  /**
   * The payees already holding a new payee's details, each with its bank-detail changes, added to the review; what
   * blocks approving it (details that changed after the proposal was made).
   */
  function payeeHistory(
    profileId: string,
    b: BeneficiaryFields,
    madeAt: string,
    add: (label: string, value: string) => void,
  ): string | null {
    const same = beneficiaries.matches(profileId, {
      ...(b.account_number ? { account_number: b.account_number, ifsc: b.ifsc } : {}),
      ...(b.vpa ? { vpa: b.vpa } : {}),
    });
    let blocked: string | null = null;
    for (const m of same) {
      add('Payee with these details', `${m.name} (${m.beneficiary_id})`);
      for (const c of beneficiaries.changes(profileId, m.beneficiary_id)) {
        add(
          `Bank details of ${m.beneficiary_id} changed`,
          `${c.changedAt}: ${c.before.account_number ?? c.before.vpa ?? '-'} → ${c.after.account_number ?? c.after.vpa ?? '-'}`,
        );
        if (c.changedAt > madeAt) {
          blocked = `The bank details of payee ${m.name} (${m.beneficiary_id}) changed at ${c.changedAt}, after this proposal: review the change first.`;
        }
      }
    }
    return blocked;
  }

  /**
   * What `describe` reads of the order, subscription or webhook an action is about: the service's answer, or on a
   * console without the secret the copy it last read (null when it never read one).
   */
  function readerFor(profileId: string, online: boolean) {
    return {
      order: async (id: string) => (online ? orders.fetch(profileId, id) : orders.cached(profileId, id)),
      subscription: async (id: string) =>
        online ? subscriptions.fetch(profileId, id) : subscriptions.cached(profileId, id, 'id'),
      webhook: async (id: string) =>
        online ? ((await webhooks.list(profileId)).endpoints.find((e) => e.id === id) ?? null) : null,
    };
  }

  /** `online`: this console holds the secret, so what it describes is read from the service now. */
  async function describe(profileId: string, r: ActionRequest, online = true): Promise<Described> {
    const described = await describeFrom(readerFor(profileId, online), r);
    return online || !LOOKS_UP.has(r.action)
      ? described
      : { ...described, context: { ...described.context, [WITHOUT_SECRET]: true } };
  }

  async function describeFrom(read: ReturnType<typeof readerFor>, r: ActionRequest): Promise<Described> {
    switch (r.action) {
      case 'order.refund': {
        const view = await read.order(r.orderId);
        if (view === null) {
          if (r.amount === null) {
            throw secretNotHeld(
              `A full refund of ${r.orderId} is what the service says is refundable now, so proposing one`,
              'type the amount to refund instead (the approving console checks it against what is refundable)',
            );
          }
          return {
            amount: r.amount,
            currency: null,
            summary: `Refund ${money(r.amount, null)} of order ${r.orderId} (the amount as typed).`,
            context: {},
          };
        }
        if (view.balance === null) {
          throw new ApprovalBlockedError(
            `The refund attempts of ${r.orderId} could not be listed (${view.refundsError}), so what is refundable is not known; nothing was proposed.`,
          );
        }
        const currency = view.order.currency;
        const amount = r.amount ?? view.balance.refundable;
        return {
          amount,
          currency,
          summary: `Refund ${money(amount, currency)} of order ${r.orderId} (${r.amount === null ? 'full' : 'partial'}).`,
          context: { orderAmount: view.order.amount, refundable: view.balance.refundable, currency },
        };
      }
      case 'order.capture':
      case 'order.process': {
        const orderId = r.action === 'order.capture' ? r.orderId : r.order.order_id;
        const view = await read.order(orderId);
        // The policy's thresholds need the order's amount, which only the service (or a copy read before) holds.
        if (view === null) {
          throw secretNotHeld(
            `${r.action === 'order.capture' ? 'Capturing' : 'Processing'} order ${orderId} (its amount is the service's)`,
          );
        }
        const { amount, currency } = view.order;
        const how = r.action === 'order.process' ? ` by ${r.order.method} (${r.order.code})` : '';
        return {
          amount,
          currency,
          summary: `${r.action === 'order.capture' ? 'Capture' : 'Process'} order ${orderId}${how}: ${money(amount, currency)}.`,
          context: { status: view.order.order_status },
        };
      }
      case 'subscription.charge': {
        const view = await read.subscription(r.id);
        if (view === null) {
          return {
            amount: r.amount,
            currency: r.currency,
            summary: `Charge ${money(r.amount, r.currency)} under subscription ${r.id}${r.reason ? `: ${r.reason}` : ''}.`,
            context: {},
          };
        }
        const own = view.subscription.amount;
        return {
          amount: r.amount,
          currency: r.currency,
          summary: `Charge ${money(r.amount, r.currency)} under subscription ${r.id} (its own amount ${formatMoney(own, r.currency)})${r.reason ? `: ${r.reason}` : ''}.`,
          context: {
            subscriptionAmount: own,
            subscriptionCurrency: view.subscription.currency,
            status: view.subscription.subscription_status,
          },
        };
      }
      case 'subscription.cancel': {
        const view = await read.subscription(r.id);
        if (view === null)
          return { amount: null, currency: null, summary: `Cancel subscription ${r.id}.`, context: {} };
        const { amount, currency } = view.subscription;
        return {
          amount: null,
          currency,
          summary: `Cancel subscription ${r.id} (${formatMoney(amount, currency)} each cycle).`,
          context: { subscriptionAmount: amount, status: view.subscription.subscription_status },
        };
      }
      case 'beneficiary.add': {
        const b = r.beneficiary;
        const where = b.account_number ? `A/c ${lastDigits(b.account_number)}, IFSC ${b.ifsc}` : `UPI ${b.vpa}`;
        return { amount: null, currency: null, summary: `Add the beneficiary ${b.name} (${where}).`, context: {} };
      }
      case 'beneficiary.import': {
        const n = r.rows.length;
        const names = r.rows.slice(0, 3).map((x) => x.beneficiary.name);
        const more = n > names.length ? ` and ${n - names.length} more` : '';
        return {
          amount: null,
          currency: null,
          summary: `Import ${n} ${n === 1 ? 'payee' : 'payees'} from ${r.fileName}: ${names.join(', ')}${more}.`,
          context: {},
        };
      }
      case 'webhook.update':
      case 'webhook.deactivate': {
        const now = await read.webhook(r.change.id);
        const before = now ? { url: now.url, topics: now.topics, status: now.status } : null;
        const change = [
          r.change.url !== undefined ? `URL ${now ? `${now.url} ` : ''}→ ${r.change.url}` : null,
          r.change.topics !== undefined ? `topics ${r.change.topics.join(', ')}` : null,
          r.change.active !== undefined ? (r.change.active ? 'activate' : 'deactivate') : null,
        ].filter(Boolean);
        return {
          amount: null,
          currency: null,
          summary: `Change webhook ${r.change.id}: ${change.join('; ')}.`,
          context: { before },
        };
      }
      case 'plan.create': {
        const amount = Number(r.plan.amount);
        return {
          amount,
          currency: r.plan.currency,
          summary: `Create plan ${r.plan.title}: ${money(amount, r.plan.currency)} every ${r.plan.frequency} days, ${r.plan.cycle} times.`,
          context: {},
        };
      }
    }
  }

  /** Sends the request now, through the service that owns it (journaled and keyed there). */
  async function execute(profileId: string, key: string, r: ActionRequest): Promise<unknown> {
    switch (r.action) {
      case 'order.refund':
        return orders.refund(profileId, key, r.orderId, r.amount);
      case 'order.capture':
        return orders.capture(profileId, key, r.orderId);
      case 'subscription.charge': {
        const { chargeReasonAbovePlanTimes } = await policyOf(profileId);
        return subscriptions.charge(profileId, key, r.id, r.amount, r.currency, {
          reason: r.reason,
          planTimes: chargeReasonAbovePlanTimes,
        });
      }
      case 'subscription.cancel':
        return subscriptions.cancel(profileId, key, r.id);
      case 'beneficiary.add':
        return beneficiaries.create(profileId, key, r.beneficiary);
      case 'beneficiary.import':
        // Each row carries its own key (the file's digest and its row), not the proposal's.
        return beneficiaryImport.sendBatch(profileId, r);
      case 'webhook.update':
      case 'webhook.deactivate':
        return webhooks.update(profileId, key, r.change);
      case 'plan.create':
        return plans.create(profileId, key, r.plan);
      case 'order.process':
        return tools.process(profileId, key, r.order);
    }
  }

  /**
   * Guards that hold before a proposal is made as before a send: a charge far above its subscription needs its
   * reason, held against the subscription `describe` fetched just now rather than fetched again.
   */
  async function guard(profileId: string, r: ActionRequest, described: Described): Promise<void> {
    if (r.action !== 'subscription.charge') return;
    if (described.context['subscriptionAmount'] === undefined && !r.reason?.trim()) {
      throw new ChargeReasonError(
        `This console holds no API secret, so it cannot read subscription ${r.id}'s own amount to compare this charge with: type the reason for this charge (the approver sees the subscription's own amount beside it); nothing was proposed.`,
      );
    }
    const { chargeReasonAbovePlanTimes } = await policyOf(profileId);
    checkChargeGuard(
      {
        amount: described.context['subscriptionAmount'] as number,
        currency: described.context['subscriptionCurrency'] as string,
      },
      r.amount,
      { reason: r.reason, planTimes: chargeReasonAbovePlanTimes },
    );
  }

  /** What the approver reads beside the frozen request, fetched again now, and what blocks approving it. */
  async function facts(profileId: string, p: Proposal, online = true): Promise<Reviewed> {
    const r = p.request as unknown as ActionRequest;
    const out: ProposalReview['facts'] = [];
    const add = (label: string, value: string) => out.push({ label, value });
    if (p.amount !== null) add('Amount', money(p.amount, p.currency));
    if (LOOKS_UP.has(r.action)) {
      if (!online) {
        add(
          'Checked with the service',
          'Not on this console: it holds no API secret. The approving console fetches it again before it sends.',
        );
        return { facts: out, blocked: null, sendContext: {} };
      }
      if (p.context[WITHOUT_SECRET] === true) {
        add(
          'Proposed from',
          'A console without the API secret: the maker typed the amount and details, and only this review checks them with the service.',
        );
      }
    }
    switch (r.action) {
      case 'order.refund': {
        const view = await orders.fetch(profileId, r.orderId);
        const currency = view.order.currency;
        add('Order amount', money(view.order.amount, currency));
        if (view.balance === null || view.refunds === null) {
          return {
            facts: out,
            blocked: `The refund attempts could not be listed (${view.refundsError}).`,
            sendContext: {},
          };
        }
        add('Refundable now', money(view.balance.refundable, currency));
        const known = view.refunds.map((x) => x.refund_id);
        const wanted = p.amount ?? 0;
        if (wanted > view.balance.refundable) {
          return {
            facts: out,
            blocked: `${formatMoney(wanted, currency)} is more than the ${formatMoney(view.balance.refundable, currency)} refundable now.`,
            sendContext: {},
          };
        }
        if (r.amount === null && view.balance.refundable !== wanted) {
          return {
            facts: out,
            blocked: `A full refund now would be ${formatMoney(view.balance.refundable, currency)}, not the ${formatMoney(wanted, currency)} proposed: propose it again.`,
            sendContext: {},
          };
        }
        return { facts: out, blocked: null, sendContext: { knownRefunds: known } };
      }
      case 'subscription.charge':
      case 'subscription.cancel': {
        const view = await subscriptions.fetch(profileId, r.id);
        const s = view.subscription;
        add("Subscription's own amount", money(s.amount, s.currency));
        add('Subscription status', s.subscription_status);
        if (r.action === 'subscription.charge' && r.reason) add('Reason for the charge', r.reason);
        const cancelled = /^cancel+ed$/i.test(s.subscription_status);
        return {
          facts: out,
          blocked: cancelled ? `Subscription ${r.id} is ${s.subscription_status} now.` : null,
          sendContext: {},
        };
      }
      case 'order.capture':
      case 'order.process': {
        const orderId = r.action === 'order.capture' ? r.orderId : r.order.order_id;
        const view = await orders.fetch(profileId, orderId);
        add('Order status now', view.order.order_status);
        add('Order amount now', money(view.order.amount, view.order.currency));
        const changed = p.amount !== null && view.order.amount !== p.amount;
        return {
          facts: out,
          blocked: changed
            ? `The order's amount is ${formatMoney(view.order.amount, view.order.currency)} now, not the ${formatMoney(p.amount!, view.order.currency)} proposed.`
            : null,
          sendContext: {},
        };
      }
      case 'webhook.update':
      case 'webhook.deactivate': {
        const { endpoints } = await webhooks.list(profileId);
        const now = endpoints.find((e) => e.id === r.change.id);
        const before = (p.context['before'] ?? null) as { url: string; status: string } | null;
        add(
          'Webhook URL at the proposal',
          before?.url ??
            (p.context[WITHOUT_SECRET] === true ? '(not read: proposed without the API secret)' : '(not listed)'),
        );
        add('Webhook URL now', now?.url ?? '(not listed)');
        if (r.change.url !== undefined) add('New URL', r.change.url);
        const moved = before !== null && now !== undefined && (now.url !== before.url || now.status !== before.status);
        return {
          facts: out,
          blocked: moved ? `Webhook ${r.change.id} changed since the proposal (now ${now.status}, ${now.url}).` : null,
          sendContext: {},
        };
      }
      case 'beneficiary.add': {
        const b = r.beneficiary;
        add('Name', b.name);
        if (b.account_number) add('Account number', `${b.account_number} (IFSC ${b.ifsc})`);
        if (b.vpa) add('UPI', b.vpa);
        return { facts: out, blocked: payeeHistory(profileId, b, p.madeAt, add), sendContext: {} };
      }
      case 'beneficiary.import': {
        add('Payees', `${r.rows.length} from ${r.fileName}`);
        const ifscs = r.rows.some((x) => x.beneficiary.ifsc) ? await ifscDirectory() : null;
        let blocked: string | null = null;
        for (const { row, beneficiary: b } of r.rows) {
          const bank = b.ifsc && ifscs ? (ifscs.check(b.ifsc).bank ?? 'bank not in the IFSC list') : null;
          const where = [
            b.account_number ? `A/c ${b.account_number}, IFSC ${b.ifsc} (${bank})` : null,
            b.vpa ? `UPI ${b.vpa}` : null,
          ].filter(Boolean);
          add(`Row ${row}`, `${b.name}: ${where.join('; ')}`);
          blocked ??= payeeHistory(profileId, b, p.madeAt, add);
        }
        return { facts: out, blocked, sendContext: {} };
      }
      case 'plan.create':
        add('Every', `${r.plan.frequency} days, ${r.plan.cycle} times`);
        return { facts: out, blocked: null, sendContext: {} };
    }
  }

  return { describe, execute, guard, facts };
}
export type ActionCatalogue = ReturnType<typeof createActionCatalogue>;
