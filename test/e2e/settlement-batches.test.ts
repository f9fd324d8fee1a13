/**
 * The Batches view of the Settlements screen end to end, against the real core, cache and sandbox at 1280×800:
 * a week synced, the records rolled up into batches whose totals equal the records' totals bar for the same dates
 * and gateway (and the cache's own sums); a batch opened from the keyboard shows exactly its records in the grid.
 * Screenshots in light and dark.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../shared/money';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { syncedThroughJob } from '../support/core';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const TO = TEST_TODAY;
const FROM = addDays(TO, -6);
const count = new Intl.NumberFormat('en-IN');

describe.runIf(ready)('Settlements: the Batches view', () => {
  let app: RunningApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 120,
      async prepare({ core }) {
        await syncedThroughJob(core, { from: FROM, to: TO });
      },
    });
    page = app.page;
  });
  afterAll(async () => {
    await app?.close();
  });

  const db = () => app.core.cacheFor(app.core.profiles.active().id).db;

  /** The term → value pairs of a dl, once its region is not busy. */
  async function figures(box: Locator): Promise<Record<string, string>> {
    await page.waitForFunction((el) => el?.getAttribute('aria-busy') !== 'true', await box.elementHandle());
    const terms = await box.locator('dt').allTextContents();
    const values = await box.locator('dd').allTextContents();
    return Object.fromEntries(terms.map((t, i) => [t, values[i]!]));
  }
  const totalsBar = () => page.getByRole('region', { name: 'Totals' });
  const batchTotals = () => page.getByRole('region', { name: 'Batches' }).getByLabel('Batch totals');

  function sums(pg: string | null) {
    return db()
      .prepare(
        `SELECT count(*) AS records, count(DISTINCT date || pg || coalesce(utr, '') || settlement_date) AS batches,
                sum(amount) AS amount, sum(mer_service_fee) AS fees, sum(mer_service_tax) AS taxes,
                sum(settled_amount) AS settled
         FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL AND (? IS NULL OR pg = ?)`,
      )
      .get(FROM, TO, pg, pg) as Record<'records' | 'batches' | 'amount' | 'fees' | 'taxes' | 'settled', number>;
  }
  const shown = (s: ReturnType<typeof sums>) => ({
    Records: count.format(s.records),
    Amount: formatMoney(s.amount),
    Fees: formatMoney(s.fees),
    Taxes: formatMoney(s.taxes),
    Settled: formatMoney(s.settled),
  });

  it(
    'rolls the week up into batches whose totals tie to the records, all gateways and one',
    { timeout: 60_000 },
    async () => {
      await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
      await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
      const all = sums(null);
      await expect.poll(() => figures(totalsBar()), { timeout: 10_000 }).toEqual(shown(all));

      await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Batches' }).click();
      await expect
        .poll(() => figures(batchTotals()), { timeout: 10_000 })
        .toEqual({ Batches: count.format(all.batches), ...shown(all) });
      // The two on screen agree with each other, not only with the cache.
      const batchFigures = await figures(batchTotals());
      expect(Number(batchFigures['Batches']!.replace(/,/g, ''))).toBe(all.batches);
      delete batchFigures['Batches'];
      expect(batchFigures).toEqual(await figures(totalsBar()));
      expect(await page.getByRole('table', { name: 'Batches' }).getAttribute('aria-rowcount')).toBe(
        String(all.batches + 1),
      );
      await saveScreenshots(page, 'settlement-batches');

      // One gateway: both narrow alike.
      const pg = (db().prepare('SELECT pg FROM settlements ORDER BY pg LIMIT 1').get() as { pg: string }).pg;
      await page.getByRole('region', { name: 'Dates and gateway' }).getByLabel('Gateway').selectOption(pg);
      const one = sums(pg);
      await expect
        .poll(() => figures(batchTotals()), { timeout: 10_000 })
        .toEqual({ Batches: count.format(one.batches), ...shown(one) });
      await expect.poll(() => figures(totalsBar()), { timeout: 10_000 }).toEqual(shown(one));

      // Nothing in the batches table is cut off at 1280 wide: every column fits its scroll box.
      const clipped = await page
        .getByRole('table', { name: 'Batches' })
        .evaluate((t) => t.scrollWidth > t.parentElement!.clientWidth);
      expect(clipped).toBe(false);
    },
  );

  it('opens a batch from the keyboard: the grid shows exactly its records', { timeout: 60_000 }, async () => {
    const batchTable = page.getByRole('table', { name: 'Batches' });
    const firstRow = batchTable.locator('tbody tr').first();
    const utr = ((await firstRow.locator('td').nth(2).textContent()) ?? '').trim();
    expect(utr).toMatch(/^\d+$|^UTR pending$/);
    await firstRow.focus();
    await page.keyboard.press('ArrowDown');
    const chosen = batchTable.locator('tbody tr[aria-selected="true"]');
    const chosenUtr = ((await chosen.locator('td').nth(2).textContent()) ?? '').trim();
    const chosenKey = (await chosen.getAttribute('data-id'))!;
    const [date, pg, keyUtr, settlementDate] = chosenKey.split('|');
    expect(keyUtr || 'UTR pending').toBe(chosenUtr);
    await page.keyboard.press('Enter');

    await page.getByRole('grid', { name: 'Settlements' }).waitFor();
    const expected = db()
      .prepare(
        `SELECT count(*) AS records, sum(amount) AS amount, sum(mer_service_fee) AS fees, sum(mer_service_tax) AS taxes,
                sum(settled_amount) AS settled
         FROM settlements WHERE date = ? AND pg = ? AND vanished_at IS NULL AND ${keyUtr ? 'utr = ?' : "coalesce(utr, '') = '' AND ? = ''"}
           AND ${keyUtr ? 'settlement_date = ?' : '? IS NOT NULL'}`,
      )
      .get(date, pg, keyUtr, settlementDate) as ReturnType<typeof sums>;
    expect(expected.records).toBeGreaterThan(0);
    await expect.poll(() => figures(totalsBar()), { timeout: 10_000 }).toEqual(shown(expected));
    expect(
      await page
        .getByRole('group', { name: 'Show' })
        .getByRole('button', { name: 'Records' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });
});
