/**
 * Bank reconciliation on the command line: `recon statement import`, `recon match`, `recon report`,
 * `recon settings`, `settlements batches`, and `export tally` (the credits as Tally import XML). Batches are the local cache's (offline); accounts, statements,
 * matches by hand and settings are the cache's, or the desk's on a profile joined to one. Money in --json is
 * integer paise.
 */
import { basename, resolve } from 'node:path';
import { BATCH_STATE_LABELS, reconSettings, stateLabel, type ReconReport } from '../../../shared/bank-matching';
import { STATEMENT_ROLES, columnMapping, type ColumnMapping } from '../../../shared/bank-statement';
import { describeIssues } from '../../../shared/api/operations';
import { formatMoney, sumMinor } from '../../../shared/money';
import { TALLY_LEDGER_ROLES, tallyLedgers, type TallyLedgerRole } from '../../../shared/tally';
import { TallyLedgerError, writeTally } from '../../export/tally';
import { SheetReadError, StatementPasswordError } from '../../import/sheet-reader';
import { journalTallyExport } from '../../journal/exports';
import { ReconInputError } from '../../reconciliation/reconcile';
import type { Command, Values } from '../command';
import type { Context } from '../context';
import { InputError, UsageError, result, table, type Io } from '../io';
import { readInputFile } from '../local-files';
import { readSecret } from '../read-secret';
import { openProfileCache, parseRange, range } from './settlements';

const money = (v: number) => formatMoney(v);

/** The core's refusal of the desk's input is bad input (exit 2), said as the core said it. */
export async function asInput<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ReconInputError || e instanceof SheetReadError) throw new InputError(e.message);
    throw e;
  }
}

/** `--map "role=Header"`, repeated: a column mapping for a layout the console does not know. */
function parseMapping(values: Values): ColumnMapping | undefined {
  const given = values.map;
  if (given === undefined) return undefined;
  const pairs = (Array.isArray(given) ? given : [given]).map(String);
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    const role = at < 0 ? '' : p.slice(0, at).trim();
    if (!(STATEMENT_ROLES as readonly string[]).includes(role)) {
      throw new UsageError(`--map "${p}": write role=Header with a role among ${STATEMENT_ROLES.join(', ')}`);
    }
    out[role] = p.slice(at + 1).trim();
  }
  const parsed = columnMapping.safeParse(out);
  if (!parsed.success) throw new UsageError(`--map: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

const importCommand: Command = {
  words: ['recon', 'statement', 'import'],
  usage:
    'recon statement import FILE.xlsx|.xls|.csv|.txt|.sta|.pdf [--account NAME] [--map role=Header]... [--password-stdin]   (importing again adds nothing; a PDF password is asked for, or read from stdin)',
  options: {
    account: { type: 'string' },
    map: { type: 'string', multiple: true },
    'password-stdin': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: 'FILE' },
  async run({ ctx, values, positionals, io }) {
    const path = positionals[0]!;
    const mapping = parseMapping(values);
    const bytes = readInputFile(path, 'The statement');
    openProfileCache(ctx, io);
    const recon = ctx.core.reconciliation;
    const { accounts } = await recon.accounts(ctx.profile.id);
    const accountName =
      typeof values.account === 'string' ? values.account : accounts.length === 1 ? accounts[0]!.name : 'Bank account';
    const fileName = basename(path);
    const stdin = io.stdin ?? process.stdin;
    const run = (password: string | undefined) =>
      recon.importStatement(ctx.profile.id, {
        fileName,
        bytes,
        accountName,
        ...(mapping ? { mapping } : {}),
        ...(password === undefined ? {} : { password }),
      });
    // The password is held for this read only: never an argument (it would be in the shell's history), never stored.
    const given = values['password-stdin'] === true ? await readSecret('', stdin) : undefined;
    const r = await asInput(async () => {
      try {
        return await run(given);
      } catch (e) {
        if (!(e instanceof StatementPasswordError) || e.reason !== 'needed' || given !== undefined || !stdin.isTTY) {
          throw e;
        }
        return run(await readSecret(`Password of ${fileName}: `, stdin));
      }
    });
    result(io, r, () =>
      [
        `${r.fileName} into "${r.account.name}" (${r.layout} layout): ${r.lines} lines read (${r.credits} credits, ${r.debits} debits)` +
          `${r.from ? `, ${r.from} to ${r.to}` : ''}; ${r.added} added, ${r.duplicates} already imported.`,
        ...(r.bad.length > 0
          ? [
              `${r.bad.length} rows could not be read and were left out:`,
              ...r.bad.map((b) => `  row ${b.rowNumber}: ${b.reason}`),
            ]
          : []),
        ...(r.summaryRows.length > 0 ? [`${r.summaryRows.length} rows are the statement's summary or footer.`] : []),
        r.proof.sentence,
      ].join('\n'),
    );
  },
};

