/**
 * Webhook endpoints: list (optionally only active or only inactive) and update. `active: false`
 * deactivates (listed with status "inactive"), `active: true` reactivates; url and topics replace the
 * old values. The update's success body is not shown in the document: we answer the endpoint as it now is.
 */
import type { WebhookRec } from '../state';
import { CODE, fail, ok, type Handlers } from './reply';

export const webhookHandlers: Handlers<'webhook.list' | 'webhook.update'> = {
  'webhook.list': ({ active }, ctx) => {
    const all = [...ctx.state.webhooks.values()];
    const data = (active === undefined ? all : all.filter((w) => w.active === active)).map(wire);
    return ok({ data });
  },

  'webhook.update': ({ id, url, topics, active }, ctx) => {
    const hook = ctx.state.webhooks.get(id);
    if (!hook) return fail(CODE.notFound, `Webhook ${id} not found`);
    if (url !== undefined) hook.url = url;
    if (topics !== undefined) hook.topics = [...new Set(topics)];
    if (active !== undefined) hook.active = active;
    return ok({ message: 'Webhook updated successfully', data: wire(hook), request_id: ctx.requestId });
  },
};

function wire(w: WebhookRec) {
  return {
    id: w.id,
    url: w.url,
    topics: [...w.topics],
    status: w.active ? 'active' : 'inactive',
    created_at: w.created_at,
  };
}
