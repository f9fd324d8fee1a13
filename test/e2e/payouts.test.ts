/**
 * The Payouts screen end to end, against the real core and sandbox: a failed payout's reason in plain words (the
 * gateway's own text and code, as the wire carries them), a pending payout on the watch list that resolves on the
 * second hard pull with the change marked in its history, the watch list run by main (its age columns, its news
 * in the status bar on another screen: overdue, then a status change with advance checks turned on), a pasted list
 * handed to the bulk check, checked there and exported from its own button, an unknown id, and offline: a lookup
 * that fails while the cached answer and history stay, and a bulk check refused (normal) or queued (advance).
 * Screenshots in light and dark.
 */
import ExcelJS from 'exceljs';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMinor, formatMoney, majorNumberToMinor } from '../../shared/money';
import { formatIstWallClock } from '../../shared/format';
import { CHECK_FAILED, RECENT_LOOKUPS, payoutListMatches } from '../../shared/payouts';
import { rawCall } from '../support/sandbox-http';
import { e2eSystemReady, startApp, type RunningApp, saveScreenshots } from './support';

const ready = await e2eSystemReady();

interface WirePayout {
  payout: {
    transfer_status: string;
    amount: number;
    processed_at: string | null;
    method: string;
    fund_source: string;
    beneficiary: { name: string };
    error: string;
  };
  error_code?: number;
  error_message?: string;
}