const accountOption = { ...range, account: { type: 'string' } } as const;

/** The named account (or the only one) and the period, to `run`. */
async function accountPeriod(
  ctx: Context,
  io: Io,
  values: Values,
  run: (profileId: string, q: { account: string; from: string; to: string }) => Promise<ReconReport>,
): Promise<ReconReport> {
  const { from, to } = parseRange(values);
  openProfileCache(ctx, io);
  const account = await ctx.core.reconciliation.defaultAccount(ctx.profile.id, values.account as string | undefined);
  return run(ctx.profile.id, { account, from, to });
}

function describeReport(r: ReconReport): string {
  const totals = (rows: ReconReport['batchTotals']) =>
    rows.map((t) => [t.label, String(t.count), money(t.amount), t.difference === 0 ? '' : money(t.difference)]);
  const open = r.batches.filter((b) => b.state !== 'matched' || b.lateDays !== null);
  const loose = r.credits.filter((c) => c.state === 'unmatched');
  return [
    `Reconciliation of "${r.account.name}", ${r.from} to ${r.to} (credits up to ${r.settings.windowDays} days after a batch; overdue after T+${r.settings.overdueDays}):`,
    '',
    'BATCHES',
    table(['STATE', 'COUNT', 'NET SETTLED', 'DIFFERENCE'], totals(r.batchTotals), ['left', 'right', 'right', 'right']),
    `Of those matched, ${r.late.count} credited after T+${r.settings.overdueDays} (${money(r.late.amount)}).`,
    '',
    ...(r.statements.length > 0
      ? ['STATEMENTS', ...r.statements.map((s) => `${s.fileName} (${s.from} to ${s.to}): ${s.sentence}`), '']
      : []),
    'CREDITS',
    table(['STATE', 'COUNT', 'AMOUNT', ''], totals(r.creditTotals), ['left', 'right', 'right', 'right']),
    ...(open.length > 0
      ? [
          '',
          'Batches not simply matched (or matched late):',
          table(
            ['DATE', 'GATEWAY', 'UTR', 'SETTLED AT', 'NET', 'STATE', 'DIFFERENCE', 'NOTE'],
            open.map((b) => [
              b.date,
              b.pg,
              b.utr || '(pending)',
              b.settlementDate,
              money(b.settled),
              stateLabel(BATCH_STATE_LABELS[b.state], b.lateDays),
              b.difference === null ? '' : money(b.difference),
              b.note ?? '',
            ]),
            ['left', 'left', 'left', 'left', 'right', 'left', 'right', 'left'],
          ),
        ]
      : []),
    ...(loose.length > 0
      ? [
          '',
          'Credits without a batch:',
          table(
            ['DATE', 'AMOUNT', 'UTR', 'NARRATION'],
            loose.map((c) => [c.date, money(c.amount), c.utr ?? '', c.narration]),
            ['left', 'right', 'left', 'left'],
          ),
        ]
      : []),
  ].join('\n');
}

const matchCommand: Command = {
  words: ['recon', 'match'],
  usage:
    'recon match --from YYYY-MM-DD --to YYYY-MM-DD [--account NAME]   (automatic matches made again; manual ones kept)',
  options: accountOption,
  async run({ ctx, values, io }) {
    const r = await asInput(() => accountPeriod(ctx, io, values, (id, q) => ctx.core.reconciliation.match(id, q)));
    result(io, r, () => describeReport(r));
  },
};

const reportCommand: Command = {
  words: ['recon', 'report'],
  usage: 'recon report --from YYYY-MM-DD --to YYYY-MM-DD [--account NAME]   (batches and credits by state)',
  options: accountOption,
  async run({ ctx, values, io }) {
    const r = await asInput(() => accountPeriod(ctx, io, values, (id, q) => ctx.core.reconciliation.report(id, q)));
    result(io, r, () => describeReport(r));
  },
};

/** `--lines 12,13`: statement line ids. */
function lineIds(values: Values): number[] {
  const given = values.lines;
  const ids = typeof given === 'string' ? given.split(',').map((t) => t.trim()) : [];
  if (ids.length === 0 || ids.some((t) => !/^[1-9]\d{0,14}$/.test(t))) {
    throw new UsageError(
      '--lines must be the statement line numbers of the credits, separated by commas, such as 12,13',
    );
  }
  return ids.map(Number);
}

