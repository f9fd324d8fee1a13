/**
 * Plans and subscriptions: plan create/fetch, subscription fetch (by id, by merchant receipt), cancel,
 * ad hoc charge. Lifecycle: active -> canceled by Cancel; cancelling again answers 1035; an ad hoc charge
 * needs an active subscription in its own currency. A plan is fetched by its id or, as merchants keep it,
 * by its mer_reference_id, which must be unique (so a retried create cannot make a twin).
 */
import { isoUtcMicros } from '../../../shared/time';
import type { PlanRec, SubscriptionRec } from '../state';
import { CODE, fail, invalid, ok, type Ctx, type Handlers, type Reply } from './reply';

export const subscriptionHandlers: Handlers<
  | 'plan.create'
  | 'plan.fetch'
  | 'subscription.fetch'
  | 'subscription.fetchByReceipt'
  | 'subscription.cancel'
  | 'subscription.adhoc'
> = {
  'plan.create': (req, ctx) => {
    const twin = ctx.state.planByIdOrReference(req.mer_reference_id);
    if (twin && twin.mer_reference_id === req.mer_reference_id) {
      return invalid(`mer_reference_id: a plan with this reference already exists (${twin.id})`);
    }
    const plan: PlanRec = {
      id: ctx.state.newId('plan'),
      title: req.title,
      description: req.description,
      amount: Number(req.amount),
      frequency: req.frequency,
      cycle: req.cycle,
      currency: req.currency,
      mer_reference_id: req.mer_reference_id,
      notes: { udf1: '', udf2: '', udf3: '', udf4: '', udf5: '', ...stripUndefined(req.notes ?? {}) },
    };
    ctx.state.plans.set(plan.id, plan);
    return ok({ plan_id: plan.id, message: 'Plan created successfully' });
  },

  'plan.fetch': ({ id }, ctx) => {
    const plan = ctx.state.planByIdOrReference(id);
    if (!plan) return fail(CODE.notFound, `Plan ${id} not found`);
    return ok({ plan: ctx.variant === 'B' ? planB(plan) : planA(plan), message: 'Plan fetched successfully' });
  },

  'subscription.fetch': ({ id }, ctx) => answer(ctx.state.subscriptions.get(id), id, ctx),

  'subscription.fetchByReceipt': ({ id }, ctx) => answer(ctx.state.subscriptionByReceipt(id), id, ctx),

  'subscription.cancel': ({ id }, ctx) => {
    const sub = ctx.state.subscriptions.get(id);
    if (!sub) return fail(CODE.notFound, `Subscription ${id} not found`);
    if (sub.status === 'canceled') return fail(CODE.alreadyCancelled, 'Subscription already cancelled.');
    sub.status = 'canceled';
    return answer(sub, id, ctx);
  },

  'subscription.adhoc': ({ id, amount, currency }, ctx) => {
    const sub = ctx.state.subscriptions.get(id);
    if (!sub) return fail(CODE.notFound, `Subscription ${id} not found`);
    if (sub.status !== 'active')
      return fail(CODE.generic, `Subscription ${id} is ${sub.status}; an ad hoc charge needs an active subscription`);
    if (currency !== sub.currency) return invalid(`currency: must be ${sub.currency}, the subscription's currency`);
    const transaction = {
      id: ctx.state.newId('txn'),
      amount: Number(amount),
      currency,
      status: 'success' as const,
      payment_attempt_at: isoUtcMicros(ctx.now()),
    };
    sub.charges.push(transaction);
    return ok({ transaction, request_id: ctx.requestId });
  },
};

function answer(sub: SubscriptionRec | undefined, id: string, ctx: Ctx): Reply {
  if (!sub) return fail(CODE.notFound, `Subscription ${id} not found`);
  const plan = ctx.state.plans.get(sub.plan_id)!;
  const subscription =
    ctx.variant === 'B'
      ? { id: sub.subscription_id, status: sub.status, plan: planB(plan) }
      : {
          subscription_id: sub.subscription_id,
          mer_reference_id: sub.mer_reference_id,
          amount: sub.amount,
          initial_amount: sub.initial_amount,
          currency: sub.currency,
          subscription_status: sub.status,
          pg: sub.pg,
          customer: { ...sub.customer },
          notes: { ...sub.notes },
          billing_address: { ...sub.billing_address },
          shipping_address: { ...sub.shipping_address },
        };
  return ok({ subscription, request_id: ctx.requestId });
}

/** Variant A of a plan is not shown; we answer the create fields plus `id`, amount as text as it was sent. */
function planA(p: PlanRec) {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    amount: String(p.amount),
    frequency: p.frequency,
    cycle: p.cycle,
    currency: p.currency,
    mer_reference_id: p.mer_reference_id,
    notes: { ...p.notes },
  };
}

function planB(p: PlanRec) {
  return { id: p.id, name: p.title, amount: p.amount, currency: p.currency, interval: interval(p.frequency) };
}

function interval(days: number): string {
  return days === 1
    ? 'daily'
    : days === 7
      ? 'weekly'
      : days === 30
        ? 'monthly'
        : days === 365
          ? 'yearly'
          : `every ${days} days`;
}

function stripUndefined(o: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => e[1] !== undefined));
}
