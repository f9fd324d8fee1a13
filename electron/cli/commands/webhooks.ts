/** `webhooks list|update`: the merchant's webhook endpoints. An update is journaled and never retried. */
import { webhookAction } from '../../approvals/action-catalogue';
import { randomUUID } from 'node:crypto';
import { describeIssues } from '../../../shared/api/operations';
import { splitTopics, webhookEdit, type WebhookRecord } from '../../../shared/webhooks';
import type { Command } from '../command';
import { InputError, actionResult, UsageError, result, table } from '../io';

function flag(name: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--${name} takes true or false, got "${String(value)}"`);
}

const rows = (hooks: WebhookRecord[]) =>
  table(
    ['ID', 'STATUS', 'URL', 'TOPICS'],
    hooks.map((h) => [h.id, h.status, h.url, h.topics.join(', ')]),
  );

const list: Command = {
  words: ['webhooks', 'list'],
  usage: 'webhooks list [--active true|false]',
  options: { active: { type: 'string' } },
  async run({ ctx, values, io }) {
    const { endpoints, requestId } = await ctx.core.merchant.webhooks.list(
      ctx.profile.id,
      flag('active', values.active),
    );
    result(io, { endpoints, requestId }, () => (endpoints.length ? rows(endpoints) : 'No webhooks.'));
  },
};

const update: Command = {
  words: ['webhooks', 'update'],
  usage: 'webhooks update ID [--url https://…] [--topics a,b] [--active true|false]',
  options: { url: { type: 'string' }, topics: { type: 'string' }, active: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const change = webhookEdit.safeParse({
      id: positionals[0],
      url: typeof values.url === 'string' ? values.url : undefined,
      topics: typeof values.topics === 'string' ? splitTopics(values.topics) : undefined,
      active: flag('active', values.active),
    });
    if (!change.success) throw new InputError(`Check the change: ${describeIssues(change.error)}.`);
    const r = await ctx.core.approvals.gate(ctx.profile.id, randomUUID(), {
      action: webhookAction(change.data),
      change: change.data,
    });
    actionResult(io, r, (done) =>
      done.endpoint
        ? `Changed webhook ${change.data.id}:\n${rows([done.endpoint])}`
        : `Changed webhook ${change.data.id}${done.message ? ` (${done.message})` : ''}.`,
    );
  },
};

export const webhookCommands = [list, update];
