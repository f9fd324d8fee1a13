/**
 * `accounts headroom [--offline]`: payable now per account, gateway and in total (available − minimum, and
 * with the overdraft; a gateway that gave no figure shows "-", never 0), beside the pending payouts the console knows, after a refresh of every gateway (`--offline`:
 * from the cache). When the refresh fails (the service cannot be reached, or refuses) the cache's figures are
 * still printed, dated, and the command exits 1 saying why they are not fresh: a desk offline still learns what it
 * last knew, and a script cannot take old figures for new ones. `accounts threshold PG RUPEES|--clear`: the
 * gateway's low-headroom alert, exact in rupees. `accounts balance [--pg] [--account]`: the balance operation, asked now. `--json` gives integer paise.
 */
import { maskAccount } from '../../../shared/accounts';
import type { HeadroomReport } from '../../../shared/headroom';
import { ApiError } from '../../api/errors';
import { formatMoney, MoneyError, parseDecimalToMinor } from '../../../shared/money';
import type { Command } from '../command';
import { UsageError, istText, result, table } from '../io';

const ist = istText;

function dated(r: HeadroomReport, refreshError: string | null): string {
  const asOf = r.asOf === null ? 'no figures cached yet' : `figures as of ${ist(r.asOf)}`;
  return refreshError === null ? `Payable now, ${asOf}.` : `Payable now from the cache, ${asOf}: ${refreshError}`;
}

function human(r: HeadroomReport): string {
  const money = (v: number | null) => (v === null ? '-' : formatMoney(v));
  const accounts = table(
    ['GATEWAY', 'ACCOUNT', 'AVAILABLE', 'MINIMUM', 'HOLD', 'PAYABLE NOW', 'WITH OVERDRAFT', 'AS OF'],
    r.accounts.map((a) => [
      a.pg,
      maskAccount(a.accountNumber),
      money(a.available),
      money(a.minimum),
      money(a.hold),
      money(a.payable),
      money(a.payableWithOverdraft),
      ist(a.takenAt),
    ]),
    ['left', 'left', 'right', 'right', 'right', 'right', 'right'],
  );
  const gateways = table(
    ['GATEWAY', 'PAYABLE NOW', 'WITH OVERDRAFT', 'PENDING', 'AFTER PENDING', 'ALERT BELOW', 'NOTE'],
    [
      ...r.gateways.map((g) => [
        g.pg,
        money(g.payable),
        money(g.payableWithOverdraft),
        `${money(g.pending)} (${g.pendingCount})`,
        money(g.afterPending),
        g.threshold === null ? '-' : money(g.threshold),
        [
          g.low ? 'LOW HEADROOM' : '',
          g.stale
            ? `${g.asOf ? `last good figure of ${ist(g.asOf)}` : 'no good figure yet'}; the gateway answered ${g.stale.message}`
            : '',
        ]
          .filter(Boolean)
          .join('; '),
      ]),
      [
        'TOTAL',
        money(r.total.payable),
        money(r.total.payableWithOverdraft),
        `${money(r.total.pending)} (${r.total.pendingCount})`,
        money(r.total.afterPending),
        '',
        r.unattributedPending ? `${money(r.unattributedPending)} pending from no known gateway` : '',
      ],
    ],
    ['left', 'right', 'right', 'right', 'right', 'right'],
  );
  const other = r.otherCurrencies.length ? [`Not summed (not INR): ${r.otherCurrencies.join(', ')}.`] : [];
  const unreported = r.unreported.length ? [`Not in the total (no figure yet): ${r.unreported.join(', ')}.`] : [];
  return [accounts, '', gateways, ...other, ...unreported].join('\n');
}

const headroom: Command = {
  words: ['accounts', 'headroom'],
  usage: 'accounts headroom [--offline]   (payable now per account, gateway and total; --json in paise)',
  options: { offline: { type: 'boolean' } },
  async run({ ctx, values, io }) {
    let refreshError: string | null = null;
    if (values.offline !== true) {
      try {
        await ctx.core.treasury.accounts.refresh(ctx.profile.id);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        refreshError = `the refresh failed (${e.userMessage})`;
      }
    }
    const report = ctx.core.treasury.accounts.headroom(ctx.profile.id);
    result(io, { ...report, refreshed: values.offline !== true && refreshError === null, refreshError }, () =>
      [dated(report, refreshError), '', human(report)].join('\n'),
    );
    if (refreshError !== null) throw new Error(`${dated(report, refreshError)} (printed above)`);
  },
};

const threshold: Command = {
  words: ['accounts', 'threshold'],
  usage: 'accounts threshold PG RUPEES | accounts threshold PG --clear   (low-headroom alert of a gateway)',
  options: { clear: { type: 'boolean' } },
  positionals: { min: 1, max: 2, names: 'PG and RUPEES (or --clear)' },
  async run({ ctx, values, positionals, io }) {
    const [pg, rupees] = positionals as [string, string | undefined];
    if ((rupees === undefined) === (values.clear !== true)) throw new UsageError('give RUPEES or --clear');
    let minor: number | null = null;
    if (rupees !== undefined) {
      try {
        minor = parseDecimalToMinor(rupees.replaceAll(',', ''));
      } catch (e) {
        throw new UsageError(`RUPEES: ${e instanceof MoneyError ? e.message : String(e)}`);
      }
      if (minor < 0) throw new UsageError('RUPEES cannot be negative');
    }
    const report = ctx.core.treasury.accounts.setHeadroomThreshold(ctx.profile.id, pg, minor);
    result(io, report, () =>
      minor === null ? `Cleared the alert of ${pg}.` : `Alert when ${pg}'s headroom is below ${formatMoney(minor)}.`,
    );
  },
};

const balance: Command = {
  words: ['accounts', 'balance'],
  usage: 'accounts balance [--pg CODE] [--account NUMBER]   (asks the balance operation now; recorded as snapshots)',
  options: { pg: { type: 'string' }, account: { type: 'string' } },
  async run({ ctx, values, io }) {
    const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
    const snapshots = await ctx.core.treasury.accounts.checkBalance(ctx.profile.id, {
      pg: text(values.pg),
      accountNumber: text(values.account),
    });
    const money = (v: number | null) => (v === null ? '-' : formatMoney(v));
    result(io, snapshots, () =>
      snapshots.length === 0
        ? 'The service answered with no account for that filter.'
        : table(
            ['GATEWAY', 'ACCOUNT', 'AVAILABLE', 'BALANCE', 'MINIMUM', 'HOLD', 'AS OF'],
            snapshots.map((b) => [
              b.pg,
              maskAccount(b.accountNumber),
              money(b.availableBalance),
              money(b.accountBalance),
              money(b.minimumBalance),
              money(b.holdFund),
              ist(b.takenAt),
            ]),
            ['left', 'left', 'right', 'right', 'right', 'right', 'left'],
          ),
    );
  },
};

export const accountCommands = [headroom, threshold, balance];
