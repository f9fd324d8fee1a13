/** Runs the CLI in-process with captured output and the tests' clock, against a throwaway data folder and keychain service. */
import { randomBytes } from 'node:crypto';
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
  const run = async (...argv: string[]): Promise<CliRun> => {
    let stdout = '';
    let stderr = '';
    const io = (json: boolean): Io => ({
      json,
      out: (t) => void (stdout += t + '\n'),
      err: (t) => void (stderr += t + '\n'),
      isTerminal: false,
    });
    const code = await runCli(
      ['--data-dir', dataDir, ...argv],
      { ...process.env, PAYOUT_CONSOLE_KEYCHAIN_SERVICE: keychainService, ...env },
      io,
      now ?? testClock(),
    );
    return { code, stdout, stderr };
  };
  return { run, keychainService };
}
