/** `balances [--pg CODE]`: every payout account per gateway, recorded as snapshots; a gateway that failed shows its error. */
import { maskAccount } from '../../../shared/accounts';
import { formatMoney } from '../../../shared/money';
import type { Command } from '../command';
import { result, table } from '../io';

const balances: Command = {
  words: ['balances'],
  usage: 'balances [--pg CODE]',
  options: { pg: { type: 'string' } },
  async run({ ctx, values, io }) {
    const pg = typeof values.pg === 'string' ? values.pg : undefined;
    const overview = await ctx.core.treasury.accounts.refresh(ctx.profile.id, pg);
    // The overview is the whole cache; show what was asked for.
    const asked = <T extends { pg: string }>(items: T[]) => items.filter((i) => pg === undefined || i.pg === pg);
    const money = (v: number | null | undefined, currency: string) => (v == null ? '-' : formatMoney(v, currency));
    const rows = asked(overview.accounts).map((a) => {
      const currency = a.currency ?? 'INR';
      return [
        a.pg,
        maskAccount(a.accountNumber),
        money(a.latest?.availableBalance, currency),
        money(a.latest?.accountBalance, currency),
        money(a.latest?.minimumBalance, currency),
      ];
    });
    const failures = asked(overview.gatewayErrors).map((e) => `${e.pg}: the gateway answered ${e.code}: ${e.message}`);
    result(io, overview, () =>
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
  },
};

export const balanceCommands = [balances];
