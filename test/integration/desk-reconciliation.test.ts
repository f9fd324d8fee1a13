/**
 * Reconciliation as desk state, through the core's channels on a real PostgreSQL: two consoles (two cores, two data
 * folders) synced from the sandbox share bank accounts, statement lines, matches by hand, unmatches and match
 * settings; each action is one desk journal entry naming its person; the tables refuse raw SQL writes; a desk close
 * refuses a match by hand; a desk that is down leaves the cache's batches readable. Alone on its cache, a profile's
 * close refuses a match by hand too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { DESK_PROOF_NOT_KEPT } from '../../electron/reconciliation/desk-view';
import type { Statement } from '../../electron/sandbox/data/bank-statement';
import type { Sandbox } from '../../electron/sandbox/server';
import type { ReconReport } from '../../shared/bank-matching';
import { formatMoney } from '../../shared/money';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, nextEvent, ok, syncedThroughJob } from '../support/core';
import { createTestDesk, type TestDesk, deskConsole } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { startTestSandbox } from '../support/sandbox';
import { hook } from '../support/sandbox-http';

const TO = addDays(TEST_TODAY, -3);
const FROM = addDays(TO, -1);
const PERIOD = { from: FROM, to: TO };
const ACCOUNT = 'HDFC current';

async function statementOf(sandbox: Sandbox): Promise<string> {
  const answer = await hook<{ csv: string; truth: Statement['truth'] }>(sandbox.url, 'POST', 'statement', {
    ...PERIOD,
    discrepancies: { missing: 1, short: 1, split: 0, orphan: 1 },
  });
  expect(answer.http).toBe(200);
  return Buffer.from(answer.body.csv).toString('base64');
}

const report = (core: Core) => ok(core, 'recon.report', { account: ACCOUNT, ...PERIOD });

/** A batch no credit pays and a credit no batch has: a pair to match by hand, and what they differ by. */
function looseEnds(r: ReconReport) {
  const batch = r.batches.find((b) => b.matchId === null)!;
  const credit = r.credits.find((c) => c.state === 'unmatched')!;
  expect(batch).toBeDefined();
  expect(credit).toBeDefined();
  return {
    batch: { date: batch.date, pg: batch.pg, utr: batch.utr, settlementDate: batch.settlementDate },
    credit,
    difference: credit.amount - batch.settled,
  };
}

/** The core's refusal of a match by hand whose credits differ from the batch and say nothing on why. */
const unexplained = (difference: number) => ({
  ok: false,
  error: {
    code: 'RECON_INPUT',
    message: `The credits are ${formatMoney(Math.abs(difference))} ${difference > 0 ? 'more' : 'less'} than the batch; give the reason for the difference before matching them.`,
  },
});

