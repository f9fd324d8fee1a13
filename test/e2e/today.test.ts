/**
 * The Today screen end to end, against the real core and sandbox: the console opens on it, a profile never synced
 * sees the first-run card as its first panel; once synced, with balances refreshed and the sandbox's bank statement
 * (a missing credit, a short one, an orphan) imported and matched, each Today figure equals its source screen's (the
 * row opens that screen) and the cache's. `g h` comes home. With the service gone, "Refresh all" shows each part's
 * failure on its panel, the panels stay, dated, and the button says why it is disabled. Screenshots light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../shared/money';
import { addDays } from '../../shared/time';
import { formatCount } from '../../shared/format';
import { TEST_TODAY } from '../support/clock';
import { syncedThroughJob } from '../support/core';
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
    await page.getByRole('search', { name: 'Filter the exceptions' }).getByLabel('State').selectOption('open');
    const totals = page.getByRole('status', { name: 'Filtered set' });
    await expect.poll(() => totals.textContent()).toMatch(/at risk/);
    const [count, risk] = open!.split(' · ');
    await expect.poll(() => totals.textContent()).toBe(`${count} exceptions · ${risk} at risk`);
    await home();
  });

  it(
    'shows each part of "Refresh all" failing on its panel when the service is gone, the panels kept',
    { timeout: 90_000 },
    async () => {
      const { page, sandbox } = app;
      const before = await value('today-payable-total');
      await sandbox.close();
      await page.getByRole('button', { name: 'Refresh all' }).click();
      await page.getByTestId('today-progress').getByText('Watch list: done').waitFor();
      await page
        .getByTestId('today-payable')
        .getByText(/^Refresh failed: /)
        .waitFor();
      await page
        .getByTestId('today-freshness')
        .getByText(/^Refresh failed: /)
        .waitFor();
      expect(await page.getByTestId('today-progress').textContent()).toContain('Balances: failed');
      // The cached figures stay, dated; the action that needs the service says why it is disabled.
      expect(await value('today-payable-total')).toBe(before);
      expect(await page.getByTestId('today-payable').getByTestId('as-of').count()).toBe(1);
      const refresh = page.getByRole('button', { name: 'Refresh all' });
      await expect.poll(() => refresh.isDisabled()).toBe(true);
      expect(await refresh.getAttribute('title')).toMatch(/^Needs the service/);
      await saveScreenshots(page, 'today-offline', { schemes: ['dark'] });
    },
  );
});
