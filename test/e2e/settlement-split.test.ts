/**
 * The Settlements totals bar's split of the amount into sales, refunds and chargebacks, end to end against the real
 * core, cache and sandbox at 1280×800: a week synced, the split on screen equals the cache's sums by SQL for all
 * gateways and for one, adds up to the Amount beside it, and keeps the bar within two rows. Screenshots in light and dark.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../shared/money';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { syncedThroughJob } from '../support/core';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const TO = TEST_TODAY;
const FROM = addDays(TO, -6);

describe.runIf(ready)('Settlements: sales, refunds and chargebacks in the totals bar', () => {
  let app: RunningApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 300,
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
  const totalsBar = () => page.getByRole('region', { name: 'Totals' });

  /** The split summed by SQL over the cached rows, by the rule of `lineKind`; the amount beside it. */
  function sqlSplit(pg: string | null) {
    return db()
      .prepare(
        `SELECT ifnull(sum(CASE WHEN amount >= 0 THEN amount END), 0) AS sales,
                ifnull(sum(CASE WHEN amount < 0 AND trim(ifnull(dispute_id, '')) = '' THEN amount END), 0) AS refunds,
                ifnull(sum(CASE WHEN amount < 0 AND trim(ifnull(dispute_id, '')) <> '' THEN amount END), 0)
                  AS chargebacks,
                ifnull(sum(amount), 0) AS amount
         FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL AND (? IS NULL OR pg = ?)`,
      )
      .get(FROM, TO, pg, pg) as Record<'sales' | 'refunds' | 'chargebacks' | 'amount', number>;
  }
  const shown = (s: ReturnType<typeof sqlSplit>) => ({
    Amount: formatMoney(s.amount),
    Sales: formatMoney(s.sales),
    Refunds: formatMoney(s.refunds),
    Chargebacks: formatMoney(s.chargebacks),
  });

  /** The bar's Amount and its split, once the bar is not busy. */
  async function onScreen(): Promise<Record<string, string>> {
    await page.waitForFunction((el) => el?.getAttribute('aria-busy') !== 'true', await totalsBar().elementHandle());
    const figure = (key: string) => totalsBar().locator(`[data-figure=${key}] .money`).textContent();
    const terms = await totalsBar().locator('dt').allTextContents();
    const amount = (await totalsBar().locator('dd').allTextContents())[terms.indexOf('Amount')];
    return {
      Amount: amount ?? '',
      Sales: (await figure('sales')) ?? '',
      Refunds: (await figure('refunds')) ?? '',
      Chargebacks: (await figure('chargebacks')) ?? '',
    };
  }

  /**
   * The rows the bar's figures and split take, and the rows of the split alone. The figures alone already take two
   * rows at 1280 wide once the amounts reach crores (Settled wraps); the split must fit in beside them on one line.
   */
  const rows = () =>
    totalsBar().evaluate((bar) => {
      /** Lines of boxes: a box starts a new one when it begins below every box of the line before. */
      const lines = (selector: string) => {
        const rects = [...bar.querySelectorAll(selector)].map((el) => el.getBoundingClientRect());
        let count = 0;
        let bottom = -Infinity;
        for (const r of rects.sort((a, b) => a.top - b.top)) {
          if (r.top >= bottom) count++;
          bottom = r.top >= bottom ? r.bottom : Math.max(bottom, r.bottom);
        }
        return count;
      };
      return { bar: lines('dl > div, .stl-split'), split: lines('.stl-split > span') };
    });

  it(
    'equals the cache by SQL for all gateways and for one, and keeps the bar within two rows',
    { timeout: 60_000 },
    async () => {
      const all = sqlSplit(null);
      // The week holds both kinds of debit, so the figures below are no zeros that tie by accident.
      expect(all.refunds).toBeLessThan(0);
      expect(all.chargebacks).toBeLessThan(0);
      expect(all.sales + all.refunds + all.chargebacks).toBe(all.amount);

      await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
      await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
      await expect.poll(onScreen, { timeout: 10_000 }).toEqual(shown(all));
      await saveScreenshots(page, 'settlement-split');
      expect((await rows()).split).toBe(1);
      expect((await rows()).bar).toBeLessThanOrEqual(2);

      const pg = (
        db().prepare('SELECT pg FROM settlements WHERE amount < 0 ORDER BY pg LIMIT 1').get() as { pg: string }
      ).pg;
      await page.getByRole('region', { name: 'Dates and gateway' }).getByLabel('Gateway').selectOption(pg);
      await expect.poll(onScreen, { timeout: 10_000 }).toEqual(shown(sqlSplit(pg)));
      expect((await rows()).split).toBe(1);
      expect((await rows()).bar).toBeLessThanOrEqual(2);
      expect(app.consoleErrors).toEqual([]);
    },
  );
});
