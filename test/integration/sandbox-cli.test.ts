/**
 * `npm run sandbox` end to end. The child is `node --import tsx electron/sandbox/cli.ts`, which is what
 * `npx tsx` runs, minus the npm wrapper: npm exec does not pass SIGTERM on to its child, so signalling
 * `npx` would leave the sandbox orphaned and hide its exit code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { firstLine } from '../support/child-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

function run(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/sandbox/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

const stderrOf = (child: ChildProcess) =>
  new Promise<string>((resolve) => {
    let text = '';
    child.stderr!.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.stderr!.on('end', () => resolve(text));
  });

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('sandbox CLI', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'prints the listening line first, serves, and stops on %s with exit 0',
    async (signal) => {
      const child = run(
        [
          '--port',
          '0',
          '--seed',
          '5',
          '--key',
          'cli_key',
          '--secret-env',
          'CLI_SANDBOX_SECRET',
          '--settlements-per-day',
          '10',
        ],
        { CLI_SANDBOX_SECRET: 'cli_secret' },
      );
      const line = await firstLine(child);
      expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.slice('sandbox listening on '.length);
      const fixtures = (await (await fetch(`${url}/__sandbox/fixtures`)).json()) as {
        gateways: string[];
        settlementDates: string[];
      };
      expect(fixtures.settlementDates).toHaveLength(90);
      const auth = `Basic ${Buffer.from('cli_key:cli_secret').toString('base64')}`;
      const page = await fetch(`${url}/api/v2/settlement/fetch`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ date: fixtures.settlementDates.at(-1) }),
      });
      expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(10);
      child.kill(signal);
      expect(await exited(child)).toEqual({ code: 0, signal: null });
    },
  );

  it.each([
    ['--port', 'abc'],
    ['--bogus'],
    ['positional'],
    ['--settlements-per-day', '1000001'],
    ['--seed', '-1'],
    ['--key', ''],
    ['--secret', 'on_the_command_line'],
    ['--secret=on_the_command_line'],
    ['--secret-env', 'PAYOUT_SANDBOX_SECRET_THAT_IS_NOT_SET'],
  ])('refuses %s with one line on stderr and exit 2', async (...args) => {
    const child = run(args);
    const [err, end] = await Promise.all([stderrOf(child), exited(child)]);
    expect(end.code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^sandbox: /);
    if (args[0]!.startsWith('--secret=') || args[0] === '--secret') expect(err).toMatch(/--secret-env/);
  });
});
