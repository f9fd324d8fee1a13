/**
 * `orders get|refunds|capture|refund|check-status` on the same core as the Orders screen (merchant/orders.ts): the
 * lookups are cached and the actions journaled and sent once. Capture and refund require `--yes`. A refund
 * amount is typed in rupees and parsed exactly (parseRupees); above the refundable balance it is refused, exit 2.
 */
import { randomUUID } from 'node:crypto';
import { amountInWords } from '../../../shared/amount-words';
import { parseRupees } from '../../../shared/rupees';
import { formatMoney, MoneyError } from '../../../shared/money';
import { ORDER_FIELDS, type OrderView } from '../../../shared/orders';
import { UnsettledActionError } from '../../journal/actions';
import { RefundRefusedError } from '../../merchant/orders';
import type { Command } from '../command';
import { InputError, OutcomeUnknownError, actionResult, requireYes, result, table } from '../io';

/** An order's field as one line of text: money formatted, objects as their non-empty parts. */
function fieldText(view: OrderView, field: (typeof ORDER_FIELDS)[number]): string {
  const o = view.order;
  const value = (o as Record<string, unknown>)[field];
  if (value === undefined) return view.missing.includes(field) ? '(not in the answer)' : '-';
  if (value === null || value === '') return '-';
  if (field === 'amount' || field === 'additional_charges') return formatMoney(value as number, o.currency);
  if (field === 'created_at' || field === 'updated_at') return `${String(value)} IST`;
  if (Array.isArray(value)) return value.length ? JSON.stringify(value) : '(none)';
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== '' && v != null);
    return parts.length ? parts.map(([k, v]) => `${k}=${String(v)}`).join(', ') : '(empty)';
  }
  return String(value);
}

function refundsText(view: OrderView): string {
  if (view.refunds === null) return `Refund attempts: not known (${view.refundsError}).`;
  const currency = view.order.currency;
  const b = view.balance!;
  const rows = view.refunds.map((r) => [
    r.refund_id,
    formatMoney(r.amount, currency),
    r.type ?? '-',
    r.status,
    r.rrn ?? '-',
    r.attempted_at ?? '-',
  ]);
  return [
    rows.length
      ? table(['Refund', 'Amount', 'Type', 'Status', 'RRN', 'Attempted at (UTC)'], rows, ['left', 'right'])
      : 'No refund attempts.',
    `Refundable balance ${formatMoney(b.refundable, currency)} (amount ${formatMoney(b.amount, currency)}, refunded ${formatMoney(b.refunded, currency)}, pending ${formatMoney(b.pending, currency)}).`,
  ].join('\n');
}

function orderText(view: OrderView): string {
  const width = Math.max(...ORDER_FIELDS.map((f) => f.length));
  return [
    `Order ${view.order.order_id}: ${view.order.order_status.toUpperCase()}`,
    ...ORDER_FIELDS.slice(1).map((f) => `  ${f.padEnd(width)}  ${fieldText(view, f)}`),
    ...(view.missing.length ? [`The answer left out: ${view.missing.join(', ')}.`] : []),
    refundsText(view),
  ].join('\n');
}

/** The console's own refusals before sending, as the CLI's exit codes read them. */
async function acting<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof RefundRefusedError) throw new InputError(e.message);
    if (e instanceof UnsettledActionError) throw new OutcomeUnknownError(e.message);
    throw e;
  }
}

const get: Command = {
  words: ['orders', 'get'],
  usage: 'orders get ID',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const view = await ctx.core.merchant.orders.fetch(ctx.profile.id, positionals[0]!);
    result(io, view, () => orderText(view));
  },
};

const refunds: Command = {
  words: ['orders', 'refunds'],
  usage: 'orders refunds ID   (the refund attempts and the refundable balance)',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const view = await ctx.core.merchant.orders.fetch(ctx.profile.id, positionals[0]!);
    if (view.refunds === null) throw new Error(`The refund attempts could not be listed: ${view.refundsError}`);
    result(io, { order_id: view.order.order_id, refunds: view.refunds, balance: view.balance }, () =>
      refundsText(view),
    );
  },
};

const capture: Command = {
  words: ['orders', 'capture'],
  usage: 'orders capture ID --yes',
  options: { yes: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const id = positionals[0]!;
    requireYes(values, `capture the payment of order ${id} in ${ctx.profile.environment}`);
    const r = await acting(() =>
      ctx.core.approvals.gate(ctx.profile.id, randomUUID(), { action: 'order.capture', orderId: id }),
    );
    actionResult(
      io,
      r,
      (s) => `${s.outcome.summary}${s.message ? ` (${s.message})` : ''} Journal entry ${s.outcome.seq}.`,
    );
  },
};

const refund: Command = {
  words: ['orders', 'refund'],
  usage: 'orders refund ID [--amount RUPEES] --yes   (no --amount: a full refund of what is refundable)',
  options: { amount: { type: 'string' }, yes: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const id = positionals[0]!;
    let amount: number | null = null;
    if (values.amount !== undefined) {
      try {
        amount = parseRupees(String(values.amount));
      } catch (e) {
        if (e instanceof MoneyError) throw new InputError(`--amount: ${e.message}`);
        throw e;
      }
    }
    requireYes(
      values,
      amount === null
        ? `refund order ${id} in full in ${ctx.profile.environment}`
        : `refund ${formatMoney(amount)} (${amountInWords(amount)}) of order ${id} in ${ctx.profile.environment}`,
    );
    const r = await acting(() =>
      ctx.core.approvals.gate(ctx.profile.id, randomUUID(), { action: 'order.refund', orderId: id, amount }),
    );
    actionResult(
      io,
      r,
      (s) => `${s.outcome.summary} Journal entry ${s.outcome.seq}.${s.view ? `\n${refundsText(s.view)}` : ''}`,
    );
  },
};

const checkStatus: Command = {
  words: ['orders', 'check-status'],
  usage: 'orders check-status SEQ   (settles a capture or refund whose outcome is unknown; SEQ from the journal)',
  positionals: { min: 1, max: 1, names: 'SEQ' },
  async run({ ctx, positionals, io }) {
    const seq = Number(positionals[0]);
    if (!Number.isSafeInteger(seq) || seq <= 0)
      throw new InputError(`"${positionals[0]}" is not a journal entry number`);
    const { check, view } = await ctx.core.merchant.orders.checkStatus(ctx.profile.id, seq);
    result(io, { check, view }, () => check.summary);
    if (check.outcome === 'unknown') throw new OutcomeUnknownError('The outcome is still unknown.');
  },
};

export const orderCommands: Command[] = [get, refunds, capture, refund, checkStatus];
