/**
 * `beneficiary add|get`, recorded in the cache like the app's. Adding is never retried by the client: a lost
 * answer says what to check. The form is checked by the shared schema before anything is sent.
 */
import { randomUUID } from 'node:crypto';
import { describeIssues } from '../../../shared/api/operations';
import { beneficiaryForm } from '../../../shared/beneficiaries';
import type { Command } from '../command';
import { InputError, result } from '../io';

const add: Command = {
  words: ['beneficiary', 'add'],
  usage: 'beneficiary add --name N [--account-number N --ifsc CODE] [--vpa ADDR] [--phone P] [--email E] [--address A]',
  options: {
    name: { type: 'string' },
    'account-number': { type: 'string' },
    ifsc: { type: 'string' },
    vpa: { type: 'string' },
    phone: { type: 'string' },
    email: { type: 'string' },
    address: { type: 'string' },
  },
  async run({ ctx, values, io }) {
    const text = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
    const form = beneficiaryForm.safeParse({
      name: text('name') ?? '',
      account_number: text('account-number'),
      ifsc: text('ifsc'),
      vpa: text('vpa'),
      phone: text('phone'),
      email: text('email'),
      address: text('address'),
    });
    if (!form.success) throw new InputError(`Check the form: ${describeIssues(form.error)}.`);
    const { beneficiary, message } = await ctx.core.treasury.beneficiaries.create(
      ctx.profile.id,
      randomUUID(),
      form.data,
    );
    result(
      io,
      { beneficiary_id: beneficiary.beneficiary_id, message, beneficiary },
      () => `Added beneficiary ${beneficiary.beneficiary_id}${message ? ` (${message})` : ''}.`,
    );
  },
};

const get: Command = {
  words: ['beneficiary', 'get'],
  usage: 'beneficiary get ID',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const b = await ctx.core.treasury.beneficiaries.fetch(ctx.profile.id, positionals[0]!);
    result(io, b, () =>
      [
        `Beneficiary ${b.beneficiary_id}: ${b.name}`,
        `  bank account ${b.account_number ? `${b.account_number} (${b.ifsc})` : '-'}`,
        `  UPI          ${b.vpa || '-'}`,
        `  phone        ${b.phone || '-'}`,
        `  email        ${b.email || '-'}`,
      ].join('\n'),
    );
  },
};

export const beneficiaryCommands = [add, get];
