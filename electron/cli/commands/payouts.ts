/**
 * `payouts get ID [--advance]`: the payout's status as the gateway reports it, in plain words; recorded in the cache.
 * `payouts check --file F | ID… [--advance]`: a list of payouts checked together (treasury/payout-checks.ts).
 * Advance checks that could not reach the service are queued in the cache; the app runs them when the service
 * answers again, and so does the CLI: every check that reached the service then waits for the queue to run before
 * it exits, and `payouts check --queued` runs only the queue.
 */
import { formatMoney } from '../../../shared/money';
import { parsePayoutIds, MAX_CHECK_IDS, type PayoutCheckItem } from '../../../shared/payout-checks';
import { formatAge, payoutAge, type PayoutAge } from '../../../shared/payout-ageing';
import { destinationText, missingUtrText, payoutDestination, type PayoutLookup } from '../../../shared/payouts';
import type { Command } from '../command';
import type { Context } from '../context';
import { InputError, istText, result, table, UsageError } from '../io';
import { readInputFile } from '../local-files';

/** A lookup's age on the CLI's clock and the profile's turnaround settings (as the Payouts screen shows it). */
function ageOf(ctx: Context, l: PayoutLookup): PayoutAge {
  return payoutAge(l, ctx.now(), ctx.core.cacheFor(ctx.profile.id).payoutSettings.get().turnaround);
}

function ageText(a: PayoutAge): string {
  if (a.firstSeenAt === null) return '-';
  return (
    `${istText(a.firstSeenAt)} (${formatAge(a.ageMs!)} ago)` +
    (a.expectedBy ? `; expected by ${istText(a.expectedBy)}` : '') +
    (a.overdue ? '; OVERDUE' : '')
  );
}

const get: Command = {
  words: ['payouts', 'get'],
  usage: 'payouts get ID [--advance]   (--advance asks the gateway directly: a hard pull)',
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
    const age = ageOf(ctx, lookup);
    result(io, { ...lookup, age }, () =>
      [
        `Payout ${p.transfer_id}: ${p.transfer_status.toUpperCase()}`,
        `  amount       ${formatMoney(p.amount)}`,
        `  UTR          ${p.ut_no ?? missingUtrText(p.transfer_status)}`,
        `  method       ${p.method ?? '-'} from ${p.fund_source ?? '-'}`,
        `  processed    ${p.processed_at ? `${p.processed_at} IST` : '-'}`,
        `  first seen   ${ageText(age)}`,
        `  beneficiary  ${[p.beneficiary?.name, destinationText(payoutDestination(p))].filter(Boolean).join(', ') || '-'}`,
        ...(gatewaySays.length ? [`  gateway says ${gatewaySays.join(': ')}`] : []),
      ].join('\n'),
    );
  },
};

/** An item as the command prints it: money in integer paise, the route as the export shows it, its age. */
function itemJson(i: PayoutCheckItem, age: (l: PayoutLookup) => PayoutAge) {
  const p = i.lookup?.payout ?? null;
  const a = i.lookup ? age(i.lookup) : null;
  return {
    payoutId: i.payoutId,
    outcome: i.outcome,
    status: i.lookup?.transferStatus ?? null,
    amount: i.lookup?.amount ?? null,
    utr: i.lookup?.utNo ?? null,
    method: p?.method ?? null,
    destination: p ? destinationText(payoutDestination(p)) : null,
    gatewayError: i.lookup?.gatewayErrorMessage ?? (p?.error || null),
    error: i.error,
    firstSeenAt: a?.firstSeenAt ?? null,
    expectedBy: a?.expectedBy ?? null,
    overdue: a?.overdue ?? false,
  };
}

