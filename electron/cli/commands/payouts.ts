/** `payout get ID [--advance]`: the payout's status as the gateway reports it, in plain words. */
import { formatMoney } from '../../../shared/money';
import type { Command } from '../command';
import { result } from '../io';

const get: Command = {
  words: ['payout', 'get'],
  usage: 'payout get ID [--advance]   (--advance asks the gateway directly: a hard pull)',
  options: { advance: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, values, positionals, io }) {
    const api = ctx.core.credentials.api(ctx.profile.id);
    try {
      const r = await api.payouts.fetchPayout(positionals[0]!, values.advance ? 'advance' : 'normal');
      const p = r.payout;
      result(io, r, () =>
        [
          `Payout ${p.transfer_id}: ${p.transfer_status.toUpperCase()}`,
          `  amount       ${formatMoney(p.amount)}`,
          `  UTR          ${p.ut_no ?? '(none yet)'}`,
          `  method       ${p.method ?? '-'} from ${p.fund_source ?? '-'}`,
          `  processed    ${p.processed_at ? `${p.processed_at} IST` : '-'}`,
          `  beneficiary  ${[p.beneficiary?.name, p.beneficiary?.vpa ?? p.beneficiary?.account?.account_no].filter(Boolean).join(', ') || '-'}`,
          ...(p.error || r.error_message
            ? [`  gateway says ${[r.error_code, r.error_message ?? p.error].filter((x) => x !== undefined).join(': ')}`]
            : []),
        ].join('\n'),
      );
    } finally {
      api.close();
    }
  },
};

export const payoutCommands = [get];
