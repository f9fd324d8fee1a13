/**
 * The desk's daily friction, at 1280×800 as a treasury user sees it: no page-level scroll, a grid of at least 15
 * rows, a chart that collapses and stays so, "Clear filters" that clears the gateway too, dates typed dd/mm/yyyy
 * and no sync into the future, the dates a sync found nothing for named, Sync disabled offline with the reason,
 * the last screen reopened, Welcome's next step, the keyboard shortcuts and the production switch asked for and
 * marked on every screen. Each screen is saved in light and dark at 1280×800.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDdMmYyyy } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const VIEWPORT = { width: 1280, height: 800 };
const ROW_HEIGHT = 28;

describe.runIf(ready)('the desk’s friction, fixed (1280×800)', () => {
  let app: RunningApp;
  let productionId: string;
  beforeAll(async () => {
    app = await startApp({
      viewport: VIEWPORT,
      settlementsPerDay: 60,
      prepare({ core }) {
        productionId = core.profiles.create({
          name: 'HDFC payouts',
          environment: 'production',
          baseUrl: 'https://api.payments.example.in',
          aiUrl: 'https://ai.payments.example.in',
          key: 'live_4f9a21c0',
        }).id;
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const nav = () => app.page.getByRole('navigation', { name: 'Sections' });
  const statusBar = () => app.page.getByRole('contentinfo');

  it('opens on Welcome with the next step, and reaches screens by g-shortcuts; ? lists them', async () => {
    const { page } = app;
    const next = page.getByRole('region', { name: 'Next step' });
    await next.getByText(/Sync settlements/).waitFor();
    // A production profile exists, so that step is not offered.
    expect(await next.getByText(/Add a production profile/).count()).toBe(0);
    await saveScreenshots(page, 'welcome');

    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    expect(
      await nav()
        .getByRole('button', { name: /^Settlements/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toMatch(/UTR/);
    // Typed into a field, g and b are text, not a shortcut.
    await page.keyboard.type('gb');
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).click();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.getByText('Beneficiaries').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('refuses future dates and bad dates as typed dd/mm/yyyy, then syncs and names the dates with nothing', async () => {
    const { page } = app;
    const from = page.getByLabel('From', { exact: true });
    const to = page.getByLabel('To', { exact: true });
    const sync = page.getByRole('button', { name: 'Sync', exact: true });
    await to.fill(formatDdMmYyyy(addDays(TEST_TODAY, 1)));
    await page.getByText(/no settlements after today/).waitFor();
    expect(await sync.isDisabled()).toBe(true);
    await to.fill('31/02/2026');
    await page.getByText('Enter both dates as dd/mm/yyyy.').waitFor();
    expect(await sync.isDisabled()).toBe(true);

    // Five days before the sandbox's history (derived from it, not assumed) and two inside it.
    const first = app.sandbox.fixtures().settlementDates[0]!;
    await from.fill(formatDdMmYyyy(addDays(first, -5)));
    await to.fill(formatDdMmYyyy(addDays(first, 1)));
    await sync.click();
    const named = page.getByTestId('sync-empty-dates');
    await named.waitFor();
    expect(await named.textContent()).toContain(
      `5 dates: ${formatDdMmYyyy(addDays(first, -5))} to ${formatDdMmYyyy(addDays(first, -1))}`,
    );
  });

  it('shows at least 15 grid rows with no page-level scroll; the chart collapses and stays collapsed', async () => {
    const { page } = app;
    await page.getByLabel('From', { exact: true }).fill(formatDdMmYyyy(addDays(TEST_TODAY, -6)));
    await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(TEST_TODAY));
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByText(/^Sync completed for/).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Dismiss' }).click();
    const grid = page.getByRole('grid');
    await grid.locator('[role=row][data-id]').first().waitFor();
    const rowsInView = await grid.evaluate((el, h) => Math.floor((el.clientHeight - 32) / h), ROW_HEIGHT);
    expect(rowsInView).toBeGreaterThanOrEqual(15);
    // The UTR column is on screen at 1280 px, not past the grid's right edge.
    const utr = await grid.getByRole('columnheader', { name: /^UTR/ }).boundingBox();
    const box = await grid.boundingBox();
    expect(utr!.x + utr!.width).toBeLessThanOrEqual(box!.x + box!.width);

    // A wheel over the sidebar scrolls nothing: not the window, not the page.
    await page.mouse.move(100, 400);
    await page.mouse.wheel(0, 400);
    const scroll = await page.evaluate(() => ({
      window: window.scrollY,
      page: document.scrollingElement!.scrollTop,
      taller: document.documentElement.scrollHeight > window.innerHeight,
    }));
    expect(scroll).toEqual({ window: 0, page: 0, taller: false });
    await saveScreenshots(page, 'settlements-1280');

    const toggle = page.getByRole('button', { name: 'Show chart' });
    await toggle.click();
    const chart = page.locator('#stl-chart');
    await chart.waitFor();
    await page.getByRole('button', { name: 'Hide chart' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Show chart' }).waitFor();
    expect(await chart.count()).toBe(0);
  });

  it('reopens on the last screen, and "Clear filters" clears the gateway and every filter', async () => {
    const { page } = app;
    // The reload above reopened Settlements, not Welcome.
    expect(await page.getByRole('heading', { name: 'Welcome to Payout Console' }).count()).toBe(0);
    const gateway = page.getByLabel('Gateway', { exact: true });
    await page.getByLabel('Gateway', { exact: true }).locator('option').nth(1).waitFor({ state: 'attached' });
    const pg = (await gateway.locator('option').nth(1).getAttribute('value'))!;
    await gateway.selectOption(pg);
    await page.getByLabel('Exceptions only').check();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    expect(await gateway.inputValue()).toBe('');
    expect(await page.getByLabel('Exceptions only').isChecked()).toBe(false);
    expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);
  });

  it('sorts by Tax', async () => {
    const { page } = app;
    const tax = page.getByRole('columnheader', { name: /^Tax/ });
    await tax.click();
    await expect.poll(() => tax.getAttribute('aria-sort')).toMatch(/ascending|descending/);
  });

  it('reaches the grid from the Settlements button in two presses: Tab, then Enter on "Skip to the settlements"', async () => {
    const { page } = app;
    const settlements = nav().getByRole('button', { name: /^Settlements/ });
    await settlements.focus();
    // The sidebar is one tab stop: the other sections are reached with the arrow keys, not with Tab.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Reconciliation/);
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Settlements/);

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the settlements');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('grid');

    // Without the skip link, Tab still walks every filter in order and reaches the grid within the screen's fields.
    await settlements.focus();
    let presses = 0;
    while (presses < 40 && (await page.evaluate(() => document.activeElement?.getAttribute('role'))) !== 'grid') {
      await page.keyboard.press('Tab');
      presses++;
    }
    expect(presses).toBeLessThan(40);
    console.log(`Tab presses from the Settlements button to the grid, skip link not used: ${presses}`);
  });

  it('saves every screen in light and dark at 1280×800', async () => {
    const { page } = app;
    for (const [screen, file] of [
      ['Accounts & balances', 'accounts'],
      ['Beneficiaries', 'beneficiaries'],
      ['Payouts', 'payouts'],
      ['Settlements', 'settlements'],
      ['Payment tools', 'tools'],
      ['Plans', 'plans'],
      ['Webhooks', 'webhooks'],
      ['Classification', 'classification'],
      ['Journal', 'journal'],
      ['Settings', 'settings'],
    ] as const) {
      await nav()
        .getByRole('button', { name: new RegExp(`^${screen}`) })
        .click();
      await page.getByRole('heading', { level: 1, name: screen }).waitFor();
      await saveScreenshots(page, `${file}-1280`);
    }
  });

  it('asks before switching to production, then marks it on every screen and starts it as not contacted', async () => {
    const { page } = app;
    await statusBar()
      .getByText(/^Online since/)
      .waitFor();
    await nav()
      .getByRole('button', { name: /^Settings/ })
      .click();
    const card = page.getByRole('article', { name: 'HDFC payouts' });
    await card.getByRole('button', { name: 'Activate' }).click();
    const confirm = page.getByRole('dialog', { name: /Switch to the production profile/ });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(app.core.profiles.active().id).toBe('sandbox');

    await card.getByRole('button', { name: 'Activate' }).click();
    await confirm.getByRole('button', { name: 'Switch to production' }).click();
    await expect.poll(() => app.core.profiles.active().id).toBe(productionId);
    await statusBar().getByText('Not contacted yet').waitFor();
    for (const screen of ['Accounts & balances', 'Beneficiaries', 'Payouts', 'Settlements', 'Settings']) {
      await nav()
        .getByRole('button', { name: new RegExp(`^${screen}`) })
        .click();
      await page.getByTestId('production-strip').waitFor();
    }
    await saveScreenshots(page, 'settings-production');
  });

  it('disables Sync offline with the reason on hover', async () => {
    const { page } = app;
    await nav()
      .getByRole('button', { name: /^Settings/ })
      .click();
    await page.getByRole('article', { name: 'Sandbox' }).getByRole('button', { name: 'Activate' }).click();
    await expect.poll(() => app.core.profiles.active().id).toBe('sandbox');
    await app.sandbox.close();
    await nav()
      .getByRole('button', { name: /^Accounts/ })
      .click();
    // Opening Accounts asks the gateways, which finds the service gone.
    await page.getByRole('status').filter({ hasText: 'showing cached data' }).waitFor();
    await nav()
      .getByRole('button', { name: /^Settlements/ })
      .click();
    const sync = page.getByRole('button', { name: 'Sync', exact: true });
    expect(await sync.isDisabled()).toBe(true);
    expect(await sync.getAttribute('title')).toMatch(/cannot be reached/);
    expect(app.consoleErrors).toEqual([]);
  });
});
