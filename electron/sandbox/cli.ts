/**
 * `npm run sandbox -- [--port P] [--seed N] [--key K] [--secret-env VAR] [--settlements-per-day N]`
 * The first stdout line is exactly `sandbox listening on http://127.0.0.1:P` (scripts read it to learn
 * the port when P is 0). Bad usage: one line on stderr, exit 2. SIGINT / SIGTERM: close, exit 0.
 *
 * The secret comes from the environment variable named by --secret-env, never from the command line, where every
 * user of the machine can read it (`ps`, /proc/PID/cmdline).
 */
import { parseArgs } from 'node:util';
import { MAX_PER_DAY } from './data/settlements';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxOptions } from './server';

const USAGE = 'usage: sandbox [--port P] [--seed N] [--key K] [--secret-env VAR] [--settlements-per-day N]';

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

async function main(): Promise<void> {
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
