/**
 * `today [--refresh] [--fail-on overdue,differs,approvals]`: the Today screen's panels, from the cache (and the desk),
 * each dated by its source; `--json` gives the same summary as the screen, in integer paise. `--refresh` first runs
 * the screen's "Refresh all" (balances, a sync of the last N days, a watch round) and waits for it, each part's
 * outcome in the summary's `refresh`; it exits 1 when a part did not succeed. Nothing it runs moves money, so no
 * outcome is unknown (never exit 3). With `--fail-on`, a scheduled job exits 1 when any named figure is not zero (what
 * each counts: `failOnCounts` in shared/today.ts).
 */
import { formatMoney } from '../../../shared/money';
import { RULES, type RuleId } from '../../../shared/reconciliation';
import { FAIL_ON, failOnCounts, type FailOn, type RefreshState, type TodaySummary } from '../../../shared/today';
import type { Command } from '../command';
import type { Context } from '../context';
import { EXIT, UsageError, istText, result, table, type Io } from '../io';
import { cancelOnInterrupt } from './settlements';

const money = (v: number | null) => (v === null ? '-' : formatMoney(v));
const dated = (asOf: string | null) => (asOf === null ? '' : ` (as of ${istText(asOf)})`);

/** A panel's heading with its age, or the sentence why it could not be read. */
function heading(title: string, p: { asOf: string | null; error: string | null; data: unknown }): string {
  if (p.error !== null) return `${title}: not read (${p.error})`;
  return p.data === null ? `${title}: nothing yet` : `${title}${dated(p.asOf)}`;
}

function payableText(s: TodaySummary): string[] {
  const d = s.payable.data;
  if (!d) return [heading('Payable now', s.payable)];
  return [
    heading('Payable now', s.payable),
    table(
      ['GATEWAY', 'PAYABLE NOW', 'PENDING', 'AFTER PENDING', 'NOTE'],
      [
        ...d.gateways.map((g) => [
          g.pg,
          money(g.payable),
          `${money(g.pending)} (${g.pendingCount})`,
          money(g.afterPending),
          g.low ? 'LOW HEADROOM' : g.stale ? `last answer: ${g.stale.message}` : '',
        ]),
        [
          'TOTAL',
          money(d.total.payable),
          `${money(d.total.pending)} (${d.total.pendingCount})`,
          money(d.total.afterPending),
          '',
        ],
      ],
      ['left', 'right', 'right', 'right'],
    ),
  ];
}

function notArrivedText(s: TodaySummary): string[] {
  const d = s.notArrived.data;
  if (!d) return [heading('Money not arrived', s.notArrived)];
  if (d.accounts.length === 0) return [`${heading('Money not arrived', s.notArrived)}: no bank statement imported yet`];
  return [
    `${heading('Money not arrived', s.notArrived)}, ${d.from} to ${d.to}`,
    table(
      ['ACCOUNT', 'OVERDUE BATCHES', 'AMOUNT DIFFERS', 'CREDITS WITHOUT A BATCH', 'STATEMENT'],
      d.accounts.map((a) => [
        a.account,
        `${a.overdue.count} ${money(a.overdue.amount)}`,
        `${a.differs.count} ${money(a.differs.amount)}`,
        `${a.unmatched.count} ${money(a.unmatched.amount)}`,
        a.noStatementDays === null ? `to ${a.lastStatementDate}` : `no statement for ${a.noStatementDays} days`,
      ]),
    ),
  ];
}

