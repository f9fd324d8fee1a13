/**
 * `orders process`, `payments methods`, `tools vpa`, `tools currency`: the payment tools on the same core as the
 * app. Forms are checked by the shared schemas before anything is sent (exit 2); process order starts a payment,
 * is journaled and never retried by the client, so a lost answer exits 3 with what to check.
 */
import { randomUUID } from 'node:crypto';
import { describeIssues } from '../../../shared/api/operations';
import { vpaCheck } from '../../../shared/beneficiaries';
import { formatMoney } from '../../../shared/money';
import {
  convertExactly,
  currencyQuery,
  methodsQuery,
  processForm,
  type MethodGroups,
} from '../../../shared/payment-tools';
import { checkRupees } from '../../../shared/rupees';
import type { Command } from '../command';
import { InputError, actionResult, result, table } from '../io';

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

const processOrder: Command = {
  words: ['orders', 'process'],
  usage: 'orders process ID --method upi|nb|wallet|emi --code C [--vpa V] [--device android|ios]   (seamless checkout)',
  options: {
    method: { type: 'string' },
    code: { type: 'string' },
    vpa: { type: 'string' },
    device: { type: 'string' },
  },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const form = processForm.safeParse({
      order_id: positionals[0],
      method: text(values.method) ?? '',
      code: text(values.code) ?? '',
      vpa: text(values.vpa),
      device: text(values.device),
    });
    if (!form.success) throw new InputError(`Check the order: ${describeIssues(form.error)}.`);
    const r = await ctx.core.approvals.gate(ctx.profile.id, randomUUID(), {
      action: 'order.process',
      order: form.data,
    });
    actionResult(io, r, (paid) =>
      [
        `Order ${form.data.order_id}: payment ${paid.paymentId} started (journal entry ${paid.attemptSeq}).`,
        `  type   ${paid.type ?? '-'}`,
        `  token  ${paid.token ?? '-'}`,
        `  link   ${paid.url ?? '-'}`,
        ...(paid.message ? [`  ${paid.message}`] : []),
      ].join('\n'),
    );
  },
};

function describeGroups(g: MethodGroups): string {
  const lines: string[] = [];
  const titles = { netbanking: 'Net banking', debitcard: 'Debit cards', creditcard: 'Credit cards', upi: 'UPI apps' };
  for (const section of g.order) {
    lines.push(`${titles[section]}:`);
    if (section === 'netbanking') {
      lines.push(
        table(
          ['CODE', 'BANK', 'HEALTH', 'FAVOURITE'],
          g.netbanking.map((b) => [
            b.code,
            b.title,
            b.healthy === null ? '-' : b.healthy ? 'up' : 'down',
            b.favourite ? 'yes' : '',
          ]),
        ),
      );
    } else {
      for (const m of g[section]) lines.push(`  ${m.code.padEnd(10)} ${m.title}`);
    }
  }
  lines.push(
    `Flags: ${g.flags.map((f) => `${f.label} ${f.on === null ? 'not given' : f.on ? 'yes' : 'no'}${f.value ? ` (${f.value})` : ''}`).join(', ')}`,
  );
  return lines.join('\n');
}

const methods: Command = {
  words: ['payments', 'methods'],
  usage: 'payments methods [--amount RUPEES] [--currency C] [--pg PG]',
  options: { amount: { type: 'string' }, currency: { type: 'string' }, pg: { type: 'string' } },
  async run({ ctx, values, io }) {
    const query = methodsQuery.safeParse({
      amount: text(values.amount),
      currency: text(values.currency)?.toUpperCase(),
      pg: text(values.pg),
    });
    if (!query.success) throw new InputError(`Check the filter: ${describeIssues(query.error)}.`);
    const answer = await ctx.core.merchant.tools.methods(ctx.profile.id, query.data);
    result(io, { ...answer, amount: query.data.amount ?? null }, () => describeGroups(answer.groups));
  },
};

const vpa: Command = {
  words: ['tools', 'vpa'],
  usage: 'tools vpa ADDRESS   (is this UPI address registered, and whose is it)',
  positionals: { min: 1, max: 1, names: 'ADDRESS' },
  async run({ ctx, positionals, io }) {
    const input = vpaCheck.safeParse({ vpa: positionals[0]!.trim() });
    if (!input.success) throw new InputError(`ADDRESS: ${describeIssues(input.error)}.`);
    const check = await ctx.core.treasury.beneficiaries.verifyVpa(ctx.profile.id, input.data.vpa);
    result(io, check, () =>
      check.valid
        ? `${check.vpa} is a valid UPI address${check.accountName ? ` of ${check.accountName}` : ''}.`
        : `${check.vpa} is not registered with any UPI app.`,
    );
    // A well-formed address the service does not know is its answer, not a failure of the command.
  },
};

const currency: Command = {
  words: ['tools', 'currency'],
  usage: 'tools currency FROM TO [--amount AMOUNT]   (the rate as exact decimal text; an amount converted exactly)',
  options: { amount: { type: 'string' } },
  positionals: { min: 2, max: 2, names: 'FROM and TO' },
  async run({ ctx, values, positionals, io }) {
    const pair = currencyQuery.safeParse({ from: positionals[0]!.toUpperCase(), to: positionals[1]!.toUpperCase() });
    if (!pair.success) throw new InputError(`Check the currencies: ${describeIssues(pair.error)}.`);
    let minor: number | null = null;
    if (typeof values.amount === 'string') {
      const parsed = checkRupees(values.amount);
      if (!parsed.ok) throw new InputError(`--amount: ${parsed.reason}`);
      minor = parsed.minor;
    }
    const c = await ctx.core.merchant.tools.currency(ctx.profile.id, pair.data.from, pair.data.to);
    const converted = minor === null ? null : convertExactly(minor, c.rate);
    result(io, { ...c, amount: minor, converted }, () =>
      [
        `1 ${c.from} = ${c.rate} ${c.to}`,
        ...(minor === null ? [] : [`${formatMoney(minor, c.from)} = ${converted} ${c.to} (exact)`]),
      ].join('\n'),
    );
  },
};

export const paymentToolCommands = [processOrder, methods, vpa, currency];