describe.runIf(ready)('Payouts', () => {
  let app: RunningApp;
  let profileId: string;
  let failed: string;
  let pending: string[];

  const lookups = () => app.harness.calls.filter((c) => c === 'payouts.lookup').length;
  const history = (payoutId: string) => app.core.cacheFor(profileId).payouts.history(payoutId);
  const result = (): Locator => app.page.getByRole('region', { name: /^Payout / });
  const timeline = (): Locator => app.page.getByRole('list', { name: 'Checks of this payout, newest first' });
  const watchList = (): Locator => app.page.getByRole('table', { name: 'Pending payouts' });

  async function lookUp(payoutId: string, advance = false): Promise<void> {
    const { page } = app;
    await page.getByLabel('Payout id', { exact: true }).fill(payoutId);
    const box = page.getByLabel('Advance (ask the gateway directly)');
    if ((await box.isChecked()) !== advance) await box.setChecked(advance);
    const before = lookups();
    await page.getByLabel('Payout id', { exact: true }).press('Enter');
    await expect.poll(lookups).toBe(before + 1);
    await result().and(page.locator('[aria-busy="false"]')).waitFor();
  }

  async function openPayouts(): Promise<void> {
    await app.page.getByRole('navigation').getByRole('button', { name: 'Payouts' }).click();
    await app.page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor();
  }

  beforeAll(async () => {
    app = await startApp();
    profileId = app.core.profiles.active().id;
    const fixtures = app.sandbox.fixtures().payouts;
    failed = fixtures.find((p) => p.status === 'failed')!.id;
    pending = fixtures.filter((p) => p.status === 'pending').map((p) => p.id);
    expect(pending.length).toBeGreaterThanOrEqual(2);
    await openPayouts();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows a failed payout with the gateway’s reason in plain words', async () => {
    const { page } = app;
    await page.getByText('No lookups yet').waitFor();
    const wire = (await rawCall(app.sandbox.url, 'payout.fetch', { id: failed }, app.merchant)).body as WirePayout;
    expect(wire.payout.transfer_status).toBe('failed');

    await lookUp(failed);
    const panel = result();
    expect(await panel.getByRole('heading').textContent()).toBe(`Payout ${failed}`);
    expect(await panel.locator('.payout-status').textContent()).toBe('Failed');
    expect(await panel.getByRole('alert').textContent()).toBe(
      `The transfer failed: ${wire.error_message} (gateway code ${wire.error_code}).`,
    );
    expect(await panel.locator('.payout-amount').textContent()).toBe(
      formatMoney(majorNumberToMinor(wire.payout.amount)),
    );
    const facts = await panel.locator('.payout-facts').textContent();
    expect(facts).toContain(`Processed${formatIstWallClock(wire.payout.processed_at!)}`);
    expect(facts).toContain(`Method${wire.payout.method.toUpperCase()}`);
    expect(facts).toContain(`Fund source${wire.payout.fund_source}`);
    expect(facts).toContain(wire.payout.beneficiary.name);
    expect(facts).toContain('UTRNone: the transfer failed, so no UTR will be issued.');
    expect(facts).not.toContain('Not issued yet');
    expect(await panel.getByTestId('as-of').textContent()).toMatch(/^Checked .* IST$/);

    const [kept] = history(failed);
    expect(kept).toMatchObject({
      transferStatus: 'failed',
      gatewayErrorCode: String(wire.error_code),
      gatewayErrorMessage: wire.error_message,
      amount: majorNumberToMinor(wire.payout.amount),
    });
    await expect.poll(() => timeline().getByRole('listitem').count()).toBe(1);
    const recent = page.getByRole('table', { name: 'Recent lookups' });
    await recent.getByRole('row', { name: new RegExp(failed) }).waitFor();
    expect(await watchList().count()).toBe(0);
  });

  it('watches a pending payout, and marks where its status changed when the gateway resolves it', async () => {
    const { page } = app;
    const id = pending[0]!;
    await lookUp(id);
    expect(await result().locator('.payout-status').textContent()).toBe('Pending');
    await watchList()
      .getByRole('row', { name: new RegExp(id) })
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Watch list' }).isVisible()).toBe(true);

    // A second check, this time asking the gateway: two checks in the history.
    await lookUp(id, true);
    await expect.poll(() => timeline().getByRole('listitem').count()).toBe(2);
    expect(history(id).map((l) => [l.mode, l.transferStatus])).toEqual([
      ['normal', 'pending'],
      ['advance', 'pending'],
    ]);
    expect(await timeline().locator('.payout-check-changed').count()).toBe(0);

    // The sandbox settles a pending payout on its second hard pull.
    await lookUp(id, true);
    expect(await result().locator('.payout-status').textContent()).toBe('Success');
    await expect.poll(() => timeline().getByRole('listitem').count()).toBe(3);
    const newest = timeline().getByRole('listitem').first();
    expect(await newest.getAttribute('class')).toContain('payout-check-changed');
    expect(await newest.textContent()).toContain('Changed from Pending');
    expect(await timeline().locator('.payout-check-changed').count()).toBe(1);
    const utNo = history(id).at(-1)!.utNo!;
    expect(utNo).toMatch(/^\d{12}$/);
    expect(await result().locator('.payout-facts').textContent()).toContain(`UTR${utNo}`);
    await page.getByText('Nothing pending to watch').waitFor();
  });

  it('shows ages, and main’s watch list tells the status bar on any screen what went overdue and what changed', async () => {
    const { page, core } = app;
    const id = pending[1]!;
    await lookUp(id);
    const row = watchList().getByRole('row', { name: new RegExp(id) });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/0 min/);
    // The Advance box is for one lookup: it is unticked again after one.
    await lookUp(pending[0]!, true);
    expect(await page.getByLabel('Advance (ask the gateway directly)').isChecked()).toBe(false);

    // The console first saw it three hours ago: past any method's expected time.
    const firstSeen = new Date(Date.parse(history(id)[0]!.lookedUpAt) - 3 * 3_600_000).toISOString();
    core
      .cacheFor(profileId)
      .db.prepare('UPDATE payout_first_seen SET first_seen_at = ? WHERE payout_id = ?')
      .run(firstSeen, id);
    await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    const before = history(id).length;
    await core.payoutWatch.tick();
    expect(history(id)).toHaveLength(before + 1);
    // The news is one of the status bar's alerts, behind their count.
    await page
      .getByRole('contentinfo')
      .getByRole('button', { name: /^\d+ alerts?$/ })
      .click();
    const news = page.getByTestId('watch-news');
    await news.getByText(`Watch list: ${id} is overdue.`).waitFor();

    await openPayouts();
    await row.getByText(/^Overdue since .* IST$/).waitFor();
    // The page's clock stands at the tests' instant, a little behind the core's.
    expect(await row.textContent()).toMatch(/(2 h 59|3 h 0\d) min/);
    await page
      .getByRole('list', { name: 'What the watch list noticed' })
      .getByText(/is overdue/)
      .waitFor();
    await saveScreenshots(app.page, 'payouts-watch', { height: 1100 });

    // Advance checks only once the desk turns them on; the sandbox settles on the second.
    const settings = app.core.cacheFor(profileId).payoutSettings.get();
    app.core.cacheFor(profileId).payoutSettings.put({ ...settings, watchAdvance: true });
    await core.payoutWatch.tick();
    await core.payoutWatch.tick();
    expect(
      history(id)
        .map((l) => l.mode)
        .slice(-2),
    ).toEqual(['advance', 'advance']);
    await news.getByText(`Watch list: ${id} is now success (was pending).`).waitFor();
    app.core.cacheFor(profileId).payoutSettings.put(settings);
  });

  it('hands a pasted list to the bulk check instead of looking up one bogus id, and checks it there', async () => {
    const { page } = app;
    const before = lookups();
    // Not the failed payout: the offline test below counts its checks.
    const settled = app.sandbox.fixtures().payouts.find((p) => p.status === 'success')!.id;
    const list = `${pending[0]} ${settled}\n${pending[0]};bad#id`;
    await page.getByLabel('Payout id', { exact: true }).fill(list);
    await page.getByLabel('Payout id', { exact: true }).press('Enter');
    await page.getByText('That was a list of payout ids: it is in the bulk check below, ready to check.').waitFor();
    expect(lookups()).toBe(before);
    // A one-line field turns the pasted new line into a space.
    expect(await page.getByLabel('Payout ids', { exact: true }).inputValue()).toBe(list.replace('\n', ' '));
    await page
      .getByLabel('How the list was read')
      .getByText('2 ids, 1 repeated (checked once), 1 not payout ids (left out)')
      .waitFor();
    await page
      .getByRole('list', { name: 'Not payout ids' })
      .getByText('has characters a payout id does not: #')
      .waitFor();
    // A word is held back as not an id before anything is sent; the person may send it deliberately.
    const ids = page.getByLabel('Payout ids', { exact: true });
    await ids.fill(`${await ids.inputValue()} hello`);
    const notIds = page.getByRole('list', { name: 'Not payout ids' });
    await notIds.getByText('has no digits: a word, not a payout id').waitFor();
    await page.getByText('2 ids, 1 repeated (checked once), 2 not payout ids (left out)').waitFor();
    await notIds.getByRole('checkbox', { name: 'Send anyway' }).check();
    await page.getByRole('button', { name: 'Check 3 payouts' }).waitFor();
    await notIds.getByRole('checkbox', { name: 'Send anyway' }).uncheck();
    await ids.fill(list.replace('\n', ' '));

    await page.getByRole('button', { name: 'Check 2 payouts' }).click();
    const table = page.getByRole('table', { name: 'Bulk check results' });
    await table.getByRole('row', { name: new RegExp(settled) }).waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
    expect(await table.getByRole('row', { name: new RegExp(pending[0]!) }).textContent()).toMatch(/Checked/);
    // Nothing was kept under the pasted text as one id.
    expect(history(list)).toEqual([]);
    expect(
      app.core
        .cacheFor(profileId)
        .payouts.recent(500)
        .some((l) => l.payoutId.includes(' ')),
    ).toBe(false);
    await table.scrollIntoViewIfNeeded();
    await saveScreenshots(app.page, 'payouts-bulk', { height: 1100 });

    // The results table as a workbook, from the bulk check's own export button: one line per id of the run.
    const bulk = page.getByRole('region', { name: 'Bulk check' });
    await bulk.getByRole('button', { name: 'Export to Excel', exact: true }).click();
    const status = page.getByRole('region', { name: 'Export' });
    await status.getByRole('button', { name: 'Show in folder' }).waitFor({ timeout: 30_000 });
    const file = /to (.+\.xlsx) in /.exec((await status.textContent())!)![1]!;
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const rows: ExcelJS.CellValue[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    const run = app.core.treasury.payoutChecks.latest(profileId)!;
    expect(rows[0]!.slice(0, 2)).toEqual(['Payout id', 'Outcome']);
    // Excel holds rupees as numbers: two decimals of what it read are the exact paise as text.
    expect(rows.slice(1).map((r) => [r[0], r[1], (r[6] as number).toFixed(2)])).toEqual(
      run.items.map((i) => [i.payoutId, i.outcome, formatMinor(i.lookup!.amount!)]),
    );
    await status.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('says so when a payout id is unknown', async () => {
    const { page } = app;
    // Ctrl+F lands in the payout id, as in every screen's search.
    await page.getByRole('heading', { name: 'Payouts', level: 1 }).click();
    await page.keyboard.press('Control+f');
    expect(await page.getByLabel('Payout id', { exact: true }).evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await lookUp('TRF000000000000');
    const alert = result().getByRole('alert');
    expect(await alert.textContent()).toMatch(/^The lookup failed: .*TRF000000000000 not found.*Try again$/);
    expect(await timeline().getByRole('listitem').textContent()).toMatch(/Failed: /);
    expect(history('TRF000000000000')).toMatchObject([{ transferStatus: null, error: expect.any(String) }]);

    // An empty id is refused before anything is sent.
    const before = app.harness.calls.length;
    await page.getByLabel('Payout id', { exact: true }).fill('   ');
    await page.getByLabel('Payout id', { exact: true }).press('Enter');
    await page.getByText('Enter a payout id.').waitFor();
    expect(app.harness.calls.length).toBe(before);
  });

  it('exports the Recent lookups as the screen lists them, whatever a bulk check looked up beyond them', async () => {
    const { page } = app;
    // More unknown ids than the list holds: each is a lookup in the cache, most of them not on screen.
    const unknown = Array.from({ length: RECENT_LOOKUPS + 6 }, (_, i) => `TRF${String(1000 + i).padStart(12, '0')}`);
    await page.getByLabel('Payout ids', { exact: true }).fill(unknown.join(' '));
    await page.getByRole('button', { name: `Check ${unknown.length} payouts` }).click();
    const results = page.getByRole('table', { name: 'Bulk check results' });
    await results.getByRole('row', { name: new RegExp(unknown.at(-1)!) }).waitFor();
    const cache = app.core.cacheFor(profileId).payouts;
    expect([...cache.every()].length).toBeGreaterThan(RECENT_LOOKUPS);

    const recent = page.getByRole('table', { name: 'Recent lookups' });
    const statusFilter = page.getByRole('group', { name: 'Filter recent lookups' }).getByLabel('Status');
    await statusFilter.selectOption(CHECK_FAILED);
    const shownIds = async () => (await recent.locator('tbody tr[data-id]').all()).length;
    // What the screen lists under the filter, read from the cache as the screen reads it.
    const expected = cache
      .recent(RECENT_LOOKUPS)
      .filter((l) => payoutListMatches(l, { status: CHECK_FAILED }))
      .map((l) => l.payoutId);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(unknown.length);
    await expect.poll(shownIds).toBe(expected.length);
    const onScreen = await recent
      .locator('tbody tr[data-id]')
      .evaluateAll((rows) => rows.map((r) => r.querySelector('td')!.textContent));

    await page.locator('.screen-head').getByRole('button', { name: 'Export to Excel', exact: true }).click();
    const status = page.getByRole('region', { name: 'Export' });
    await status.getByRole('button', { name: 'Show in folder' }).waitFor({ timeout: 30_000 });
    const file = /to (.+\.xlsx) in /.exec((await status.textContent())!)![1]!;
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const ids: unknown[] = [];
    book.getWorksheet('Payout lookups')!.eachRow((row, n) => {
      if (n > 1) ids.push(row.getCell(1).value);
    });
    expect(ids).toEqual(onScreen);
    expect(ids).toEqual(expected);
    const audit = new Map<string, unknown>();
    book.getWorksheet('Audit')!.eachRow((row) => audit.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(audit.get('Rows')).toBe(expected.length);
    expect(audit.get('View')).toBe(
      `the Payouts screen's Recent lookups: the latest check of each of the ${RECENT_LOOKUPS} most recently ` +
        `checked payouts, a row each, only those on screen: latest check's status ${CHECK_FAILED}`,
    );
    await saveScreenshots(page, 'payouts-recent-export');
    await status.getByRole('button', { name: 'Dismiss' }).click();
    await statusFilter.selectOption('');
  });

  it('offline: the lookup fails with a way to try again, the last known answer and the history stay', async () => {
    const { page, sandbox } = app;
    await sandbox.close();
    await lookUp(failed);
    const alert = result().getByRole('alert').filter({ hasText: 'The lookup did not get an answer' });
    await alert.waitFor();
    expect(await alert.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
    await page.locator('.offline-banner').waitFor();
    expect(await result().getByTestId('as-of').textContent()).toMatch(/^Last known answer, checked .* IST$/);
    expect(await result().locator('.payout-status').textContent()).toBe('Failed');
    await expect.poll(() => timeline().getByRole('listitem').count()).toBe(1);
    expect(history(failed)).toHaveLength(1);
    await page.getByText('Paused while the service cannot be reached: main checks again once it answers.').waitFor();

    await alert.getByRole('button', { name: 'Try again' }).click();
    await result().getByRole('alert').filter({ hasText: 'The lookup did not get an answer' }).waitFor();
    expect(history(failed)).toHaveLength(1);

    // A bulk check offline: a normal one is refused with the reason on hover, an advance one is queued in main.
    const bulk = page.getByRole('region', { name: 'Bulk check' });
    await bulk.getByLabel('Payout ids', { exact: true }).fill(`${pending[0]} ${failed}`);
    const normal = bulk.getByRole('button', { name: 'Check 2 payouts' });
    expect(await normal.isDisabled()).toBe(true);
    expect(await normal.getAttribute('title')).toMatch(/^Needs the service, which cannot be reached/);
    await bulk.getByLabel(/^Advance/).check();
    const checksBefore = app.harness.calls.filter((c) => c === 'payouts.check').length;
    await bulk.getByRole('button', { name: 'Queue 2 payouts' }).click();
    const table = bulk.getByRole('table', { name: 'Bulk check results' });
    await expect.poll(() => app.harness.calls.filter((c) => c === 'payouts.check').length).toBe(checksBefore + 1);
    await table
      .getByRole('row', { name: new RegExp(failed) })
      .getByText('Queued')
      .waitFor();
    expect(await table.getByRole('row', { name: new RegExp(pending[0]!) }).textContent()).toMatch(/Queued/);
    // The queue is in the profile's cache, for when the service answers again; the box unticked after the run.
    expect(
      app.core
        .cacheFor(profileId)
        .payoutChecks.queued()
        .map((q) => q.payoutId),
    ).toEqual([pending[0], failed]);
    expect(await bulk.getByLabel(/^Advance/).isChecked()).toBe(false);
    await saveScreenshots(page, 'payouts-bulk-offline', { height: 1100 });
    expect(app.consoleErrors).toEqual([]);
  });
});
