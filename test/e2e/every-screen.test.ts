/**
 * Every screen of the sidebar, with data in it, at 1280×800 and 1920×1080 in light and dark: each opens from the
 * sidebar with its heading, scrolls only inside its content pane (the window itself never scrolls), shows every time
 * in the one format (no "2026-11-17 20:18:16" as the API sent it), and logs no error. The pictures (`<screen>-<width>-<scheme>.png` in test-results/screenshots/) are for people to look at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { ok, syncedThroughJob } from '../support/core';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const from = addDays(TEST_TODAY, -4);
const to = addDays(TEST_TODAY, -1);

describe.runIf(ready)('every screen, with data, at two window sizes', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 40,
      async prepare({ core, sandbox }) {
        await syncedThroughJob(core, { from, to });
        const answer = await hook<{ csv: string }>(sandbox.url, 'POST', 'statement', {
          from,
          to,
          discrepancies: { missing: 1, short: 1, split: 1, orphan: 1 },
        });
        const content = Buffer.from(answer.body.csv).toString('base64');
        await ok(core, 'recon.importStatement', { fileName: 'statement.csv', content, account: 'Collection account' });
        await ok(core, 'recon.match', { account: 'Collection account', from, to });
        for (const [name, vpa] of [
          ['Acme Vendor', 'acme.vendor@okaxis'],
          ['Zenith Traders', 'zenith.traders@okaxis'],
        ] as const) {
          await ok(core, 'beneficiaries.create', { requestKey: crypto.randomUUID(), beneficiary: { name, vpa } });
        }
        const fixtures = sandbox.fixtures();
        for (const p of fixtures.payouts.slice(0, 4))
          await ok(core, 'payouts.lookup', { payoutId: p.id, mode: 'normal' });
        for (const o of fixtures.orders.slice(0, 3)) await ok(core, 'orders.fetch', { id: o.id });
        for (const s of fixtures.subscriptions.slice(0, 3))
          await ok(core, 'subscriptions.fetch', { id: s.id, by: 'id' });
      },
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  for (const size of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    it(`opens every screen at ${size.width}×${size.height} with no window scroll`, { timeout: 120_000 }, async () => {
      const { page } = app;
      await page.setViewportSize(size);
      // The sidebar's own buttons, so a screen added to navigation/screens.tsx is pictured too.
      const buttons = page.getByRole('navigation', { name: 'Sections' }).getByRole('button');
      const count = await buttons.count();
      expect(count).toBeGreaterThanOrEqual(13);
      for (let i = 0; i < count; i++) {
        const button = buttons.nth(i);
        await button.click();
        const label = (await button.locator('span').first().textContent())!;
        const screen = {
          id: label
            .toLowerCase()
            .replace(/[^a-z]+/g, '-')
            .replace(/-+$/, ''),
        };
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        // Loading skeletons gone: what the picture shows is the screen's data.
        await expect
          .poll(() => page.locator('[aria-busy="true"].skeleton, .skeleton').count(), { message: screen.id })
          .toBe(0);
        const scroll = await page.evaluate(() => ({
          window: document.scrollingElement!.scrollHeight - window.innerHeight,
          top: window.scrollY,
        }));
        expect(scroll, screen.id).toEqual({ window: 0, top: 0 });
        // One timestamp format everywhere ("15/06/2026, 12:00:03 pm IST"): no ISO or wall-clock text shown as it came.
        expect(await page.evaluate(() => document.body.innerText), screen.id).not.toMatch(
          /\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/,
        );
        await saveScreenshots(page, `${screen.id}-${size.width}`);
      }
      expect(app.consoleErrors).toEqual([]);
    });
  }
});
