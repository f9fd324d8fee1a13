/** `beneficiary add|get`. Adding is never retried by the client: a lost answer says what to check. */
import type { Command } from '../command';
import { result } from '../io';

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
    const api = ctx.core.credentials.api(ctx.profile.id);
    try {
      const text = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
      const r = await api.payouts.createBeneficiary({
        name: text('name') ?? '',
        account_number: text('account-number'),
        ifsc: text('ifsc'),
        vpa: text('vpa'),
        phone: text('phone'),
        email: text('email'),
        address: text('address'),
      });
      result(io, r, () => `Added beneficiary ${r.beneficiary_id}${r.message ? ` (${r.message})` : ''}.`);
    } finally {
      api.close();
    }
  },
};

const get: Command = {
  words: ['beneficiary', 'get'],
  usage: 'beneficiary get ID',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const api = ctx.core.credentials.api(ctx.profile.id);
    try {
      const { data: b } = await api.payouts.fetchBeneficiary(positionals[0]!);
      result(io, b, () =>
        [
          `Beneficiary ${b.beneficiary_id}: ${b.name}`,
          `  bank account ${b.account_number ? `${b.account_number} (${b.ifsc})` : '-'}`,
          `  UPI          ${b.vpa || '-'}`,
          `  phone        ${b.phone || '-'}`,
          `  email        ${b.email || '-'}`,
        ].join('\n'),
      );
    } finally {
      api.close();
    }
  },
};

export const beneficiaryCommands = [add, get];
