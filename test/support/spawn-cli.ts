/**
 * The command line in a child process of its own, on the tests' clock (cli-child.ts), for a profile whose secret
 * comes from an environment variable: what the tests that kill or race real CLI processes start.
 */
import { spawn, type StdioOptions } from 'node:child_process';

export function spawnCli(
  options: { dataDir: string; profile: string; secret: string; stdio: StdioOptions },
  ...args: string[]
) {
  const secretEnv = 'PAYOUT_CONSOLE_TEST_SECRET';
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/support/cli-child.ts',
      '--data-dir',
      options.dataDir,
      '--profile',
      options.profile,
      '--secret-env',
      secretEnv,
      ...args,
    ],
    { stdio: options.stdio, env: { ...process.env, [secretEnv]: options.secret } },
  );
}
