/**
 * What a compromised renderer can send through IPC and what it must not get for it: an export's name steered out
 * of its folder by a filter, megabytes of filter text, forged page cursors, dates the cache cannot hold. Each is
 * refused with a typed code or made harmless, and the files written are private. Through the IPC router on a real
 * data folder, with the export's default target (no save dialog).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { fileNamePart, insideFolder } from '../../electron/export/file-names';
import { suggestedName } from '../../electron/export/jobs';
import type { Sandbox } from '../../electron/sandbox/server';
import { addDays } from '../../shared/time';
import { TEST_NOW, TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, nextEvent, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';

const range = { from: addDays(TEST_TODAY, -1), to: addDays(TEST_TODAY, -1) };

let sandbox: Sandbox;
let core: Core;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 5 });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-hostile-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore() });
});
afterAll(async () => {
  await core?.close();
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const STEERING = [
  '../../../../.config/autostart/x',
  '..\\..\\AppData\\Roaming\\Startup\\x',
  '/etc/cron.d/x',
  'C:\\Windows\\x',
  '..',
  '.hidden',
  'CON',
  'x\u0000y',
  'payu/../../x',
  '\u202Egpj.exe',
];

describe('export names', () => {
  it.each(STEERING)('a gateway filter of %j cannot move the export out of the exports folder', async (pg) => {
    const finished = nextEvent(core, 'exportFinished');
    const started = await ok(core, 'exports.start', { kind: 'settlements', format: 'csv', filter: { ...range, pg } });
    expect(dirname(started.file!)).toBe(join(dataDir, 'exports'));
    expect(await finished).toMatchObject({ status: 'completed' });
    expect(readdirSync(join(dataDir, 'exports'))).toContain(started.file!.slice(join(dataDir, 'exports').length + 1));
    if (process.platform !== 'win32') {
      expect(statSync(started.file!).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, 'exports')).mode & 0o777).toBe(0o700);
    }
  });

  it('every suggested name is one plain, bounded file name', () => {
    const names = [...STEERING, 'x'.repeat(500), '…', 'Привет мир'].map((text) =>
      suggestedName(text, { kind: 'settlements', format: 'xlsx', filter: { ...range, pg: text } }, TEST_NOW),
    );
    for (const name of names) {
      expect(name).toMatch(/^[a-z0-9-]+\.xlsx$/);
      expect(name.length).toBeLessThanOrEqual(2 * 40 + 60);
    }
    expect(fileNamePart('  HDFC — Payouts!! ', 'profile')).toBe('hdfc-payouts');
    expect(fileNamePart('***', 'profile')).toBe('profile');
  });

  it('refuses a target that is not a direct child of its folder', () => {
    const folder = join(dataDir, 'exports');
    expect(insideFolder(folder, join(folder, 'a.csv'))).toBe(join(folder, 'a.csv'));
    for (const file of [
      join(folder, '..', 'a.csv'),
      join(folder, 'sub', 'a.csv'),
      join(folder, '.a.csv'),
      '/tmp/a.csv',
    ]) {
      expect(() => insideFolder(folder, file)).toThrow(/is not a file in/);
    }
  });

  it.each([
    ['HDFC A/C 0012', 'hdfc-a-c-0012'],
    ['../../../evil', 'evil'],
    ['..', 'account'],
  ])('a bank account named %j names its reconciliation workbook in the exports folder', async (account, part) => {
    const day = range.to;
    const statement = [
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
      `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(2, 4)},NEFT CR-UTIB0000100-X-123456789012,1,,,"1,000.00",5000.00`,
    ].join('\n');
    const content = Buffer.from(statement).toString('base64');
    await ok(core, 'recon.importStatement', { fileName: 'statement.csv', content, account });
    const { file } = await ok(core, 'recon.export', { account, ...range });
    expect(dirname(file!)).toBe(join(dataDir, 'exports'));
    expect(basename(file!)).toBe(`sandbox-reconciliation-${range.from}-to-${range.to}-${part}.xlsx`);
    expect(statSync(file!).size).toBeGreaterThan(0);
  });
});

describe('schema-valid shapes the handlers cannot take', () => {
  const questions = { topic: { type: 'choice', instructions: 'What is it about?', criteria: ['refund', 'payout'] } };
  let deep: unknown = 'bottom';
  for (let i = 0; i < 10_000; i++) deep = { a: deep };

  it.each([
    ['10,000 levels of nesting', { state: deep, questions }, /nests deeper than 64 levels/],
    ['a BigInt', { state: { amount: 10n ** 30n }, questions }, /BigInt/],
    ['NaN', { state: { amount: NaN }, questions }, /NaN/],
    ['undefined', { state: [undefined], questions }, /undefined/],
    ['a Map', { state: { m: new Map() }, questions }, /Map/],
  ])('classification.classify refuses a state holding %s as INVALID_INPUT, in words', async (_, input, words) => {
    const reply = await call(core, 'classification.classify', input as never);
    expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    if (reply.ok) return;
    expect(reply.error.details).toEqual([{ path: 'state', message: expect.stringMatching(words) }]);
  });

  it('recon.saveSettings refuses a setting given as undefined as INVALID_INPUT, and keeps the settings', async () => {
    const before = await ok(core, 'recon.accounts', undefined);
    const reply = await call(core, 'recon.saveSettings', { windowDays: undefined } as never);
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', details: [{ path: 'windowDays', message: expect.any(String) }] },
    });
    if (!reply.ok) expect(reply.error.message).toBe('Invalid input for recon.saveSettings.');
    expect(await ok(core, 'recon.accounts', undefined)).toEqual(before);
    expect(await ok(core, 'recon.saveSettings', { windowDays: 3 })).toMatchObject({ windowDays: 3 });
  });
});

describe('filters and cursors', () => {
  it('refuses 20 MiB of filter text with INVALID_INPUT, before the cache sees it', async () => {
    const pg = 'x'.repeat(20 * 1024 * 1024);
    for (const [channel, input] of [
      ['settlements.totals', { ...range, pg }],
      ['settlements.query', { ...range, paymentMode: pg }],
      ['exports.start', { kind: 'settlements', format: 'csv', filter: { ...range, orderStatus: pg } }],
      ['sync.start', { ...range, pg }],
    ] as const) {
      const reply = await call(core, channel, input as never);
      expect(reply, channel).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(JSON.stringify(reply).length).toBeLessThan(2000);
    }
  });

  it.each([
    ['not base64 JSON', '%%%not-a-cursor%%%'],
    ['JSON of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    ['a key of the wrong types', Buffer.from('[["x"],{"y":2}]').toString('base64url')],
    ['an id past any row id', Buffer.from('["date","desc",null,1e300]').toString('base64url')],
    ['another sort order', Buffer.from('["amount","asc",5,1]').toString('base64url')],
    ['an empty key', Buffer.from('[]').toString('base64url')],
  ])('a forged cursor (%s) is INVALID_CURSOR, not INTERNAL', async (_label, after) => {
    const reply = await call(core, 'settlements.query', { ...range, after });
    expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_CURSOR' } });
  });

  it.each([
    ['settlements.query', { from: '1969-12-31', to: '1970-01-02' }],
    ['settlements.totals', { from: '1900-01-01', to: '1900-01-01' }],
    ['settlements.facets', { from: '1969-01-01', to: '1969-01-02' }],
    ['sync.start', { from: '1969-12-31', to: '1969-12-31' }],
    ['settlements.aggregate', { from: '9999-12-30', to: '9999-12-31' }],
  ] as const)('%s with dates the cache cannot hold is INVALID_INPUT naming the range', async (channel, input) => {
    const reply = await call(core, channel, input as never);
    expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(reply)).toContain('must be from 1970-01-01 to 2999-12-31');
  });
});
