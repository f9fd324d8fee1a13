/**
 * The status bar at 1280×800 with alerts active (low headroom on every gateway that reported, then the service
 * unreachable too): one line on every screen, as tall as with no alert, nothing pushed past its right edge, the
 * alerts behind one count whose list says each in full, opened and closed by keyboard.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/core';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

/** The bar's height, and the items that reach past its right edge or onto a second line. */
function barShape(page: Page) {
  return page.getByRole('contentinfo').evaluate((bar) => {
    const box = bar.getBoundingClientRect();
    const items = [...bar.children].map((item) => ({ text: item.textContent, rect: item.getBoundingClientRect() }));
    return {
      height: box.height,
      past: items.filter((i) => i.rect.right > box.right + 0.5).map((i) => i.text),
      below: items.filter((i) => i.rect.height > 0 && i.rect.bottom > box.bottom + 0.5).map((i) => i.text),
    };
  });
}

describe.runIf(ready)('the status bar', () => {
  let app: RunningApp;
  let lowGateways: string[];

  beforeAll(async () => {
    app = await startApp({
      async prepare({ core }) {
        await ok(core, 'accounts.refresh', {});
        const headroom = await ok(core, 'accounts.headroom', undefined);
        lowGateways = headroom.gateways.filter((g) => g.afterPending !== null).map((g) => g.pg);
        // An alert above every figure: each gateway that reported one is low.
        for (const pg of lowGateways) {
          const figure = headroom.gateways.find((g) => g.pg === pg)!.afterPending!;
          await ok(core, 'accounts.setHeadroomThreshold', { pg, threshold: figure + 100 });
        }
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const bar = () => app.page.getByRole('contentinfo');
  const count = (n: number) => bar().getByRole('button', { name: `${n} ${n === 1 ? 'alert' : 'alerts'}`, exact: true });

  async function everyScreenOneLine(height: number): Promise<void> {
    const { page } = app;
    const buttons = page.getByRole('navigation', { name: 'Sections' }).getByRole('button');
    for (let i = 0; i < (await buttons.count()); i++) {
      await buttons.nth(i).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const label = await buttons.nth(i).textContent();
      expect(await barShape(page), label!).toEqual({ height, past: [], below: [] });
    }
  }

  it(
    'keeps one line on every screen, with the alerts behind a count that opens and closes by keyboard',
    { timeout: 90_000 },
    async () => {
      const { page } = app;
      expect(lowGateways.length).toBeGreaterThanOrEqual(2);
      await count(1).waitFor();
      // As tall as one line of the bar's text and its padding: the height with nothing but the connectivity in it.
      const height = await bar().evaluate((el) => {
        const style = getComputedStyle(el);
        const probe = el.querySelector('[data-testid="connectivity"]')!.getBoundingClientRect().height;
        return Math.max(
          parseFloat(style.minHeight),
          probe + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) + parseFloat(style.borderTopWidth),
        );
      });
      await everyScreenOneLine(height);

      // By keyboard: focus the count, Enter opens the list with each alert in full, Escape closes it onto the count.
      await count(1).focus();
      await page.keyboard.press('Enter');
      const list = bar().getByRole('list', { name: 'Alerts' });
      expect(await list.getByRole('listitem').allTextContents()).toEqual([`Low headroom: ${lowGateways.join(', ')}`]);
      expect(await count(1).getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'detached' });
      expect(await count(1).evaluate((el) => el === document.activeElement)).toBe(true);

      // The service goes away: its reason joins the alerts, and the bar keeps its one line.
      await app.sandbox.close();
      // The Accounts screen asks for balances as it opens, and finds nobody there.
      await page.getByRole('navigation').getByRole('button', { name: 'Accounts & balances' }).click();
      await count(2).waitFor();
      expect(await bar().getByTestId('connectivity').textContent()).toMatch(
        /^Offline since \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2}:\d{2} [ap]m IST$/,
      );
      await everyScreenOneLine(height);
      await count(2).click();
      const texts = await list.getByRole('listitem').allTextContents();
      expect(texts).toHaveLength(2);
      expect(texts[0]).toBe(`Low headroom: ${lowGateways.join(', ')}`);
      expect(texts[1]).toMatch(/^Offline since .* IST: .+\.$/);
      await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
      await page.getByRole('heading', { level: 1, name: 'Settlements' }).waitFor();
      await saveScreenshots(page, 'status-bar-alerts');
      expect(app.consoleErrors).toEqual([]);
    },
  );
});
