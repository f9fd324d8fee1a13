/** `plans create|get|check`: subscription plans. Create is journaled and never retried: a lost answer exits 3. */
import { randomUUID } from 'node:crypto';
import { describeIssues } from '../../../shared/api/operations';
import { formatMoney } from '../../../shared/money';
import { PLAN_NOTE_FIELDS, planForm, type PlanRecord } from '../../../shared/plans';
import type { Command } from '../command';
import { InputError, actionResult, OutcomeUnknownError, result } from '../io';

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

function describePlan(p: PlanRecord): string {
  return [
    `Plan ${p.id}: ${p.title}`,
    `  amount      ${formatMoney(p.amount, p.currency)}`,
    `  every       ${p.frequency ?? '-'} days, ${p.cycle ?? '-'} times`,
    `  reference   ${p.mer_reference_id ?? '-'}`,
    `  description ${p.description || '-'}`,
    ...Object.entries(p.notes ?? {}).map(([k, v]) => `  ${k.padEnd(11)} ${v}`),
  ].join('\n');
}

const create: Command = {
  words: ['plans', 'create'],
  usage:
    'plans create --title T --amount RUPEES --frequency DAYS --cycle N --currency C --reference R [--description D] [--udf1 V … --udf5 V]',
  options: {
    title: { type: 'string' },
    amount: { type: 'string' },
    frequency: { type: 'string' },
    cycle: { type: 'string' },
    currency: { type: 'string' },
    reference: { type: 'string' },
    description: { type: 'string' },
    ...Object.fromEntries(PLAN_NOTE_FIELDS.map((k) => [k, { type: 'string' as const }])),
  },
  async run({ ctx, values, io }) {
    const form = planForm.safeParse({
      title: text(values.title) ?? '',
      amount: text(values.amount) ?? '',
      frequency: text(values.frequency) ?? '',
      cycle: text(values.cycle) ?? '',
      currency: text(values.currency) ?? '',
      mer_reference_id: text(values.reference) ?? '',
      description: text(values.description),
      notes: Object.fromEntries(PLAN_NOTE_FIELDS.map((k) => [k, text(values[k])])),
    });
    if (!form.success) throw new InputError(`Check the plan: ${describeIssues(form.error)}.`);
    const r = await ctx.core.approvals.gate(ctx.profile.id, randomUUID(), { action: 'plan.create', plan: form.data });
    actionResult(
      io,
      r,
      (created) =>
        `Created plan ${created.planId}: ${form.data.title}, ${formatMoney(Number(form.data.amount), form.data.currency)} every ${form.data.frequency} days, ${form.data.cycle} times${created.message ? ` (${created.message})` : ''}.`,
      (created) => ({ ...created, amount: Number(form.data.amount), currency: form.data.currency }),
    );
  },
};

const get: Command = {
  words: ['plans', 'get'],
  usage: 'plans get ID   (a plan id, or its merchant reference id)',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const plan = await ctx.core.merchant.plans.fetch(ctx.profile.id, positionals[0]!);
    result(io, plan, () => describePlan(plan));
  },
};

const check: Command = {
  words: ['plans', 'check'],
  usage:
    'plans check SEQ   (a plan create whose outcome is unknown: looks for its reference and journals what it finds)',
  positionals: { min: 1, max: 1, names: 'SEQ (the journal entry of the attempt)' },
  async run({ ctx, positionals, io }) {
    const seq = Number(positionals[0]);
    if (!Number.isSafeInteger(seq) || seq < 1) throw new InputError('SEQ must be a journal entry number.');
    const found = await ctx.core.merchant.plans.checkCreate(ctx.profile.id, seq);
    result(io, found, () => found.check.summary);
    if (found.check.outcome === 'unknown') throw new OutcomeUnknownError(found.check.summary);
  },
};

export const planCommands = [create, get, check];
