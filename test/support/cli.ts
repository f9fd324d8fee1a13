/** Runs the CLI in-process with captured output and the tests' clock, against a throwaway data folder and keychain service. */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { runCli } from '../../electron/cli/main';
import type { Io } from '../../electron/cli/io';
import { testClock } from './clock';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `now`: the clock of every run (the tests' clock by default); a test of what time does moves it. */
export function cliRunner(dataDir: string, env: NodeJS.ProcessEnv = {}, now?: () => number) {
  const keychainService = `payout-console-test-${randomBytes(4).toString('hex')}`;
  const runWith = async (input: string | null, argv: string[]): Promise<CliRun> => {
    let stdout = '';
    let stderr = '';
    const io = (json: boolean): Io => ({
      json,
      out: (t) => void (stdout += t + '\n'),
      err: (t) => void (stderr += t + '\n'),
      isTerminal: false,
      stdin: input === null ? undefined : (Readable.from([Buffer.from(input)]) as unknown as NodeJS.ReadStream),
    });
    const code = await runCli(
      ['--data-dir', dataDir, ...argv],
      { ...process.env, PAYOUT_CONSOLE_KEYCHAIN_SERVICE: keychainService, ...env },
      io,
      now ?? testClock(),
    );
    return { code, stdout, stderr };
  };
  const run = (...argv: string[]) => runWith(null, argv);
  /** As `run`, with `input` on standard input (passwords, one a line). */
  const runWithInput = (input: string, ...argv: string[]) => runWith(input, argv);
  return { run, runWithInput, keychainService };
}

/** Adds the profile "Local" on an opened sandbox (support/sandbox.ts `openSandbox`) through the CLI, as a person does. */
export const addLocalProfile = (
  run: (...argv: string[]) => Promise<CliRun>,
  sb: { profile: { baseUrl: string; aiUrl: string }; key: string },
  name = 'Local',
  ...options: string[]
) =>
  run(
    'profiles',
    'add',
    '--name',
    name,
    '--base-url',
    sb.profile.baseUrl,
    '--ai-url',
    sb.profile.aiUrl,
    '--key',
    sb.key,
    ...options,
  );
