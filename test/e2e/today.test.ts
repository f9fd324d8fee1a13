/**
 * The Today screen end to end, against the real core and sandbox: the console opens on it, a profile never synced
 * sees the first-run card as its first panel; once synced, with balances refreshed, the sandbox's bank statement
 * (a missing credit, a short one, an orphan) imported and matched, pending payouts looked up (one past its expected
 * time), a period closed and the journal verified, every Today figure equals its source screen's (the row opens that
 * screen: Accounts, Reconciliation, Exceptions, Payouts' watch list, Settlements' changes and completeness, Journal)
 * and `today --json`'s, run on the same data folder. `g h` comes home. With the service gone, "Refresh all" shows each
 * part's failure on its panel, the panels stay, dated, and the button says why it is disabled. On a desk (a real
 * PostgreSQL), the Approvals panel's counts are the Approvals screen's and the CLI's. Screenshots light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { formatMoney } from '../../shared/money';
import { addDays } from '../../shared/time';
import { formatCalendarDate, formatCount, formatIstInstant } from '../../shared/format';
import type { TodaySummary } from '../../shared/today';
import { TEST_TODAY } from '../support/clock';
import { cliRunner } from '../support/cli';
import { coreOnSandbox, ok, syncedThroughJob } from '../support/core';
import { createTestDesk, joinDesk, type TestDesk } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const to = addDays(TEST_TODAY, -2);
const from = addDays(to, -3);
const ACCOUNT = 'HDFC 5678';

describe.runIf(ready)('Today', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ settlementsPerDay: 60 });
  });
  afterAll(async () => {
    await app?.close();
  });

  const profileId = () => app.core.profiles.active().id;
  const value = (testId: string) => app.page.getByTestId(testId).first().textContent();
  /** Waits until `locator` reads `text` exactly: the screen's own answer, however long its read takes. */
  const shows = (locator: Locator, text: string) =>
    locator.filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).waitFor();
  /** `today --json` on the app's own data folder: the CLI's summary of the same cache and journal. */
  const cliToday = async () => {
    const r = await cliRunner(app.dataDir).run('--json', 'today');
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as TodaySummary;
  };
  const home = async () => {
    await app.page.keyboard.press('g');
    await app.page.keyboard.press('h');
    await app.page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
  };

  it('opens on Today, with the first-run card first for a profile never synced', async () => {
    const { page } = app;
    await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Welcome to Payout Console' }).waitFor();
    await page.getByRole('button', { name: 'Go to Settlements' }).waitFor();
    expect(await page.getByTestId('today-payable').getByText('No balances yet').count()).toBe(1);
  });

  it('ties every figure to its source screen and to the cache', { timeout: 120_000 }, async () => {
    const { page, core, sandbox } = app;
    await syncedThroughJob(core, { from, to });
    await core.treasury.accounts.refresh(profileId());
    const answer = await hook(sandbox.url, 'POST', 'statement', {
      from,
      to,
      discrepancies: { missing: 1, short: 1, split: 0, orphan: 1 },
    });
    await core.reconciliation.importStatement(profileId(), {
      fileName: 'statement.csv',
      bytes: Buffer.from((answer.body as { csv: string }).csv),
      accountName: ACCOUNT,
    });
    const period = { account: ACCOUNT, from: addDays(TEST_TODAY, -7), to: addDays(TEST_TODAY, -1) };
    await core.reconciliation.match(profileId(), period);
    // Pending payouts on the watch list, the first seen three hours ago: past any method's expected time.
    const pending = sandbox
      .fixtures()
      .payouts.filter((p) => p.status === 'pending')
      .slice(0, 2)
      .map((p) => p.id);
    for (const payoutId of pending) await ok(core, 'payouts.lookup', { payoutId, mode: 'normal' });
    const seen = core.cacheFor(profileId()).payouts.history(pending[0]!)[0]!.lookedUpAt;
    core
      .cacheFor(profileId())
      .db.prepare('UPDATE payout_first_seen SET first_seen_at = ? WHERE payout_id = ?')
      .run(new Date(Date.parse(seen) - 3 * 3_600_000).toISOString(), pending[0]);
    await ok(core, 'journal.closePeriod', { from, to: addDays(from, 1) });
    await core.journals.for(profileId()).journal.verify();
    await page.reload();
    await app.harness.eventStreamOpen();
    await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
    await page.getByTestId('today-synced').waitFor();
    expect(await page.getByRole('heading', { name: 'Welcome to Payout Console' }).count()).toBe(0);

    // The cache's own figures.
    const cache = core.cacheFor(profileId());
    const headroom = core.treasury.accounts.headroom(profileId());
    const report = await core.reconciliation.report(profileId(), period);
    const openRows = cache.db
      .prepare('SELECT count(*) AS n FROM settlements WHERE exception_flags <> 0 AND vanished_at IS NULL')
      .get() as { n: number };
    const batch = (state: string) => report.batchTotals.find((t) => t.state === state)!;
    const credit = (state: string) => report.creditTotals.find((t) => t.state === state)!;
    const both = (t: { count: number; amount: number }) => `${formatCount(t.count)} · ${formatMoney(t.amount)}`;
    expect(await value('today-payable-total')).toBe(formatMoney(headroom.total.afterPending));
    expect(await value('today-overdue')).toBe(both(batch('overdue')));
    expect(await value('today-differs')).toBe(both(credit('differs')));
    expect(await value('today-unmatched')).toBe(both(credit('unmatched')));
    expect(batch('overdue').count).toBe(1);
    expect(credit('differs').count).toBe(1);
    const open = await value('today-open');
    expect(open).toMatch(new RegExp(`^${formatCount(openRows.n)} · `));
    expect(await value('today-verified')).toMatch(/holds$/);

    // `today --json` on the same data folder: every panel's figures are the screen's. The watch list's last round is
    // the app's own (kept in memory), so of it the figures from the cache are compared.
    const cli = await cliToday();
    const shown = await core.today.summary(profileId());
    for (const panel of ['payable', 'notArrived', 'exceptions', 'freshness'] as const) {
      expect(cli[panel], panel).toEqual(shown[panel]);
    }
    expect({ ...cli.watch.data, lastCheckedAt: null }).toEqual({ ...shown.watch.data, lastCheckedAt: null });
    expect(cli).toMatchObject({ today: TEST_TODAY, mode: 'local', firstRun: false, approvals: { data: null } });
    const d = cli.freshness.data!;
    const w = cli.watch.data!;
    expect(await value('today-payable-total')).toBe(formatMoney(cli.payable.data!.total.afterPending));
    for (const g of cli.payable.data!.gateways) {
      expect(await value(`today-payable-${g.pg}`)).toBe(
        g.afterPending === null ? 'No figure yet' : formatMoney(g.afterPending),
      );
    }
    const na = cli.notArrived.data!.accounts[0]!;
    expect(await value('today-overdue')).toBe(both(na.overdue));
    expect(await value('today-differs')).toBe(both(na.differs));
    expect(await value('today-unmatched')).toBe(both(na.unmatched));
    const ex = cli.exceptions.data!;
    expect(await value('today-open')).toBe(both(ex.open));
    expect(await value('today-mine')).toBe(both(ex.assignedToMe));
    for (const r of ex.byRule) expect(await value(`today-rule-${r.rule}`)).toBe(both(r));
    expect(await value('today-watch-overdue')).toBe(formatCount(w.overdue));
    expect(await value('today-watch-pending')).toBe(formatCount(w.watching));
    expect(w).toMatchObject({ watching: pending.length, overdue: 1 });
    const at = (iso: string | null) => (iso === null ? 'Never' : formatIstInstant(iso));
    expect(await value('today-synced')).toBe(at(d.settlementsSyncedAt));
    const incomplete =
      d.incomplete.length === 0 ? 'None' : d.incomplete.map((x) => formatCalendarDate(x.date)).join(', ');
    expect(await value('today-incomplete')).toBe(incomplete);
    const changed = d.changes.new + d.changes.changed + d.changes.vanished + d.changes.returned;
    expect(await value('today-changes')).toBe(formatCount(changed));
    expect(await value('today-balances-at')).toBe(at(d.balancesAt));
    expect(await value('today-verified')).toBe(`${at(d.journalVerify!.at)}, holds`);
    expect(await value('today-periods')).toBe(
      `${formatCount(d.periods.closed)} · ${formatCount(d.periods.changed.length)}`,
    );
    expect(d.periods.closed).toBe(1);

    await saveScreenshots(page, 'today');

    // Payable now: the Accounts screen's total after pending payouts.
    await page.getByTestId('today-payable-total').click();
    await page.getByRole('heading', { name: 'Accounts & balances', level: 1 }).waitFor();
    const total = page.locator('.accounts-payable-total');
    await total.waitFor();
    expect(await total.textContent()).toContain(`after them ${formatMoney(headroom.total.afterPending)}`);

    // Money not arrived: the Reconciliation screen's totals for the same period.
    await home();
    await page.getByTestId('today-differs').click();
    await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
    const row = (table: string, state: string) =>
      page.getByRole('table', { name: table }).locator(`tr[data-state="${state}"] td`);
    await row('Batches', 'overdue').first().waitFor();
    const screen = async (table: string, state: string) => {
      const cells = await row(table, state).allTextContents();
      return `${cells[0]} · ${cells[1]}`;
    };
    expect(await screen('Batches', 'overdue')).toBe(both(batch('overdue')));
    expect(await screen('Statement credits', 'differs')).toBe(both(credit('differs')));
    expect(await screen('Statement credits', 'unmatched')).toBe(both(credit('unmatched')));

    // Exceptions: the queue's open set, count and amount at risk.
    await home();
    await page.getByTestId('today-open').click();
    await page.getByRole('heading', { name: 'Exceptions', level: 1 }).waitFor();
    // The row opens the queue on the open ones; each rule's row on that rule's.
    const state = page.getByRole('search', { name: 'Filter the exceptions' }).getByLabel('State');
    expect(await state.inputValue()).toBe('open');
    const totals = page.getByRole('status', { name: 'Filtered set' });
    const set = (t: { count: number; amount: number }) =>
      `${formatCount(t.count)} exception${t.count === 1 ? '' : 's'} · ${formatMoney(t.amount)} at risk`;
    await shows(totals, set(ex.open));
    for (const r of ex.byRule) {
      await home();
      await page.getByTestId(`today-rule-${r.rule}`).click();
      await page.getByRole('heading', { name: 'Exceptions', level: 1 }).waitFor();
      await shows(totals, set(r));
    }

    // Payouts to watch: the watch list's pending and overdue counts.
    await home();
    await page.getByTestId('today-watch-overdue').click();
    await page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor();
    const watch = page.locator('section[aria-labelledby="payout-watch-title"] .payout-panel-head > .muted').first();
    await shows(watch, `${formatCount(w.watching)} pending, ${formatCount(w.overdue)} overdue`);

    // Freshness: the Settlements screen opens on the same dates with their changes and completeness.
    await home();
    await page.getByTestId('today-incomplete').click();
    const dialog = page.getByRole('dialog', {
      name: `Changes and completeness, ${formatCalendarDate(d.from)} to ${formatCalendarDate(d.to)}`,
    });
    await dialog.waitFor();
    const perDate = dialog.getByRole('list', { name: 'Completeness per date' }).getByRole('listitem');
    await perDate.first().waitFor();
    const complete = new Set<string>();
    for (const item of await perDate.allTextContents()) {
      if (/ complete( ·|$)/.test(item)) complete.add(item.slice(0, formatCalendarDate(d.from).length));
    }
    const notComplete: string[] = [];
    for (let day = d.from; day <= d.to; day = addDays(day, 1)) {
      if (!complete.has(formatCalendarDate(day))) notComplete.push(formatCalendarDate(day));
    }
    expect(notComplete.join(', ') || 'None').toBe(incomplete);
    const counts = (await dialog.getByTestId('changes-counts').textContent())!
      .match(/[\d,]+/g)!
      .map((n) => Number(n.replace(/,/g, '')));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(changed);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    const syncedOnScreen = page.locator('.stl-screen').getByTestId('as-of').first();
    await shows(syncedOnScreen, `Synced ${at(d.settlementsSyncedAt)}`);
    // "Settlements synced" opens the same dates: the screen's "Synced" is its figure.
    await home();
    await page.getByTestId('today-synced').click();
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    await shows(syncedOnScreen, `Synced ${at(d.settlementsSyncedAt)}`);

    // Balances refreshed: the Accounts screen's own time.
    await home();
    await page.getByTestId('today-balances-at').click();
    await page.getByRole('heading', { name: 'Accounts & balances', level: 1 }).waitFor();
    // The screen refreshed the balances when it first opened (above): once that has ended, Today and the CLI read
    // that refresh's time.
    await page.getByRole('button', { name: 'Refresh balances' }).waitFor();
    const balancesAt = at((await cliToday()).freshness.data!.balancesAt);
    await shows(page.getByTestId('as-of').first(), `As of ${balancesAt}`);
    await home();
    await shows(page.getByTestId('today-balances-at'), balancesAt);

    // Journal verified, periods closed: the Journal screen's last verification and its closed periods.
    await home();
    await page.getByTestId('today-verified').click();
    await page.getByRole('heading', { name: 'Journal', level: 1 }).waitFor();
    await shows(
      page.getByTestId('journal-last-verified'),
      `Last verified ${at(d.journalVerify!.at)}: holds ${formatCount(d.journalVerify!.entries)} entries.`,
    );
    await home();
    await page.getByTestId('today-periods').click();
    const periods = page.getByRole('table', { name: 'Closed periods' }).locator('tbody tr');
    await periods.nth(d.periods.closed - 1).waitFor();
    expect(await periods.count()).toBe(d.periods.closed);
    expect(await periods.filter({ hasText: 'Changed after close' }).count()).toBe(d.periods.changed.length);
    await home();
  });

  it(
    'shows each part of "Refresh all" failing on its panel when the service is gone, the panels kept',
    { timeout: 90_000 },
    async () => {
      const { page, sandbox } = app;
      await home();
      const before = await value('today-payable-total');
      await sandbox.close();
      await page.getByRole('button', { name: 'Refresh all' }).click();
      const progress = page.getByTestId('today-progress');
      // The watch list is the last part: once it has ended, so has the refresh.
      await progress.getByText(/^Watch list: (done|failed|cancelled)$/).waitFor();
      // Every part needs the service; the watch list's round too, as it has pending payouts to check.
      expect((await progress.getByRole('listitem').allTextContents()).join(' | ')).toBe(
        'Balances: failed | Settlement sync: failed | Watch list: failed',
      );
      for (const panel of ['today-payable', 'today-not-arrived', 'today-watch', 'today-freshness']) {
        await page
          .getByTestId(panel)
          .getByText(/^Refresh failed: /)
          .waitFor();
      }
      // The cached figures stay, each panel dated by its source; the action that needs the service says why it is
      // disabled, on the button and in the banner above.
      expect(await value('today-payable-total')).toBe(before);
      for (const panel of ['today-payable', 'today-not-arrived', 'today-exceptions', 'today-watch']) {
        expect(await page.getByTestId(panel).getByTestId('as-of').textContent(), panel).toMatch(/^As of .* IST$/);
      }
      const refresh = page.getByRole('button', { name: 'Refresh all' });
      await expect.poll(() => refresh.isDisabled()).toBe(true);
      expect(await refresh.getAttribute('title')).toMatch(/^Needs the service/);
      await page.getByText('Actions that need the service are paused until it answers again.').waitFor();
      // The watch round's pause is said once, as its part's failure.
      const paused = app.core.payoutWatch.state(profileId()).paused!;
      expect(await page.getByTestId('today-watch').getByText(paused).count()).toBe(1);
      // What waits for a person stands out: the payout past its expected time, the batch without its credit.
      for (const testId of ['today-watch-overdue', 'today-overdue']) {
        expect(await page.getByTestId(testId).getAttribute('class')).toContain('today-value-attention');
      }
      await saveScreenshots(page, 'today-offline', { schemes: ['dark'] });
    },
  );
});

