/**
 * `payout-console` (and `npm run cli --`): the console's core on the command line.
 * Exit codes: 0 done, 1 failed or refused (one line on stderr says why), 2 bad usage or input, 3 outcome unknown.
 */
import { todayCommands } from './commands/today';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ApiError } from '../api/errors';
import { describeStorageError, isStorageError } from '../storage-errors';
import { GROUP_ALIASES, type Command, type Options } from './command';
import { accountCommands } from './commands/accounts';
import { cacheCommands } from './commands/cache';
import { balanceCommands } from './commands/balances';
import { beneficiaryCommands } from './commands/beneficiaries';
import { exportCommands } from './commands/export';
import { classifyCommands } from './commands/classify';
import { closeCommands, journalCommands } from './commands/journal';
import { orderCommands } from './commands/orders';
import { paymentToolCommands } from './commands/payment-tools';
import { payoutCommands } from './commands/payouts';
import { planCommands } from './commands/plans';
import { profileCommands } from './commands/profiles';
import { reconCommands } from './commands/recon';
import { settlementReviewCommands } from './commands/settlement-review';
import { settlementCommands } from './commands/settlements';
import { subscriptionCommands } from './commands/subscriptions';
import { webhookCommands } from './commands/webhooks';
import { deskCommands } from './commands/desk';
import { exceptionCommands } from './commands/exceptions';
import { approvalCommands } from './commands/approvals';
import { DeskError } from '../desk/errors';
import { openContext } from './context';
import { EXIT, InputError, OutcomeUnknownError, UsageError, processIo, type Io } from './io';

export const COMMANDS: Command[] = [
  ...profileCommands,
  ...settlementCommands,
  ...cacheCommands,
  ...reconCommands,
  ...settlementReviewCommands,
  ...balanceCommands,
  ...accountCommands,
  ...beneficiaryCommands,
  ...payoutCommands,
  ...exportCommands,
  ...journalCommands,
  ...closeCommands,
  ...orderCommands,
  ...approvalCommands,
  ...subscriptionCommands,
  ...paymentToolCommands,
  ...planCommands,
  ...webhookCommands,
  ...classifyCommands,
  ...deskCommands,
  ...exceptionCommands,
  ...todayCommands,
];

const GLOBAL_OPTIONS: Options = {
  profile: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  'secret-env': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function usage(): string {
  return [
    'usage: payout-console [--profile NAME] [--data-dir DIR] [--json] [--secret-env VAR] <command>',
    '',
    ...COMMANDS.map((c) => `  ${c.usage}`),
  ].join('\n');
}

/**
 * A secret typed on the command line is already exposed (other accounts see it in the process list, the shell keeps
 * it in history), so there is no `--secret`; refused before any parse, whose messages would echo the words after it
 * ("unknown command <the secret>"), and without naming the value.
 */
function refuseSecretArgument(argv: string[]): void {
  if (argv.some((a) => a === '--secret' || a.startsWith('--secret='))) {
    throw new UsageError(
      'there is no --secret option: a secret on the command line is visible to other users and kept in shell ' +
        'history. Store it with "profiles set-secret" (it reads standard input) or name an environment variable ' +
        'holding it with --secret-env VAR',
    );
  }
}

/** The command named by the leading positional words; the longest match wins. */
function findCommand(argv: string[]): { command: Command; rest: string[] } {
  const loose = parseArgs({ args: argv, options: GLOBAL_OPTIONS, strict: false, allowPositionals: true });
  const typed = loose.positionals;
  const words = typed.map((w, i) => (i === 0 ? (GROUP_ALIASES[w] ?? w) : w));
  const command = [...COMMANDS]
    .sort((a, b) => b.words.length - a.words.length)
    .find((c) => c.words.every((w, i) => words[i] === w));
  if (!command) throw new UsageError(typed.length ? `unknown command "${typed.join(' ')}"` : 'no command given');
  // Drop the command's words as typed (wherever option values put them) and keep everything else for the strict parse.
  const rest = [...argv];
  for (const w of typed.slice(0, command.words.length)) rest.splice(rest.indexOf(w), 1);
  return { command, rest };
}

export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  makeIo: (json: boolean) => Io = processIo,
  /** The clock for the core and the embedded sandbox; the real one unless a test pins it. */
  now: () => number = Date.now,
): Promise<number> {
  const io = makeIo(argv.includes('--json'));
  let command: Command | undefined;
  try {
    if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
      io.out(usage());
      return argv.length === 0 ? 2 : 0;
    }
    refuseSecretArgument(argv);
    const found = findCommand(argv);
    command = found.command;
    const { values, positionals } = parseArgs({
      args: found.rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    const range = command.positionals ?? { min: 0, max: 0, names: '' };
    if (positionals.length < range.min || positionals.length > range.max) {
      throw new UsageError(
        range.max === 0
          ? `"${command.words.join(' ')}" takes no arguments`
          : `"${command.words.join(' ')}" takes ${range.names}`,
      );
    }
    const ctx = await openContext(
      {
        profile: values.profile as string | undefined,
        dataDir: values['data-dir'] as string | undefined,
        secretEnv: values['secret-env'] as string | undefined,
      },
      env,
      now,
    );
    let code: void | number;
    try {
      code = await command.run({ ctx, values, positionals, io });
    } finally {
      await ctx.close();
    }
    return code ?? EXIT.done;
  } catch (e) {
    return report(e, io, command);
  }
}

function report(e: unknown, io: Io, command: Command | undefined): number {
  const usageProblem =
    e instanceof UsageError || (e instanceof Error && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'));
  if (usageProblem) {
    io.err(`payout-console: ${(e as Error).message}`);
    io.err(command ? `usage: payout-console ${command.usage}` : 'run payout-console --help for the commands');
    return EXIT.badInput;
  }
  if (e instanceof ApiError) {
    const extra = [e.check, e.requestId ? `request id ${e.requestId}` : undefined].filter(Boolean).join(' ');
    io.err(`payout-console: ${e.userMessage}${extra ? ` ${extra}` : ''}`);
    return e.kind === 'outcome_unknown' ? EXIT.outcomeUnknown : EXIT.refused;
  }
  // A file or folder that failed later than the checks up front: its reason in words, not the system's code.
  io.err(`payout-console: ${isStorageError(e) ? describeStorageError(e) : e instanceof Error ? e.message : String(e)}`);
  if (e instanceof DeskError) {
    return e.code === 'BAD_INPUT'
      ? EXIT.badInput
      : e.code === 'DESK_OUTCOME_UNKNOWN'
        ? EXIT.outcomeUnknown
        : EXIT.refused;
  }
  if (e instanceof InputError) return EXIT.badInput;
  if (e instanceof OutcomeUnknownError) return EXIT.outcomeUnknown;
  return EXIT.refused;
}

// Run when executed as a program (tsx, node on the built file), not when imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = await runCli(process.argv.slice(2));
}
