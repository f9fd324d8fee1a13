/**
 * `npm run sandbox -- [--port P] [--seed N] [--key K] [--secret-env VAR] [--settlements-per-day N]`
 * `npm run sandbox -- statement --from D --to D [--seed N] [--settlements-per-day N] [--format csv|xlsx]
 *   [--out FILE] [--missing N] [--short N] [--split N] [--orphan N] [--truth FILE]`: the bank statement that
 *   matches a sandbox of that seed for those dates (bank-statement.ts), to stdout (CSV) or a file; `--truth`
 *   writes which batch got which discrepancy as JSON.
 * The first stdout line is exactly `sandbox listening on http://127.0.0.1:P` (scripts read it to learn
 * the port when P is 0). Bad usage: one line on stderr, exit 2. SIGINT / SIGTERM: close, exit 0.
 *
 * The secret comes from the environment variable named by --secret-env, never from the command line, where every
 * user of the machine can read it (`ps`, /proc/PID/cmdline).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { addDays, epochMsToIstDate, isCalendarDate } from '../../shared/time';
import { GATEWAYS } from './data/catalog';
import {
  DEFAULT_DISCREPANCIES,
  buildStatement,
  statementCsv,
  statementXlsx,
  type Discrepancies,
} from './data/bank-statement';
import { MAX_PER_DAY, SettlementSource } from './data/settlements';
import { SANDBOX_DEFAULTS, SETTLEMENT_DAYS, startSandbox, type SandboxOptions } from './server';

const USAGE = 'usage: sandbox [--port P] [--seed N] [--key K] [--secret-env VAR] [--settlements-per-day N]';
const STATEMENT_USAGE =
  'usage: sandbox statement --from YYYY-MM-DD --to YYYY-MM-DD [--seed N] [--settlements-per-day N] ' +
  '[--format csv|xlsx] [--out FILE] [--missing N] [--short N] [--split N] [--orphan N] [--truth FILE]';

class UsageError extends Error {}

function wholeNumber(flag: string, text: string | undefined, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new UsageError(`--${flag} must be a whole number from 0 to ${max}, got "${text}"`);
  return Number(text);
}

function nonEmpty(flag: string, text: string | undefined): string | undefined {
  if (text !== undefined && text.trim() === '') throw new UsageError(`--${flag} must not be empty`);
  return text;
}

function secretFromEnv(name: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (name === undefined) return undefined;
  const secret = env[name];
  if (!secret) throw new UsageError(`--secret-env ${name}: that environment variable is not set`);
  return secret;
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): SandboxOptions | 'help' {
  if (argv.some((arg) => arg === '--secret' || arg.startsWith('--secret='))) {
    throw new UsageError(
      '--secret is not taken on the command line, where other users can read it; put the secret in an ' +
        'environment variable and name it with --secret-env',
    );
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        seed: { type: 'string' },
        key: { type: 'string' },
        'secret-env': { type: 'string' },
        'settlements-per-day': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (values.help) return 'help';
  return {
    port: wholeNumber('port', values.port, 65_535),
    seed: wholeNumber('seed', values.seed, 0xffffffff),
    key: nonEmpty('key', values.key),
    secret: secretFromEnv(values['secret-env'], env),
    settlementsPerDay: wholeNumber('settlements-per-day', values['settlements-per-day'], MAX_PER_DAY),
  };
}

export interface StatementRequest {
  from: string;
  to: string;
  seed: number;
  perDay: number;
  format: 'csv' | 'xlsx';
  out?: string;
  truth?: string;
  discrepancies: Discrepancies;
}

/** `statement ...`: the dates must be among the sandbox's 90 days ending today (IST) by `now`. */
export function parseStatementCli(argv: string[], now: number = Date.now()): StatementRequest | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        seed: { type: 'string' },
        'settlements-per-day': { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
        truth: { type: 'string' },
        missing: { type: 'string' },
        short: { type: 'string' },
        split: { type: 'string' },
        orphan: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (values.help) return 'help';
  const today = epochMsToIstDate(now);
  const first = addDays(today, 1 - SETTLEMENT_DAYS);
  for (const flag of ['from', 'to'] as const) {
    const v = values[flag];
    if (v === undefined || !isCalendarDate(v)) throw new UsageError(`--${flag} must be a date YYYY-MM-DD`);
    if (v < first || v > today)
      throw new UsageError(`--${flag} ${v} is outside the sandbox's days, ${first} to ${today}`);
  }
  if (values.from! > values.to!) throw new UsageError('--from must not be after --to');
  const format = values.format ?? (values.out?.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv');
  if (format !== 'csv' && format !== 'xlsx') throw new UsageError(`--format must be csv or xlsx, got "${format}"`);
  if (format === 'xlsx' && values.out === undefined) throw new UsageError('--format xlsx needs --out FILE');
  const discrepancies = { ...DEFAULT_DISCREPANCIES };
  for (const k of ['missing', 'short', 'split', 'orphan'] as const)
    discrepancies[k] = wholeNumber(k, values[k], 50) ?? discrepancies[k];
  return {
    from: values.from!,
    to: values.to!,
    seed: wholeNumber('seed', values.seed, 0xffffffff) ?? SANDBOX_DEFAULTS.seed,
    perDay:
      wholeNumber('settlements-per-day', values['settlements-per-day'], MAX_PER_DAY) ??
      SANDBOX_DEFAULTS.settlementsPerDay,
    format,
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values.truth !== undefined ? { truth: values.truth } : {}),
    discrepancies,
  };
}

async function statement(argv: string[]): Promise<void> {
  let request: StatementRequest | 'help';
  try {
    request = parseStatementCli(argv);
  } catch (e) {
    process.stderr.write(`sandbox statement: ${e instanceof Error ? e.message : String(e)} (${STATEMENT_USAGE})\n`);
    process.exit(2);
  }
  if (request === 'help') {
    process.stdout.write(`${STATEMENT_USAGE}\n`);
    return;
  }
  const source = new SettlementSource(
    request.seed,
    request.perDay,
    GATEWAYS.map((g) => g.code),
  );
  const built = buildStatement(source, request.from, request.to, request.discrepancies);
  const body = request.format === 'xlsx' ? await statementXlsx(built) : statementCsv(built);
  if (request.out === undefined) process.stdout.write(body);
  else writeFileSync(request.out, body);
  if (request.truth !== undefined) writeFileSync(request.truth, JSON.stringify(built.truth, null, 2) + '\n');
  const credits = built.lines.filter((l) => l.deposit > 0).length;
  process.stderr.write(
    `statement ${request.from} to ${request.to}: ${built.lines.length} lines, ${credits} credits, ` +
      `${built.truth.batches.length} batches${request.out ? ` -> ${request.out}` : ''}\n`,
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === 'statement') return statement(process.argv.slice(3));
  let options: SandboxOptions | 'help';
  try {
    options = parseCli(process.argv.slice(2));
  } catch (e) {
    const reason = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    process.stderr.write(`sandbox: ${reason} (${USAGE})\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (e) {
    process.stderr.write(`sandbox: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
  const key = options.key ?? SANDBOX_DEFAULTS.key;
  process.stdout.write(`sandbox listening on ${sandbox.url}\n`);
  process.stdout.write(
    `base_url ${sandbox.url}  ai_url ${sandbox.url}/ai  key ${key}  hooks ${sandbox.url}/__sandbox/fixtures\n`,
  );

  const stop = () => {
    // A second signal, or a close that hangs, still ends the process.
    setTimeout(() => process.exit(0), 2000).unref();
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
