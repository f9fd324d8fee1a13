/**
 * `beneficiaries import` on files openpyxl wrote (text and number account cells, leading zeros, bad IFSCs,
 * duplicates within the file and against the cache, 1,000 rows), against a loopback sandbox: exact per-row
 * outcomes, what the sandbox holds afterwards, a rerun that creates nothing twice, and a run killed mid-way
 * (SIGKILL) then rerun, after which each payee exists at the sandbox exactly once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportOutcome, ImportReport } from '../../shared/beneficiary-import';
import { cliRunner } from '../support/cli';
import { openpyxlCells, openpyxlProblem, openpyxlWrite, type SheetInput } from '../support/export-files';
import { openSandbox, sandboxProfile, type OpenSandbox } from '../support/sandbox';
import { hook } from '../support/sandbox-http';
import { spawnCli } from '../support/spawn-cli';
import { requireSystem } from '../support/system';

const CREATE_PATH = '/api/v2/payout/beneficiary/create';
const HEADER = ['Name', 'Account number', 'IFSC', 'UPI address', 'Phone', 'Email'];

const ready = requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem());

let sb: OpenSandbox;
let dir: string;
let run: ReturnType<typeof cliRunner>['run'];

const cli = (...argv: string[]) => run('--profile', 'Desk', '--secret-env', 'DESK_SECRET', ...argv);
const report = (out: { stdout: string }) => JSON.parse(out.stdout) as ImportReport & { dryRun: boolean };

beforeAll(async () => {
  sb = await openSandbox({ settlementsPerDay: 1 });
  dir = mkdtempSync(join(tmpdir(), 'beneficiary-import-'));
  sandboxProfile(sb, dir);
  run = cliRunner(dir, { DESK_SECRET: sb.secret }).run;
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sandboxIds(): Promise<Set<string>> {
  const fx = await hook<{ beneficiaries: { id: string }[] }>(sb.sandbox.url, 'GET', 'fixtures');
  return new Set(fx.body.beneficiaries.map((b) => b.id));
}

/** The beneficiaries the sandbox holds beyond `before`, as it answers a fetch of each. */
async function madeSince(before: Set<string>) {
  const api = sb.api();
  const made = [...(await sandboxIds())].filter((id) => !before.has(id));
  return Promise.all(made.map(async (id) => ({ id, ...(await api.payouts.fetchBeneficiary(id)).data })));
}

const outcomes = (r: ImportReport) => r.rows.map((row) => [row.row, row.outcome] as [number, ImportOutcome]);