describe.runIf(postgresAvailable())('reconciliation shared by two consoles on one desk', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  let csv: string;
  const dirs: string[] = [];
  const cores: Core[] = [];
  let a: Core;
  let b: Core;

  const joined = async (name: string) => {
    const core = await deskConsole(sandbox, cluster, desk, name, dirs);
    cores.push(core);
    await syncedThroughJob(core, PERIOD);
    return core;
  };

  const journal = async (event: string) => {
    const su = await desk.superuser();
    try {
      const { rows } = await su.query<{ person: string; console: string; data: string }>(
        'SELECT person, console, data FROM desk.journal WHERE event = $1 ORDER BY seq',
        [event],
      );
      return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
    } finally {
      await su.end();
    }
  };

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', ravi: 'operator', arun: 'approver', vera: 'viewer' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    csv = await statementOf(sandbox);
    a = await joined('asha');
    b = await joined('ravi');
  });
  afterAll(async () => {
    await Promise.all(cores.map((c) => c.close()));
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("shows A's import and match by hand on B, announced live, each journaled once naming the person", async () => {
    const heard = nextEvent(b, 'desk', (e) => e.topic === 'reconciliation');
    const imported = await ok(a, 'recon.importStatement', { fileName: 'hdfc.csv', content: csv, account: ACCOUNT });
    expect(imported.added).toBe(imported.lines);
    expect(imported.kind).toBe('csv');
    expect(typeof imported.proof.sentence).toBe('string');
    await heard;
    // The desk's tables keep no proof: the importing console journals it (its outbox mirrors it to the desk).
    const [proofEntry] = a.journals
      .for('sandbox')
      .journal.list({ kind: 'reconciliation', text: 'statement.proof' })
      .filter((e) => e.event === 'statement.proof');
    expect(proofEntry?.data).toMatchObject({
      account: ACCOUNT,
      fileName: 'hdfc.csv',
      kind: 'csv',
      proof: { holds: imported.proof.holds },
    });
    expect((await ok(b, 'recon.accounts', undefined)).accounts.map((x) => x.name)).toEqual([ACCOUNT]);
    const onA = await report(a);
    const onB = await report(b);
    expect(onB.credits).toEqual(onA.credits);
    expect(onB.batches).toEqual(onA.batches);
    expect(onB.batches.some((x) => x.state === 'matched')).toBe(true);
    expect(onB.statements).toEqual([
      expect.objectContaining({ fileName: 'hdfc.csv', holds: null, sentence: DESK_PROOF_NOT_KEPT }),
    ]);

    const { batch, credit, difference } = looseEnds(onA);
    expect(difference).not.toBe(0);
    const asked = { account: ACCOUNT, batch, lineIds: [credit.id], note: 'bank merged two credits' };
    expect(await call(a, 'recon.matchByHand', asked)).toMatchObject(unexplained(difference));
    expect(await journal('recon.match_by_hand')).toEqual([]);
    const matchedLive = nextEvent(b, 'desk', (e) => e.topic === 'reconciliation');
    const { matchId } = await ok(a, 'recon.matchByHand', { ...asked, reason: 'two credits for one batch' });
    await matchedLive;
    const seen = (await report(b)).batches.find((x) => x.matchId === matchId)!;
    expect(seen).toMatchObject({
      ...batch,
      state: 'manual',
      note: 'bank merged two credits (why the difference: two credits for one batch)',
      lineIds: [credit.id],
    });

    // The same file from B adds nothing.
    const again = await ok(b, 'recon.importStatement', { fileName: 'hdfc.csv', content: csv, account: ACCOUNT });
    expect(again).toMatchObject({ added: 0, duplicates: imported.lines });

    const imports = await journal('statement.imported');
    expect(imports.map((e) => [e.person, e.console, e.data['added']])).toEqual([
      [desk.who('asha'), 'asha-laptop', imported.lines],
      [desk.who('ravi'), 'ravi-laptop', 0],
    ]);
    const matches = await journal('recon.match_by_hand');
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({
      person: desk.who('asha'),
      data: {
        matchId,
        lineIds: [credit.id],
        credited: credit.amount,
        note: 'bank merged two credits (why the difference: two credits for one batch)',
      },
    });
  });

  it('takes an automatic match apart on B for every console, and a match by hand, each journaled once', async () => {
    const auto = (await report(b)).batches.find((x) => x.state === 'matched')!;
    expect(auto.matchId).toBeLessThan(0);
    await ok(b, 'recon.unmatch', { account: ACCOUNT, matchId: auto.matchId!, note: 'not this transfer' });
    const onA = await report(a);
    const key = (x: { date: string; pg: string; utr: string; settlementDate: string }) =>
      `${x.date}|${x.pg}|${x.utr}|${x.settlementDate}`;
    expect(onA.batches.find((x) => key(x) === key(auto))).toMatchObject({ matchId: null, lineIds: [] });
    for (const id of auto.lineIds) expect(onA.credits.find((c) => c.id === id)).toMatchObject({ state: 'unmatched' });

    const manual = onA.batches.find((x) => x.state === 'manual')!;
    await ok(a, 'recon.unmatch', { account: ACCOUNT, matchId: manual.matchId!, note: 'matched the wrong day' });
    expect((await report(b)).batches.some((x) => x.state === 'manual')).toBe(false);

    const entries = await journal('recon.unmatch');
    expect(entries.map((e) => [e.person, e.data['how'], e.data['note']])).toEqual([
      [desk.who('ravi'), auto.how, 'not this transfer'],
      [desk.who('asha'), 'manual', 'matched the wrong day'],
    ]);
  });

  it('lets only an approver change the match settings, for everyone, journaled with before and after', async () => {
    const refused = await call(a, 'recon.saveSettings', { windowDays: 3 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'DESK_ROLE' } });
    const approver = await joined('arun');
    const saved = await ok(approver, 'recon.saveSettings', { windowDays: 3 });
    expect(saved.windowDays).toBe(3);
    expect((await ok(b, 'recon.accounts', undefined)).settings).toEqual(saved);
    const entries = await journal('recon.settings_changed');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ person: desk.who('arun'), data: { after: saved } });
  });

  it('refuses raw SQL writes to the tables, and a viewer refuses an import', async () => {
    const raw = await desk.rawAs('asha');
    try {
      await expect(raw.query("INSERT INTO desk.bank_accounts (name) VALUES ('side door')")).rejects.toThrow(
        /permission denied/,
      );
      await expect(raw.query('DELETE FROM desk.recon_apart')).rejects.toThrow(/permission denied/);
      await expect(raw.query('UPDATE desk.bank_lines SET amount = amount + 1')).rejects.toThrow(/permission denied/);
      await expect(raw.query(`SELECT desk.set_match_settings('{}', 'psql')`)).rejects.toThrow(/permission denied/);
    } finally {
      await raw.end();
    }
    const viewer = await joined('vera');
    const refused = await call(viewer, 'recon.importStatement', { fileName: 'v.csv', content: csv, account: 'Other' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'DESK_ROLE' } });
  });

  it('refuses a match by hand on a batch of a period the desk closed, naming who closed it', async () => {
    const { batch, credit } = looseEnds(await report(a));
    const approver = cores[2]!;
    const closed = await ok(approver, 'journal.closePeriod', { from: batch.date, to: batch.date });
    const asked = { account: ACCOUNT, batch, lineIds: [credit.id], reason: 'a bank charge' };
    const refused = await call(a, 'recon.matchByHand', { ...asked, note: 'x' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'PERIOD_CLOSED', message: expect.stringContaining(desk.who('arun')) },
    });
    expect(await journal('recon.match_by_hand')).toHaveLength(1);
    await ok(approver, 'journal.reopenPeriod', { id: closed.id, reason: 'a late credit' });
    await ok(a, 'recon.matchByHand', { ...asked, note: 'after the reopen' });
  });

  it('queues two matches by hand of one batch made at once: the later replaces the earlier, both journaled', async () => {
    const held = (await report(a)).batches.find((x) => x.state === 'manual')!;
    const batch = { date: held.date, pg: held.pg, utr: held.utr, settlementDate: held.settlementDate };
    const input = { account: ACCOUNT, batch, lineIds: held.lineIds, reason: 'a bank charge' };
    // Both arrive while the match they replace is held, so they meet inside the desk rather than one after the other.
    const su = await desk.superuser();
    let both: Promise<[{ matchId: number }, { matchId: number }]>;
    try {
      await su.query('BEGIN');
      await su.query('SELECT 1 FROM desk.recon_matches WHERE id = $1 FOR UPDATE', [held.matchId]);
      both = Promise.all([
        ok(a, 'recon.matchByHand', { ...input, note: 'asha checked' }),
        ok(b, 'recon.matchByHand', { ...input, note: 'ravi checked' }),
      ]);
      const waiting = async () =>
        (
          await su.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
            [desk.database],
          )
        ).rows[0]!.n;
      await expect.poll(waiting).toBe(2);
    } finally {
      await su.query('COMMIT');
      await su.end();
    }
    const [onA, onB] = await both;
    const entries = (await journal('recon.match_by_hand')).slice(-2);
    const [first, second] = entries.map((e) => e.data);
    expect(new Set([first!['matchId'], second!['matchId']])).toEqual(new Set([onA.matchId, onB.matchId]));
    expect(second!['replacedMatches']).toEqual([first!['matchId']]);
    const now = (await report(b)).batches.filter((x) => x.state === 'manual' && x.date === batch.date);
    expect(now.map((x) => x.matchId)).toContain(second!['matchId']);
    expect(now.map((x) => x.matchId)).not.toContain(first!['matchId']);
  });

  it("keeps the cache's batches and refuses a match with the reason while the desk is down", async () => {
    const { batch, credit } = looseEnds(await report(a));
    cluster.stop();
    try {
      const refused = await call(a, 'recon.matchByHand', { account: ACCOUNT, batch, lineIds: [credit.id], note: 'x' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'DESK_UNREACHABLE' } });
      expect((await ok(a, 'recon.batches', PERIOD)).batches.length).toBeGreaterThan(0);
    } finally {
      cluster.start();
    }
  });
});

