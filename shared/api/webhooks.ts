/**
 * Webhook endpoints: list (optionally only active / only inactive) and update (url, topics, deactivate).
 * The update's success body is not shown in the document; the sandbox answers
 * `{status: true, data: <endpoint after the update>, request_id}` and an empty `{status: true}` is accepted too.
 */
import { z } from 'zod';
import { isoUtc, nonEmpty, requestId, statusTrue } from './common';

export const webhookEndpoint = z.looseObject({
  id: z.string(),
  url: z.string(),
  topics: z.array(z.string()),
  status: z.string(),
  created_at: isoUtc.optional(),
});
export type WebhookEndpoint = z.output<typeof webhookEndpoint>;

export const webhookListRequest = z.object({ active: z.boolean().optional() });

export const webhookUpdateRequest = z
  .object({
    id: nonEmpty.regex(/^[A-Za-z0-9_-]+$/, 'must be a webhook id (letters, digits, _ and -)'),
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    topics: z
      .array(z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/, 'must be an event type such as order.paid'))
      .min(1)
      .optional(),
    active: z.boolean().optional(),
  })
  .refine((r) => r.url !== undefined || r.topics !== undefined || r.active !== undefined, {
    message: 'give at least one of url, topics or active',
  });

export const webhookListResponse = z
  .looseObject({ status: statusTrue, data: z.array(webhookEndpoint), request_id: requestId })
  .transform(({ data, request_id }) => ({ data, request_id }));

export const webhookUpdateResponse = z
  .looseObject({
    status: statusTrue,
    data: webhookEndpoint.optional(),
    message: z.string().optional(),
    request_id: requestId,
  })
  .transform(({ data, message, request_id }) => ({ data, message, request_id }));
