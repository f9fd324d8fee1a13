/**
 * The Today summary over the real core: each panel's figures equal to its source module's own on the same data (the
 * channel each source screen reads), alone on the cache and on a desk on a real PostgreSQL; a profile never synced
 * gets the first-run panel and no cache; "Refresh all" runs its three parts (waited for, as `today --refresh` does),
 * stops when cancelled, and a part that fails says so on its own panel while the others still show.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { buildStatement, statementCsv } from '../../electron/sandbox/data/bank-statement';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { SANDBOX_DEFAULTS, type Sandbox } from '../../electron/sandbox/server';
import { RULE_IDS } from '../../shared/reconciliation';
import { addDays } from '../../shared/time';
import type { TodaySummary } from '../../shared/today';
import { osUserName } from '../../electron/journal/registry';
import { TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, coreOnSandbox, nextEvent, ok, syncedThroughJob } from '../support/core';
import { createTestDesk, deskConsole, type TestDesk } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { startTestSandbox } from '../support/sandbox';

// Reconciliation's own default period, which Today's "Money not arrived" reads.
const FROM = addDays(TEST_TODAY, -7);
const TO = addDays(TEST_TODAY, -1);
const STATEMENT_TO = addDays(TEST_TODAY, -3);
const STATEMENT_FROM = addDays(STATEMENT_TO, -2);
const ACCOUNT = 'HDFC 5678';

function statement() {
  const source = new SettlementSource(
    SANDBOX_DEFAULTS.seed,
    SANDBOX_DEFAULTS.settlementsPerDay,
    GATEWAYS.map((g) => g.code),
  );
  const built = buildStatement(source, STATEMENT_FROM, STATEMENT_TO, { missing: 1, short: 1, split: 0, orphan: 1 });
  return Buffer.from(statementCsv(built));
}

/** Each figure of the summary against the channel its source screen reads, on the same data. */
async function expectTiesToSources(core: Core, s: TodaySummary) {
  const headroom = await ok(core, 'accounts.headroom', undefined);
  expect(s.payable).toMatchObject({ error: null, asOf: headroom.asOf });
  expect(s.payable.data).toEqual({
    gateways: headroom.gateways,
    total: headroom.total,
    unreported: headroom.unreported,
    low: headroom.gateways.filter((g) => g.low).map((g) => g.pg),
  });

  const report = await ok(core, 'recon.report', { account: ACCOUNT, from: FROM, to: TO });
  const batch = (state: string) => report.batchTotals.find((t) => t.state === state)!;
  const credit = (state: string) => report.creditTotals.find((t) => t.state === state)!;
  expect(s.notArrived.error).toBeNull();
  expect(s.notArrived.data!.accounts).toEqual([
    expect.objectContaining({
      account: ACCOUNT,
      overdue: { count: batch('overdue').count, amount: batch('overdue').amount },
      differs: {
        count: credit('differs').count,
        amount: credit('differs').amount,
        difference: batch('differs').difference,
      },
      unmatched: { count: credit('unmatched').count, amount: credit('unmatched').amount },
      lastStatementDate: STATEMENT_TO,
    }),
  ]);

  const queue = (filter: object, offset = 0) => ok(core, 'exceptions.queue', { filter, offset, limit: 1 });
  const open = await queue({ state: 'open' });
  const mine = await queue({ state: 'unresolved', assignedTo: 'me' });
  const byRule = [];
  for (const rule of RULE_IDS) {
    const page = await queue({ state: 'open', rule });
    if (page.total > 0) byRule.push({ rule, count: page.total, amount: page.amountAtRisk });
  }
  const oldest = (await queue({ state: 'open' }, open.total - 1)).rows[0]!;
  expect(s.exceptions.data).toEqual({
    open: { count: open.total, amount: open.amountAtRisk },
    byRule,
    assignedToMe: { count: mine.total, amount: mine.amountAtRisk },
    oldestDate: oldest.date,
    oldestDays: expect.any(Number),
  });
  expect(open.total).toBeGreaterThan(0);

  const watch = await ok(core, 'payouts.watch', {});
  expect(s.watch.data).toEqual({
    watching: watch.watching,
    overdue: watch.overdue,
    lastCheckedAt: watch.lastCheckedAt,
    paused: watch.paused,
  });

  const status = await ok(core, 'cache.status', undefined);
  const completeness = await ok(core, 'settlements.completeness', { from: FROM, to: TO });
  const changes = await ok(core, 'settlements.changesSummary', { from: FROM, to: TO });
  const periods = await ok(core, 'journal.periods', undefined);
  // The Settlements screen's "Synced" for the same dates, every gateway.
  const period = await ok(core, 'settlements.totals', { from: FROM, to: TO });
  expect(s.freshness.data).toMatchObject({
    settlementsSyncedAt: period.asOf,
    balancesAt: status.balancesAt,
    changes: changes.byKind,
    periods: {
      closed: periods.length,
      changed: periods.filter((p) => p.state === 'changed').map((p) => ({ id: p.id, from: p.from, to: p.to })),
    },
  });
  const complete = completeness.filter((d) => d.state === 'complete').map((d) => d.date);
  expect(s.freshness.data!.incomplete.map((d) => d.date)).toEqual(
    Array.from({ length: 7 }, (_, i) => addDays(FROM, i)).filter((d) => !complete.includes(d)),
  );
}