const matchByHandCommand: Command = {
  words: ['recon', 'match-by-hand'],
  usage:
    'recon match-by-hand --from YYYY-MM-DD --to YYYY-MM-DD [--account NAME] --utr UTR [--pg CODE] --lines N,N --note TEXT [--reason TEXT]   (a batch to credits of the period; --reason is needed when they differ)',
  options: {
    ...accountOption,
    utr: { type: 'string' },
    lines: { type: 'string' },
    note: { type: 'string' },
    reason: { type: 'string' },
  },
  async run({ ctx, values, io }) {
    const ids = lineIds(values);
    const note = typeof values.note === 'string' ? values.note.trim() : '';
    if (note === '') throw new UsageError('--note is required: say why this batch is matched by hand');
    const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
    const r = await asInput(() => accountPeriod(ctx, io, values, (id, q) => ctx.core.reconciliation.report(id, q)));
    const utr = typeof values.utr === 'string' ? values.utr : '';
    const batches = r.batches.filter((b) => b.utr === utr && (values.pg === undefined || b.pg === values.pg));
    if (batches.length !== 1) {
      throw new InputError(
        batches.length === 0
          ? `No batch with UTR "${utr}" in ${r.from} to ${r.to}: see recon report.`
          : `${batches.length} batches have UTR "${utr}" in ${r.from} to ${r.to}: name the gateway with --pg.`,
      );
    }
    const batch = batches[0]!;
    const credits = new Map(r.credits.map((c) => [c.id, c.amount]));
    const missing = ids.filter((id) => !credits.has(id));
    if (missing.length > 0) {
      throw new InputError(
        `Statement line ${missing.join(', ')} is not a credit of "${r.account.name}" in ${r.from} to ${r.to}.`,
      );
    }
    // A difference without --reason is the core's to refuse (reasonForDifference): bad input, exit 2.
    const difference = sumMinor(ids.map((id) => credits.get(id)!)) - batch.settled;
    const key = { date: batch.date, pg: batch.pg, utr: batch.utr, settlementDate: batch.settlementDate };
    const matchId = await asInput(() =>
      ctx.core.reconciliation.matchByHand(ctx.profile.id, {
        account: r.account.name,
        batch: key,
        lineIds: ids,
        note,
        ...(reason ? { reason } : {}),
      }),
    );
    result(
      io,
      { matchId, batch: key, lineIds: ids, difference },
      () =>
        `Matched batch ${batch.pg} ${batch.utr} by hand to line ${ids.join(', ')} (difference ${money(difference)}).`,
    );
  },
};

const settingsCommand: Command = {
  words: ['recon', 'settings'],
  usage:
    'recon settings [--window-days N] [--overdue-days N] [--triage-threshold P]   (shows them; with a flag, changes them)',
  options: {
    'window-days': { type: 'string' },
    'overdue-days': { type: 'string' },
    'triage-threshold': { type: 'string' },
  },
  async run({ ctx, values, io }) {
    openProfileCache(ctx, io);
    const current = await ctx.core.reconciliation.settings(ctx.profile.id);
    const whole = (flag: string) => {
      const v = values[flag];
      if (v === undefined) return undefined;
      if (typeof v !== 'string' || !/^\d+$/.test(v)) throw new UsageError(`--${flag} must be a whole number of days`);
      return Number(v);
    };
    const probability = (flag: string) => {
      const v = values[flag];
      if (v === undefined) return undefined;
      if (typeof v !== 'string' || !/^(0(\.\d+)?|1(\.0+)?)$/.test(v)) {
        throw new UsageError(`--${flag} must be a probability from 0 to 1, such as 0.6`);
      }
      return Number(v);
    };
    const next = {
      windowDays: whole('window-days') ?? current.windowDays,
      overdueDays: whole('overdue-days') ?? current.overdueDays,
      triageThreshold: probability('triage-threshold') ?? current.triageThreshold,
    };
    const parsed = reconSettings.safeParse(next);
    if (!parsed.success) throw new InputError(describeIssues(parsed.error));
    const saved = await ctx.core.reconciliation.saveSettings(ctx.profile.id, parsed.data);
    result(
      io,
      saved,
      () =>
        `Credits match up to ${saved.windowDays} days after a batch; a batch without one is overdue after T+${saved.overdueDays}. ` +
        `Triage tags an exception when its likely cause reaches ${Math.round(saved.triageThreshold * 100)}%.`,
    );
  },
};