const check: Command = {
  words: ['payouts', 'check'],
  usage:
    'payouts check --file F | ID… [--advance] [--send-questionable] | payouts check --queued   (ids separated by ' +
    'spaces, commas, semicolons, tabs or new lines; pieces that do not look like payout ids are left out unless ' +
    '--send-questionable; exit 1 when any was not found, not checked or queued, 2 when some ids were not ids; ' +
    '--queued runs only the advance checks queued while the service could not be reached)',
  options: {
    file: { type: 'string' },
    advance: { type: 'boolean' },
    queued: { type: 'boolean' },
    'send-questionable': { type: 'boolean' },
  },
  positionals: { min: 0, max: MAX_CHECK_IDS, names: 'ID…' },
  async run({ ctx, values, positionals, io }) {
    const file = values.file as string | undefined;
    if (values.queued === true && file === undefined && positionals.length === 0) {
      const queue = await runQueue(ctx);
      result(io, queue, () => queueText(queue));
      if (queue.stillQueued) throw new Error(`${queue.stillQueued} queued advance checks still wait for the service`);
      return;
    }
    let text = positionals.join('\n');
    if (file !== undefined) text += '\n' + readInputFile(file, 'The id file').toString('utf8');
    const read = parsePayoutIds(text);
    // A piece that does not look like a payout id is sent only when asked for: nothing goes out by accident.
    const sendQuestionable = values['send-questionable'] === true;
    const parsed = sendQuestionable
      ? { ...read, ids: [...read.ids, ...read.questionable.map((q) => q.text)], questionable: [] }
      : read;
    const notIds = [...parsed.invalid, ...parsed.questionable];
    if (parsed.ids.length === 0 && notIds.length === 0) throw new UsageError('give payout ids or --file F');
    const invalidLines = [
      ...parsed.invalid.map((x) => `not a payout id: ${JSON.stringify(x.text)} ${x.reason}`),
      ...parsed.questionable.map(
        (x) => `not a payout id: ${JSON.stringify(x.text)} ${x.reason} (--send-questionable sends it anyway)`,
      ),
    ];
    if (parsed.ids.length === 0) throw new InputError(invalidLines.join('; '));
    if (parsed.ids.length > MAX_CHECK_IDS) {
      throw new InputError(`${parsed.ids.length} payout ids: at most ${MAX_CHECK_IDS} in one check`);
    }
    const run = await ctx.core.treasury.payoutChecks.check(ctx.profile.id, {
      ids: parsed.ids,
      mode: values.advance ? 'advance' : 'normal',
    });
    const items = run.items.map((i) => itemJson(i, (l) => ageOf(ctx, l)));
    // Reached: the checks queued by earlier runs (here or in the app) run now, before the process exits.
    const queue =
      ctx.core.connectivity.of(ctx.profile.id).state === 'online' ? await runQueue(ctx) : { ran: 0, stillQueued: null };
    result(
      io,
      {
        runId: run.id,
        mode: run.mode,
        counts: run.counts,
        items,
        invalid: parsed.invalid,
        questionable: parsed.questionable,
        duplicates: parsed.duplicates,
        queue,
      },
      () =>
        [
          table(
            ['Payout id', 'Outcome', 'Status', 'Amount', 'UTR', 'Method', 'To', 'Expected by', 'Reason'],
            items.map((i) => [
              i.payoutId,
              i.outcome,
              (i.status ?? '-') + (i.overdue ? ' OVERDUE' : ''),
              i.amount === null ? '-' : formatMoney(i.amount),
              i.utr ?? '-',
              i.method ?? '-',
              i.destination ?? '-',
              i.expectedBy ? istText(i.expectedBy) : '-',
              i.error ?? i.gatewayError ?? '',
            ]),
            ['left', 'left', 'left', 'right'],
          ),
          `${run.counts.checked} checked, ${run.counts.refused} refused, ${run.counts.failed} not checked, ` +
            `${run.counts.queued} queued for when the service is back` +
            (parsed.duplicates.length ? `; ${parsed.duplicates.length} duplicate ids checked once` : ''),
          ...(queue.ran ? [queueText(queue)] : []),
          ...invalidLines,
        ].join('\n'),
    );
    if (notIds.length) throw new InputError(`${notIds.length} of the ids given were not payout ids`);
    const unsettled = run.counts.refused + run.counts.failed + run.counts.queued;
    if (unsettled) throw new Error(`${unsettled} of ${run.items.length} payouts were not found or not checked`);
  },
};

/** Runs the profile's queued advance checks; `stillQueued` is what still waits (the service stopped answering). */
async function runQueue(ctx: Context): Promise<{ ran: number; stillQueued: number | null }> {
  const ran = await ctx.core.treasury.payoutChecks.runQueued(ctx.profile.id);
  return { ran, stillQueued: ctx.core.cacheFor(ctx.profile.id).payoutChecks.queued().length };
}

function queueText(q: { ran: number; stillQueued: number | null }): string {
  return (
    `${q.ran} advance checks queued while the service could not be reached ran now` +
    (q.stillQueued ? `; ${q.stillQueued} still wait for it` : '')
  );
}

export const payoutCommands = [get, check];
