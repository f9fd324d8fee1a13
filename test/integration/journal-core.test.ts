/**
 * The journal as the app writes it, through the IPC router of a core on a loopback sandbox: period close against
 * the sandbox's mutate hook and a re-sync, exports and their files' SHA-256, beneficiary creates (succeeded,
 * refused, outcome unknown and its status check), profile and credential events, and a cleared cache that keeps
 * its journal. Every test ends with the chain verifying.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { verifyFile } from '../../electron/journal/exports';
import type { Sandbox } from '../../electron/sandbox/server';
import { formatCalendarDate, formatCount } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, nextEvent, ok, sentOk, syncedThroughJob } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { openpyxlCells, openpyxlProblem } from '../support/export-files';
import { hook } from '../support/sandbox-http';
import { requireSystem } from '../support/system';

const PER_DAY = 40;
const withOpenpyxl = requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem());
const range = { from: addDays(TEST_TODAY, -3), to: addDays(TEST_TODAY, -2) };

let sandbox: Sandbox;
let core: Core;
let dataDir: string;

const journal = () => core.journals.for('sandbox').journal;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function sync(from: string, to: string) {
  const finished = await syncedThroughJob(core, { from, to });
  expect(finished.summary?.status).toBe('completed');
  return finished.summary!;
}

async function exportFile(request: Parameters<Core['exports']['start']>[1]) {
  const { jobId, file } = await ok(core, 'exports.start', request);
  const finished = await nextEvent(core, 'exportFinished', (p) => p.jobId === jobId);
  expect(finished.status).toBe('completed');
  return file!;
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: PER_DAY });
  dataDir = mkdtempSync(join(tmpdir(), 'journal-core-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore(), osUser: 'treasury-desk' });
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('period close', () => {
  it('closes, turns "changed after close" with the exact difference after a re-sync, and clears on re-close', async () => {
    await sync(range.from, range.to);
    const closed = await ok(core, 'journal.closePeriod', range);
    const db = core.cacheFor('sandbox').db;
    const current = db
      .prepare(
        `SELECT count(*) AS n, sum(settled_amount) AS settled FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL`,
      )
      .get(range.from, range.to) as { n: number; settled: number };
    expect(closed).toMatchObject({ ...range, state: 'closed', records: current.n });
    const entry = journal().get(closed.closeSeq)!;
    expect(entry).toMatchObject({
      kind: 'period',
      event: 'period.close',
      data: { digest: closed.digest, records: current.n },
    });
    const totals = entry.data['totals'] as { settled: number; count: number }[];
    expect(totals.reduce((s, t) => s + t.settled, 0)).toBe(current.settled);
    expect(totals.reduce((s, t) => s + t.count, 0)).toBe(current.n);

    // An unchanged re-sync leaves the period closed.
    await sync(range.from, range.to);
    expect((await ok(core, 'journal.periods', range))[0]).toMatchObject({ state: 'closed' });

    const mutated = await hook<{ changed: { pg_transaction_id: string }[]; removed: { pg_transaction_id: string }[] }>(
      sandbox.url,
      'POST',
      'settlements/mutate',
      { date: range.from, count: 3, remove: 2 },
    );
    expect(mutated.http).toBe(200);
    await sync(range.from, range.to);
    const [changed] = await ok(core, 'journal.periods', range);
    expect(changed).toMatchObject({ state: 'changed', added: 0, modified: 3, vanished: 2 });
    expect(journal().list({ kind: 'period' })[0]).toMatchObject({ event: 'period.changed', refersTo: closed.closeSeq });

    const diff = await ok(core, 'journal.periodDiff', { id: closed.id });
    expect(diff.modified.map((r) => r.pgTransactionId).sort()).toEqual(
      mutated.body.changed.map((r) => r.pg_transaction_id).sort(),
    );
    expect(diff.vanished.map((r) => r.pgTransactionId).sort()).toEqual(
      mutated.body.removed.map((r) => r.pg_transaction_id).sort(),
    );
    expect(diff.added).toEqual([]);
    // Totals before are the close's; after are what the cache holds now.
    const now = db
      .prepare(
        `SELECT count(*) AS n, sum(settled_amount) AS settled FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL`,
      )
      .get(range.from, range.to) as { n: number; settled: number };
    expect(diff.totals.reduce((s, t) => s + t.before.count, 0)).toBe(current.n);
    expect(diff.totals.reduce((s, t) => s + t.after.count, 0)).toBe(now.n);
    expect(diff.totals.reduce((s, t) => s + t.after.settled, 0)).toBe(now.settled);

    const reclosed = await ok(core, 'journal.closePeriod', range);
    expect(reclosed).toMatchObject({
      id: closed.id,
      state: 'closed',
      records: now.n,
      added: 0,
      modified: 0,
      vanished: 0,
    });
    expect(journal().get(reclosed.closeSeq)).toMatchObject({ event: 'period.reclose' });
    expect((await ok(core, 'journal.periodDiff', { id: closed.id })).modified).toEqual([]);
  });

  it('acknowledges a change, flags only a further one, and reopens, each journaled', async () => {
    const [period] = await ok(core, 'journal.periods', range);
    await hook(sandbox.url, 'POST', 'settlements/mutate', { date: range.to, count: 1, remove: 0 });
    await sync(range.from, range.to);
    expect((await ok(core, 'journal.periods', range))[0]).toMatchObject({ state: 'changed', modified: 1 });
    const refused = await call(core, 'journal.acknowledgePeriod', { id: 999 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PERIOD_NOT_FOUND' } });
    const acknowledged = await ok(core, 'journal.acknowledgePeriod', { id: period!.id });
    expect(acknowledged.state).toBe('closed');
    await sync(range.from, range.to);
    expect((await ok(core, 'journal.periods', range))[0]!.state).toBe('closed');
    await hook(sandbox.url, 'POST', 'settlements/mutate', { date: range.to, count: 1, remove: 0 });
    await sync(range.from, range.to);
    expect((await ok(core, 'journal.periods', range))[0]).toMatchObject({ state: 'changed', modified: 2 });

    const overlap = await call(core, 'journal.closePeriod', { from: range.to, to: addDays(range.to, 1) });
    const dates = `${formatCalendarDate(range.from)} to ${formatCalendarDate(range.to)}`;
    expect(overlap).toMatchObject({
      ok: false,
      error: {
        code: 'PERIOD_OVERLAP',
        message: `${formatCalendarDate(range.to)} to ${formatCalendarDate(addDays(range.to, 1))} overlaps the closed period ${dates}; reopen that one first.`,
      },
    });
    await ok(core, 'journal.reopenPeriod', { id: period!.id });
    expect(await ok(core, 'journal.periods', range)).toEqual([]);
    const [reopened, changedEntry, acknowledgedEntry] = journal().list({ kind: 'period', limit: 3 });
    expect([reopened, changedEntry, acknowledgedEntry].map((e) => e!.event)).toEqual([
      'period.reopen',
      'period.changed',
      'period.acknowledge',
    ]);
    // The journal's sentences in the screens' formats (dd/mm/yyyy, en-IN counts), whatever the machine's zone.
    const counts = (e: typeof reopened) =>
      `${e!.data['added']} added, ${e!.data['vanished']} vanished, ${e!.data['modified']} changed`;
    expect([reopened, changedEntry, acknowledgedEntry].map((e) => e!.summary)).toEqual([
      `Reopened settlements ${dates}.`,
      `Settlements ${dates} changed after close: ${counts(changedEntry)}.`,
      `Acknowledged the changes to ${dates} since it was closed: ${counts(acknowledgedEntry)}.`,
    ]);
    const synced = journal().list({ kind: 'sync', limit: 1 })[0]!;
    expect(synced.summary).toBe(
      `Settlement sync ${dates} completed: ${formatCount(synced.data['records'] as number)} records stored, ` +
        `${formatCount(synced.data['updated'] as number)} changed, ${formatCount(synced.data['vanished'] as number)} vanished.`,
    );
    for (const e of journal().list({})) expect(e.summary).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect((await journal().verify()).ok).toBe(true);
  });
});

describe('exports', () => {
  it('journals each export with its rows, totals, file name and the SHA-256 of the written file', async () => {
    const file = await exportFile({ kind: 'settlements', format: 'xlsx', filter: range });
    const entry = journal().list({ kind: 'export', limit: 1 })[0]!;
    const db = core.cacheFor('sandbox').db;
    const cached = db
      .prepare(
        `SELECT count(*) AS n, sum(amount) AS amount, sum(settled_amount) AS settled FROM settlements
                WHERE date BETWEEN ? AND ? AND vanished_at IS NULL`,
      )
      .get(range.from, range.to) as { n: number; amount: number; settled: number };
    expect(entry).toMatchObject({
      event: 'export.settlements',
      outcome: 'completed',
      osUser: 'treasury-desk',
      data: {
        kind: 'settlements',
        format: 'xlsx',
        filter: range,
        rows: cached.n,
        totals: { count: cached.n, amount: cached.amount, settled: cached.settled },
        fileName: file.split(/[\\/]/).at(-1),
        sha256: sha256(file),
      },
    });

    const csv = await exportFile({ kind: 'beneficiaries', format: 'csv' });
    expect(journal().list({ kind: 'export', limit: 1 })[0]!.data['sha256']).toBe(sha256(csv));

    expect(await verifyFile(journal(), file)).toMatchObject({ verdict: 'unchanged', export: { seq: entry.seq } });
    appendFileSync(csv, 'tampered\r\n');
    expect(await verifyFile(journal(), csv)).toMatchObject({ verdict: 'changed' });
  });

  it.runIf(withOpenpyxl)(
    'prints the journal head at export time on the Audit sheet, as openpyxl reads it',
    async () => {
      const file = await exportFile({ kind: 'settlements', format: 'xlsx', filter: range });
      const entry = journal().list({ kind: 'export', limit: 1 })[0]!;
      const audit = openpyxlCells(file)['Audit']!;
      const line = audit.find((row) => row[0]?.[1] === 'Journal head hash');
      // The head when the export started: the entry just before the export's own.
      expect(line?.[1]).toEqual(['s', entry.prevHash]);
    },
  );

  it('exports the journal itself, every entry with its hashes', async () => {
    const file = await exportFile({ kind: 'journal', format: 'csv' });
    const lines = readFileSync(file, 'utf8').trim().split('\r\n');
    const entries = journal().head().seq;
    // The header, then every entry written before this export's own entry.
    expect(lines).toHaveLength(entries);
    expect(lines[1]).toContain(journal().get(1)!.hash);
  });
});

describe('actions at the service', () => {
  const form = { name: 'Journal Vendor', account_number: '000123456789', ifsc: 'HDFC0001234' };

  it('journals an attempt before the call and its outcome after, with the request id and the new id', async () => {
    const created = await sentOk(core, 'beneficiaries.create', { requestKey: 'journal-1', beneficiary: form });
    const [outcome, attempt] = journal().list({ kind: 'action', limit: 2 });
    expect(attempt).toMatchObject({
      event: 'beneficiary.create',
      outcome: 'attempted',
      data: { asked: { name: form.name } },
    });
    expect(outcome).toMatchObject({
      outcome: 'succeeded',
      refersTo: attempt!.seq,
      data: { beneficiaryId: created.beneficiary.beneficiary_id },
    });
  });

  it('journals a refusal with the service’s reason', async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/api/v2/payout/beneficiary/create', kind: '503' }),
    });
    const reply = await call(core, 'beneficiaries.create', { requestKey: 'journal-2', beneficiary: form });
    expect(reply.ok).toBe(false);
    expect(journal().list({ kind: 'action', limit: 1 })[0]).toMatchObject({
      outcome: 'refused',
      data: { errorKind: 'unavailable' },
    });
  });

  it('leaves an outcome unknown on a lost answer, which a status check settles', async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/api/v2/payout/beneficiary/create', kind: 'malformed' }),
    });
    const before = new Set(
      (await hook<{ beneficiaries: { id: string }[] }>(sandbox.url, 'GET', 'fixtures')).body.beneficiaries.map(
        (b) => b.id,
      ),
    );
    const reply = await call(core, 'beneficiaries.create', { requestKey: 'journal-3', beneficiary: form });
    expect(reply).toMatchObject({ ok: false, error: { code: 'API_OUTCOME_UNKNOWN' } });
    const [unresolved] = await ok(core, 'journal.unresolved', undefined);
    expect(unresolved!.outcome).toMatchObject({ outcome: 'unknown' });

    const wrong = await ok(core, 'journal.checkStatus', {
      attemptSeq: unresolved!.attempt.seq,
      beneficiaryId: 'bene_does_not_exist',
    });
    expect(wrong.check.outcome).toBe('unknown');
    expect(await ok(core, 'journal.unresolved', undefined)).toHaveLength(1);

    // The desk finds the new beneficiary at the service (here: the sandbox's fixtures) and checks it.
    const after = (await hook<{ beneficiaries: { id: string }[] }>(sandbox.url, 'GET', 'fixtures')).body.beneficiaries;
    const made = after.find((b) => !before.has(b.id))!;
    const settled = await ok(core, 'journal.checkStatus', {
      attemptSeq: unresolved!.attempt.seq,
      beneficiaryId: made.id,
    });
    expect(settled.check).toMatchObject({ outcome: 'succeeded', refersTo: unresolved!.attempt.seq });
    expect(settled.beneficiary).toMatchObject({ beneficiary_id: made.id, name: form.name });
    expect(await ok(core, 'journal.unresolved', undefined)).toEqual([]);
  });
});

describe('profile, credential and cache events', () => {
  it('journals them in the profile’s own journal, never with the secret', async () => {
    const profile = await ok(core, 'profiles.create', {
      name: 'Journal desk',
      environment: 'custom',
      baseUrl: sandbox.url,
      aiUrl: `${sandbox.url}/ai`,
      key: 'test_key',
    });
    await ok(core, 'profiles.update', {
      id: profile.id,
      fields: {
        name: 'Journal desk 2',
        environment: 'custom',
        baseUrl: sandbox.url,
        aiUrl: `${sandbox.url}/ai`,
        key: 'test_key',
      },
    });
    await ok(core, 'credentials.set', { profileId: profile.id, secret: 'sk_journal_secret_1' });
    await ok(core, 'credentials.set', { profileId: profile.id, secret: 'sk_journal_secret_2' });
    await ok(core, 'credentials.test', { profileId: profile.id });
    await ok(core, 'credentials.delete', { profileId: profile.id });
    await ok(core, 'profiles.activate', { id: profile.id });
    const own = core.journals.for(profile.id).journal;
    expect(
      own
        .list()
        .map((e) => e.event)
        .reverse(),
    ).toEqual([
      'profile.created',
      'profile.updated',
      'secret.set',
      'secret.replaced',
      'secret.tested',
      'secret.deleted',
      'profile.activated',
    ]);
    expect(own.list({ text: 'profile.updated' })[0]!.data['fields']).toEqual(['name']);
    expect(own.list({ text: 'secret.tested' })[0]!.outcome).toBe('failed');
    await ok(core, 'profiles.activate', { id: 'sandbox' });
    const file = core.cacheFor(profile.id).file;
    const raw = new Database(file, { readonly: true });
    const text = (raw.prepare('SELECT group_concat(data || summary) AS t FROM journal').get() as { t: string }).t;
    raw.close();
    expect(text).not.toContain('sk_journal_secret');
    expect((await own.verify()).ok).toBe(true);
  });

  it('keeps the journal and closed periods when the cache is cleared, and journals the clearing', async () => {
    await ok(core, 'journal.closePeriod', range);
    const before = journal().head();
    const cleared = await ok(core, 'cache.clear', { profileId: 'sandbox' });
    expect(cleared.freedBytes).toBeGreaterThan(0);
    const count = core.cacheFor('sandbox').db.prepare('SELECT count(*) AS n FROM settlements').get() as { n: number };
    expect(count.n).toBe(0);
    expect(journal().get(before.seq)!.hash).toBe(before.hash);
    expect(journal().list({ limit: 1 })[0]).toMatchObject({
      event: 'cache.cleared',
      data: { freedBytes: cleared.freedBytes },
    });
    expect(await ok(core, 'journal.periods', range)).toHaveLength(1);
    expect(await journal().verify()).toMatchObject({ ok: true });
  });
});