const batchesCommand: Command = {
  words: ['settlements', 'batches'],
  usage: 'settlements batches --from YYYY-MM-DD --to YYYY-MM-DD [--pg CODE]   (records rolled up to bank credits)',
  options: range,
  async run({ ctx, values, io }) {
    const { from, to, pg } = parseRange(values);
    openProfileCache(ctx, io);
    // The cache's batches, or the desk's published copy on a console whose profile holds no API secret.
    const batches = await ctx.core.reconciliation.batches(ctx.profile.id, from, to, pg ?? null);
    const total = (k: 'records' | 'amount' | 'fees' | 'taxes' | 'subvention' | 'settled' | 'exceptions') =>
      sumMinor(batches.map((b) => b[k]));
    result(io, { from, to, pg: pg ?? null, batches }, () =>
      table(
        [
          'DATE',
          'GATEWAY',
          'UTR',
          'SETTLED AT',
          'RECORDS',
          'GROSS',
          'FEES',
          'TAXES',
          'SUBVENTION',
          'NET',
          'EXCEPTIONS',
        ],
        [
          ...batches.map((b) => [
            b.date,
            b.pg,
            b.utr || 'UTR pending',
            b.settlementDate,
            String(b.records),
            money(b.amount),
            money(b.fees),
            money(b.taxes),
            money(b.subvention),
            money(b.settled),
            String(b.exceptions),
          ]),
          [
            'TOTAL',
            '',
            '',
            '',
            String(total('records')),
            money(total('amount')),
            money(total('fees')),
            money(total('taxes')),
            money(total('subvention')),
            money(total('settled')),
            String(total('exceptions')),
          ],
        ],
        ['left', 'left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    );
  },
};

const LEDGER_FLAGS = Object.fromEntries(
  TALLY_LEDGER_ROLES.map((r) => [`ledger-${r}`, { type: 'string' as const }]),
) as Record<`ledger-${TallyLedgerRole}`, { type: 'string' }>;

const tallyCommand: Command = {
  words: ['export', 'tally'],
  usage:
    'export tally --from YYYY-MM-DD --to YYYY-MM-DD --out FILE.xml [--account NAME] [--ledger-bank NAME] [--ledger-receivable NAME] [--ledger-fees NAME] [--ledger-cgst NAME] [--ledger-sgst NAME] [--ledger-igst NAME] [--ledger-subvention NAME] [--ledger-rounding NAME] [--save-ledgers]   (Tally Prime import XML; a flag names a ledger for this export, --save-ledgers keeps them as Settings does)',
  options: { ...accountOption, out: { type: 'string' }, ...LEDGER_FLAGS, 'save-ledgers': { type: 'boolean' } },
  async run({ ctx, values, io }) {
    if (typeof values.out !== 'string' || !/\.xml$/i.test(values.out)) {
      throw new UsageError('--out FILE.xml is required: Tally imports XML');
    }
    const file = resolve(values.out);
    const cache = openProfileCache(ctx, io);
    const given = Object.fromEntries(
      TALLY_LEDGER_ROLES.flatMap((r) =>
        typeof values[`ledger-${r}`] === 'string' ? [[r, values[`ledger-${r}`]]] : [],
      ),
    );
    const parsed = tallyLedgers.safeParse({ ...cache.reconciliation.tallyLedgers(), ...given });
    if (!parsed.success) throw new InputError(`Ledger names: ${describeIssues(parsed.error)}`);
    const ledgers = parsed.data;
    if (values['save-ledgers'] === true) cache.reconciliation.putTallyLedgers(ledgers);
    const { from, to } = parseRange(values);
    const account = await asInput(() =>
      ctx.core.reconciliation.defaultAccount(ctx.profile.id, values.account as string | undefined),
    );
    const period = { account, from, to };
    const plan = await ctx.core.reconciliation.tallyPlan(ctx.profile.id, period, ledgers.rounding !== undefined);
    try {
      await writeTally(file, plan, ledgers);
    } catch (e) {
      if (e instanceof TallyLedgerError) throw new InputError(e.message);
      throw e;
    }
    await journalTallyExport(ctx.core.journals.for(ctx.profile.id).journal, file, period, plan);
    const out = { file, vouchers: plan.vouchers.length, leftOut: plan.leftOut };
    result(io, out, () =>
      [
        `Wrote ${out.vouchers.toLocaleString('en-IN')} Tally vouchers to ${file}.`,
        ...plan.leftOut.map(
          (l) => `Left out ${l.batch.pg} batch of ${l.batch.date} (UTR ${l.batch.utr || 'none'}): ${l.reason}`,
        ),
      ].join('\n'),
    );
  },
};

export const reconCommands = [
  importCommand,
  matchCommand,
  matchByHandCommand,
  reportCommand,
  settingsCommand,
  batchesCommand,
  tallyCommand,
];
