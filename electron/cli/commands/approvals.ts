/**
 * `approvals list|show|approve|reject|withdraw|check-status|settle`: the desk's proposals from the command line, on
 * the same core as the Approvals screen (electron/approvals/approvals.ts). Approving can send money, so `approve`
 * requires `--yes`; an approval whose answer was lost exits 3 (outcome unknown — check status). `--json` gives
 * amounts in integer paise.
 */
import { amountInWords } from '../../../shared/amount-words';
import {
  ACTION_LABELS,
  APPROVAL_SCOPES,
  PROPOSAL_STATE_LABELS,
  typedReason,
  type ApprovalScope,
  type Proposal,
} from '../../../shared/approvals';
import { formatMoney } from '../../../shared/money';
import { requestLines } from '../../../shared/approval-request';
import type { Command } from '../command';
import { InputError, OutcomeUnknownError, istText as ist, requireYes, result, table } from '../io';

const amount = (p: Proposal) => (p.amount === null ? '-' : formatMoney(p.amount, p.currency ?? 'INR'));

function proposalText(p: Proposal): string {
  return [
    `Proposal ${p.id}: ${ACTION_LABELS[p.action]} — ${PROPOSAL_STATE_LABELS[p.state]}`,
    `  ${p.summary}`,
    ...(p.amount !== null ? [`  Amount      ${amount(p)} (${amountInWords(p.amount, p.currency ?? 'INR')})`] : []),
    `  Proposed    by ${p.maker} on ${p.makerConsole}, ${ist(p.madeAt)}; expires ${ist(p.expiresAt)}`,
    `  Approvals   ${p.approvals.length} of ${p.needed}${p.approvals.map((a) => `; ${a.person} ${ist(a.at)}`).join('')}`,
    ...(p.decidedBy && p.state === 'rejected' ? [`  Rejected    by ${p.decidedBy}: ${p.reason}`] : []),
    ...(p.outcomeSummary ? [`  Outcome     ${p.outcomeSummary}`] : []),
    '  The request, exactly as it will be sent:',
    ...requestLines(p).map(([label, value]) => `    ${label}: ${value}`),
  ].join('\n');
}

/** An approval or check whose send ended "unknown" is exit 3, as every money action's lost answer is. */
function settledOrUnknown(p: Proposal): Proposal {
  if (p.state === 'unknown') {
    throw new OutcomeUnknownError(
      `${p.outcomeSummary ?? 'The outcome is unknown.'} Run \`approvals check-status ${p.id}\` on the console that sent it.`,
    );
  }
  return p;
}

const list: Command = {
  words: ['approvals', 'list'],
  usage: `approvals list [--scope ${APPROVAL_SCOPES.join('|')}]   (default: waiting for me)`,
  options: { scope: { type: 'string' } },
  async run({ ctx, values, io }) {
    const scope = (values.scope ?? 'waiting') as ApprovalScope;
    if (!APPROVAL_SCOPES.includes(scope)) throw new InputError(`--scope must be one of ${APPROVAL_SCOPES.join(', ')}`);
    const proposals = await ctx.core.approvals.list(ctx.profile.id, scope);
    result(io, proposals, () =>
      proposals.length === 0
        ? 'No proposals.'
        : table(
            ['ID', 'ACTION', 'AMOUNT', 'MAKER', 'PROPOSED (IST)', 'STATE'],
            proposals.map((p) => [
              p.id,
              ACTION_LABELS[p.action],
              amount(p),
              p.maker,
              ist(p.madeAt),
              PROPOSAL_STATE_LABELS[p.state],
            ]),
            ['left', 'left', 'right'],
          ),
    );
  },
};

const show: Command = {
  words: ['approvals', 'show'],
  usage: 'approvals show ID   (the request, and what the console fetches again to check it)',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const review = await ctx.core.approvals.review(ctx.profile.id, positionals[0]!);
    result(io, review, () =>
      [
        proposalText(review.proposal),
        ...review.facts.map((f) => `  ${f.label}: ${f.value}`),
        ...(review.blocked ? [`Blocked: ${review.blocked}`] : []),
        review.canApprove
          ? 'You may approve it.'
          : `You may not approve it: ${review.cannotApproveReason ?? review.blocked}`,
      ].join('\n'),
    );
  },
};

const approve: Command = {
  words: ['approvals', 'approve'],
  usage: 'approvals approve ID --yes   (the last approval sends the request from this console)',
  options: { yes: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const id = positionals[0]!;
    const review = await ctx.core.approvals.review(ctx.profile.id, id);
    requireYes(values, `approve: ${review.proposal.summary}`);
    const p = settledOrUnknown(await ctx.core.approvals.approve(ctx.profile.id, id));
    result(io, p, () => proposalText(p));
  },
};

const reject: Command = {
  words: ['approvals', 'reject'],
  usage: 'approvals reject ID --reason TEXT',
  options: { reason: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const reason = typedReason.safeParse(values.reason ?? '');
    if (!reason.success) throw new InputError('--reason: say why it is rejected, in a few words.');
    const p = await ctx.core.approvals.reject(ctx.profile.id, positionals[0]!, reason.data);
    result(io, p, () => proposalText(p));
  },
};

const withdraw: Command = {
  words: ['approvals', 'withdraw'],
  usage: 'approvals withdraw ID   (your own proposal, while it waits)',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const p = await ctx.core.approvals.withdraw(ctx.profile.id, positionals[0]!);
    result(io, p, () => proposalText(p));
  },
};

const checkStatus: Command = {
  words: ['approvals', 'check-status'],
  usage:
    'approvals check-status ID   (settles an approved proposal whose outcome is unknown, on the console that sent it)',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const p = settledOrUnknown(await ctx.core.approvals.check(ctx.profile.id, positionals[0]!));
    result(io, p, () => proposalText(p));
  },
};

const settle: Command = {
  words: ['approvals', 'settle'],
  usage: 'approvals settle ID --done|--not-done --note TEXT   (what the service shows, where no check can tell)',
  options: { done: { type: 'boolean' }, 'not-done': { type: 'boolean' }, note: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    if (Boolean(values.done) === Boolean(values['not-done'])) throw new InputError('Give one of --done or --not-done.');
    const note = typedReason.safeParse(values.note ?? '');
    if (!note.success) throw new InputError('--note: say where you saw it, in a few words.');
    const p = await ctx.core.approvals.settle(ctx.profile.id, positionals[0]!, Boolean(values.done), note.data);
    result(io, p, () => proposalText(p));
  },
};

export const approvalCommands = [list, show, approve, reject, withdraw, checkStatus, settle];
