/**
 * Subscriptions: plans, subscription fetch (by id and by merchant receipt), cancel, ad hoc charge.
 *
 * Variant mapping (B -> domain):
 * - subscription: `id` -> `subscription_id`, `status` -> `subscription_status`; amount and currency come
 *                 from the nested `plan`, which is kept as `plan`.
 * - plan fetch:   B `plan {id, name, amount, currency, interval}`: `name` -> `title`. Variant A of the plan
 *                 record is not shown; the sandbox answers with the create fields plus `id` (our decision).
 * - plan create:  A is not shown; both the sandbox and B answer `{plan_id, message}`.
 * Plan and ad hoc amounts travel as text of whole minor units ("49900"), as the document's samples do.
 */
import { z } from 'zod';
import {
  address,
  currencyCode,
  customer,
  idText,
  isoUtc,
  minorInt,
  nonEmpty,
  notes,
  positiveMinorText,
  requestId,
  statusTrue,
} from './common';

const minorFromText = z.union([
  minorInt,
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number)
    .pipe(minorInt),
]);

export const plan = z.looseObject({
  id: idText,
  title: z.string(),
  description: z.string().optional(),
  amount: minorFromText,
  currency: z.string(),
  frequency: z.number().int().optional(),
  cycle: z.number().int().optional(),
  interval: z.union([z.string(), z.number()]).optional(),
  mer_reference_id: z.string().optional(),
  notes: z.record(z.string(), z.string()).optional(),
});
export type Plan = z.output<typeof plan>;

const planB = z
  .looseObject({
    id: idText,
    name: z.string(),
    amount: minorFromText,
    currency: z.string(),
    interval: z.union([z.string(), z.number()]).optional(),
  })
  .transform(({ name, ...rest }) => ({ ...rest, title: name }) as Plan);

export const subscription = z.looseObject({
  subscription_id: idText,
  mer_reference_id: z.string().optional(),
  amount: minorInt,
  initial_amount: minorInt.nullish(),
  currency: z.string(),
  subscription_status: z.string(),
  pg: z.string().optional(),
  customer: customer.optional(),
  notes: notes.optional(),
  billing_address: address.optional(),
  shipping_address: address.optional(),
  plan: plan.optional(),
});
export type Subscription = z.output<typeof subscription>;

const subscriptionB = z.looseObject({ id: idText, status: z.string(), plan: planB }).transform(
  ({ id, status, plan: p, ...rest }) =>
    ({
      ...rest,
      subscription_id: id,
      subscription_status: status,
      amount: p.amount,
      currency: p.currency,
      plan: p,
    }) as Subscription,
);

export const adhocTransaction = z.looseObject({
  id: idText,
  amount: minorInt,
  currency: z.string(),
  status: z.string(),
  payment_attempt_at: isoUtc.optional(),
});
export type AdhocTransaction = z.output<typeof adhocTransaction>;

// ---- requests ---------------------------------------------------------------------------------------

const udf = z.string().max(255).optional();
export const planCreateRequest = z.object({
  title: nonEmpty,
  description: z.string(),
  amount: positiveMinorText,
  frequency: z.number().int().positive('must be a positive number of days'),
  cycle: z.number().int().positive('must be a positive number of deductions'),
  currency: currencyCode,
  mer_reference_id: nonEmpty,
  notes: z.object({ udf1: udf, udf2: udf, udf3: udf, udf4: udf, udf5: udf }).optional(),
});
export type PlanCreateRequest = z.input<typeof planCreateRequest>;

export const idRequest = z.object({ id: nonEmpty });

export const adhocRequest = z.object({ id: nonEmpty, amount: positiveMinorText, currency: currencyCode });

// ---- responses --------------------------------------------------------------------------------------

export const planCreateResponse = z
  .looseObject({ status: statusTrue, plan_id: idText, message: z.string().optional(), request_id: requestId })
  .transform(({ plan_id, message, request_id }) => ({ plan_id, message: message ?? '', request_id }));

export const planFetchResponse = z
  .looseObject({
    status: statusTrue,
    plan: z.union([plan, planB]),
    message: z.string().optional(),
    request_id: requestId,
  })
  .transform(({ plan: p, message, request_id }) => ({ plan: p, message, request_id }));

export const subscriptionResponse = z
  .looseObject({ status: statusTrue, subscription: z.union([subscription, subscriptionB]), request_id: requestId })
  .transform(({ subscription: s, request_id }) => ({ subscription: s, request_id }));

export const adhocResponse = z
  .looseObject({ status: statusTrue, transaction: adhocTransaction, request_id: requestId })
  .transform(({ transaction, request_id }) => ({ transaction, request_id }));
