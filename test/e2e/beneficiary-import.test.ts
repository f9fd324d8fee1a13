/**
 * The beneficiary import on the Beneficiaries screen, end to end against the real core, cache and sandbox: the
 * template, a CSV with headers the console does not know (nothing created until each is mapped or left out), the
 * preview with its counts, whole account numbers and each IFSC's bank or warning, its Reason column whole at 1280, the confirmation,
 * the per-row results and their export, a second run of the same file that creates nothing, and offline: the
 * preview still works, creating waits for the service and nothing is sent. Saved in light and dark at 1280×800.
 */
import { existsSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../shared/profiles';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

const CSV = [
  'Vendor,Account number,IFSC,UPI address,GSTIN',
  'Shreya Textiles,000456789012,hdfc0004567,,29ABCDE1234F1Z5',
  'Nair Logistics,7788 9900 1122,SBIN0001122,,',
  'Bad Branch,123456789012,SBIN001122,,',
  'Nair Logistics copy,778899001122,SBIN0001122,,',
  'Chai Point Counter,,,chai.point@okicici,',
].join('\r\n');

/** At 1280 px the Reason column is whole: each reason cell inside the import panel, its text not clipped. */
function reasonsWhole(table: Locator): Promise<boolean> {
  return table.evaluate((el) => {
    const panel = el.closest('section')!.getBoundingClientRect();
    const reasons = [...el.querySelectorAll('tbody tr')].map((r) => r.lastElementChild as HTMLElement);
    return reasons.every(
      (cell) => cell.getBoundingClientRect().right <= panel.right && cell.scrollWidth <= cell.clientWidth,
    );
  });
}

describe.runIf(ready)('Beneficiary import', () => {
  let app: RunningApp;
  const sandboxIds = () => new Set(app.sandbox.fixtures().beneficiaries.map((b) => b.id));

  beforeAll(async () => {
    app = await startApp();
    app.page.setDefaultTimeout(8_000);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('maps, previews, confirms with counts, creates each good row once and exports the results', async () => {
    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Beneficiaries' }).click();
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Import…' }).click();
    const panel = page.getByRole('region', { name: 'Import beneficiaries' });

    await panel.getByRole('button', { name: 'Download template' }).click();
    const savedTemplate = panel.getByRole('status').filter({ hasText: /^Saved .*-beneficiary-import-template\.xlsx$/ });
    await savedTemplate.waitFor();
    expect(existsSync((await savedTemplate.textContent())!.replace(/^Saved /, ''))).toBe(true);

    const before = sandboxIds();
    await panel
      .getByLabel('File')
      .setInputFiles({ name: 'vendors.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    // Nothing can be created while a column is neither mapped nor left out: no preview of rows, no Create.
    const blocked = panel.getByRole('alert');
    await blocked.filter({ hasText: 'The columns "Vendor", "GSTIN" are not mapped' }).waitFor();
    await panel.getByRole('group', { name: 'Columns the console does not know' }).waitFor();
    const create = panel.getByRole('button', { name: /^Create \d/ });
    expect(await create.count()).toBe(0);
    await panel.getByRole('combobox').first().selectOption('name');
    await blocked.filter({ hasText: 'The column "GSTIN" is not mapped: choose its field or leave it out.' }).waitFor();
    expect(await create.count()).toBe(0);
    expect(await panel.getByRole('table', { name: 'Import preview' }).count()).toBe(0);
    await panel.getByRole('combobox').nth(1).selectOption('ignore');
    const summary = panel.getByRole('status').filter({ hasText: 'Preview of vendors.csv' });
    await summary.waitFor();
    expect(await summary.textContent()).toBe(
      'Preview of vendors.csv: 5 rows. Ready: 3 · Invalid: 1 · Duplicate in the file: 1',
    );
    const preview = panel.getByRole('table', { name: 'Import preview' });
    // Account numbers whole, so a person sees the leading zeros survived; each IFSC with its bank or a warning.
    const row2 = (await preview.locator('tr[data-id="2"]').textContent())!;
    expect(row2).toContain('000456789012');
    expect(row2).toContain("HDFC Bank has no branch HDFC0004567 in Razorpay's IFSC list");
    expect(await preview.locator('tr[data-id="3"]').textContent()).toContain('SBIN0001122State Bank of India');
    expect(await preview.locator('tr[data-id="4"]').textContent()).toContain('IFSC must be an IFSC code');
    expect(await preview.locator('tr[data-id="5"]').textContent()).toContain('The same payee as row 3.');
    await saveScreenshots(page, 'beneficiary-import-preview');
    expect(await reasonsWhole(preview)).toBe(true);
    expect(sandboxIds()).toEqual(before);

    await panel.getByRole('button', { name: 'Create 3 beneficiaries' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create 3 beneficiaries?' });
    expect(await dialog.textContent()).toContain('Ready: 3 · Invalid: 1 · Duplicate in the file: 1.');
    await dialog.getByRole('button', { name: 'Create 3' }).click();
    const done = panel.getByRole('status').filter({ hasText: 'Imported vendors.csv' });
    await done.waitFor();
    expect(await done.textContent()).toBe('Imported vendors.csv: Created: 3 · Invalid: 1 · Duplicate in the file: 1');

    const made = [...sandboxIds()].filter((id) => !before.has(id));
    expect(made).toHaveLength(3);
    const cache = app.core.cacheFor(SANDBOX_PROFILE_ID).beneficiaries;
    expect(made.map((id) => cache.get(id)).map((b) => [b?.name, b?.account_number, b?.ifsc, b?.vpa])).toEqual(
      expect.arrayContaining([
        ['Shreya Textiles', '000456789012', 'HDFC0004567', null],
        ['Nair Logistics', '778899001122', 'SBIN0001122', null],
        ['Chai Point Counter', null, null, 'chai.point@okicici'],
      ]),
    );
    const results = panel.getByRole('table', { name: 'Import results' });
    for (const id of made) expect(await results.textContent()).toContain(id);
    expect(await reasonsWhole(results)).toBe(true);
    await saveScreenshots(page, 'beneficiary-import');

    await panel.getByRole('button', { name: 'Export results (Excel)' }).click();
    const savedResults = panel.getByRole('status').filter({ hasText: /^Saved .*-beneficiary-import-results-/ });
    await savedResults.waitFor();
    expect(existsSync((await savedResults.textContent())!.replace(/^Saved /, ''))).toBe(true);

    // The same file again: every row created before is reported with its id, nothing is sent.
    await panel
      .getByLabel('File')
      .setInputFiles({ name: 'vendors.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await panel.getByRole('combobox').first().selectOption('name');
    await panel.getByRole('combobox').nth(1).selectOption('ignore');
    await panel
      .getByRole('status')
      .filter({ hasText: 'Preview of vendors.csv: 5 rows. Already created by an earlier run: 3' })
      .waitFor();
    expect(await panel.getByRole('button', { name: 'Create 0 beneficiaries' }).isDisabled()).toBe(true);
    expect(sandboxIds().size).toBe(before.size + 3);
    expect(app.consoleErrors).toEqual([]);
  });

  it('shows "bank details changed" prominently after a fetch finds new details, and filters the changed payees', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    const cache = app.core.cacheFor(SANDBOX_PROFILE_ID).beneficiaries;
    // A seeded payee this cache last saw with other bank details.
    const id = app.sandbox
      .fixtures()
      .beneficiaries.map((b) => b.id)
      .find((x) => cache.get(x) === null)!;
    cache.upsert({ beneficiary_id: id, name: 'Earlier Name', account_number: '111122223333', ifsc: 'UTIB0000111' });
    await page.getByLabel('Fetch by id', { exact: true }).fill(id);
    await page.getByRole('button', { name: 'Fetch', exact: true }).click();
    // The click returns once it is dispatched; the fetch stores the payee's details as the service has them.
    await expect.poll(() => cache.get(id)?.name).not.toBe('Earlier Name');
    const fetched = cache.get(id)!;
    const detail = page.getByRole('complementary', { name: fetched.name });
    const notice = detail.getByRole('alert').filter({ hasText: 'Bank details changed on' });
    await notice.waitFor();
    // The list of changes is a read of its own: it may show a moment after the notice.
    await expect.poll(() => notice.textContent()).toContain('111122223333 (UTIB0000111) →');
    await page.getByRole('checkbox', { name: 'Bank details changed' }).check();
    await expect
      .poll(() => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['id'])))
      .toEqual([id]);
    await saveScreenshots(page, 'beneficiary-changed');
    await page.getByRole('checkbox', { name: 'Bank details changed' }).uncheck();
    expect(app.consoleErrors).toEqual([]);
  });

  it('offline: previews a file, but offers no create until the service answers, and sends nothing', async () => {
    const { page, sandbox } = app;
    const before = sandboxIds();
    const calls = () => app.harness.calls.filter((c) => c === 'beneficiaries.importRun').length;
    await sandbox.close();
    // Any request that cannot reach the service tells the console it is offline.
    await page.getByLabel('Fetch by id', { exact: true }).fill('bene_NOT_REACHED');
    await page.getByRole('button', { name: 'Fetch', exact: true }).click();
    await page.locator('.offline-banner').waitFor();

    await page.getByRole('button', { name: 'Import…' }).click();
    const panel = page.getByRole('region', { name: 'Import beneficiaries' });
    const offlineCsv = ['Name,Account number,IFSC', 'Offline Traders,000999888777,SBIN0000999'].join('\r\n');
    await panel
      .getByLabel('File')
      .setInputFiles({ name: 'offline.csv', mimeType: 'text/csv', buffer: Buffer.from(offlineCsv) });
    const summary = panel.getByRole('status').filter({ hasText: 'Preview of offline.csv' });
    await summary.waitFor();
    expect(await summary.textContent()).toBe('Preview of offline.csv: 1 row. Ready: 1');
    const create = panel.getByRole('button', { name: 'Create 1 beneficiary' });
    expect(await create.isDisabled()).toBe(true);
    expect(await create.getAttribute('title')).toMatch(/^Needs the service, which cannot be reached/);
    const sent = calls();
    await create.click({ force: true });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(calls()).toBe(sent);
    expect(sandboxIds()).toEqual(before);
    expect(app.consoleErrors).toEqual([]);
  });
});
