/**
 * The command line pointed at folders and files it cannot use (issue 32, item 7): a data folder in /proc, one it
 * may not write, another account's folder while run as root, a secret typed as an option, a 300 MB file and a FIFO
 * as input. Each ends at once with exit 2 and one sentence on stderr: no hang, no raw `EACCES`, the secret never
 * printed, nothing changed, nothing read that should not be. The runs that could hang on the old code are child
 * processes, waited for until they exit (the suite's timeout is the only bound).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cliRunner } from '../support/cli';

const root = mkdtempSync(join(tmpdir(), 'pc-cli-files-'));
chmodSync(root, 0o755);
const isRoot = process.getuid?.() === 0;
/** `nobody`: another account for the runs that need one. */
const OTHER_UID = 65534;
const children = new Set<ReturnType<typeof spawn>>();

afterEach(() => {
  // A child the old code left hanging (the test then timed out) must not outlive it.
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The CLI in a child process (test/support/cli-child.ts, the tests' clock), waited for until it exits. */
function runChild(args: string[], options: { uid?: number } = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/cli-child.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PAYOUT_CONSOLE_KEYCHAIN_SERVICE: 'payout-console-test-cli-files' },
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      children.delete(child);
      resolve({ code, stderr });
    }),
  );
}

/** One line on stderr, a sentence, with none of the system's error codes in it. */
function expectSentence(stderr: string, words: RegExp) {
  expect(stderr).toMatch(words);
  expect(stderr).not.toMatch(/\bE[A-Z]{3,}\b|at .*\.ts:\d+/);
}

describe('the data folder', () => {
  it.runIf(statSync('/proc/1', { throwIfNoEntry: false })?.isDirectory())(
    '--data-dir /proc/1, or a folder to make inside it, is refused in a sentence instead of hanging',
    async () => {
      for (const dir of ['/proc/1', '/proc/1/payout-console']) {
        const { code, stderr } = await runChild(['--data-dir', dir, 'profiles', 'list']);
        expect(code, stderr).toBe(2);
        expectSentence(stderr, new RegExp(`The data folder ${dir} cannot be used: .+\\.`));
      }
    },
  );

  it('a folder it may not write is refused in a sentence, not EACCES', async () => {
    const locked = mkdtempSync(join(root, 'locked-'));
    // Root writes anywhere its mode forbids, so the run is another account's; otherwise the folder is read-only.
    if (isRoot) chmodSync(locked, 0o700);
    else chmodSync(locked, 0o500);
    const dir = join(locked, 'data');
    const { code, stderr } = await runChild(['--data-dir', dir, 'profiles', 'list'], isRoot ? { uid: OTHER_UID } : {});
    chmodSync(locked, 0o700);
    expect(code, stderr).toBe(2);
    expectSentence(stderr, /The data folder .+ cannot be used: the app is not allowed to read or write it\./);
    expect(readdirSync(locked)).toEqual([]);
  });

  it.runIf(isRoot)('run as root, it refuses another account’s folder and leaves its mode alone', async () => {
    const theirs = mkdtempSync(join(root, 'theirs-'));
    chmodSync(theirs, 0o755);
    chownSync(theirs, OTHER_UID, OTHER_UID);
    const { code, stderr } = await cliRunner(theirs).run('profiles', 'list');
    expect(code, stderr).toBe(2);
    expectSentence(stderr, new RegExp(`${theirs} belongs to another account \\(user id ${OTHER_UID}\\)`));
    expect(statSync(theirs).mode & 0o777).toBe(0o755);
    expect(readdirSync(theirs)).toEqual([]);
  });
});

describe('a secret typed as an option', () => {
  const SECRET = 'Rz3/kQ9+vT2/Lm8xW4pA7nB0=';

  it.each([
    [['--secret', SECRET, 'profiles', 'list']],
    [['profiles', 'list', '--secret', SECRET]],
    [[`--secret=${SECRET}`, 'profiles', 'list']],
    [['--secret', SECRET]],
  ])('%j is refused with exit 2, and the secret is never printed', async (args) => {
    const dataDir = mkdtempSync(join(root, 'secret-'));
    const { code, stdout, stderr } = await cliRunner(dataDir).run(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/there is no --secret option: .+--secret-env VAR/);
    for (const text of [stdout, stderr]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SECRET.slice(0, 12));
    }
  });
});

describe('input files', () => {
  const big = join(root, 'big.csv');
  // Sparse: 300 MB by its size, no disk used.
  writeFileSync(big, '');
  truncateSync(big, 300 * 1024 * 1024);
  const fifo = join(root, 'ids.fifo');
  const hasFifo = spawnSync('mkfifo', [fifo]).status === 0;
  const commands = (file: string) => [
    ['beneficiaries', 'import', file, '--dry-run'],
    ['recon', 'statement', 'import', file, '--account', 'Bank'],
    ['payouts', 'check', '--file', file],
    ['classify', '--state', file, '--questions', file],
  ];

  it.each(commands(big))('a 300 MB file is refused before it is read: %s %s', async (...args) => {
    const dataDir = mkdtempSync(join(root, 'big-'));
    const { code, stderr } = await cliRunner(dataDir).run(...args);
    expect(code, stderr).toBe(2);
    expectSentence(stderr, new RegExp(`${big} is larger than 20 MB, the most the console reads\\.`));
  });

  // A FIFO with no writer blocks whoever opens it: a command that opened before looking would never end.
  it.runIf(hasFifo).each(commands(fifo))('a FIFO is refused unopened: %s %s', async (...args) => {
    const dataDir = mkdtempSync(join(root, 'fifo-'));
    const { code, stderr } = await runChild(['--data-dir', dataDir, ...args]);
    expect(code, stderr).toBe(2);
    expectSentence(stderr, new RegExp(`${fifo} is not a file\\.`));
  });
});
