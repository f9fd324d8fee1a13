/**
 * `exceptions queue` and `exceptions bulk …`: the exception queue of the profile — its cache alone, or its desk —
 * filtered, and one action over the whole filtered set (all or none, one journal entry). `--json` gives amounts in
 * integer paise.
 */
import { BULK_ACTIONS, queueFilter, type BulkAction, type QueueFilter } from '../../../shared/desk';
import { describeIssues } from '../../../shared/api/operations';
import { formatMoney } from '../../../shared/money';
import type { Command, Values } from '../command';
import { InputError, result, table } from '../io';

const filterOptions = {
  state: { type: 'string' },
  'assigned-to': { type: 'string' },
  unassigned: { type: 'boolean' },
  rule: { type: 'string' },
  pg: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
} as const;
const FILTER_FLAGS =
  '[--state open|acknowledged|resolved|unresolved] [--assigned-to LOGIN|me] [--unassigned] [--rule RULE] [--pg CODE] [--from YYYY-MM-DD] [--to YYYY-MM-DD]';

function filterFrom(values: Values): QueueFilter {
  const parsed = queueFilter.safeParse({
    state: values.state,
    assignedTo: values['assigned-to'],
    unassigned: values.unassigned,
    rule: values.rule,
    pg: values.pg,
    from: values.from,
    to: values.to,
  });
  if (!parsed.success) {
    throw new InputError(
      describeIssues(parsed.error)
        .replace(/^assignedTo:/, '--assigned-to:')
        .replace(/^(\w+):/, '--$1:'),
    );
  }
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as QueueFilter;
}

const queue: Command = {
  words: ['exceptions', 'queue'],
  usage: `exceptions queue ${FILTER_FLAGS} [--limit N]`,
  options: { ...filterOptions, limit: { type: 'string' } },
  async run({ ctx, values, io }) {
    const filter = filterFrom(values);
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new InputError('--limit must be 1 to 10000');
    const page = await ctx.core.exceptionQueue.queue(ctx.profile.id, filter, { offset: 0, limit });
    result(io, page, () =>
      [
        `${page.total} exceptions, ${formatMoney(page.amountAtRisk)} at risk.`,
        table(
          ['RULE', 'GATEWAY', 'DATE', 'STATE', 'COUNT', 'AT RISK', 'OWNERS'],
          page.groups.map((g) => [
            g.rule,
            g.pg,
            g.date,
            g.state,
            String(g.count),
            formatMoney(g.amountAtRisk),
            g.owners.join(', '),
          ]),
          ['left', 'left', 'left', 'left', 'right', 'right', 'left'],
        ),
        '',
        table(
          ['DATE', 'GATEWAY', 'TRANSACTION', 'RULES', 'AT RISK', 'STATE', 'ASSIGNEE', 'NOTE'],
          page.rows.map((r) => [
            r.date,
            r.pg,
            r.pgTransactionId,
            r.rules.join(' '),
            formatMoney(r.amountAtRisk),
            r.state,
            r.assignee ?? '',
            r.note ?? '',
          ]),
          ['left', 'left', 'left', 'left', 'right'],
        ),
      ].join('\n'),
    );
  },
};

const bulk: Command = {
  words: ['exceptions', 'bulk'],
  usage: `exceptions bulk acknowledge|resolve|reopen ${FILTER_FLAGS} --text NOTE | exceptions bulk assign ${FILTER_FLAGS} --assignee LOGIN`,
  options: { ...filterOptions, text: { type: 'string' }, assignee: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'an action: acknowledge, assign, resolve or reopen' },
  async run({ ctx, values, positionals, io }) {
    const action = positionals[0] as BulkAction;
    if (!(BULK_ACTIONS as readonly string[]).includes(action)) {
      throw new InputError(`the action must be one of ${BULK_ACTIONS.join(', ')}`);
    }
    const text = action === 'assign' ? values.assignee : values.text;
    if (typeof text !== 'string' || text.trim() === '') {
      throw new InputError(action === 'assign' ? 'assign needs --assignee LOGIN' : `${action} needs --text NOTE`);
    }
    const filter = filterFrom(values);
    const done = await ctx.core.exceptionQueue.bulk(ctx.profile.id, { action, filter, text });
    result(io, done, () => `${action}: ${done.count} exceptions, in journal entry ${done.journalSeq}.`);
  },
};

export const exceptionCommands: Command[] = [queue, bulk];