describe('reconciliation of a profile alone on its cache', () => {
  let sandbox: Sandbox;
  let dir: string;
  let core: Core;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    dir = mkdtempSync(join(tmpdir(), 'pc-recon-alone-'));
    core = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), osUser: 'asha' });
    await syncedThroughJob(core, PERIOD);
    await ok(core, 'recon.importStatement', {
      fileName: 'hdfc.csv',
      content: await statementOf(sandbox),
      account: ACCOUNT,
    });
  });
  afterAll(async () => {
    await core?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a match by hand whose credits differ from the batch without a reason, and journals nothing', async () => {
    const { batch, credit, difference } = looseEnds(await ok(core, 'recon.match', { account: ACCOUNT, ...PERIOD }));
    expect(difference).not.toBe(0);
    const asked = { account: ACCOUNT, batch, lineIds: [credit.id], note: 'bank merged two credits' };
    expect(await call(core, 'recon.matchByHand', asked)).toMatchObject(unexplained(difference));
    expect(core.journals.for('sandbox').journal.list({ kind: 'action' })).toEqual([]);
    expect((await report(core)).batches.some((x) => x.state === 'manual')).toBe(false);
  });

  it('refuses a match by hand and an unmatch on a batch of a closed period, and journals neither', async () => {
    const r = await ok(core, 'recon.match', { account: ACCOUNT, ...PERIOD });
    const { batch, credit } = looseEnds(r);
    const auto = r.batches.find((x) => x.state === 'matched' && x.date === batch.date)!;
    core.journals.for('sandbox').periods.close({ from: batch.date, to: batch.date });
    const refused = await call(core, 'recon.matchByHand', { account: ACCOUNT, batch, lineIds: [credit.id], note: 'x' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PERIOD_CLOSED' } });
    const unmatched = await call(core, 'recon.unmatch', { account: ACCOUNT, matchId: auto.matchId!, note: 'x' });
    expect(unmatched).toMatchObject({ ok: false, error: { code: 'PERIOD_CLOSED' } });
    const actions = core.journals.for('sandbox').journal.list({ kind: 'action' });
    expect(actions.filter((e) => e.event.startsWith('recon.'))).toEqual([]);
  });
});
