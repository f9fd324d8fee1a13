/**
 * `subscriptions get|cancel|charge|check-status` on the same core as the Subscriptions screen
 * (merchant/subscriptions.ts). Cancel and charge require `--yes`; the charge amount is typed in rupees and parsed
 * exactly. An already-cancelled subscription (the service's 1035) is said in plain words and exits 1.
 */
import { randomUUID } from 'node:crypto';
import { currencyCode } from '../../../shared/api/common';
import { amountInWords } from '../../../shared/amount-words';
import { parseRupees } from '../../../shared/rupees';
import { formatMoney, MoneyError } from '../../../shared/money';
import type { SubscriptionView } from '../../../shared/subscriptions';
import { UnsettledActionError } from '../../journal/actions';
import { ChargeReasonError } from '../../merchant/subscriptions';
import type { Command } from '../command';
import { InputError, actionResult, OutcomeUnknownError, UsageError, requireYes, result } from '../io';

function subscriptionText(view: SubscriptionView): string {
  const s = view.subscription;
  const who = [s.customer?.name, s.customer?.email, s.customer?.phone].filter(Boolean).join(', ');
  return [
    `Subscription ${s.subscription_id}: ${s.subscription_status.toUpperCase()}`,
    `  receipt id      ${s.mer_reference_id ?? '-'}`,
    `  amount          ${formatMoney(s.amount, s.currency)}`,
    `  initial amount  ${s.initial_amount == null ? '-' : formatMoney(s.initial_amount, s.currency)}`,
    `  gateway         ${s.pg ?? '-'}`,
    `  customer        ${who || '-'}`,
    ...(s.plan
      ? [`  plan            ${s.plan.id} ${s.plan.title} (${formatMoney(s.plan.amount, s.plan.currency)})`]
      : []),
  ].join('\n');
}

async function acting<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof UnsettledActionError) throw new OutcomeUnknownError(e.message);
    // A charge far above the subscription's own amount needs --reason: the command line was incomplete.
    if (e instanceof ChargeReasonError) throw new InputError(e.message);
    throw e;
  }
}

const get: Command = {
  words: ['subscriptions', 'get'],
  usage: 'subscriptions get ID | --receipt R',
  options: { receipt: { type: 'string' } },
  positionals: { min: 0, max: 1, names: 'ID (or --receipt R)' },
  async run({ ctx, values, positionals, io }) {
    const receipt = values.receipt as string | undefined;
    if ((receipt === undefined) === (positionals.length === 0)) {
      throw new UsageError('give the subscription id, or --receipt with the merchant receipt id (one of them)');
    }
    const view = await ctx.core.merchant.subscriptions.fetch(
      ctx.profile.id,
      receipt ?? positionals[0]!,
      receipt === undefined ? 'id' : 'receipt',
    );
    result(io, view, () => subscriptionText(view));
  },
};

const cancel: Command = {
  words: ['subscriptions', 'cancel'],
  usage: 'subscriptions cancel ID --yes',
  options: { yes: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const id = positionals[0]!;
    requireYes(values, `cancel subscription ${id} in ${ctx.profile.environment}`);
    const r = await acting(() =>
      ctx.core.approvals.gate(ctx.profile.id, randomUUID(), { action: 'subscription.cancel', id }),
    );
    actionResult(io, r, (s) => `${s.outcome.summary} Journal entry ${s.outcome.seq}.`);
  },
};

const charge: Command = {
  words: ['subscriptions', 'charge'],
  usage:
    "subscriptions charge ID --amount RUPEES --currency C [--reason TEXT] --yes   (a reason is needed above the subscription's own amount)",
  options: {
    amount: { type: 'string' },
    currency: { type: 'string' },
    reason: { type: 'string' },
    yes: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const id = positionals[0]!;
    if (values.amount === undefined || values.currency === undefined) {
      throw new UsageError('--amount and --currency are both required');
    }
    let amount: number;
    try {
      amount = parseRupees(String(values.amount));
    } catch (e) {
      if (e instanceof MoneyError) throw new InputError(`--amount: ${e.message}`);
      throw e;
    }
    const currency = currencyCode.safeParse(String(values.currency).toUpperCase());
    if (!currency.success)
      throw new InputError(`--currency: "${String(values.currency)}" must be a 3-letter code such as INR`);
    requireYes(
      values,
      `charge ${formatMoney(amount, currency.data)} (${amountInWords(amount, currency.data)}) under subscription ${id} in ${ctx.profile.environment}`,
    );
    const reason = typeof values.reason === 'string' ? values.reason : undefined;
    const r = await acting(() =>
      ctx.core.approvals.gate(ctx.profile.id, randomUUID(), {
        action: 'subscription.charge',
        id,
        amount,
        currency: currency.data,
        ...(reason !== undefined ? { reason } : {}),
      }),
    );
    actionResult(io, r, (s) => `${s.outcome.summary} Journal entry ${s.outcome.seq}.`);
  },
};

const checkStatus: Command = {
  words: ['subscriptions', 'check-status'],
  usage:
    'subscriptions check-status SEQ [--charged yes|no]   (settles a cancel or charge whose outcome is unknown; ' +
    '--charged records what the gateway shows for a charge)',
  options: { charged: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'SEQ' },
  async run({ ctx, values, positionals, io }) {
    const seq = Number(positionals[0]);
    if (!Number.isSafeInteger(seq) || seq <= 0)
      throw new InputError(`"${positionals[0]}" is not a journal entry number`);
    if (values.charged !== undefined) {
      if (values.charged !== 'yes' && values.charged !== 'no') throw new UsageError('--charged takes yes or no');
      const entry = ctx.core.merchant.subscriptions.recordCharge(ctx.profile.id, seq, values.charged === 'yes');
      result(io, { check: entry }, () => entry.summary);
      return;
    }
    const { check, view } = await ctx.core.merchant.subscriptions.checkStatus(ctx.profile.id, seq);
    result(io, { check, view }, () => check.summary);
    if (check.outcome === 'unknown') throw new OutcomeUnknownError('The outcome is still unknown.');
  },
};

export const subscriptionCommands: Command[] = [get, cancel, charge, checkStatus];
