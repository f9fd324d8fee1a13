/**
 * The journal and period close from the command line, on a profile of a loopback sandbox: a `beneficiary add`
 * killed (SIGKILL) between its request and the answer leaves an attempt with no outcome, which `journal
 * check-status` settles; `close`, `close status`, `close diff` after the sandbox's mutate hook and a re-sync;
 * `journal list|verify|verify-file|export`, and their exit codes.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClosedPeriod, JournalEntry, PeriodDiff } from '../../shared/journal';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { cliRunner } from '../support/cli';
import { openSandbox, sandboxProfile, type OpenSandbox } from '../support/sandbox';
import { hook } from '../support/sandbox-http';
import { spawnCli } from '../support/spawn-cli';

const CREATE_PATH = '/api/v2/payout/beneficiary/create';
const range = { from: addDays(TEST_TODAY, -4), to: addDays(TEST_TODAY, -3) };

let sb: OpenSandbox;
let dir: string;
let profileId: string;
let run: ReturnType<typeof cliRunner>['run'];

/** The CLI in-process as the desk's profile, with the secret from the environment. */
const cli = (...argv: string[]) => run('--profile', 'Desk', '--secret-env', 'DESK_SECRET', ...argv);
const json = <T>(out: { stdout: string }) => JSON.parse(out.stdout) as T;

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: 30 });
  dir = mkdtempSync(join(tmpdir(), 'journal-cli-'));
  profileId = sandboxProfile(sb, dir);
  run = cliRunner(dir, { DESK_SECRET: sb.secret }).run;
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Polls `read` every 50 ms until it returns something, for at most `ms`. */
async function until<T>(what: string, read: () => T | null | Promise<T | null>, ms = 20_000): Promise<T> {
  for (let waited = 0; waited < ms; waited += 50) {
    const value = await read();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

function headSeq(): number | null {
  try {
    const settings = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as {
      journalHeads?: Record<string, { seq: number }>;
    };
    return settings.journalHeads?.[profileId]?.seq ?? null;
  } catch {
    return null;
  }
}

const fixtureIds = async () =>
  new Set(
    (await hook<{ beneficiaries: { id: string }[] }>(sb.sandbox.url, 'GET', 'fixtures')).body.beneficiaries.map(
      (b) => b.id,
    ),
  );

describe('a beneficiary create killed between request and answer', () => {
  it('leaves an attempt with no outcome, which check-status settles', { timeout: 60_000 }, async () => {
    const before = await fixtureIds();
    // The sandbox holds the request for a while, then creates the beneficiary whether or not anyone still listens.
    await sb.fault({ path: CREATE_PATH, kind: 'delay', delayMs: 1500 });
    const child = spawnCli(
      { dataDir: dir, profile: 'Desk', secret: sb.secret, stdio: 'ignore' },
      'beneficiary',
      'add',
      '--name',
      'Killed Vendor',
      '--account-number',
      '000987654321',
      '--ifsc',
      'ICIC0004321',
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    // The attempt is committed (its head in the settings too) before the request leaves; the request has reached
    // the sandbox once its delay is taken from the armed faults. Kill in between request and answer.
    await until('the attempt entry', () => ((headSeq() ?? 0) >= 1 ? true : null));
    await until('the request at the sandbox', async () => {
      const armed = await hook<{ faults: unknown[] }>(sb.sandbox.url, 'GET', 'faults');
      return armed.body.faults.length === 0 ? true : null;
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const list = await cli('--json', 'journal', 'list', '--kind', 'action');
    expect(list.code).toBe(0);
    const [attempt] = json<JournalEntry[]>(list);
    expect(attempt).toMatchObject({
      event: 'beneficiary.create',
      outcome: 'attempted',
      data: { asked: { name: 'Killed Vendor' } },
    });
    const cache = new Database(join(dir, 'cache', `${profileId}.sqlite`), { readonly: true });
    const followUps = cache.prepare('SELECT count(*) AS n FROM journal WHERE refers_to = ?').get(attempt!.seq) as {
      n: number;
    };
    cache.close();
    expect(followUps.n).toBe(0);

    // The service did create it once the delay ran out; the desk finds its id there.
    const made = await until('the beneficiary at the sandbox', async () => {
      const created = [...(await fixtureIds())].find((id) => !before.has(id));
      return created ?? null;
    });
    const check = await cli('--json', 'journal', 'check-status', String(attempt!.seq), '--beneficiary-id', made);
    expect(check.code).toBe(0);
    expect(json<{ check: JournalEntry }>(check).check).toMatchObject({ outcome: 'succeeded', refersTo: attempt!.seq });
    const verified = await cli('--json', 'journal', 'verify');
    expect(verified.code).toBe(0);
    expect(json<{ ok: boolean }>(verified).ok).toBe(true);
  });
});

describe('period close from the command line', () => {
  it(
    'closes, reports "changed after close" with the difference after a re-sync, and re-closes',
    { timeout: 60_000 },
    async () => {
      expect((await cli('sync', 'settlements', '--from', range.from, '--to', range.to)).code).toBe(0);
      const closed = await cli('--json', 'close', '--from', range.from, '--to', range.to);
      expect(closed.code).toBe(0);
      const period = json<ClosedPeriod>(closed);
      expect(period).toMatchObject({ ...range, state: 'closed' });

      const mutated = await hook<{
        changed: { pg_transaction_id: string }[];
        removed: { pg_transaction_id: string }[];
      }>(sb.sandbox.url, 'POST', 'settlements/mutate', { date: range.to, count: 2, remove: 1 });
      const resync = await cli('sync', 'settlements', '--from', range.from, '--to', range.to);
      expect(resync.stdout).toContain(
        `Closed period ${range.from} to ${range.to} changed after close: 0 added, 1 vanished, 2 changed.`,
      );

      const status = await cli('--json', 'close', 'status', '--from', range.from, '--to', range.to);
      expect(json<ClosedPeriod[]>(status)).toEqual([
        expect.objectContaining({ id: period.id, state: 'changed', added: 0, vanished: 1, modified: 2 }),
      ]);
      const diff = json<PeriodDiff>(await cli('--json', 'close', 'diff', String(period.id)));
      expect(diff.modified.map((r) => r.pgTransactionId).sort()).toEqual(
        mutated.body.changed.map((r) => r.pg_transaction_id).sort(),
      );
      expect(diff.vanished.map((r) => r.pgTransactionId)).toEqual(mutated.body.removed.map((r) => r.pg_transaction_id));

      expect((await cli('close', '--from', range.from, '--to', range.to)).code).toBe(0);
      expect(json<ClosedPeriod[]>(await cli('--json', 'close', 'status'))[0]).toMatchObject({
        state: 'closed',
        modified: 0,
      });
      expect((await cli('close', '--from', range.to, '--to', range.from)).code).toBe(2);
    },
  );
});

describe('journal commands', () => {
  it('verify-file names the export that wrote a file, and exits 1 once it changed', async () => {
    const out = join(dir, 'out', 'settlements.xlsx');
    expect((await cli('export', 'settlements', '--from', range.from, '--to', range.to, '--out', out)).code).toBe(0);
    const verdict = await cli('--json', 'journal', 'verify-file', out);
    expect(verdict.code).toBe(0);
    const v = json<{ verdict: string; export: JournalEntry }>(verdict);
    expect(v.verdict).toBe('unchanged');
    expect(v.export).toMatchObject({ event: 'export.settlements', data: { fileName: 'settlements.xlsx' } });

    appendFileSync(out, 'x');
    const changed = await cli('journal', 'verify-file', out);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('CHANGED since it was written by export');
  });

  it('lists by kind, exports the journal, and fails verification of a tampered file naming the entry', async () => {
    const syncs = json<JournalEntry[]>(await cli('--json', 'journal', 'list', '--kind', 'sync'));
    expect(syncs.length).toBeGreaterThanOrEqual(2);
    expect(syncs.every((e) => e.kind === 'sync')).toBe(true);
    expect((await cli('journal', 'list', '--kind', 'nonsense')).code).toBe(2);

    const out = join(dir, 'out', 'journal.csv');
    expect((await cli('journal', 'export', '--out', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('beneficiary.create');

    const db = new Database(join(dir, 'cache', `${profileId}.sqlite`));
    db.prepare(`UPDATE journal SET summary = 'nothing to see' WHERE seq = 2`).run();
    db.close();
    const verified = await cli('journal', 'verify');
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain('does not hold at entry 2 (edited)');
  });
});