describe.runIf(ready && postgresAvailable())('Today on a desk', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let app: RunningApp;
  let olga: Core;
  const dirs: string[] = [];
  let keys = 0;
  /** A partial refund of a seeded order through `core`: on a desk it becomes a proposal, nothing is sent. */
  const propose = async (core: Core, orderId: string) => {
    const r = await ok(core, 'orders.refund', { requestKey: `today-desk-${++keys}`, orderId, amount: 100 });
    if (!('pendingApproval' in r)) throw new Error('The refund was sent without approval.');
  };

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', arun: 'admin' });
    app = await startApp({ prepare: ({ core }) => joinDesk(core, cluster, desk, 'arun').then(() => undefined) });
    // Olga's console on the app's sandbox, with its merchant's key and secret.
    dirs.push(mkdtempSync(join(tmpdir(), 'today-desk-olga-')));
    olga = coreOnSandbox(app.sandbox, {
      dataDir: dirs[0]!,
      vault: memoryStore(),
      consoleName: 'olga-laptop',
      sandbox: { url: app.sandbox.url, ...app.merchant },
    });
    await joinDesk(olga, cluster, desk, 'olga');
    const orders = app.sandbox
      .fixtures()
      .orders.filter((o) => o.status === 'success')
      .map((o) => o.id);
    // Two of olga's for arun to approve, one of arun's own waiting for someone else.
    await propose(olga, orders[0]!);
    await propose(olga, orders[1]!);
    await propose(app.core, orders[2]!);
  }, 120_000);
  afterAll(async () => {
    await olga?.close();
    await app?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it(
    'counts the approvals as the Approvals screen lists them, and as the CLI’s summary does',
    { timeout: 120_000 },
    async () => {
      const { page, core } = app;
      await page.reload();
      await app.harness.eventStreamOpen();
      const panel = page.getByTestId('today-approvals');
      await panel.getByTestId('today-waiting').waitFor();
      // The summary `today --json` prints (the CLI calls the same core function), and the desk's own lists.
      const s = await core.today.summary(core.profiles.active().id);
      expect(s.mode).toBe('desk');
      const a = s.approvals.data!;
      const list = async (scope: 'waiting' | 'mine' | 'open') => ok(core, 'approvals.list', { scope });
      const open = await list('open');
      const expiring = open.filter(
        (p) => p.state === 'pending' && Date.parse(p.expiresAt) <= Date.parse(p.madeAt) + 24 * 3_600_000,
      ).length;
      expect(a).toMatchObject({
        waiting: (await list('waiting')).length,
        mine: (await list('mine')).filter((p) => p.state === 'pending').length,
        expiringToday: expiring,
      });
      expect(a.waiting).toBe(2);
      expect(await panel.getByTestId('today-waiting').textContent()).toBe(formatCount(a.waiting));
      expect(await panel.getByTestId('today-approvals-mine').textContent()).toBe(formatCount(a.mine));
      expect(await panel.getByTestId('today-expiring').textContent()).toBe(formatCount(a.expiringToday));
      expect(await panel.getByTestId('as-of').textContent()).toMatch(/^As of .* IST$/);
      // No balance refreshed on this console yet: no figure, rather than ₹0.00 payable.
      expect(core.treasury.accounts.headroom(core.profiles.active().id).gateways).toEqual([]);
      await page.getByTestId('today-payable').getByText('No balances yet: refresh them.').waitFor();
      expect(await page.getByTestId('today-payable-total').count()).toBe(0);
      await saveScreenshots(page, 'today-desk');

      // Each count opens the Approvals screen on the proposals it counts.
      const rows = page.getByRole('table', { name: 'Proposals' }).locator('tbody tr');
      const opens = async (testId: string, scope: string, count: number) => {
        await page.keyboard.press('g');
        await page.keyboard.press('h');
        await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
        await page.getByTestId(testId).click();
        await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
        const pressed = page.getByRole('group', { name: 'Which proposals' }).getByRole('button', { pressed: true });
        expect(await pressed.textContent()).toBe(scope);
        await rows.nth(count - 1).waitFor();
        expect(await rows.count()).toBe(count);
      };
      await opens('today-waiting', 'Waiting for me', a.waiting);
      await opens('today-approvals-mine', 'Mine', a.mine);
      await opens('today-expiring', 'Open', open.length);
      expect(open.length).toBe(a.expiringToday);
    },
  );
});
