/**
 * The Settings screen's Data section and the status bar's "last synced", end to end against the real core and
 * sandbox: the data folder and each profile's exact cache size as main measures it, refreshed by a sync the page
 * starts; the status bar's times as main reports them, following the sync and profile switches; a clear that is
 * cancelled (nothing sent, nothing deleted), one refused while a sync runs (main's sentence shown), and one
 * confirmed (the files gone from disk, "Nothing cached", "not synced yet", also when main is asked afresh).
 * Screenshots in light and dark.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcEventPayload } from '../../shared/ipc/contract';
import { addDays } from '../../shared/time';
import { formatBytes, formatExactBytes } from '../../renderer/src/settings/bytes';
import { formatIstInstant } from '../../shared/format';
import { call, datesWithoutKeys, nextEvent, ok } from '../support/core';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, startApp, type RunningApp, saveScreenshots } from './support';
import { TEST_TODAY } from '../support/clock';

const ready = await e2eSystemReady();
/** An oracle of its own for the bar's times: today's IST time of day, stated as IST. */
const LOCAL = 'Local sandbox';

type SyncFinished = IpcEventPayload<'syncFinished'>;

/** Chromium's and Node's ICU may differ in which space they put before "pm". */
const spaced = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

describe.runIf(ready)('Settings: data folder, cache per profile, clearing; the status bar’s last synced', () => {
  let app: RunningApp;
  let sandboxId: string;
  const day = addDays(TEST_TODAY, -1);

  const sizeOf = async (profileId: string) =>
    (await ok(app.core, 'cache.list', undefined)).caches.find((c) => c.profileId === profileId)!.sizeBytes;
  // No cache folder yet is no cache file: asking for sizes or times creates nothing.
  const cacheFiles = (profileId: string) =>
    existsSync(join(app.dataDir, 'cache'))
      ? readdirSync(join(app.dataDir, 'cache')).filter((name) => name.startsWith(`${profileId}.sqlite`))
      : [];
  const cachedRecords = () => app.core.cacheFor(sandboxId).settlements.totals({ from: day, to: day }).count;

  const statusBar = () => app.page.getByRole('contentinfo');
  const dataSection = () => app.page.getByRole('region', { name: 'Data' });
  const cacheRow = (name: string): Locator => dataSection().getByRole('listitem', { name, exact: true });
  const clearButton = (row: Locator) => row.getByRole('button', { name: 'Clear cache…' });

  /** The bar's text as it should read for what main reports now. */
  async function expectedLastSynced(): Promise<string> {
    const status = await ok(app.core, 'cache.status', undefined);
    expect(status.profileId).toBe(app.core.profiles.active().id);
    if (status.settlementsSyncedAt === null) return 'Settlements not synced yet';
    expect(status.balancesAt).not.toBeNull();
    // The console's one timestamp format, the same as everywhere else.
    const at = formatIstInstant;
    return `Last synced: settlements ${at(status.settlementsSyncedAt)} · balances ${at(status.balancesAt!)}`;
  }

  async function waitForStatusBarText(text: string): Promise<void> {
    await expect.poll(async () => spaced(await statusBar().textContent()), { timeout: 10_000 }).toContain(spaced(text));
  }

  /** Waits until the row shows main's size of this moment, to the byte (the exact count is its tooltip). */
  async function expectRowSize(row: Locator, profileId: string): Promise<number> {
    let bytes = -1;
    await expect
      .poll(async () => {
        bytes = await sizeOf(profileId);
        return row.getByTitle(formatExactBytes(bytes), { exact: true }).count();
      })
      .toBe(1);
    const shown = await row.getByTitle(formatExactBytes(bytes), { exact: true }).textContent();
    expect(shown).toBe(bytes === 0 ? 'Nothing cached' : formatBytes(bytes));
    return bytes;
  }

  async function activate(name: string): Promise<void> {
    await app.page.getByRole('article', { name, exact: true }).getByRole('button', { name: 'Activate' }).click();
    await statusBar().getByText(`Active profile: ${name}`, { exact: true }).waitFor();
  }

  /** Sizes are read when the screen opens: each activation above adds to the profiles' journals (so their files). */
  async function reopenSettings(): Promise<void> {
    const nav = app.page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Payouts' }).click();
    await nav.getByRole('button', { name: 'Settings' }).click();
  }

  beforeAll(async () => {
    app = await startApp({
      async prepare({ core, sandbox, merchant }) {
        const local = core.profiles.create({
          name: LOCAL,
          environment: 'custom',
          baseUrl: sandbox.url,
          aiUrl: `${sandbox.url}/ai`,
          key: merchant.key,
        });
        await core.credentials.set(local.id, merchant.secret);
      },
    });
    sandboxId = app.core.profiles.active().id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows the data folder and each cache’s exact size after a sync the page ran, and the bar’s times', async () => {
    const { page, core } = app;
    expect(core.profiles.active().name).toBe('Sandbox');
    await statusBar().getByText('Settlements not synced yet', { exact: true }).waitFor();

    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    const folder = dataSection().locator('dt:text-is("Data folder") + dd');
    expect(await folder.textContent()).toBe(app.dataDir);
    await dataSection()
      .getByTestId('as-of')
      .getByText(/^Sizes as of .+ IST$/)
      .waitFor();
    const localId = core.profiles.list().find((p) => p.name === LOCAL)!.id;
    const localRow = cacheRow(LOCAL);
    // Never synced, the other profile's cache holds only its audit journal (created, secret stored).
    expect(await expectRowSize(localRow, localId)).toBeGreaterThan(0);
    expect(
      core.journals
        .for(localId)
        .journal.list()
        .map((e) => e.event),
    ).toEqual(['secret.set', 'profile.created']);
    expect(core.cacheFor(localId).settlements.totals({ from: day, to: day }).count).toBe(0);

    // Balances first: a refresh sends no event, so the bar learns of it with the sync's end.
    await ok(app.core, 'accounts.refresh', {});
    const keysIn = nextEvent(core, 'syncKeysWritten', (p) => p.profileId === sandboxId);
    const finished = await page.evaluate(
      async (range) => {
        const seen: { jobId: string }[] = [];
        let wanted: string | null = null;
        let resolve: (payload: unknown) => void = () => {};
        const done = new Promise((r) => (resolve = r));
        const stop = window.api.on.syncFinished((payload) => {
          seen.push(payload);
          if (payload.jobId === wanted) resolve(payload);
        });
        const started = await window.api.sync.start(range);
        if (!started.ok) throw new Error(started.error.message);
        wanted = started.value.jobId;
        const early = seen.find((p) => p.jobId === wanted);
        const payload = early ?? (await done);
        stop();
        return payload;
      },
      { from: day, to: day },
    );
    const { summary } = finished as SyncFinished;
    expect(summary?.status).toBe('completed');
    expect(summary!.records).toBeGreaterThan(0);
    expect(cachedRecords()).toBe(summary!.records);
    // The keys written after the sync answered change the file too: once they are in, the screen reads the size again
    // by itself, the size of the cache at rest that the tests below compare.
    await keysIn;
    expect(datesWithoutKeys(core, sandboxId)).toBe(0);

    const sandboxRow = cacheRow('Sandbox');
    expect(await expectRowSize(sandboxRow, sandboxId)).toBeGreaterThan(0);
    expect(await clearButton(sandboxRow).isEnabled()).toBe(true);
    const synced = await expectedLastSynced();
    expect(synced).toMatch(
      /^Last synced: settlements \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2}:\d{2}\s[ap]m IST · balances .+ IST$/,
    );
    await waitForStatusBarText(synced);
    // The badge stays first and loudest; the times sit quietly after the profile.
    expect(spaced(await statusBar().textContent())).toMatch(/^Sandbox ?Active profile: Sandbox.*Last synced:/);

    // Another profile's bar never shows this profile's times; coming back shows them again, from main.
    await activate(LOCAL);
    await waitForStatusBarText('Settlements not synced yet');
    expect(spaced(await statusBar().textContent())).not.toContain('Last synced');
    await activate('Sandbox');
    await waitForStatusBarText(synced);

    await dataSection().scrollIntoViewIfNeeded();
    await saveScreenshots(page, 'settings-data');
  });

  it('asks before clearing, naming the profile and the size; Cancel (by keyboard) sends and deletes nothing', async () => {
    const { page, harness } = app;
    await reopenSettings();
    const row = cacheRow('Sandbox');
    const bytes = await expectRowSize(row, sandboxId);
    const files = cacheFiles(sandboxId);
    const records = cachedRecords();
    const sentBefore = harness.calls.length;

    await clearButton(row).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Clear the cache of “Sandbox”?' });
    await dialog.waitFor();
    expect(spaced(await dialog.textContent())).toContain(
      `Delete the cached settlements, beneficiaries, payout lookups and balances of Sandbox (${formatBytes(bytes)})? ` +
        'Its audit journal and closed periods are kept. The service keeps its data; you can sync again.',
    );
    // Focus starts on Cancel, so Enter is the safe answer.
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    expect(harness.calls.slice(sentBefore)).not.toContain('cache.clear');
    expect(cacheFiles(sandboxId)).toEqual(files);
    expect(await sizeOf(sandboxId)).toBe(bytes);
    expect(cachedRecords()).toBe(records);
    expect(await row.getByRole('status').textContent()).toBe('');
  });

  it('shows main’s sentence when the clear is refused because a sync is running, and keeps the cache', async () => {
    const { page, sandbox } = app;
    const row = cacheRow('Sandbox');
    // The sync's first request waits, so the sync is surely running when the clear arrives.
    expect((await hook(sandbox.url, 'POST', 'faults', { kind: 'delay', delayMs: 4000, count: 1 })).http).toBe(200);
    const finished = nextEvent(app.core, 'syncFinished');
    const started = await page.evaluate((range) => window.api.sync.start(range), { from: day, to: day });
    expect(started.ok).toBe(true);

    // Main's own refusal, asked directly: the page must show this sentence, whatever its wording.
    const busy = await call(app.core, 'cache.clear', { profileId: sandboxId });
    expect(busy).toMatchObject({ ok: false, error: { code: 'CACHE_BUSY', message: expect.stringMatching(/sync/) } });
    const sentence = (busy as { error: { message: string } }).error.message;

    await clearButton(row).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear cache' }).click();
    const refusal = row.getByRole('alert');
    await refusal.getByText(sentence, { exact: true }).waitFor();
    expect(cacheFiles(sandboxId)).toContain(`${sandboxId}.sqlite`);

    expect((await finished).summary?.status).toBe('completed');
    // The sync's end is the news now: the refusal goes, the size is read again.
    await refusal.waitFor({ state: 'detached' });
    await expectRowSize(row, sandboxId);
    expect(cachedRecords()).toBeGreaterThan(0);
  });

  it('clears after confirmation: the data goes, the journal stays, the bar says not synced', async () => {
    const { page, harness } = app;
    const row = cacheRow('Sandbox');
    const bytes = await expectRowSize(row, sandboxId);
    await waitForStatusBarText('Last synced: settlements');

    await clearButton(row).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear cache' }).click();
    await row
      .getByRole('status')
      .getByText(/^Cleared: .+ freed\.$/)
      .waitFor();
    // What is left is the audit journal, ending with the clearing (electron/journal/): no record, and a far smaller file.
    const cleared = app.core.journals.for(sandboxId).journal.list({ limit: 1 })[0]!;
    expect(cleared.event).toBe('cache.cleared');
    const freed = cleared.data['freedBytes'] as number;
    expect(freed).toBeGreaterThan(0);
    expect(await row.getByRole('status').textContent()).toBe(`Cleared: ${formatBytes(freed)} freed.`);
    expect(cachedRecords()).toBe(0);
    expect(await expectRowSize(row, sandboxId)).toBeLessThan(bytes);
    await waitForStatusBarText('Settlements not synced yet');
    expect(harness.calls.filter((c) => c === 'cache.clear')).toHaveLength(2);

    // Main agrees when asked afresh (a profile switch asks it), and the cache holds no record.
    await activate(LOCAL);
    await activate('Sandbox');
    expect(await expectedLastSynced()).toBe('Settlements not synced yet');
    await waitForStatusBarText('Settlements not synced yet');
    expect(cachedRecords()).toBe(0);
    expect(app.consoleErrors).toEqual([]);
  });
});
