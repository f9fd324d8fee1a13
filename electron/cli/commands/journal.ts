/**
 * `journal list|verify|verify-file|export|check-status` and `close`, `close status|diff|acknowledge|reopen`: the
 * profile's audit journal and its closed settlement periods, from the cache (offline, except a status check).
 * Verification that fails, and a file no export wrote as it is now, exit 1 after printing what was found.
 */
import { describeIssues } from '../../../shared/api/operations';
import { JOURNAL_KINDS, JOURNAL_OUTCOMES, closeRange, journalFilter, type ClosedPeriod } from '../../../shared/journal';
import { formatMoney } from '../../../shared/money';
import { describeDeskChain } from './desk';
import { verifyFile } from '../../journal/exports';
import type { Command, Values } from '../command';
import type { Context } from '../context';
import { OutcomeUnknownError, UsageError, result, table } from '../io';
import { exportTo, outFile } from './export';

const journalOf = (ctx: Context) => ctx.core.journals.for(ctx.profile.id);
const text = (values: Values, k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${name} must be a whole number, got "${value}"`);
  return Number(value);
}

const list: Command = {
  words: ['journal', 'list'],
  usage: `journal list [--kind ${JOURNAL_KINDS.join('|')}] [--outcome O] [--from YYYY-MM-DD --to YYYY-MM-DD] [--text T] [--limit N]`,
  options: {
    kind: { type: 'string' },
    outcome: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    text: { type: 'string' },
    limit: { type: 'string' },
  },
  async run({ ctx, values, io }) {
    const filter = journalFilter.safeParse({
      kind: text(values, 'kind'),
      outcome: text(values, 'outcome'),
      from: text(values, 'from'),
      to: text(values, 'to'),
      text: text(values, 'text'),
      limit: wholeNumber('--limit', text(values, 'limit')),
    });
    if (!filter.success) {
      throw new UsageError(
        `${describeIssues(filter.error)} (kinds: ${JOURNAL_KINDS.join(', ')}; outcomes: ${JOURNAL_OUTCOMES.join(', ')})`,
      );
    }
    const entries = journalOf(ctx).journal.list(filter.data);
    result(io, entries, () =>
      table(
        ['SEQ', 'TIME (IST)', 'KIND', 'EVENT', 'OUTCOME', 'SUMMARY'],
        entries.map((e) => [String(e.seq), e.atIst, e.kind, e.event, e.outcome, e.summary]),
        ['right'],
      ),
    );
  },
};

const verify: Command = {
  words: ['journal', 'verify'],
  usage:
    "journal verify   (recomputes the hash chain, and the desk journal's on a desk; exit 1 names what does not hold)",
  async run({ ctx, io }) {
    const r = await journalOf(ctx).journal.verify();
    const desk = await ctx.core.desks.verify(ctx.profile.id);
    result(io, desk ? { ...r, desk } : r, () =>
      [
        r.ok
          ? `The journal holds: ${r.entries.toLocaleString('en-IN')} entries, head ${r.headHash}.`
          : `The journal does not hold at entry ${r.problem!.seq} (${r.problem!.kind}): ${r.problem!.message}`,
        desk ? describeDeskChain(desk) : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
    if (!r.ok) throw new Error(`journal verification failed at entry ${r.problem!.seq}`);
    if (desk && !desk.ok) throw new Error('the desk journal is not whole');
  },
};

const verifyFileCommand: Command = {
  words: ['journal', 'verify-file'],
  usage: 'journal verify-file FILE   (which export wrote it, and whether it changed since; exit 1 if not as written)',
  positionals: { min: 1, max: 1, names: 'FILE' },
  async run({ ctx, positionals, io }) {
    const v = await verifyFile(journalOf(ctx).journal, positionals[0]!);
    result(io, v, () => {
      const e = v.export;
      if (v.verdict === 'unknown') return `No export of this profile wrote ${v.file} (SHA-256 ${v.sha256}).`;
      const made = `entry ${e!.seq}, ${e!.atIst} IST: ${e!.summary}`;
      return v.verdict === 'unchanged'
        ? `Unchanged since it was written by export ${made}`
        : `CHANGED since it was written by export ${made} (written ${String(e!.data['sha256'])}, now ${v.sha256})`;
    });
    if (v.verdict !== 'unchanged') throw new Error(`${v.file} is not as an export of this profile wrote it`);
  },
};

const exportJournal: Command = {
  words: ['journal', 'export'],
  usage: 'journal export --out FILE.xlsx|FILE.csv   (every entry with its hashes)',
  options: { out: { type: 'string' } },
  async run({ ctx, values, io }) {
    const { file, format } = outFile(values);
    await exportTo(ctx, io, { kind: 'journal', format }, file);
  },
};

const checkStatus: Command = {
  words: ['journal', 'check-status'],
  usage: 'journal check-status SEQ --beneficiary-id ID   (settles an unknown beneficiary create by looking it up)',
  positionals: { min: 1, max: 1, names: 'SEQ (the attempt entry)' },
  options: { 'beneficiary-id': { type: 'string' } },
  async run({ ctx, values, positionals, io }) {
    const seq = wholeNumber('SEQ', positionals[0])!;
    const id = text(values, 'beneficiary-id');
    if (!id) throw new UsageError('--beneficiary-id ID is required: the id the service shows for it');
    const r = await ctx.core.treasury.beneficiaries.checkStatus(ctx.profile.id, seq, id);
    result(io, r, () => r.check.summary);
    if (r.check.outcome !== 'succeeded') throw new OutcomeUnknownError('the outcome is still unknown');
  },
};

function parseClose(values: Values): { from: string; to: string } {
  const parsed = closeRange.safeParse({ from: values.from, to: values.to });
  if (!parsed.success) throw new UsageError(`--from and --to: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

const describePeriod = (p: ClosedPeriod) => [
  String(p.id),
  p.from,
  p.to,
  `${p.closedAtIst} IST`,
  p.records.toLocaleString('en-IN'),
  p.state === 'changed' ? 'CHANGED AFTER CLOSE' : 'closed',
  p.changedAt ? `${p.added} added, ${p.vanished} vanished, ${p.modified} changed` : '',
];
const PERIOD_HEADERS = ['ID', 'FROM', 'TO', 'CLOSED AT', 'RECORDS', 'STATE', 'DIFFERENCE'];

const close: Command = {
  words: ['close'],
  usage: 'close --from YYYY-MM-DD --to YYYY-MM-DD   (close settlement dates; the same range again closes it anew)',
  options: { from: { type: 'string' }, to: { type: 'string' } },
  async run({ ctx, values, io }) {
    const p = await ctx.core.periods.close(ctx.profile.id, parseClose(values));
    result(io, p, () => table(PERIOD_HEADERS, [describePeriod(p)], ['right']));
  },
};

const status: Command = {
  words: ['close', 'status'],
  usage: 'close status [--from YYYY-MM-DD --to YYYY-MM-DD]   (each closed range: closed at, changed since, counts)',
  options: { from: { type: 'string' }, to: { type: 'string' } },
  async run({ ctx, values, io }) {
    const range = values.from === undefined && values.to === undefined ? undefined : parseClose(values);
    const periods = journalOf(ctx).periods.list(range);
    result(io, periods, () =>
      periods.length ? table(PERIOD_HEADERS, periods.map(describePeriod), ['right']) : 'No closed periods.',
    );
  },
};

const periodCommand = (
  word: 'diff' | 'acknowledge',
  usage: string,
  run: (ctx: Context, id: number, io: Parameters<Command['run']>[0]['io']) => void,
): Command => ({
  words: ['close', word],
  usage: `close ${word} ID   (${usage})`,
  positionals: { min: 1, max: 1, names: 'ID (from close status)' },
  async run({ ctx, positionals, io }) {
    run(ctx, wholeNumber('ID', positionals[0])!, io);
  },
});

const diff = periodCommand('diff', 'what changed since the close', (ctx, id, io) => {
  const d = journalOf(ctx).periods.diff(id);
  result(io, d, () => {
    const refs = (label: string, list: typeof d.added) =>
      list.map((r) => `${label}  ${r.date}  ${r.pg}  ${r.pgTransactionId}  ${r.settlementDate}`);
    return [
      ...refs('added   ', d.added),
      ...refs('vanished', d.vanished),
      ...refs('changed ', d.modified),
      '',
      table(
        ['DATE', 'GATEWAY', 'COUNT BEFORE', 'COUNT NOW', 'SETTLED BEFORE', 'SETTLED NOW'],
        d.totals.map((t) => [
          t.date,
          t.pg,
          String(t.before.count),
          String(t.after.count),
          formatMoney(t.before.settled),
          formatMoney(t.after.settled),
        ]),
        ['left', 'left', 'right', 'right', 'right', 'right'],
      ),
    ].join('\n');
  });
});

const acknowledge = periodCommand('acknowledge', 'accept the changes since the close', (ctx, id, io) => {
  const p = journalOf(ctx).periods.acknowledge(id);
  result(io, p, () => table(PERIOD_HEADERS, [describePeriod(p)], ['right']));
});

const reopen: Command = {
  words: ['close', 'reopen'],
  usage:
    'close reopen ID [--reason TEXT]   (remove the close; it stays in the journal; on a desk an approver, with a reason)',
  options: { reason: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'ID (from close status)' },
  async run({ ctx, values, positionals, io }) {
    const id = wholeNumber('ID', positionals[0])!;
    await ctx.core.periods.reopen(ctx.profile.id, id, values.reason as string | undefined);
    result(io, { reopened: true, id }, () => `Reopened closed period ${id}.`);
  },
};

export const journalCommands = [list, verify, verifyFileCommand, exportJournal, checkStatus];
export const closeCommands = [close, status, diff, acknowledge, reopen];
