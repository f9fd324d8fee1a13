/**
 * Subscription plans as the console creates and shows them. The form takes the amount in rupees (parsed exactly
 * into paise) and every field the document lists for a plan create; the request the API client sends is the
 * interface's own (`planCreateRequest`), with the amount as text of whole paise as its samples show.
 */
import { z } from 'zod';
import { currencyCode } from './api/common';
import { plan, planCreateRequest } from './api/subscriptions';
import { rupeesText } from './rupees';

const UDFS = ['udf1', 'udf2', 'udf3', 'udf4', 'udf5'] as const;
export { UDFS as PLAN_NOTE_FIELDS };

const count = (what: string) =>
  z.union([z.number(), z.string().trim().regex(/^\d+$/, `must be a whole number of ${what}`).transform(Number)]);

export const planForm = z
  .object({
    title: z.string().trim().min(1, 'must not be empty').max(200),
    description: z.string().trim().max(1000).default(''),
    amount: rupeesText,
    frequency: count('days').pipe(z.number().int().positive('must be a positive number of days').max(36_500)),
    cycle: count('deductions').pipe(z.number().int().positive('must be a positive number of deductions').max(10_000)),
    currency: z.string().trim().toUpperCase().pipe(currencyCode),
    mer_reference_id: z.string().trim().min(1, 'must not be empty').max(64),
    notes: z
      .object(
        Object.fromEntries(UDFS.map((k) => [k, z.string().max(255).optional()])) as Record<
          (typeof UDFS)[number],
          z.ZodOptional<z.ZodString>
        >,
      )
      .partial()
      .optional(),
  })
  .strict()
  .transform((f) => {
    const notes = Object.fromEntries(Object.entries(f.notes ?? {}).filter(([, v]) => v !== undefined && v !== ''));
    return planCreateRequest.parse({
      title: f.title,
      description: f.description,
      amount: String(f.amount),
      frequency: f.frequency,
      cycle: f.cycle,
      currency: f.currency,
      mer_reference_id: f.mer_reference_id,
      ...(Object.keys(notes).length ? { notes } : {}),
    });
  });
export type PlanForm = z.input<typeof planForm>;
export type PlanCreate = z.output<typeof planForm>;

/** A plan as the console shows it (the fetch answer's plan, amount in paise). */
export const planRecord = plan;
export type PlanRecord = z.output<typeof plan>;

export const createdPlan = z.object({
  planId: z.string(),
  message: z.string(),
  requestId: z.string().nullable(),
  attemptSeq: z.number().int().positive(),
});
export type CreatedPlan = z.infer<typeof createdPlan>;
