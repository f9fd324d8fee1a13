/** `balances [--pg CODE]`: every payout account per gateway; a gateway that failed shows its error. */
import { formatMoney } from '../../../shared/money';
import type { Command } from '../command';
import { result, table } from '../io';

const balances: Command = {
  words: ['balances'],
  usage: 'balances [--pg CODE]',
  options: { pg: { type: 'string' } },
  async run({ ctx, values, io }) {
    const api = ctx.core.credentials.api(ctx.profile.id);
    try {
      const { accounts } = await api.payouts.accounts(typeof values.pg === 'string' ? values.pg : undefined);
      const rows: string[][] = [];
      const failures: string[] = [];
      for (const [pg, entry] of Object.entries(accounts)) {
        if (!entry.status) {
          failures.push(`${pg}: the gateway answered ${entry.error.code}: ${entry.error.message}`);
          continue;
        }
        for (const a of entry.data) {
          const currency = a.currency ?? 'INR';
          rows.push([
            pg,
            maskAccount(a.account_number),
            formatMoney(a.available_balance, currency),
            a.account_balance === undefined ? '-' : formatMoney(a.account_balance, currency),
            a.minimum_balance === undefined ? '-' : formatMoney(a.minimum_balance, currency),
          ]);
        }
      }
      result(io, accounts, () =>
        [
          table(['GATEWAY', 'ACCOUNT', 'AVAILABLE', 'BALANCE', 'MINIMUM'], rows, [
            'left',
            'left',
            'right',
            'right',
            'right',
          ]),
          ...failures,
        ].join('\n'),
      );
    } finally {
      api.close();
    }
  },
};

/** Only the last four digits, as statements print them. */
export function maskAccount(accountNumber: string): string {
  return accountNumber.length <= 4
    ? accountNumber
    : '•'.repeat(Math.min(accountNumber.length - 4, 8)) + accountNumber.slice(-4);
}

export const balanceCommands = [balances];
