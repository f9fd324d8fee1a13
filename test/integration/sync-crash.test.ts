/**
 * The crash test: the CLI's `sync settlements` in a child process is killed with SIGKILL at random moments,
 * at least ten times, and resumed each time.
 * The cache must end with exactly the sandbox's records: the same count, the same sums of amounts, every
 * natural key once, and a file SQLite still reads cleanly.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCache } from '../../electron/cache/database';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { filesUnder } from '../security/support';
import { openSandbox, type OpenSandbox } from '../support/sandbox';

const PER_DAY = 60_000;
const DAYS = 3;
const KILLS = 10;

let sb: OpenSandbox;
let dir: string;
let profileId: string;

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  dir = mkdtempSync(join(tmpdir(), 'sync-crash-'));
  profileId = createProfileStore({ dataDir: dir, sandbox: null }).create({
    name: 'Crash',
    environment: 'custom',
    baseUrl: sb.profile.baseUrl,
    aiUrl: sb.profile.aiUrl,
    key: sb.key,
  }).id;
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One attempt of `payout-console sync settlements`. With `kill`, it is killed that long after its first
 * progress line (stderr), or after spawn when `early` (most of those land while it starts, claims the run
 * or opens the file). Resolves with whether the kill landed before the process finished on its own, and
 * its standard output (the --json summary).
 */
function attempt(range: { from: string; to: string }, kill?: { afterMs: number; early: boolean }) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'electron/cli/main.ts',
      '--data-dir',
      dir,
      '--profile',
      'Crash',
      '--secret-env',
      'SYNC_SECRET',
      '--json',
      'sync',
      'settlements',
      '--from',
      range.from,
      '--to',
      range.to,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SYNC_SECRET: sb.secret } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timer: NodeJS.Timeout | undefined;
  const arm = () => (timer ??= setTimeout(() => child.kill('SIGKILL'), kill!.afterMs));
  if (kill?.early) arm();
  createInterface({ input: child.stderr! }).on('line', () => {
    if (kill && !kill.early) arm();
  });
  return new Promise<{ killed: boolean; stdout: string; stderr: string }>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', stdout, stderr: code === 0 || signal ? '' : stderr });
    });
  });
}

it('survives SIGKILL at random moments and ends with exactly the sandbox records', { timeout: 60_000 }, async () => {
  const days = sb.sandbox.fixtures().settlementDates.slice(-DAYS);
  const range = { from: days[0]!, to: days.at(-1)! };
  const file = join(dir, 'cache', `${profileId}.sqlite`);

  let kills = 0;
  for (let round = 0; kills < KILLS && round < 3 * KILLS; round++) {
    const early = round % 4 === 3;
    const result = await attempt(range, { afterMs: Math.floor(Math.random() * (early ? 900 : 250)), early });
    expect(result.stderr).toBe('');
    if (result.killed) kills++;
    else break;
  }
  expect(kills).toBeGreaterThanOrEqual(KILLS);

  const final = await attempt(range);
  const summary = JSON.parse(final.stdout) as { status: string; resumed: boolean; records: number };

  // Secret containment over a CLI sync: its output and every file it left (settings, logs, SQLite, WAL, SHM).
  const needles = [sb.secret, Buffer.from(`${sb.key}:${sb.secret}`).toString('base64')];
  const haystacks = [final.stdout, final.stderr, ...filesUnder(dir).map((f) => f.bytes.toString('latin1'))];
  for (const needle of needles) expect(haystacks.filter((h) => h.includes(needle))).toEqual([]);
  expect(filesUnder(dir).some((f) => f.path.endsWith('.sqlite'))).toBe(true);
  expect(summary).toMatchObject({ status: 'completed', resumed: true, records: DAYS * PER_DAY });

  const api = sb.api();
  const expected = { count: 0, amount: 0, settled: 0 };
  for (const date of days) {
    for await (const page of api.settlements.pages({ date })) {
      expected.count += page.data.length;
      for (const r of page.data) {
        expected.amount += r.amount;
        expected.settled += r.settled_amount;
      }
    }
  }
  const cache = openCache(file);
  try {
    expect(cache.recovered).toBeNull();
    const got = cache.db
      .prepare(
        `SELECT count(*) AS count, sum(amount) AS amount, sum(settled_amount) AS settled,
                count(DISTINCT pg || '|' || pg_transaction_id || '|' || settlement_date) AS keys
         FROM settlements WHERE vanished_at IS NULL`,
      )
      .get();
    expect(got).toEqual({ ...expected, keys: expected.count });
    expect(cache.settlements.totals(range)).toMatchObject(expected);
  } finally {
    cache.close();
  }
});