function otherText(s: TodaySummary): string[] {
  const lines: string[] = [];
  const e = s.exceptions.data;
  lines.push(heading('Exceptions', s.exceptions));
  if (e) {
    lines.push(
      `  ${e.open.count} open, ${money(e.open.amount)} at risk; ${e.assignedToMe.count} assigned to me` +
        (e.oldestDate ? `; oldest ${e.oldestDate} (${e.oldestDays} days)` : ''),
      ...e.byRule.map((r) => `  ${RULES[r.rule as RuleId] ?? r.rule}: ${r.count}, ${money(r.amount)}`),
    );
  }
  const a = s.approvals.data;
  if (s.mode === 'desk') {
    lines.push(heading('Approvals', s.approvals));
    if (a)
      lines.push(
        `  ${a.waiting} waiting for me, ${a.mine} of mine waiting, ${a.expiringToday} expiring within 24 hours`,
      );
  }
  const w = s.watch.data;
  lines.push(heading('Payouts to watch', s.watch));
  if (w) lines.push(`  ${w.overdue} pending past their expected time, of ${w.watching} pending`);
  const f = s.freshness.data;
  lines.push(heading('Freshness', s.freshness));
  if (f) {
    const at = (iso: string | null) => (iso === null ? 'never' : istText(iso));
    lines.push(
      `  Settlements of ${f.from} to ${f.to} synced: ${at(f.settlementsSyncedAt)}` +
        (f.incomplete.length ? `; not complete: ${f.incomplete.map((d) => d.date).join(', ')}` : ''),
      `  Changed since first synced: ${f.changes.new} new, ${f.changes.changed} changed, ${f.changes.vanished} gone, ${f.changes.returned} back`,
      `  Balances refreshed: ${at(f.balancesAt)}`,
      `  Journal verified: ${f.journalVerify ? `${at(f.journalVerify.at)}, ${f.journalVerify.ok ? 'holds' : `does not hold (${f.journalVerify.problem})`}` : 'never'}`,
      `  Periods closed: ${f.periods.closed}; changed after close: ${f.periods.changed.length}`,
    );
  }
  return lines;
}

const PART_TEXT: Record<RefreshState['parts'][number]['part'], (r: RefreshState) => string> = {
  balances: () => 'Balances',
  sync: (r) => `Settlement sync, ${r.from} to ${r.to}`,
  watch: () => 'Watch list',
};

/** "Refresh all"'s outcome, a line a part: done, or why not. */
function refreshText(r: RefreshState): string[] {
  return [
    'Refresh all',
    ...r.parts.map((p) => `  ${PART_TEXT[p.part](r)}: ${p.state}${p.error === null ? '' : ` (${p.error})`}`),
    '',
  ];
}

function human(s: TodaySummary, refreshed: RefreshState | null): string {
  const first = s.firstRun
    ? ['Never synced: sync settlements first (sync settlements --from DATE --to DATE).', '']
    : [];
  return [
    ...(refreshed ? refreshText(refreshed) : []),
    ...first,
    ...payableText(s),
    '',
    ...notArrivedText(s),
    '',
    ...otherText(s),
  ].join('\n');
}

function failOnOf(text: unknown): FailOn[] {
  if (text === undefined) return [];
  const names = String(text)
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(FAIL_ON as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--fail-on takes ${FAIL_ON.join(', ')} (comma-separated); not ${unknown.join(', ') || 'empty'}`,
    );
  }
  return names as FailOn[];
}

/** Ctrl-C cancels "Refresh all" as the screen's Cancel does: the part running stops, what already refreshed stays. */
async function refreshAll(ctx: Context, io: Io): Promise<RefreshState> {
  const interrupt = cancelOnInterrupt(io, 'what already refreshed is kept; run it again for the rest');
  try {
    return await ctx.core.today.refreshAndWait(ctx.profile.id, interrupt.signal);
  } finally {
    interrupt.dispose();
  }
}

const today: Command = {
  words: ['today'],
  usage:
    'today [--refresh] [--fail-on overdue,differs,approvals]   (the Today panels from the cache; --refresh runs "Refresh all" first; exit 1 when a part failed or a named figure is not 0)',
  options: { refresh: { type: 'boolean' }, 'fail-on': { type: 'string' } },
  async run({ ctx, values, io }) {
    const failOn = failOnOf(values['fail-on']);
    const refreshed = values.refresh === true ? await refreshAll(ctx, io) : null;
    const summary = await ctx.core.today.summary(ctx.profile.id);
    const counts = failOnCounts(summary);
    const failing = failOn.filter((n) => counts[n] > 0);
    result(io, { ...summary, failOn: { named: failOn, counts, failing } }, () => human(summary, refreshed));
    const notDone = refreshed?.parts.filter((p) => p.state !== 'done') ?? [];
    if (notDone.length > 0) {
      io.err(`Refresh all: ${notDone.map((p) => `${p.part} ${p.state}`).join(', ')}.`);
    }
    if (failing.length > 0) io.err(`Not zero: ${failing.map((n) => `${n} ${counts[n]}`).join(', ')}.`);
    return notDone.length === 0 && failing.length === 0 ? EXIT.done : EXIT.refused;
  },
};

export const todayCommands = [today];
