/**
 * The CLI's `settlements changes`, `settlements manifest` and `settlements exceptions …` on the real core and a
 * sandbox of its own, and the exit code of a sync that ends partial, in a real child process (a command's
 * process.exitCode used to be overwritten by the program's own, so it exited 0).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from '../../electron/api/retry';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { formatDateRange } from '../../shared/format';
import { SYNC_CONCURRENCY } from '../../shared/profiles';
import { cliRunner } from '../support/cli';
import { openpyxlCells, pythonCsvFields } from '../support/export-files';
import { hook } from '../support/sandbox-http';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { spawnCli } from '../support/spawn-cli';

let sb: OpenSandbox;
let dir: string;
let cli: ReturnType<typeof cliRunner>;
let dates: string[];

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: 400 });
  dates = sb.sandbox.fixtures().settlementDates;
  dir = mkdtempSync(join(tmpdir(), 'review-cli-'));
  createProfileStore({ dataDir: dir, sandbox: null }).create({
    name: 'Review',
    environment: 'custom',
    baseUrl: sb.profile.baseUrl,
    aiUrl: sb.profile.aiUrl,
    key: sb.key,
  });
  cli = cliRunner(dir, { PC_TEST_SECRET: sb.secret });
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => cli.run('--profile', 'Review', '--secret-env', 'PC_TEST_SECRET', ...argv);

describe('settlements changes and manifest', () => {
  it('list what a re-sync changed, and each date’s completeness, with --json in integer paise', async () => {
    const [from, to] = [dates.at(-6)!, dates.at(-5)!];
    expect((await run('sync', 'settlements', '--from', from, '--to', to)).code).toBe(0);
    await hook(sb.sandbox.url, 'POST', 'settlements/mutate', { date: to, count: 3, remove: 2 });
    expect((await run('sync', 'settlements', '--from', from, '--to', to)).code).toBe(0);
    // The CLI writes the sort keys after its answer, the changed date's again (it was taken off by the re-sync).
    const file = readdirSync(join(dir, 'cache')).find((f) => f.endsWith('.sqlite'))!;
    const db = new Database(join(dir, 'cache', file), { readonly: true });
    try {
      const sorted = db.prepare('SELECT date FROM settlement_sorted_days WHERE date BETWEEN ? AND ? ORDER BY date');
      expect(sorted.pluck().all(from, to)).toEqual([from, to]);
    } finally {
      db.close();
    }

    const human = await run('settlements', 'changes', '--from', from, '--to', to);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^5 changes: 0 new, 3 changed, 2 vanished, 0 returned\./);
    expect(human.stdout).toMatch(/(utr|dispute_id): .+ → .+/);

    const json = await run('--json', 'settlements', 'changes', '--from', from, '--to', to, '--kind', 'vanished');
    const body = JSON.parse(json.stdout) as { changes: { kind: string; date: string }[]; byKind: object };
    expect(body.changes).toHaveLength(2);
    expect(body.changes.every((c) => c.kind === 'vanished' && c.date === to)).toBe(true);

    const manifest = JSON.parse(
      (await run('--json', 'settlements', 'manifest', '--from', from, '--to', to)).stdout,
    ) as {
      dates: { date: string; state: string; gateways: { records: number; settled: number; stable: boolean }[] }[];
    };
    expect(manifest.dates.map((d) => [d.date, d.state])).toEqual([
      [from, 'complete'],
      [to, 'complete'],
    ]);
    const summary = JSON.parse((await run('--json', 'settlements', 'summary', '--from', to, '--to', to)).stdout) as {
      total: { count: number; settled: number };
    };
    const gateways = manifest.dates[1]!.gateways;
    expect(gateways.reduce((s, g) => s + g.records, 0)).toBe(summary.total.count);
    expect(gateways.reduce((s, g) => s + g.settled, 0)).toBe(summary.total.settled);
    expect(gateways.every((g) => Number.isInteger(g.settled))).toBe(true);

    const text = await run('settlements', 'manifest', '--from', from, '--to', to);
    expect(text.stdout).toMatch(/2 of 2 synced dates complete\./);

    // The Changes view's export as a file of its own, with its filter on the Audit sheet; read back by openpyxl.
    const all = JSON.parse((await run('--json', 'settlements', 'changes', '--from', from, '--to', to)).stdout) as {
      changes: { pgTransactionId: string; fields: unknown[]; kind: string }[];
    };
    const xlsx = join(dir, 'changes.xlsx');
    const wrote = await run('--json', 'export', 'changes', '--from', from, '--to', to, '--out', xlsx);
    expect(wrote.code, wrote.stderr).toBe(0);
    const lines = all.changes.reduce((n, c) => n + Math.max(1, c.fields.length), 0);
    expect(JSON.parse(wrote.stdout)).toMatchObject({ kind: 'changes', status: 'completed', rows: lines });
    const book = openpyxlCells(xlsx);
    expect(Object.keys(book)).toEqual(['Changes', 'Audit']);
    const [head, ...rows] = book['Changes']!;
    const column = (h: string) => head!.findIndex(([, v]) => v === h);
    expect(rows).toHaveLength(lines);
    expect(new Set(rows.map((r) => r[column('PG transaction id')]![1]))).toEqual(
      new Set(all.changes.map((c) => c.pgTransactionId)),
    );
    expect(rows.every((r) => r[column('PG transaction id')]![0] === 's')).toBe(true);
    const audit = book['Audit']!.map((r) => r.map(([, v]) => v).join(' ')).join('\n');
    expect(audit).toContain(
      `what the syncs changed: ${formatDateRange(from, to)} (settlement dates, IST), every gateway`,
    );
    // A narrower filter: only the vanished, as CSV; the file's name says so when the app names it.
    const csv = join(dir, 'vanished.csv');
    expect((await run('export', 'changes', '--from', from, '--to', to, '--kind', 'vanished', '--out', csv)).code).toBe(
      0,
    );
    const fields = pythonCsvFields(csv, ',');
    expect(fields.slice(1).map((r) => r[3])).toEqual(['vanished', 'vanished']);
    expect((await run('export', 'changes', '--from', from, '--to', to, '--kind', 'odd', '--out', csv)).code).toBe(2);
  });

  it.each([
    [['settlements', 'changes', '--from', '2026-01-02', '--to', '2026-01-01'], /--to: must not be before from/],
    [['settlements', 'changes', '--from', '2026-01-01', '--to', '2026-01-01', '--kind', 'odd'], /--kind:/],
    [['settlements', 'changes', '--from', '2026-01-01', '--to', '2026-01-01', '--run', 'x'], /--run:/],
    [['settlements', 'exceptions', 'note', '7'], /--text: /],
    [['settlements', 'exceptions', 'acknowledge', 'abc'], /record id: expected a positive whole number/],
    [['settlements', 'exceptions', 'triage', '--date', '2026-01-01', '--threshold', '2'], /--threshold/],
  ])('%j exits 2 with the reason', async (argv, reason) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(reason);
  });
});

describe('settlements exceptions', () => {
  it('acknowledge, assign, note, resolve and show; a refused step exits 2 with why; triage stores answers', async () => {
    const date = dates.at(-8)!;
    expect((await run('sync', 'settlements', '--from', date, '--to', date)).code).toBe(0);
    const first = JSON.parse((await run('--json', 'settlements', 'exceptions', 'triage', '--date', date)).stdout) as {
      exceptions: number;
      triaged: number;
      model: string;
    };
    expect(first.exceptions).toBeGreaterThan(0);
    expect(first).toMatchObject({ triaged: first.exceptions, model: 'sandbox-overlap-v1', threshold: 0.5 });
    // The profile's threshold is the default of a run: at 1 (certainty) the scorer tags nothing; --threshold wins.
    expect((await run('recon', 'settings', '--triage-threshold', '1')).code).toBe(0);
    const strict = JSON.parse(
      (await run('--json', 'settlements', 'exceptions', 'triage', '--date', date, '--again')).stdout,
    ) as { triaged: number; tagged: number; threshold: number };
    expect(strict).toMatchObject({ triaged: first.exceptions, tagged: 0, threshold: 1 });
    const loose = JSON.parse(
      (await run('--json', 'settlements', 'exceptions', 'triage', '--date', date, '--again', '--threshold', '0'))
        .stdout,
    ) as { tagged: number; threshold: number };
    expect(loose).toEqual(expect.objectContaining({ tagged: first.exceptions, threshold: 0 }));

    const files = readdirSync(join(dir, 'cache')).filter((f) => f.endsWith('.sqlite'));
    const db = new Database(join(dir, 'cache', files[0]!), { readonly: true });
    const id = db
      .prepare('SELECT id FROM settlements WHERE date = ? AND exception_flags <> 0 ORDER BY id LIMIT 1')
      .pluck()
      .get(date) as number;
    db.close();

    expect((await run('settlements', 'exceptions', 'acknowledge', String(id))).code).toBe(0);
    expect((await run('settlements', 'exceptions', 'assign', String(id), '--text', 'Ravi')).code).toBe(0);
    const again = await run('settlements', 'exceptions', 'acknowledge', String(id));
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/cannot acknowledge an exception that is acknowledged/);
    expect((await run('settlements', 'exceptions', 'note', String(id), '--text', 'Bank says Monday')).code).toBe(0);
    const resolved = await run('--json', 'settlements', 'exceptions', 'resolve', String(id));
    expect(JSON.parse(resolved.stdout)).toMatchObject({
      state: 'resolved',
      assignee: 'Ravi',
      note: 'Bank says Monday',
    });
    const shown = await run('settlements', 'exceptions', 'show', String(id));
    expect(shown.stdout).toMatch(/^State: resolved, assigned to Ravi/);
    expect(shown.stdout).toMatch(/triage: \w+ \(\d+%\), severity \d\.\d of 5/);
  });
});

describe('sync settlements that ends partial', () => {
  it('exits 1 from a real process, with the failed date in its summary', async () => {
    const date = dates.at(-10)!;
    // Enough for every request the sync has out for the date, each with all its attempts: with the next pages
    // guessed at, fewer would let one of them through.
    const count = DEFAULT_RETRY.maxAttempts * SYNC_CONCURRENCY.default;
    await sb.fault({ path: '/api/v2/settlement/fetch', kind: '500', count });
    try {
      const child = spawnCli(
        { dataDir: dir, profile: 'Review', secret: sb.secret, stdio: ['ignore', 'pipe', 'pipe'] },
        '--json',
        'sync',
        'settlements',
        '--from',
        date,
        '--to',
        date,
      );
      let stdout = '';
      child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr!.resume();
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(JSON.parse(stdout)).toMatchObject({ status: 'partial', dates: [{ date, status: 'failed' }] });
      expect(code).toBe(1);
    } finally {
      await sb.clearFaults();
    }
  });
});
