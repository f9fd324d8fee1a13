/**
 * The first sync of an empty cache, as a new desk meets it (issue 30, item 4): once the Settlements screen says
 * "Sync completed", the grid and the totals hold what was stored. Every state the page commits between the click
 * and the answer is recorded by a MutationObserver in the page, so the test reads what a person could have seen,
 * without racing a timer: "Sync completed" beside "Nothing cached for these dates" or a zero total once failed here.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../shared/money';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

/** Two API pages a day over the screen's default week: enough that the totals take a read of their own. */
const PER_DAY = 1500;
const TO = TEST_TODAY;
const FROM = addDays(TO, -6);
const count = new Intl.NumberFormat('en-IN');

describe.runIf(ready)('Settlements: the first sync of an empty cache', () => {
  let app: RunningApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ settlementsPerDay: PER_DAY });
    page = app.page;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('says "Sync completed" only once the grid and totals show what it stored', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
    await page.getByText('Nothing cached for these dates — Sync to fetch them').waitFor();
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { syncStates: string[] }).syncStates = seen;
      const record = () => {
        const text = document.body.innerText;
        if (!text.includes('Sync completed')) return;
        const totals = document.querySelector('[aria-label="Totals"]');
        const records = totals?.querySelector('dd')?.textContent ?? null;
        seen.push(
          JSON.stringify({ nothingCached: text.includes('Nothing cached for these dates'), records: records ?? '' }),
        );
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page
      .getByRole('region', { name: 'Sync' })
      .getByText(/^Sync completed for /)
      .waitFor();

    const db = app.core.cacheFor(app.core.profiles.active().id).db;
    const stored = db
      .prepare(
        `SELECT count(*) AS n, ifnull(sum(amount), 0) AS amount FROM settlements
         WHERE date BETWEEN ? AND ? AND vanished_at IS NULL`,
      )
      .get(FROM, TO) as { n: number; amount: number };
    expect(stored.n).toBeGreaterThan(0);
    const states = (await page.evaluate(() => (window as unknown as { syncStates: string[] }).syncStates)).map(
      (s) => JSON.parse(s) as { nothingCached: boolean; records: string },
    );
    expect(states.length).toBeGreaterThan(0);
    // Every state with "Sync completed" on screen already had the stored records in the grid and the totals.
    expect(states.filter((s) => s.nothingCached || s.records !== count.format(stored.n))).toEqual([]);
    const totals = page.getByRole('region', { name: 'Totals' });
    expect(await totals.locator('dd').nth(1).textContent()).toBe(formatMoney(stored.amount));
    expect(
      await page.getByRole('grid', { name: 'Settlements' }).locator('[role=row][data-id]').count(),
    ).toBeGreaterThan(0);
    await saveScreenshots(page, 'settlements-first-sync');
    expect(app.consoleErrors).toEqual([]);
  });
});
