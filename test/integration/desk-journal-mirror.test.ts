/**
 * One journal for the desk: a console on a desk keeps its own journal and mirrors each entry into the desk's, on a
 * real PostgreSQL. A sync and an export on console A arrive naming A's person and console; with the desk stopped
 * they wait (and `desk.status` says how many), then arrive once, in order, when it is back; an entry whose answer
 * was lost is sent again without doubling; a period the desk closes itself is in its journal once.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Desk } from '../../electron/desk/desk';
import type { DeskJournalEntry } from '../../electron/desk/journal';
import type { Sandbox } from '../../electron/sandbox/server';
import type { JournalEntry } from '../../shared/journal';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, coreOnSandbox, nextEvent, ok, syncedThroughJob } from '../support/core';
import { createTestDesk, PASSWORD, type TestDesk } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { startTestSandbox } from '../support/sandbox';

const DATES = [addDays(TEST_TODAY, -5), addDays(TEST_TODAY, -4), addDays(TEST_TODAY, -3)];
const CONSOLE = 'asha-laptop';

describe.runIf(postgresAvailable())("a console's journal mirrored into its desk's", () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  let dir: string;
  let a: Core;
  let reader: Desk;

  /** The desk's entries that mirror console A's, oldest first. */
  const mirrored = async (): Promise<DeskJournalEntry[]> =>
    (await reader.journal.list({ limit: 1000 })).filter((e) => e.console === CONSOLE && 'local' in e.data).reverse();
  const localSeq = (e: DeskJournalEntry) => (e.data['local'] as { seq: number }).seq;
  /** A's own entries written since it joined, oldest first. */
  const localEntries = (): JournalEntry[] => a.journals.for('sandbox').journal.list({ limit: 1000 }).reverse();

  const exported = async (date: string) => {
    const finished = nextEvent(a, 'exportFinished');
    await ok(a, 'exports.start', { kind: 'settlements', format: 'csv', filter: { from: date, to: date } });
    expect(await finished).toMatchObject({ status: 'completed' });
  };

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'approver', ravi: 'viewer' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 200 });
    dir = mkdtempSync(join(tmpdir(), 'pc-desk-mirror-'));
    mkdirSync(join(dir, 'out'));
    a = coreOnSandbox(sandbox, {
      dataDir: dir,
      vault: memoryStore(),
      consoleName: CONSOLE,
      exportTargets: { choose: async (name) => join(dir, 'out', name) },
    });
    await a.desks.join(
      'sandbox',
      { host: cluster.host, port: cluster.port, database: desk.database, user: desk.who('asha'), tls: 'none' },
      PASSWORD,
    );
    reader = await desk.open('ravi', 'ravi-console');
  });
  afterAll(async () => {
    await reader?.close();
    await a?.close();
    await sandbox?.close();
    cluster?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("puts a sync and an export made on A in the desk's journal, naming A's person and console, in A's order", async () => {
    await syncedThroughJob(a, { from: DATES[0]!, to: DATES[0]! });
    await exported(DATES[0]!);
    expect(await a.journalMirror.push('sandbox')).toBe(0);

    const local = localEntries();
    expect(local.map((e) => e.kind)).toEqual(expect.arrayContaining(['sync', 'export']));
    const desked = await mirrored();
    expect(desked.map(localSeq)).toEqual(local.map((e) => e.seq));
    expect(desked.map((e) => [e.kind, e.event, e.outcome, e.summary])).toEqual(
      local.map((e) => [e.kind, e.event, e.outcome, e.summary]),
    );
    for (const [i, e] of desked.entries()) {
      expect(e).toMatchObject({ person: desk.who('asha'), console: CONSOLE });
      expect(e.data['local']).toMatchObject({ seq: local[i]!.seq, hash: local[i]!.hash, at: local[i]!.at });
    }
    const exportEntry = desked.find((e) => e.kind === 'export')!;
    expect(exportEntry.data['files']).toEqual(local.find((e) => e.kind === 'export')!.data['files']);
  });

  it('keeps entries waiting while the desk is stopped, says how many, and sends them once, in order, when it is back', async () => {
    const before = (await mirrored()).length;
    cluster.stop();
    try {
      await syncedThroughJob(a, { from: DATES[1]!, to: DATES[1]! });
      await exported(DATES[1]!);
      const waiting = await a.journalMirror.push('sandbox');
      const written = localEntries().length - before;
      expect(waiting).toBe(written);
      expect(await ok(a, 'desk.status', {})).toMatchObject({ mode: 'desk', reachable: false, journalWaiting: written });
    } finally {
      cluster.start();
    }
    expect(await a.journalMirror.push('sandbox')).toBe(0);
    expect(await ok(a, 'desk.status', {})).toMatchObject({ reachable: true, journalWaiting: 0 });
    const desked = await mirrored();
    expect(desked.map(localSeq)).toEqual(localEntries().map((e) => e.seq));
  });

  it('does not double an entry whose answer was lost and that is sent again', async () => {
    const before = await mirrored();
    // The desk took the last three, but the console never heard: they are still waiting as far as it knows.
    const db = a.cacheFor('sandbox').db;
    const last = db.prepare('SELECT seq, desk_seq FROM journal_desk_outbox ORDER BY seq DESC LIMIT 3').all();
    db.prepare('UPDATE journal_desk_outbox SET desk_seq = NULL WHERE seq >= ?').run(
      (last.at(-1) as { seq: number }).seq,
    );
    expect(a.journalMirror.waiting('sandbox')).toBe(3);
    expect(await a.journalMirror.push('sandbox')).toBe(0);
    expect(await mirrored()).toEqual(before);
    expect(db.prepare('SELECT seq, desk_seq FROM journal_desk_outbox ORDER BY seq DESC LIMIT 3').all()).toEqual(last);

    // Two tries of one entry at the same moment: the second waits for the first and gets its entry back.
    const entry = localEntries().at(-1)!;
    const again = {
      seq: entry.seq,
      hash: entry.hash,
      kind: entry.kind,
      event: entry.event,
      outcome: entry.outcome,
      summary: entry.summary,
      data: entry.data,
      refersTo: null,
    };
    const asha = await desk.open('asha', CONSOLE);
    try {
      const [x, y] = await Promise.all([asha.journal.mirror(again), asha.journal.mirror(again)]);
      expect(x).toBe(y);
      expect(x).toBe(before.at(-1)!.seq);
    } finally {
      await asha.close();
    }
    expect(await mirrored()).toEqual(before);
  });

  it('does not mirror a close the desk journals itself, and both chains verify', async () => {
    const before = (await mirrored()).length;
    await a.periods.close('sandbox', { from: DATES[2]!, to: DATES[2]! });
    expect(await a.journalMirror.push('sandbox')).toBe(0);
    expect(a.journals.for('sandbox').journal.list({ kind: 'period', limit: 1 })[0]).toMatchObject({
      event: 'period.close',
    });
    expect(await mirrored()).toHaveLength(before);
    const closes = (await reader.journal.list({ kind: 'period' })).filter((e) => e.console === CONSOLE);
    expect(closes.map((e) => e.event)).toEqual(['period.closed']);

    expect((await a.journals.for('sandbox').journal.verify()).ok).toBe(true);
    expect(await a.desks.verify('sandbox')).toMatchObject({ ok: true, problems: [] });
  });

  it('takes every form of entry a console writes, such as the export of a payout check', async () => {
    const asha = await desk.open('asha', 'another-console');
    try {
      const seq = await asha.journal.mirror({
        seq: 1,
        hash: 'a'.repeat(64),
        kind: 'export',
        event: 'export.payoutCheck',
        outcome: 'completed',
        summary: 'Exported payout check 3.',
        data: { runId: 3 },
        refersTo: null,
      });
      expect(await reader.journal.get(seq)).toMatchObject({
        event: 'export.payoutCheck',
        person: desk.who('asha'),
        console: 'another-console',
        data: { runId: 3, local: { seq: 1, hash: 'a'.repeat(64) } },
      });
    } finally {
      await asha.close();
    }
  });
});
