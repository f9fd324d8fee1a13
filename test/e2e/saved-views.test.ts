/**
 * Saved views, as a desk uses them: on Settlements, a gateway filter and a sort saved under a name and made the
 * default; an export then names the view and the filter and follows the sort; after a restart of the renderer the
 * screen opens with the default view, and the settings file (what a restarted main reads) holds it for the profile;
 * a changed filter shows as "(changed)" and picking the view restores it. On Beneficiaries a view keeps the search,
 * the sort and the columns, and its export holds only the payees the search finds. The open menu is saved in light and dark at 1280×800.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { formatDdMmYyyy } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { ok } from '../support/core';
import { readCsv } from '../support/export-files';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

describe.runIf(ready)('saved views', () => {
  let app: RunningApp;
  const outDir = mkdtempSync(join(tmpdir(), 'pc-views-e2e-'));
  const names: string[] = [];
  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 40,
      exportTargets: {
        choose: (name) => {
          names.push(name);
          return Promise.resolve(join(outDir, name));
        },
      },
    });
    for (const [name, vpa] of [
      ['Acme Vendor', 'acme.vendor@okaxis'],
      ['Zenith Vendor', 'zenith.vendor@okaxis'],
      // Not found by the view's search: its export leaves this one out.
      ['Bharat Steel', 'bharat.steel@okaxis'],
    ] as const) {
      await ok(app.core, 'beneficiaries.create', { requestKey: crypto.randomUUID(), beneficiary: { name, vpa } });
    }
  });
  afterAll(async () => {
    await app?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  const nav = (screen: RegExp) =>
    app.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: screen }).click();
  const viewsMenu = () => app.page.locator('details.views');
  const openViews = async () => {
    if ((await viewsMenu().getAttribute('open')) === null) await viewsMenu().locator('summary').click();
  };
  let pg: string;

  it('saves the gateway and the sort under a name and makes it the default', async () => {
    const { page } = app;
    await nav(/^Settlements/);
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    await page.getByLabel('From', { exact: true }).fill(formatDdMmYyyy(addDays(TEST_TODAY, -3)));
    await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(addDays(TEST_TODAY, -1)));
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByText(/^Sync completed for/).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Dismiss' }).click();

    const gateway = page.getByLabel('Gateway', { exact: true });
    await gateway.locator('option').nth(1).waitFor({ state: 'attached' });
    pg = (await gateway.locator('option').nth(1).getAttribute('value'))!;
    await gateway.selectOption(pg);
    const amount = page.getByRole('columnheader', { name: /^Amount/ });
    await amount.getByRole('button').click();
    await expect.poll(() => amount.getAttribute('aria-sort')).toBe('descending');

    await openViews();
    await page.getByLabel('Save what is on screen as').fill('Month end');
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.getByText('Saved the view “Month end”.').waitFor();
    await page.getByRole('button', { name: 'Open this screen with “Month end”' }).click();
    await page.getByRole('button', { name: 'Stop opening with “Month end”' }).waitFor();
    expect(await viewsMenu().locator('summary').textContent()).toBe('Views: Month end');
    await saveScreenshots(page, 'saved-views-menu');
  });

  it('an export names the view and the filter and follows the on-screen sort', async () => {
    const { page } = app;
    await viewsMenu().locator('summary').click();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByText(/^Exported \d+ rows/).waitFor({ timeout: 15_000 });
    const name = names.at(-1)!;
    expect(name).toContain('-view-month-end-');
    expect(name).toContain(`-${pg.toLowerCase()}`);
    const { records } = await readCsv(join(outDir, name));
    const [header, ...rows] = records;
    const amountAt = header!.indexOf('Amount (INR)');
    const gatewayAt = header!.findIndex((h) => /^Gateway$|^PG$/i.test(h));
    expect(amountAt).toBeGreaterThanOrEqual(0);
    expect(rows.length).toBeGreaterThan(1);
    // Exact decimal text compared as paise: the file is in the grid's order, largest amount first.
    const paise = rows.map((r) => Math.round(Number(r[amountAt]) * 100));
    expect(paise).toEqual([...paise].sort((a, b) => b - a));
    if (gatewayAt >= 0) expect(new Set(rows.map((r) => r[gatewayAt]))).toEqual(new Set([pg]));
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('after a restart the screen opens with the default view, kept per profile in the settings file', async () => {
    const { page } = app;
    await page.reload();
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    const gateway = page.getByLabel('Gateway', { exact: true });
    await expect.poll(() => gateway.inputValue()).toBe(pg);
    await expect
      .poll(() => page.getByRole('columnheader', { name: /^Amount/ }).getAttribute('aria-sort'))
      .toBe('descending');
    expect(await viewsMenu().locator('summary').textContent()).toBe('Views: Month end');

    // What a restarted main reads: the settings file, for the active profile.
    const saved = createProfileStore({ dataDir: app.dataDir, sandbox: null }).views('sandbox', 'settlements');
    expect(saved.defaultName).toBe('Month end');
    expect(saved.views[0]!.state).toMatchObject({
      filters: { pg },
      sort: { column: 'amount', direction: 'desc' },
    });
  });

  it('a changed filter shows as changed; picking the view restores it', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect.poll(() => viewsMenu().locator('summary').textContent()).toBe('Views: Month end (changed)');
    await openViews();
    await page.getByRole('button', { name: /^Month end/ }).click();
    await expect.poll(() => page.getByLabel('Gateway', { exact: true }).inputValue()).toBe(pg);
    expect(await viewsMenu().locator('summary').textContent()).toBe('Views: Month end');
  });

  it('on Beneficiaries a view keeps the search, the sort and the columns', async () => {
    const { page } = app;
    await nav(/^Beneficiaries/);
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor();
    const search = page.getByLabel('Search', { exact: true });
    await search.fill('vendor');
    const name = page.getByRole('columnheader', { name: /^Name/ });
    await name.getByRole('button').click();
    await name.getByRole('button').click();
    await expect.poll(() => name.getAttribute('aria-sort')).toBe('descending');
    await page.locator('details.dt-chooser summary').click();
    await page.locator('details.dt-chooser').getByLabel('Email').uncheck();
    await page.locator('details.dt-chooser summary').click();
    await openViews();
    await page.getByLabel('Save what is on screen as').fill('Vendors');
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.getByText('Saved the view “Vendors”.').waitFor();

    // The screen changed by hand, then the view picked again.
    await search.fill('');
    await page.locator('details.dt-chooser summary').click();
    await page.locator('details.dt-chooser').getByLabel('Email').check();
    await page.locator('details.dt-chooser summary').click();
    await openViews();
    await page.getByRole('button', { name: /^Vendors/ }).click();
    await expect.poll(() => search.inputValue()).toBe('vendor');
    expect(await page.locator('details.dt-chooser').getByLabel('Email').isChecked()).toBe(false);
    expect(await name.getAttribute('aria-sort')).toBe('descending');
    const rows = page.getByRole('table', { name: 'Cached beneficiaries' }).locator('tbody tr');
    expect(await rows.first().textContent()).toContain('Zenith Vendor');

    // Its export names the view and the search, holds only what the list shows, and follows the sort.
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByText(/^Exported \d+ rows/).waitFor({ timeout: 15_000 });
    const file = names.at(-1)!;
    expect(file).toMatch(/-beneficiaries-\d{4}-\d{2}-\d{2}-view-vendors-search-vendor\.csv$/);
    const [header, ...lines] = (await readCsv(join(outDir, file))).records;
    const nameAt = header!.indexOf('Name');
    expect(lines.map((l) => l[nameAt])).toEqual(['Zenith Vendor', 'Acme Vendor']);
  });
});
