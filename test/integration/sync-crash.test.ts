/**
 * The crash test: the CLI's `sync settlements` in a child process is killed with SIGKILL at random moments,
 * twenty times, and each kill is followed at once — before the killed process is even reaped — by a new sync,
 * which must start: the one-writer lock is the operating system's, so a dead holder never blocks the next one.
 * The cache must end with exactly the sandbox's records: the same count, the same sums of amounts, every
 * natural key once, and a file SQLite still reads cleanly. And two live syncs at once: exactly one runs.
 *
 * The figures (kills, refusals, how long from SIGKILL to the next sync's first progress) are written to
 * test-results/sync-crash.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCache } from '../../electron/cache/database';
import { filesUnder } from '../security/support';
import { openSandbox, sandboxProfile, type OpenSandbox } from '../support/sandbox';
import { spawnCli } from '../support/spawn-cli';

const PER_DAY = 60_000;
const DAYS = 3;
const KILLS = 20;
const BUSY = /Another settlement sync/;

let sb: OpenSandbox;
let dir: string;
let profileId: string;

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: PER_DAY });
  dir = mkdtempSync(join(tmpdir(), 'sync-crash-'));
  profileId = sandboxProfile(sb, dir, 'Crash');
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One run of `payout-console sync settlements`. With `kill`, it is killed that long after its first progress
 * line (stderr), or after spawn when `early` (most of those land while it starts, claims the run or opens the
 * file). `killed` resolves the moment SIGKILL is sent (never, if the run ends first); `exited` with how it
 * ended, its standard output (the --json summary) and its standard error.
 */
function attempt(range: { from: string; to: string }, kill?: { afterMs: number; early: boolean }) {
  const child = spawnCli(
    { dataDir: dir, profile: 'Crash', secret: sb.secret, stdio: ['ignore', 'pipe', 'pipe'] },
    '--json',
    'sync',
    'settlements',
    '--from',
    range.from,
    '--to',
    range.to,
  );
  const spawnedAt = performance.now();
  let stdout = '';
  let stderr = '';
  let firstProgressMs: number | null = null;
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timer: NodeJS.Timeout | undefined;
  let sent: () => void = () => {};
  const killed = new Promise<void>((resolve) => (sent = resolve));
  const arm = () =>
    (timer ??= setTimeout(() => {
      child.kill('SIGKILL');
      sent();
    }, kill!.afterMs));
  if (kill?.early) arm();
  createInterface({ input: child.stderr! }).on('line', () => {
    firstProgressMs ??= performance.now() - spawnedAt;
    if (kill && !kill.early) arm();
  });
  const exited = new Promise<{ killed: boolean; code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', code, stdout, stderr });
    });
  });
  return { killed, exited, firstProgressMs: () => firstProgressMs };
}

const cacheFile = () => join(dir, 'cache', `${profileId}.sqlite`);

it(
  'survives SIGKILL at random moments, each followed at once by a sync that starts, and ends with exactly the sandbox records',
  { timeout: 240_000 },
  async () => {
    const days = sb.sandbox.fixtures().settlementDates.slice(-DAYS);
    const range = { from: days[0]!, to: days.at(-1)! };

    let kills = 0;
    const runs: ReturnType<typeof attempt>[] = [];
    const afterKill: number[] = [];
    let current = attempt(range, { afterMs: 50, early: false });
    for (let round = 0; kills < KILLS && round < 3 * KILLS; round++) {
      runs.push(current);
      const outcome = await Promise.race([current.killed.then(() => 'killed' as const), current.exited]);
      if (outcome !== 'killed') break;
      kills++;
      // No sleep and no waiting for the killed process to be reaped: the next sync starts now.
      const early = round % 4 === 3;
      const next = attempt(
        range,
        kills < KILLS ? { afterMs: Math.floor(Math.random() * (early ? 900 : 250)), early } : undefined,
      );
      runs.push(next);
      current = next;
      void next.exited.then(() => {
        const ms = next.firstProgressMs();
        if (ms !== null) afterKill.push(ms);
      });
    }
    expect(kills).toBe(KILLS);
    const final = await current.exited;
    const ended = await Promise.all(runs.map((r) => r.exited));
    const refused = ended.filter((e) => BUSY.test(e.stderr));
    expect(refused.map((e) => e.stderr)).toEqual([]);
    expect(ended.filter((e) => !e.killed && e.code !== 0).map((e) => e.stderr)).toEqual([]);

    const summary = JSON.parse(final.stdout) as { status: string; resumed: boolean; records: number };
    mkdirSync('test-results', { recursive: true });
    const sorted = [...afterKill].sort((a, b) => a - b);
    writeFileSync(
      'test-results/sync-crash.json',
      JSON.stringify({
        kills,
        syncs_started_right_after_a_kill: kills,
        refused: refused.length,
        first_progress_after_spawn_ms: {
          median: Math.round(sorted[sorted.length >> 1] ?? NaN),
          max: Math.round(sorted.at(-1) ?? NaN),
        },
      }) + '\n',
    );

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
    const cache = openCache(cacheFile());
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
  },
);

it(
  'lets exactly one of two live syncs into the same cache run, and refuses the other with a clear sentence',
  { timeout: 60_000 },
  async () => {
    const days = sb.sandbox.fixtures().settlementDates.slice(-DAYS - 1, -DAYS);
    const range = { from: days[0]!, to: days.at(-1)! };
    // The first pages answer slowly, so whichever sync claims the cache first still holds it when the other tries.
    await sb.fault({ path: '/api/v2/settlement/fetch', kind: 'delay', delayMs: 1500, count: 8 });
    try {
      const both = await Promise.all([attempt(range).exited, attempt(range).exited]);
      const ran = both.filter((e) => e.code === 0);
      const refused = both.filter((e) => e.code !== 0);
      expect(ran).toHaveLength(1);
      expect(JSON.parse(ran[0]!.stdout)).toMatchObject({ status: 'completed' });
      expect(refused).toHaveLength(1);
      expect(refused[0]!.stderr).toMatch(
        // The run and its process are named once the holder has recorded its run; a refusal in the moment between its
        // taking the lock and recording the run says the rest of the sentence alone.
        /^payout-console: Another settlement sync( \(run \d+\))? is writing to this cache( from process \d+)?\. Wait for it to finish or cancel it, then sync again\.$/m,
      );
    } finally {
      await sb.clearFaults();
    }
  },
);
