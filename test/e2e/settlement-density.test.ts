/**
 * Rows on screen at 1280×800, the size a desk laptop gives: the Settlements grid opens in its compact density (the
 * default below 900 px of window height) and shows at least 22 whole rows with the range and filter bars shown,
 * online, with a sync's banner and offline; a record's detail opens in a side panel that leaves the grid and those
 * rows in view, and Escape closes it onto the row it came from.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { syncedThroughJob } from '../support/core';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const ROWS_AT_1280 = 22;

/** Grid rows wholly inside the grid's scrolled view, below its header. */
function wholeRows(page: Page): Promise<number> {
  return page.getByRole('grid', { name: 'Settlements' }).evaluate((grid) => {
    const head = grid.querySelector('[role="row"]')!.getBoundingClientRect();
    const view = grid.getBoundingClientRect();
    const bottom = view.top + grid.clientHeight;
    return [...grid.querySelectorAll('[role="rowgroup"] [role="row"]')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= head.bottom - 0.5 && r.bottom <= bottom + 0.5;
    }).length;
  });
}

describe.runIf(ready)('Settlements at 1280×800', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 60,
      async prepare({ core }) {
        await syncedThroughJob(core, { from: addDays(TEST_TODAY, -6), to: TEST_TODAY });
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const grid = () => app.page.getByRole('grid', { name: 'Settlements' });

  async function filtersShown(): Promise<void> {
    const { page } = app;
    for (const name of ['From', 'To', 'Payment mode', 'Order status', 'Gateway status', 'Rule', 'Records']) {
      expect(await page.getByLabel(name, { exact: true }).first().isVisible(), name).toBe(true);
    }
    expect(
      await page
        .getByRole('searchbox')
        .or(page.getByPlaceholder(/Search order ID/))
        .isVisible(),
    ).toBe(true);
  }

  it('shows at least 22 whole rows online, with a sync banner, and offline, in the compact density', async () => {
    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    await grid().locator('[role="row"][aria-rowindex="2"]').waitFor();
    expect(await grid().getAttribute('class')).toContain('stl-grid-compact');
    await filtersShown();
    expect(await wholeRows(page)).toBeGreaterThanOrEqual(ROWS_AT_1280);

    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByText(/^Sync completed for/).waitFor();
    await filtersShown();
    expect(await wholeRows(page)).toBeGreaterThanOrEqual(ROWS_AT_1280);
    await saveScreenshots(page, 'settlements-1280-synced');

    // Offline: the sync that found nobody there is dismissed, the offline banner stays.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await app.sandbox.close();
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.locator('.offline-banner').waitFor();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('button', { name: 'Dismiss' }).waitFor({ state: 'detached' });
    await filtersShown();
    expect(await wholeRows(page)).toBeGreaterThanOrEqual(ROWS_AT_1280);
    await saveScreenshots(page, 'settlements-1280-offline');
  });

  it('opens a record in a side panel that leaves the grid and its rows in view, and Escape returns to the row', async () => {
    const { page } = app;
    await grid().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const active = await grid().getAttribute('aria-activedescendant');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: /^Settlement / });
    await panel.waitFor();
    const [gridBox, panelBox] = await Promise.all([grid().boundingBox(), panel.boundingBox()]);
    // Side by side, not on top: the grid ends where the panel begins, and keeps its rows.
    expect(gridBox!.x + gridBox!.width).toBeLessThanOrEqual(panelBox!.x);
    expect(await wholeRows(page)).toBeGreaterThanOrEqual(ROWS_AT_1280);
    // Its order and transaction ids and times are in the panel, in view without scrolling sideways.
    for (const label of ['Order ID', 'Gateway transaction ID', 'Settled at', 'Ordered at']) {
      expect(await panel.locator(`dt:text-is("${label}")`).isVisible(), label).toBe(true);
    }
    await saveScreenshots(page, 'settlements-1280-detail');
    await panel.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await grid().evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await grid().getAttribute('aria-activedescendant')).toBe(active);
    expect(app.consoleErrors).toEqual([]);
  });
});
