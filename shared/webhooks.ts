/**
 * Webhook endpoints as the console edits them. The document shows two topics (`order.paid`, `order.failed`) and
 * says the full set is not shown, so those two are offered and any other event type is allowed. A URL the console
 * sets must be https: a webhook carries payment events to the merchant's server, never over plain HTTP.
 */
import { z } from 'zod';
import { webhookEndpoint, webhookUpdateRequest } from './api/webhooks';

export const DOCUMENTED_TOPICS = ['order.paid', 'order.failed'] as const;

const TOPIC = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;

/** Topics as typed: separated by commas, spaces or new lines, duplicates dropped. */
export function splitTopics(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

export const webhookEdit = z
  .object({
    id: z.string().trim().min(1, 'must not be empty').max(64),
    url: z
      .string()
      .trim()
      .refine((u) => URL.canParse(u) && new URL(u).protocol === 'https:' && new URL(u).hostname !== '', {
        message: 'must be an https:// address',
      })
      .optional(),
    topics: z
      .array(z.string().trim().regex(TOPIC, 'must be an event type such as order.paid'))
      .min(1, 'give at least one topic')
      .max(50)
      .optional(),
    active: z.boolean().optional(),
  })
  .strict()
  .refine((e) => e.url !== undefined || e.topics !== undefined || e.active !== undefined, {
    message: 'change at least one of the URL, the topics or active',
  })
  .pipe(webhookUpdateRequest);
export type WebhookEdit = z.input<typeof webhookEdit>;

export type WebhookRecord = z.output<typeof webhookEndpoint>;

export const webhookList = z.object({
  endpoints: z.array(webhookEndpoint),
  requestId: z.string().nullable(),
});

export const updatedWebhook = z.object({
  /** The endpoint as the service answered it; null when its answer carried none (then the list is read again). */
  endpoint: webhookEndpoint.nullable(),
  message: z.string().nullable(),
  requestId: z.string().nullable(),
  attemptSeq: z.number().int().positive(),
});
export type UpdatedWebhook = z.infer<typeof updatedWebhook>;
