/**
 * Webhook endpoints for the UI and the CLI: the list (all, active or inactive) and an update (URL, topics, active),
 * keyed and journaled like every change at the service, so a double click or a retry after a lost answer never
 * sends a change twice. The answer's endpoint is what the screen shows afterwards.
 */
import type { OperationInput } from '../../shared/api/operations';
import type { UpdatedWebhook, WebhookRecord } from '../../shared/webhooks';
import { createSubmissions, runJournaled } from '../journal/keyed-actions';
import type { Journals } from '../journal/registry';
import type { Credentials } from '../profiles/credentials';

type Change = OperationInput<'webhook.update'>;

function describe(change: Change): string {
  const parts = [
    change.url !== undefined ? `URL ${change.url}` : null,
    change.topics !== undefined ? `topics ${change.topics.join(', ')}` : null,
    change.active === false ? 'deactivate' : change.active === true ? 'activate' : null,
  ];
  return parts.filter(Boolean).join('; ');
}

export function createWebhookService(deps: { credentials: Credentials; journals: Journals }) {
  const once = createSubmissions<UpdatedWebhook>();

  async function update(profileId: string, change: Change): Promise<UpdatedWebhook> {
    const { journal } = deps.journals.for(profileId);
    const { answer, attempt } = await runJournaled(journal, {
      event: 'webhook.update',
      summary: `Asked the service to change webhook ${change.id}: ${describe(change)}.`,
      asked: {
        id: change.id,
        url: change.url ?? null,
        topics: change.topics ?? null,
        active: change.active ?? null,
      },
      send: () => deps.credentials.withApi(profileId, (api) => api.webhooks.update(change)),
      succeeded: (a) => ({
        requestId: a.request_id ?? null,
        summary: `Changed webhook ${change.id}${a.data ? `: now ${a.data.status}, ${a.data.url}` : ''}.`,
        data: { endpoint: a.data ? { url: a.data.url, topics: a.data.topics, status: a.data.status } : null },
      }),
    });
    return {
      endpoint: answer.data ?? null,
      message: answer.message ?? null,
      requestId: answer.request_id ?? null,
      attemptSeq: attempt.seq,
    };
  }

  return {
    async list(profileId: string, active?: boolean): Promise<{ endpoints: WebhookRecord[]; requestId: string | null }> {
      const answer = await deps.credentials.withApi(profileId, (api) => api.webhooks.list(active));
      return { endpoints: answer.data, requestId: answer.request_id ?? null };
    },

    update: (profileId: string, requestKey: string, change: Change): Promise<UpdatedWebhook> =>
      once(`${profileId}\0${requestKey}`, () => update(profileId, change)),
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