describe.runIf(ready)('an import file written by openpyxl', () => {
  const file = () => join(dir, 'vendors.xlsx');
  let before: Set<string>;

  beforeAll(async () => {
    // A payee the desk already has: row 9 names the same bank account.
    const added = await cli(
      'beneficiaries',
      'add',
      '--name',
      'Cached Vendor',
      '--account-number',
      '555566667777',
      '--ifsc',
      'UTIB0000555',
    );
    expect(added.code, added.stderr).toBe(0);
    const rows: SheetInput[][] = [
      HEADER,
      ['  Leading   Zeros Ltd ', '000123456789', 'hdfc0001234', null, '+91 98765 43210', 'ap@lz.example'],
      ['Number Cell Traders', { n: 123456789012 }, 'SBIN0000123', null, null, null],
      ['Formatted Number Co', { n: 123456789, fmt: '000000000000' }, 'ICIC0000001', null, null, null],
      ['Bad Ifsc Stores', '222233334444', 'HDFC001234', null, null, null],
      ['Leading Zeros again', '0001 2345 6789', 'HDFC0001234', null, null, null],
      ['Lost Digits Ltd', { n: 1234567890123456 }, 'SBIN0000123', null, null, null],
      [null, null, null, null, null, null],
      ['Cached Vendor copy', '555566667777', 'utib0000555', null, null, null],
      ['Upi Shop', null, null, 'Shop@OKSBI', '098765 43211', null],
      [null, '999988887777', 'SBIN0000999', null, null, null],
    ];
    openpyxlWrite(file(), rows);
    before = await sandboxIds();
  });

  it('a dry run says what each row would become and sends nothing', { timeout: 60_000 }, async () => {
    const out = await cli('--json', 'beneficiaries', 'import', file(), '--dry-run');
    expect(out.code, out.stderr).toBe(2);
    const r = report(out);
    expect(r.dryRun).toBe(true);
    expect(outcomes(r)).toEqual([
      [2, 'ready'],
      [3, 'ready'],
      [4, 'ready'],
      [5, 'invalid'],
      [6, 'duplicate'],
      [7, 'invalid'],
      [9, 'exists'],
      [10, 'ready'],
      [11, 'invalid'],
    ]);
    // Each IFSC with its bank, from Razorpay's IFSC list.
    expect(r.rows.find((x) => x.row === 2)).toMatchObject({
      ifsc: 'HDFC0001234',
      bank: 'HDFC Bank',
      ifscWarning: null,
    });
    expect(r.rows.find((x) => x.row === 5)!.reason).toMatch(/^IFSC must be an IFSC code/);
    expect(r.rows.find((x) => x.row === 6)!.reason).toBe('The same payee as row 2.');
    expect(r.rows.find((x) => x.row === 7)!.reason).toMatch(/more than 15 digits/);
    expect(r.rows.find((x) => x.row === 9)!.reason).toMatch(/^Already a beneficiary: Cached Vendor \(/);
    expect(r.rows.find((x) => x.row === 11)!.reason).toBe('Name must not be empty.');
    expect(await sandboxIds()).toEqual(before);
  });

  it(
    'creates the good rows once, with leading zeros kept, and a rerun creates nothing',
    { timeout: 60_000 },
    async () => {
      const results = join(dir, 'results.xlsx');
      const out = await cli('--json', 'beneficiaries', 'import', file(), '--results', results);
      expect(out.code, out.stderr).toBe(2);
      const r = report(out);
      const created = r.rows.filter((x) => x.outcome === 'created');
      expect(created.map((x) => x.row)).toEqual([2, 3, 4, 10]);
      expect(r.counts).toMatchObject({ created: 4, invalid: 3, duplicate: 1, exists: 1 });

      const made = await madeSince(before);
      expect(made).toHaveLength(4);
      const byId = new Map(made.map((m) => [m.id, m]));
      expect(byId.get(created[0]!.beneficiaryId!)).toMatchObject({
        name: 'Leading Zeros Ltd',
        account_number: '000123456789',
        ifsc: 'HDFC0001234',
        phone: '9876543210',
      });
      expect(byId.get(created[1]!.beneficiaryId!)).toMatchObject({ account_number: '123456789012' });
      expect(byId.get(created[2]!.beneficiaryId!)).toMatchObject({
        account_number: '000123456789',
        ifsc: 'ICIC0000001',
      });
      expect(byId.get(created[3]!.beneficiaryId!)).toMatchObject({ vpa: 'shop@oksbi', phone: '9876543211' });

      // The results workbook, read by openpyxl: one row per sheet row, the outcome and the id.
      const [header, ...lines] = openpyxlCells(results)['Import results']!;
      expect(header!.map((c) => c[1])).toEqual([
        'Row',
        'Name',
        'Account',
        'IFSC',
        'Bank',
        'IFSC warning',
        'UPI address',
        'Outcome',
        'Beneficiary id',
        'Reason',
      ]);
      expect(lines.map((l) => [l[0]![1], l[4]?.[1] ?? null, l[7]![1], l[8]![1]])).toEqual(
        r.rows.map((x) => [x.row, x.bank, expect.any(String), x.beneficiaryId]),
      );
      expect(lines[0]![2]![1]).toBe('•••••6789');

      const again = await cli('--json', 'beneficiaries', 'import', file());
      expect(again.code, again.stderr).toBe(2);
      const second = report(again);
      expect(second.rows.filter((x) => x.outcome === 'already_created').map((x) => x.beneficiaryId)).toEqual(
        created.map((x) => x.beneficiaryId),
      );
      expect(second.counts.created).toBe(0);
      expect(await madeSince(before)).toHaveLength(4);
    },
  );

  it('the singular group still works as an alias', async () => {
    const out = await cli('--json', 'beneficiary', 'import', file(), '--dry-run');
    expect(report(out).counts.already_created).toBe(4);
  });

  it('refuses a file without a name column as bad input, and maps unknown headers with --map', async () => {
    const odd = join(dir, 'odd.csv');
    writeFileSync(odd, 'Vendor,A/c,Branch,GSTIN\r\n"Mapped, Ltd","000777788889",KKBK0000777,29ABCDE1234F1Z5\r\n');
    const refused = await cli('--json', 'beneficiaries', 'import', odd, '--dry-run');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/No column is the Name\. No column is the Account number or the UPI address\./);
    const mapped = await cli(
      '--json',
      'beneficiaries',
      'import',
      odd,
      '--dry-run',
      '--map',
      'Vendor=name',
      '--map',
      'A/c=account_number',
      '--map',
      'branch=ifsc',
    );
    // A column left neither mapped nor left out stops the import, with how to do either.
    expect(mapped.code).toBe(2);
    expect(mapped.stderr).toContain(
      'The column "GSTIN" is not mapped: choose its field or leave it out. Map each with --map "Header=field", or leave it out with --map "Header=ignore".',
    );
    const ignored = await cli(
      '--json',
      'beneficiaries',
      'import',
      odd,
      '--dry-run',
      '--map',
      'Vendor=name',
      '--map',
      'A/c=account_number',
      '--map',
      'branch=ifsc',
      '--map',
      'GSTIN=ignore',
    );
    expect(ignored.code, ignored.stderr).toBe(0);
    const r = report(ignored);
    expect(r.unknownHeaders).toEqual([]);
    expect(r.rows).toEqual([expect.objectContaining({ row: 2, name: 'Mapped, Ltd', account_number: '000777788889' })]);
    // KKBK0000777 is not in Razorpay's IFSC list: a warning naming why, and the row is still ready.
    expect(r.rows[0]!.outcome).toBe('ready');
    expect(r.rows[0]!.ifscWarning).toMatch(/^Kotak Mahindra Bank has no branch KKBK0000777 in Razorpay's IFSC list/);
    const human = await cli(
      'beneficiaries',
      'import',
      odd,
      '--dry-run',
      '--map',
      'Vendor=name',
      '--map',
      'A/c=account_number',
      '--map',
      'branch=ifsc',
      '--map',
      'GSTIN=ignore',
    );
    expect(human.stdout).toContain("Row 2: Kotak Mahindra Bank has no branch KKBK0000777 in Razorpay's IFSC list");
  });

  it('adds a payee with the IFSC’s bank named, and warns of an IFSC the list does not hold without refusing it', async () => {
    const known = await cli(
      'beneficiaries',
      'add',
      '--name',
      'Known Branch Co',
      '--account-number',
      '000111222333',
      '--ifsc',
      'sbin0000123',
    );
    expect(known.code, known.stderr).toBe(0);
    expect(known.stdout).toContain('Bank: State Bank of India (SBIN0000123).');
    expect(known.stderr).toBe('');
    const unknown = await cli(
      '--json',
      'beneficiaries',
      'add',
      '--name',
      'New Branch Co',
      '--account-number',
      '000111222444',
      '--ifsc',
      'HDFC0ZZZZZZ',
    );
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(unknown.stderr).toContain("Warning: HDFC Bank has no branch HDFC0ZZZZZZ in Razorpay's IFSC list");
    expect(JSON.parse(unknown.stdout).ifsc).toMatchObject({
      bank: 'HDFC Bank',
      warning: expect.stringMatching(/^HDFC Bank has no branch/),
    });
  });
});

describe.runIf(ready)('faults during an import', () => {
  it(
    'a lost answer is unknown and never resent, a service that stops leaves the rest unsent; check-status settles it',
    {
      timeout: 120_000,
    },
    async () => {
      const rows: SheetInput[][] = [HEADER];
      for (let i = 0; i < 6; i++) rows.push([`Faulty ${i}`, String(660000000000 + i), 'BARB0000066', null, null, null]);
      const file = join(dir, 'faulty.xlsx');
      openpyxlWrite(file, rows);
      const before = await sandboxIds();
      // The first create is made but its answer comes back cut; the second meets a 503.
      await sb.fault({ path: CREATE_PATH, kind: 'malformed', count: 1 });
      const first = await cli('--json', 'beneficiaries', 'import', file);
      expect(first.code).toBe(3);
      expect(outcomes(report(first))).toEqual([
        [2, 'unknown'],
        [3, 'created'],
        [4, 'created'],
        [5, 'created'],
        [6, 'created'],
        [7, 'created'],
      ]);
      await sb.fault({ path: CREATE_PATH, kind: '503', count: 1 });
      const rows2: SheetInput[][] = [HEADER];
      for (let i = 0; i < 4; i++)
        rows2.push([`Stopped ${i}`, String(670000000000 + i), 'BARB0000067', null, null, null]);
      const stoppedFile = join(dir, 'stopped.xlsx');
      openpyxlWrite(stoppedFile, rows2);
      const stopped = await cli('--json', 'beneficiaries', 'import', stoppedFile);
      expect(stopped.code).toBe(1);
      expect(outcomes(report(stopped))).toEqual([
        [2, 'refused'],
        [3, 'not_sent'],
        [4, 'not_sent'],
        [5, 'not_sent'],
      ]);
      // Rerun: the refused and unsent rows go out; the unknown one does not.
      const resent = report(await cli('--json', 'beneficiaries', 'import', stoppedFile));
      expect(resent.counts).toMatchObject({ created: 4 });
      const again = await cli('--json', 'beneficiaries', 'import', file);
      expect(again.code).toBe(3);
      expect(outcomes(report(again))[0]).toEqual([2, 'unknown']);
      const made = await madeSince(before);
      expect(made.filter((m) => m.account_number === '660000000000')).toHaveLength(1);
      expect(made).toHaveLength(10);

      // The desk finds the id at the service and settles the attempt; the next run reports it as created.
      const attempt = /journal entry (\d+)/.exec(report(again).rows[0]!.reason!)![1]!;
      const lost = made.find((m) => m.account_number === '660000000000')!;
      const settled = await cli('journal', 'check-status', attempt, '--beneficiary-id', lost.id);
      expect(settled.code, settled.stderr).toBe(0);
      const last = await cli('--json', 'beneficiaries', 'import', file);
      expect(last.code, last.stderr).toBe(0);
      expect(report(last).rows[0]).toMatchObject({ row: 2, outcome: 'already_created', beneficiaryId: lost.id });
      expect(await madeSince(before)).toHaveLength(10);
    },
  );
});

describe.runIf(ready)('1,000 rows', () => {
  it('every row gets its exact outcome', { timeout: 300_000 }, async () => {
    const rows: SheetInput[][] = [HEADER];
    const want: [number, ImportOutcome][] = [];
    for (let i = 0; i < 1000; i++) {
      const sheetRow = i + 2;
      const account = String(700000000000 + i).padStart(14, '0');
      if (i % 50 === 49) {
        // The same account as the row before: a duplicate within the file.
        rows.push([`Dup ${i}`, String(700000000000 + i - 1).padStart(14, '0'), 'YESB0000001', null, null, null]);
        want.push([sheetRow, 'duplicate']);
      } else if (i % 10 === 3) {
        rows.push([`Bad ${i}`, account, 'YESB000001', null, null, null]);
        want.push([sheetRow, 'invalid']);
      } else {
        // Even rows hold the account as text, odd ones as a number formatted back to its 14 digits.
        const cell: SheetInput = i % 2 === 0 ? account : { n: Number(account), fmt: '0'.repeat(14) };
        rows.push([`Vendor ${i}`, cell, 'YESB0000001', null, null, null]);
        want.push([sheetRow, 'created']);
      }
    }
    const file = join(dir, 'thousand.xlsx');
    openpyxlWrite(file, rows);
    const before = await sandboxIds();
    const out = await cli('--json', 'beneficiaries', 'import', file);
    expect(out.code, out.stderr).toBe(2);
    const r = report(out);
    expect(outcomes(r)).toEqual(want);
    const made = await madeSince(before);
    const createdRows = r.rows.filter((x) => x.outcome === 'created');
    expect(made).toHaveLength(createdRows.length);
    const accounts = new Map(made.map((m) => [m.id, m.account_number]));
    for (const x of createdRows) expect(accounts.get(x.beneficiaryId!)).toBe(x.account_number);
    expect(createdRows.every((x) => /^0{2}7\d{11}$/.test(x.account_number))).toBe(true);
  });
});

describe.runIf(ready)('an import killed mid-way', () => {
  it('a rerun after SIGKILL leaves each payee at the sandbox exactly once', { timeout: 300_000 }, async () => {
    const rows: SheetInput[][] = [HEADER];
    for (let i = 0; i < 60; i++) rows.push([`Killed ${i}`, String(880000000000 + i), 'PUNB0000088', null, null, null]);
    const file = join(dir, 'killed.xlsx');
    openpyxlWrite(file, rows);
    const before = await sandboxIds();
    const child = spawnCli(
      { dataDir: dir, profile: 'Desk', secret: sb.secret, stdio: 'ignore' },
      'beneficiaries',
      'import',
      file,
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, s) => resolve(s)));
    for (let waited = 0; ; waited += 20) {
      if ((await sandboxIds()).size - before.size >= 15) break;
      if (waited > 120_000) throw new Error('the child never created 15 payees');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const atKill = (await sandboxIds()).size - before.size;
    expect(atKill).toBeLessThan(60);

    const out = await cli('--json', 'beneficiaries', 'import', file);
    const r = report(out);
    const unknown = r.rows.filter((x) => x.outcome === 'unknown');
    // Only a row whose request was out when the process died can be unknown; its reason says to check status.
    expect(unknown.length).toBeLessThanOrEqual(1);
    for (const x of unknown) expect(x.reason).toMatch(/outcome unknown — check status/);
    expect(out.code).toBe(unknown.length ? 3 : 0);
    expect(r.counts.created + r.counts.already_created + unknown.length).toBe(60);
    expect(r.counts.already_created).toBeGreaterThanOrEqual(atKill - 1);

    const made = await madeSince(before);
    const perAccount = new Map<string, number>();
    for (const m of made) perAccount.set(m.account_number!, (perAccount.get(m.account_number!) ?? 0) + 1);
    for (const x of r.rows) {
      const n = perAccount.get(x.account_number) ?? 0;
      if (x.outcome === 'unknown') expect(n).toBeLessThanOrEqual(1);
      else expect([x.row, n]).toEqual([x.row, 1]);
    }
    expect(made).toHaveLength(perAccount.size);
  });
});
