/** `payout get ID [--advance]`: the payout's status as the gateway reports it, in plain words; recorded in the cache. */
import { formatMoney } from '../../../shared/money';
import { destinationText, payoutDestination } from '../../../shared/payouts';
import type { Command } from '../command';
import { result } from '../io';

const get: Command = {
  words: ['payout', 'get'],
  usage: 'payout get ID [--advance]   (--advance asks the gateway directly: a hard pull)',
  options: { advance: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const lookup = await ctx.core.treasury.payouts.lookup(
      ctx.profile.id,
      positionals[0]!,
      values.advance ? 'advance' : 'normal',
    );
    const p = lookup.payout;
    // A check the service refused (not found) is recorded in the payout's history, and fails here.
    if (p === null) throw new Error(lookup.error ?? 'The service did not return the payout.');
    const gatewaySays = [lookup.gatewayErrorCode, lookup.gatewayErrorMessage ?? p.error].filter((x) => x != null);
    result(io, lookup, () =>
      [
        `Payout ${p.transfer_id}: ${p.transfer_status.toUpperCase()}`,
        `  amount       ${formatMoney(p.amount)}`,
        `  UTR          ${p.ut_no ?? '(none yet)'}`,
        `  method       ${p.method ?? '-'} from ${p.fund_source ?? '-'}`,
        `  processed    ${p.processed_at ? `${p.processed_at} IST` : '-'}`,
        `  beneficiary  ${[p.beneficiary?.name, destinationText(payoutDestination(p))].filter(Boolean).join(', ') || '-'}`,
        ...(gatewaySays.length ? [`  gateway says ${gatewaySays.join(': ')}`] : []),
      ].join('\n'),
    );
  },
};

export const payoutCommands = [get];
