/** The CLI on the real core: profiles, API commands, exit codes, and secrets kept out of its output. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import { OPERATIONS } from '../../shared/api/operations';
import { SYNC_CONCURRENCY, type Profile } from '../../shared/profiles';
import { addDays } from '../../shared/time';
import { addLocalProfile, cliRunner } from '../support/cli';
import { TEST_TODAY } from '../support/clock';
import { filePathsUnder } from '../support/files';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { requireSystem } from '../support/system';

let dir: string;
let sb: OpenSandbox;
let cli: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pc-cli-'));
  sb = await openSandbox();
  cli = cliRunner(dir, { PC_TEST_SECRET: sb.secret });
});
afterAll(async () => {
  await sb.close();
  const store = createKeytarStore(cli.keychainService);
  if ((await store.probe()).available) for (const a of await store.accounts()) await store.delete(a);
  rmSync(dir, { recursive: true, force: true });
});

describe('usage', () => {
  it.each([
    [['bogus'], /unknown command "bogus"/],
    [['balances', '--bad'], /Unknown option '--bad'/],
    [['payout', 'get'], /takes ID/],
    [['profiles', 'add', '--name', 'x'], /needs --base-url/],
    [['--secret-env', 'PC_NOT_SET', 'balances'], /PC_NOT_SET: that environment variable is not set/],
    [['export', 'balances', '--out', 'b.xlsx', '--excel-safe'], /apply to a CSV \(--out FILE\.csv\) only/],
    [['export', 'balances', '--out', 'b.csv', '--csv-ids', 'quoted'], /--csv-ids must be plain \(for systems\)/],
    [['export', 'payout-checks', '--run', 'x', '--out', 'c.csv'], /--run must be the number of a bulk payout check/],
  ])('%j exits 2 with a one-line reason', async (argv, reason) => {
    const r = await cli.run(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(reason);
  });

  it('--help lists every command and exits 0', async () => {
    const r = await cli.run('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/profiles add/);
    expect(r.stdout).toMatch(/payouts get ID/);
  });
});

describe('on the built-in sandbox profile (no secret needed)', () => {
  it('lists the Sandbox profile as active', async () => {
    const r = await cli.run('--json', 'profiles', 'list');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ id: 'sandbox', active: true, hasSecret: true })]);
  });

  it('shows balances with the failing gateway named', async () => {
    const r = await cli.run('balances');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/₹[\d,]+\.\d{2}/);
    expect(r.stdout).toMatch(/the gateway answered INTERNAL_SERVER_ERROR/);
  });

  it('exports an Excel-safe CSV with its provenance sidecar; the help says what each format is for', async () => {
    const out = join(dir, 'exports', 'balances.csv');
    const r = await cli.run('--json', 'export', 'balances', '--out', out, '--excel-safe');
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout) as { status: string; rows: number; files: string[] };
    expect(done).toMatchObject({ status: 'completed', files: [out, join(dir, 'exports', 'balances.about.txt')] });
    expect(done.rows).toBeGreaterThan(0);
    // The account number column is an identifier: behind a tab, so a spreadsheet keeps it as text.
    const lines = readFileSync(out, 'utf8').split('\r\n');
    expect(lines[1]).toMatch(/^[^,]*,\t[^,]+,/);
    expect(readFileSync(join(dir, 'exports', 'balances.about.txt'), 'utf8')).toMatch(/^Export: Balance snapshots\r\n/);
    expect((await cli.run('--help')).stdout).toMatch(/XLSX is for people, CSV for systems/);
  });

  it('payout get of an unknown payout fails with exit 1 and the reason', async () => {
    const r = await cli.run('payout', 'get', 'po_nope');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/not found/);
  });
});

describe('on a profile of our own', () => {
  it('adds a profile, uses --secret-env, and reaches the sandbox', async () => {
    const add = await addLocalProfile(cli.run, sb);
    expect(add.code).toBe(0);
    const fx = sb.sandbox.fixtures();
    const failed = fx.payouts.find((p) => p.status === 'failed')!;
    const r = await cli.run('--profile', 'local', '--secret-env', 'PC_TEST_SECRET', 'payout', 'get', failed.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/FAILED/);
    expect(r.stdout).toMatch(/gateway says/);

    const ben = await cli.run(
      '--profile',
      'Local',
      '--secret-env',
      'PC_TEST_SECRET',
      '--json',
      'beneficiary',
      'add',
      '--name',
      'Kiran Shah',
      '--vpa',
      'kiran@okaxis',
    );
    expect(ben.code).toBe(0);
    const id = JSON.parse(ben.stdout).beneficiary_id as string;
    const got = await cli.run('--profile', 'Local', '--secret-env', 'PC_TEST_SECRET', 'beneficiary', 'get', id);
    expect(got.stdout).toMatch(/Kiran Shah/);
  });

  it('syncs with the pages at once its profile sets, and refuses a number the client cannot keep open', async () => {
    const day = addDays(TEST_TODAY, -2);
    const addSlow = (pages: string) => addLocalProfile(cli.run, sb, `One page ${pages}`, '--sync-concurrency', pages);
    const refused = await addSlow('9');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--sync-concurrency must be a whole number of pages from 1 to 8, got 9');
    expect((await addSlow('1')).code).toBe(0);
    const listed = JSON.parse((await cli.run('--json', 'profiles', 'list')).stdout) as Profile[];
    expect(listed.find((p) => p.name === 'One page 1')).toMatchObject({ syncConcurrency: 1 });
    const r = await cli.run(
      '--profile',
      'One page 1',
      '--secret-env',
      'PC_TEST_SECRET',
      '--json',
      'sync',
      'settlements',
      '--from',
      day,
      '--to',
      day,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'completed', concurrency: 1 });
  });

  it('without a secret, says how to set one (exit 1)', async () => {
    const r = await cli.run('--profile', 'Local', 'balances');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No secret is stored for the profile "Local"|No OS keychain is available/);
  });

  it('refuses a bad IFSC before sending', async () => {
    const r = await cli.run(
      '--profile',
      'Local',
      '--secret-env',
      'PC_TEST_SECRET',
      'beneficiary',
      'add',
      '--name',
      'X',
      '--account-number',
      '123456789',
      '--ifsc',
      'BAD',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ifsc/);
  });

  it('refuses a name with a character banks refuse, naming it, before sending', async () => {
    const before = sb.sandbox.fixtures().beneficiaries.length;
    const r = await cli.run(
      '--profile',
      'Local',
      '--secret-env',
      'PC_TEST_SECRET',
      'beneficiary',
      'add',
      '--name',
      '🚀 Rocket Payee',
      '--vpa',
      'rocket@okaxis',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('“🚀” (U+1F680), which banks refuse in a name');
    expect(sb.sandbox.fixtures().beneficiaries).toHaveLength(before);
  });

  it('syncs with the pages at once it is given, and refuses a number the client cannot keep open', async () => {
    const day = addDays(TEST_TODAY, -2);
    // The built-in sandbox profile, in a data folder of its own.
    const own = cliRunner(join(dir, 'sync-concurrency'));
    const sync = (concurrency: string) =>
      own.run('sync', 'settlements', '--from', day, '--to', day, '--concurrency', concurrency);
    for (const bad of ['0', '9', '2.5', 'many']) {
      const r = await sync(bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`--concurrency must be a whole number of pages from 1 to 8, got ${bad}`);
    }
    const two = await own.run('--json', 'sync', 'settlements', '--from', day, '--to', day, '--concurrency', '2');
    expect(two.code).toBe(0);
    expect(JSON.parse(two.stdout)).toMatchObject({ status: 'completed', concurrency: 2 });
    // Without the option, the profile's own setting: the built-in profile keeps the default.
    const plain = await own.run('sync', 'settlements', '--from', day, '--to', day);
    expect(plain.stdout).toContain(`, ${SYNC_CONCURRENCY.default} pages at once.`);
  });

  it('a create whose answer is lost exits 3 and says what to check', async () => {
    const path = OPERATIONS['beneficiary.create'].path;
    await sb.fault({ path, kind: 'drop', count: 1 });
    const r = await cli.run(
      '--profile',
      'Local',
      '--secret-env',
      'PC_TEST_SECRET',
      'beneficiary',
      'add',
      '--name',
      'Lost Answer Traders',
      '--vpa',
      'lostanswer@okaxis',
    );
    await sb.clearFaults();
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the outcome is unknown — check its status before trying again');
    expect(r.stderr).toContain(OPERATIONS['beneficiary.create'].afterUnknownOutcome!);
  });

  it('keeps the secret out of output, settings and logs', () => {
    const files = [join(dir, 'settings.json'), ...readdirSync(join(dir, 'logs')).map((f) => join(dir, 'logs', f))];
    const basic = Buffer.from(`${sb.key}:${sb.secret}`).toString('base64');
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text).not.toContain(sb.secret);
      expect(text).not.toContain(basic);
    }
    expect(readFileSync(join(dir, 'logs', 'cli.1.log'), 'utf8')).toMatch(/"operation":"payout.fetch"/);
  });
});

describe('set-secret through the real keychain, as a program', () => {
  it('reads the secret from standard input and stores it', async (ctx) => {
    const store = createKeytarStore(cli.keychainService);
    const probe = await store.probe();
    if (!requireSystem('the OS keychain', probe.available ? null : probe.reason)) return ctx.skip();
    const run = promisify(execFile);
    const child = run(
      process.execPath,
      ['--import', 'tsx', 'electron/cli/main.ts', '--data-dir', dir, 'profiles', 'set-secret', 'Local'],
      {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, PAYOUT_CONSOLE_KEYCHAIN_SERVICE: cli.keychainService },
        timeout: 30_000,
      },
    );
    child.child.stdin!.end(sb.secret + '\n');
    const { stdout } = await child;
    expect(stdout).toMatch(/Stored the secret for "Local"/);
    expect(stdout).not.toContain(sb.secret);
    const r = await cli.run('--profile', 'Local', 'balances');
    expect(r.code).toBe(0);
  });
});

describe('an unreadable cache', () => {
  it('is moved aside, the user is told where, and the command still answers', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(dir, 'cache'), { recursive: true });
    writeFileSync(join(dir, 'cache', 'sandbox.sqlite'), 'this is not a SQLite database, just bytes '.repeat(200));
    const r = await cli.run('settlements', 'summary', '--from', '2026-11-01', '--to', '2026-11-02');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /The local cache could not be used .* It was moved to .*sandbox\.sqlite.* Nothing was deleted\./,
    );
    expect(readdirSync(join(dir, 'cache')).some((f) => f.startsWith('sandbox.sqlite') && f !== 'sandbox.sqlite')).toBe(
      true,
    );
  });
});

describe.runIf(process.platform !== 'win32')('files the CLI creates', () => {
  it('makes the data folder and every folder in it 0700, and every file 0600, exports included', async () => {
    const fresh = join(dir, 'fresh-data');
    const own = cliRunner(fresh);
    const day = addDays(TEST_TODAY, -1);
    expect((await own.run('sync', 'settlements', '--from', day, '--to', day)).code).toBe(0);
    expect((await own.run('balances')).code).toBe(0);
    const out = join(fresh, 'exports', 'settlements.csv');
    expect((await own.run('export', 'settlements', '--from', day, '--to', day, '--out', out)).code).toBe(0);
    const files = filePathsUnder(fresh);
    expect(files).toEqual(expect.arrayContaining([join(fresh, 'cache', 'sandbox.sqlite'), out]));
    for (const file of files) expect({ file, mode: statSync(file).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    for (const folder of [fresh, join(fresh, 'cache'), join(fresh, 'logs'), join(fresh, 'exports')]) {
      expect({ folder, mode: statSync(folder).mode & 0o777 }).toEqual({ folder, mode: 0o700 });
    }
  });
});
