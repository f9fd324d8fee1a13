/**
 * Saved views on the lists added after Settlements, Beneficiaries and the Journal, through the one list-views hook
 * (ui/table-views.ts): Payouts' recent lookups (a status filter, its export holding only those payouts, named after
 * the view and the filter), Orders, Reconciliation's batches, Webhooks, Accounts, the Changes view, the bulk check's
 * results and the journal's closed periods. Each is saved, made the default,
 * restored after a restart of the renderer, and kept per profile in the settings file a restarted main reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { ok, syncedThroughJob } from '../support/core';
import { readCsv } from '../support/export-files';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const from = addDays(TEST_TODAY, -4);
const to = addDays(TEST_TODAY, -1);
const UNKNOWN = 'TRF000000000404';

describe.runIf(ready)('saved views on every list', () => {
  let app: RunningApp;
  const outDir = mkdtempSync(join(tmpdir(), 'pc-list-views-e2e-'));
  const names: string[] = [];
  let payouts: { id: string; status: string }[];
  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 40,
      exportTargets: {
        choose: (name) => {
          names.push(name);
          return Promise.resolve(join(outDir, name));
        },
      },
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
        const fixtures = sandbox.fixtures();
        // Answered payouts of two statuses at least, so a status filter leaves some out.
        payouts = fixtures.payouts.filter((p) => p.status === 'success' || p.status === 'failed').slice(0, 6);
        for (const p of payouts) await ok(core, 'payouts.lookup', { payoutId: p.id, mode: 'normal' });
        // A bulk check with one id the service does not know (refused), and a closed period: two more lists.
        await ok(core, 'payouts.check', { ids: [...payouts.slice(0, 2).map((p) => p.id), UNKNOWN], mode: 'normal' });
        await ok(core, 'journal.closePeriod', { from, to });
        for (const o of fixtures.orders.slice(0, 6)) await ok(core, 'orders.fetch', { id: o.id });
      },
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  const nav = (screen: RegExp) =>
    app.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: screen }).click();
  /** The views menu in `scope` (a list's own, or the screen's). */
  const views = (scope: Locator) => scope.locator('details.views');
  async function saveView(scope: Locator, name: string, asDefault: boolean) {
    const menu = views(scope);
    if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click();
    await menu.getByLabel('Save what is on screen as').fill(name);
    await menu.getByRole('button', { name: 'Save view' }).click();
    await menu.getByText(`Saved the view “${name}”.`).waitFor();
    if (asDefault) {
      await menu.getByRole('button', { name: `Open this screen with “${name}”` }).click();
      await menu.getByRole('button', { name: `Stop opening with “${name}”` }).waitFor();
    }
    await menu.locator('summary').click();
    expect(await menu.locator('summary').textContent()).toBe(`Views: ${name}`);
  }
  /** A list's own filter control, by the list's label and the filter's. */
  const filter = (list: string, label: string) =>
    app.page.getByRole('group', { name: `Filter ${list.toLowerCase()}` }).getByLabel(label, { exact: true });
  const savedViews = (table: string) =>
    createProfileStore({ dataDir: app.dataDir, sandbox: null }).views('sandbox', table);

  it('Payouts: a status view, its export holding only those payouts, named after the view and the filter', async () => {
    const { page } = app;
    await nav(/^Payouts/);
    const list = page.getByRole('region', { name: 'Recent lookups' });
    const table = list.getByRole('table', { name: 'Recent lookups' });
    await table.waitFor();
    const status = payouts.find((p) => p.status === 'failed') ? 'failed' : 'success';
    const expected = payouts.filter((p) => p.status === status).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(payouts.length);
    await filter('Recent lookups', 'Status').selectOption(status);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(expected.length);
    await saveView(list, 'Failed ones', true);
    await saveScreenshots(page, 'saved-views-payouts');

    // The page header's export (the bulk check's results have their own).
    await page.locator('.screen-head').getByRole('button', { name: 'Export CSV' }).click();
    await page.getByText(/^Exported \d+ rows/).waitFor({ timeout: 15_000 });
    const file = names.at(-1)!;
    expect(file).toMatch(new RegExp(`-payouts-\\d{4}-\\d{2}-\\d{2}-view-failed-ones-status-${status}\\.csv$`));
    const [header, ...rows] = (await readCsv(join(outDir, file))).records;
    const idAt = header!.indexOf('Payout id');
    expect(new Set(rows.map((r) => r[idAt]))).toEqual(new Set(expected));
    await page.getByRole('button', { name: 'Dismiss' }).click();

    // A restart: the list opens with its default view.
    await page.reload();
    await table.waitFor();
    await expect.poll(() => filter('Recent lookups', 'Status').inputValue()).toBe(status);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(expected.length);
    expect(await views(list).locator('summary').textContent()).toBe('Views: Failed ones');
    expect(savedViews('payouts.recent')).toMatchObject({
      defaultName: 'Failed ones',
      views: [{ name: 'Failed ones', state: { filters: { status } } }],
    });
  });

  it('Orders: a status and a sort, restored after a restart', async () => {
    const { page } = app;
    await nav(/^Orders/);
    const table = page.getByRole('table', { name: 'Recent orders' });
    await table.waitFor();
    const box = page.locator('.dt-box', { has: table });
    const statusBox = filter('Recent orders', 'Status');
    const first = (await statusBox.locator('option').nth(1).getAttribute('value'))!;
    await statusBox.selectOption(first);
    const amount = table.getByRole('columnheader', { name: /^Amount/ });
    await amount.getByRole('button').click();
    await expect.poll(() => amount.getAttribute('aria-sort')).toBe('descending');
    const shown = await table.locator('tbody tr').count();
    await saveView(box, 'By amount', true);

    await page.reload();
    await table.waitFor();
    await expect.poll(() => statusBox.inputValue()).toBe(first);
    await expect.poll(() => amount.getAttribute('aria-sort')).toBe('descending');
    expect(await table.locator('tbody tr').count()).toBe(shown);
    expect(savedViews('orders.recent').views[0]!.state).toMatchObject({
      filters: { status: first },
      sort: { column: 'amount', direction: 'desc' },
    });
  });

  it('Reconciliation: the overdue batches as a view; picking it again after a change restores it', async () => {
    const { page } = app;
    await nav(/^Reconciliation/);
    const table = page.getByRole('table', { name: 'Settlement batches' });
    await table.waitFor();
    const box = page.locator('.dt-box', { has: table });
    const all = await table.locator('tbody tr').count();
    await filter('Settlement batches', 'Batches').selectOption('overdue');
    await expect.poll(() => table.locator('tbody tr').count()).toBeLessThan(all);
    await saveView(box, 'Overdue', false);
    await filter('Settlement batches', 'Batches').selectOption('');
    await expect.poll(() => views(box).locator('summary').textContent()).toBe('Views: Overdue (changed)');
    await views(box).locator('summary').click();
    await views(box)
      .getByRole('button', { name: /^Overdue/ })
      .click();
    await expect.poll(() => filter('Settlement batches', 'Batches').inputValue()).toBe('overdue');
    expect(await table.locator('tbody tr').allTextContents()).not.toHaveLength(0);
    for (const row of await table.locator('tbody tr').allTextContents()) expect(row).toContain('overdue');
    // A column hidden by default stays hidden in a view saved before any column was chosen.
    expect(await table.getByRole('columnheader', { name: /^Settled at/ }).count()).toBe(0);
    await saveScreenshots(page, 'saved-views-reconciliation');
  });

  it('Webhooks and Accounts: a view each, the default restored after a restart', async () => {
    const { page } = app;
    await nav(/^Webhooks/);
    const hooks = page.getByRole('table', { name: 'Webhook endpoints' });
    await hooks.waitFor();
    await page.getByRole('radio', { name: 'Inactive' }).check();
    await expect
      .poll(() => hooks.locator('tbody tr').count())
      .toBe(app.sandbox.fixtures().webhooks.filter((w) => w.status !== 'active').length);
    const header = page.locator('.screen-head');
    await saveView(header, 'Inactive', true);

    await nav(/^Accounts/);
    await page.getByLabel('Find account').fill('payu');
    await saveView(page.locator('.screen-head'), 'PayU', true);

    await page.reload();
    // Reopens on Accounts, the last screen, with its default view.
    await expect.poll(() => page.getByLabel('Find account').inputValue()).toBe('payu');
    await nav(/^Webhooks/);
    await expect.poll(() => page.getByRole('radio', { name: 'Inactive' }).isChecked()).toBe(true);
    expect(savedViews('webhooks').views[0]!.state.filters).toEqual({ show: 'inactive' });
    expect(savedViews('accounts-payable').views[0]!.state.filters).toEqual({ search: 'payu' });
    expect(app.consoleErrors).toEqual([]);
  });

  it('the Changes view: a kind of change, the default applied when it opens after a restart', async () => {
    const { page } = app;
    await nav(/^Settlements/);
    const open = async () => {
      await page.getByRole('button', { name: 'Changes & completeness' }).click();
      const dialog = page.getByRole('dialog', { name: /^Changes and completeness/ });
      await dialog.waitFor();
      return dialog;
    };
    let dialog = await open();
    const kind = () => dialog.locator('label', { hasText: /^Change/ }).locator('select');
    await kind().selectOption('vanished');
    // No sync here changed a record: the list is empty, its filter and views menu still there.
    await dialog.getByText('No changes').waitFor();
    await saveView(dialog, 'Gone', true);
    await page.keyboard.press('Escape');

    await page.reload();
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    dialog = await open();
    await expect.poll(() => kind().inputValue()).toBe('vanished');
    expect(savedViews('settlement-changes')).toMatchObject({
      defaultName: 'Gone',
      views: [{ state: { filters: { kind: 'vanished' } } }],
    });
    await page.keyboard.press('Escape');
  });

  it('the bulk check results and the closed periods: an outcome, a state and a sort, restored after a restart', async () => {
    const { page } = app;
    await nav(/^Payouts/);
    const results = page.getByRole('table', { name: 'Bulk check results' });
    await results.waitFor();
    await expect.poll(() => results.locator('tbody tr').count()).toBe(3);
    await filter('Bulk check results', 'Check').selectOption('refused');
    await expect.poll(() => results.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining(UNKNOWN)]);
    await saveView(page.locator('.dt-box', { has: results }), 'Refused', true);

    await nav(/^Journal/);
    const periods = page.getByRole('table', { name: 'Closed periods' });
    await periods.waitFor();
    await filter('Closed periods', 'State').selectOption('closed');
    const records = periods.getByRole('columnheader', { name: /^Records/ });
    await records.getByRole('button').click();
    await expect.poll(() => records.getAttribute('aria-sort')).toBe('descending');
    await saveView(page.locator('.dt-box', { has: periods }), 'Closed by size', true);

    await page.reload();
    // Reopens on the Journal, the last screen, with the periods' default view.
    await expect.poll(() => filter('Closed periods', 'State').inputValue()).toBe('closed');
    await expect.poll(() => records.getAttribute('aria-sort')).toBe('descending');
    expect(
      await views(page.locator('.dt-box', { has: periods }))
        .locator('summary')
        .textContent(),
    ).toBe('Views: Closed by size');
    await nav(/^Payouts/);
    await expect.poll(() => filter('Bulk check results', 'Check').inputValue()).toBe('refused');
    expect(await results.locator('tbody tr').count()).toBe(1);
    expect(savedViews('payouts.bulk')).toMatchObject({
      defaultName: 'Refused',
      views: [{ state: { filters: { outcome: 'refused' } } }],
    });
    expect(savedViews('journal.periods').views[0]!.state).toMatchObject({
      filters: { state: 'closed' },
      sort: { column: 'records', direction: 'desc' },
    });
    expect(app.consoleErrors).toEqual([]);
  });
});