describe('Today for a profile alone on its cache', () => {
  let sandbox: Sandbox;
  let dir: string;
  let core: Core;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    dir = mkdtempSync(join(tmpdir(), 'pc-today-'));
    core = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), osUser: 'asha' });
  });
  afterAll(async () => {
    await core?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the first-run panel to a profile never synced, and asking makes no cache', async () => {
    const s = await ok(core, 'today.summary', {});
    expect(s).toMatchObject({ firstRun: true, mode: 'local', refreshDays: 3, today: TEST_TODAY, refresh: null });
    for (const p of [s.payable, s.notArrived, s.exceptions, s.approvals, s.watch, s.freshness]) {
      expect(p).toEqual({ data: null, asOf: null, error: null });
    }
    const { caches } = await ok(core, 'cache.list', undefined);
    expect(caches.every((c) => !existsSync(c.file))).toBe(true);
  });

  it('gives each figure as its source screen does, dated by its source', async () => {
    await syncedThroughJob(core, { from: STATEMENT_FROM, to: STATEMENT_TO });
    await ok(core, 'accounts.refresh', {});
    await core.reconciliation.importStatement('sandbox', {
      fileName: 'statement.csv',
      bytes: statement(),
      accountName: ACCOUNT,
    });
    await ok(core, 'recon.match', { account: ACCOUNT, from: FROM, to: TO });
    await ok(core, 'journal.verify', undefined);
    core.journals.for('sandbox').periods.close({ from: STATEMENT_FROM, to: STATEMENT_FROM });

    const s = await ok(core, 'today.summary', {});
    expect(s).toMatchObject({ firstRun: false, approvals: { data: null, error: null } });
    await expectTiesToSources(core, s);
    // The statement's discrepancies are there to be seen: one short credit, one without a batch.
    expect(s.notArrived.data!.total.differs.count).toBe(1);
    expect(s.notArrived.data!.total.unmatched.count).toBeGreaterThanOrEqual(1);
    const verified = core.journals.for('sandbox').journal.lastVerification()!;
    expect(s.freshness.data!.journalVerify).toEqual({ ...verified, ok: true, problem: null });
    expect(s.freshness.data!.periods.closed).toBe(1);

    // A date synced again later: the period is as fresh as its stalest date, not as the last sync.
    await syncedThroughJob(core, { from: STATEMENT_TO, to: STATEMENT_TO });
    const again = await ok(core, 'today.summary', {});
    await expectTiesToSources(core, again);
    const last = (await ok(core, 'cache.status', undefined)).settlementsSyncedAt!;
    const others = await ok(core, 'settlements.totals', { from: STATEMENT_FROM, to: addDays(STATEMENT_TO, -1) });
    expect(again.freshness.data!.settlementsSyncedAt).toBe(others.asOf);
    expect(others.asOf! < last).toBe(true);
  });

  it("keeps each date's exception figures from its rows: actions, writes behind its back and a wrong figure", async () => {
    const cache = core.cacheFor('sandbox');
    const figures = cache.exceptionFigures;
    const stale = () => cache.db.prepare('SELECT date FROM exception_days_stale').pluck().all() as string[];
    // The sync worked its dates out at its end.
    expect(stale()).toEqual([]);
    const openPage = (limit: number) => ok(core, 'exceptions.queue', { filter: { state: 'open' }, offset: 0, limit });
    const keyOf = (r: { date: string; pg: string; pgTransactionId: string; settlementDate: string }) => ({
      date: r.date,
      pg: r.pg,
      pgTransactionId: r.pgTransactionId,
      settlementDate: r.settlementDate,
    });
    const open = await openPage(3);
    expect(open.rows).toHaveLength(3);
    const [first, second, third] = open.rows.map(keyOf);
    await ok(core, 'exceptions.bulk', { filter: {}, keys: [first!], action: 'assign', text: osUserName() });
    await ok(core, 'exceptions.bulk', {
      filter: {},
      keys: [second!],
      action: 'resolve',
      text: 'paid in the next batch',
    });
    expect(stale()).toEqual([]);
    await expectTiesToSources(core, await ok(core, 'today.summary', {}));

    // A state written behind the app's back lists its date stale, and the date is read from its rows until worked out.
    cache.db
      .prepare(
        `INSERT INTO settlement_exception_states (date, pg, pg_transaction_id, settlement_date, state, updated_at)
         VALUES (?, ?, ?, ?, 'resolved', 't')`,
      )
      .run(third!.date, third!.pg, third!.pgTransactionId, third!.settlementDate);
    expect(stale()).toEqual([third!.date]);
    await expectTiesToSources(core, await ok(core, 'today.summary', {}));

    // A figure edited in the file is replaced from the rows when its date is worked out again, never carried forward.
    const date = first!.date;
    cache.db
      .prepare('UPDATE exception_day_figures SET records = records + 1000, risk = risk + 99 WHERE date = ?')
      .run(date);
    cache.db.prepare('INSERT OR IGNORE INTO exception_days_stale (date) VALUES (?)').run(date);
    figures.refresh();
    expect(stale()).toEqual([]);
    await expectTiesToSources(core, await ok(core, 'today.summary', {}));
  });

  it('keeps the refresh window as a setting', async () => {
    expect(await ok(core, 'today.setRefreshDays', { days: 2 })).toEqual({ days: 2 });
    expect((await ok(core, 'today.summary', {})).refreshDays).toBe(2);
  });

  it('runs "Refresh all": balances, a sync of the last N days and a watch round, each part done', async () => {
    const ended = nextEvent(core, 'todayRefresh', (r) => !r.running);
    const started = await ok(core, 'today.refresh', {});
    expect(started).toMatchObject({ running: true, from: addDays(TEST_TODAY, -2), to: TO });
    const end = await ended;
    expect(end.parts).toEqual([
      { part: 'balances', state: 'done', error: null },
      { part: 'sync', state: 'done', error: null },
      { part: 'watch', state: 'done', error: null },
    ]);
    const completeness = await ok(core, 'settlements.completeness', { from: started.from, to: started.to });
    expect(completeness.map((d) => d.state)).toEqual(['complete', 'complete']);
    expect((await ok(core, 'today.summary', {})).refresh).toEqual(end);
  });

  it('stops "Refresh all" when cancelled: the parts not yet run are cancelled', async () => {
    const ended = nextEvent(core, 'todayRefresh', (r) => !r.running);
    const started = await ok(core, 'today.refresh', {});
    expect(await ok(core, 'today.cancelRefresh', { jobId: started.jobId })).toEqual({ cancelled: true });
    const end = await ended;
    expect(end.parts.map((p) => p.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(await ok(core, 'today.cancelRefresh', { jobId: started.jobId })).toEqual({ cancelled: false });
  });

  it('waits for "Refresh all" (today --refresh), joining one running; its signal cancels it as Cancel does', async () => {
    const started = await ok(core, 'today.refresh', {});
    const profileId = core.profiles.active().id;
    // A second caller joins the refresh already running rather than starting another.
    const joined = await core.today.refreshAndWait(profileId);
    expect(joined).toMatchObject({ jobId: started.jobId, running: false });
    expect(joined.parts.map((p) => p.state)).toEqual(['done', 'done', 'done']);

    const abort = new AbortController();
    const waiting = core.today.refreshAndWait(profileId, abort.signal);
    abort.abort();
    const cancelled = await waiting;
    expect(cancelled.jobId).not.toBe(started.jobId);
    expect(cancelled.parts.map((p) => p.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });

  it("shows each part's failure on its own, the cached panels still dated, when the service is away", async () => {
    const before = await ok(core, 'today.summary', {});
    await sandbox.close();
    const ended = nextEvent(core, 'todayRefresh', (r) => !r.running);
    await ok(core, 'today.refresh', {});
    const end = await ended;
    const part = (name: string) => end.parts.find((p) => p.part === name)!;
    expect(part('balances')).toMatchObject({ state: 'failed', error: expect.stringMatching(/\w/) });
    expect(part('sync')).toMatchObject({ state: 'failed', error: expect.stringMatching(/\w/) });
    const after = await ok(core, 'today.summary', {});
    expect({ ...after, refresh: null }).toEqual({ ...before, refresh: null, watch: after.watch });
  });
});

describe.runIf(postgresAvailable())('Today on a desk', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  const dirs: string[] = [];
  let a: Core;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', arun: 'approver' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET });
    a = await deskConsole(sandbox, cluster, desk, 'asha', dirs);
  });
  afterAll(async () => {
    await a?.close();
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("gives the desk's figures: its queue, its statements, the approvals' counts", async () => {
    await syncedThroughJob(a, { from: STATEMENT_FROM, to: STATEMENT_TO });
    await ok(a, 'accounts.refresh', {});
    await a.reconciliation.importStatement('sandbox', {
      fileName: 'statement.csv',
      bytes: statement(),
      accountName: ACCOUNT,
    });
    const open = await ok(a, 'exceptions.queue', { filter: { state: 'open' }, offset: 0, limit: 1 });
    await ok(a, 'exceptions.bulk', {
      action: 'assign',
      filter: { state: 'open', pg: open.rows[0]!.pg },
      text: desk.who('asha'),
    });
    const s = await ok(a, 'today.summary', {});
    expect(s.mode).toBe('desk');
    await expectTiesToSources(a, s);
    expect(s.exceptions.data!.assignedToMe.count).toBeGreaterThan(0);
    expect(s.approvals).toMatchObject({ error: null, data: await ok(a, 'approvals.counts', {}) });
  });

  it('shows the cached panels and says why the desk panels are not read while the desk is down', async () => {
    cluster.stop();
    try {
      const s = await ok(a, 'today.summary', {});
      expect(s.payable.data).not.toBeNull();
      expect(s.freshness.data).not.toBeNull();
      for (const p of [s.notArrived, s.exceptions, s.approvals]) {
        expect(p).toMatchObject({ data: null, error: expect.stringMatching(/\w/) });
      }
    } finally {
      cluster.start();
    }
  });
});
