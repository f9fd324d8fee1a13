/**
 * The Reconciliation screen on a desk: two consoles (two cores on two data folders, each with its own harness and
 * page in one Chromium) joined to one desk on a real PostgreSQL, both synced over the same dates. A's statement
 * import is the desk's, so B's screen shows the account and its credits; A matches a batch by hand from its screen,
 * and B's screen shows the match without a reload, through the desk's event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { formatDdMmYyyy } from '../../renderer/src/ui/dates';
import { addDays } from '../../shared/time';
import { startHarness, type Harness } from '../harness';
import { TEST_TODAY } from '../support/clock';
import { coreOnSandbox, ok, syncedThroughJob } from '../support/core';
import { createTestDesk, PASSWORD, type TestDesk } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, startApp, type RunningApp } from './support';

const ready = (await e2eSystemReady()) && postgresAvailable();
const to = addDays(TEST_TODAY, -2);
const from = addDays(to, -3);
const ACCOUNT = 'HDFC current';

describe.runIf(ready)('Reconciliation on a desk, two consoles', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let app: RunningApp;
  let coreB: Core;
  let harnessB: Harness;
  let pageB: Page;
  const consoleErrorsB: string[] = [];
  const dirs: string[] = [];

  const join_ = (core: Core, name: string) =>
    core.desks.join(
      'sandbox',
      { host: cluster.host, port: cluster.port, database: desk.database, user: desk.who(name), tls: 'none' },
      PASSWORD,
    );

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', ravi: 'operator' });
    app = await startApp({
      settlementsPerDay: 60,
      async prepare({ core, sandbox }) {
        await join_(core, 'asha');
        await syncedThroughJob(core, { from, to });
        const answer = await hook<{ csv: string }>(sandbox.url, 'POST', 'statement', {
          from,
          to,
          discrepancies: { missing: 1, short: 1, split: 0, orphan: 1 },
        });
        const content = Buffer.from(answer.body.csv).toString('base64');
        await ok(core, 'recon.importStatement', { fileName: 'hdfc.csv', content, account: ACCOUNT });
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'payout-console-e2e-recon-b-'));
    dirs.push(dir);
    coreB = coreOnSandbox(app.sandbox, {
      dataDir: dir,
      vault: memoryStore(),
      consoleName: 'ravi-laptop',
      sandbox: { url: app.sandbox.url, ...app.merchant },
    });
    await join_(coreB, 'ravi');
    await syncedThroughJob(coreB, { from, to });
    harnessB = await startHarness(coreB);
    pageB = await app.page.context().newPage();
    pageB.on('console', (m) => {
      if (m.type() === 'error') consoleErrorsB.push(m.text());
    });
    pageB.on('pageerror', (e) => consoleErrorsB.push(`uncaught: ${e.message}`));
    await pageB.goto(harnessB.url);
    await harnessB.eventStreamOpen();
  }, 120_000);
  afterAll(async () => {
    await pageB?.close();
    await harnessB?.close();
    await coreB?.close();
    await app?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const open = async (page: Page) => {
    await page.getByRole('navigation').getByRole('button', { name: 'Reconciliation' }).click();
    await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
    await page.getByLabel('From').fill(formatDdMmYyyy(from));
    await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(to));
  };
  const byHand = (page: Page) =>
    page
      .getByRole('table', { name: 'Batches' })
      .getByRole('row', { name: /^Matched by hand/ })
      .getByRole('cell')
      .first();

  it(
    "shows A's statement on B, and A's match by hand on B's screen without a reload",
    { timeout: 90_000 },
    async () => {
      const { page } = app;
      await open(pageB);
      await expect.poll(() => byHand(pageB).textContent()).toBe('0');
      const credits = await ok(coreB, 'recon.report', { account: ACCOUNT, from, to });
      expect(credits.credits.length).toBeGreaterThan(0);

      await open(page);
      const grid = page.getByRole('table', { name: 'Settlement batches' });
      await grid
        .getByRole('row', { name: /Batch without a credit/ })
        .first()
        .click();
      const detail = page.getByRole('region', { name: 'Batch', exact: true });
      await detail.getByRole('checkbox').first().check();
      await detail.getByLabel('Note').fill('bank confirmed by phone');
      // A credit that does not cover the batch exactly asks why before the match.
      const why = detail.getByLabel('Why do they differ?');
      if (await why.isVisible()) await why.fill('bank charges deducted');
      await detail.getByRole('button', { name: 'Match by hand' }).click();
      await expect.poll(() => byHand(page).textContent()).toBe('1');

      // B: no reload, no click; the desk's event made its report stale.
      await expect.poll(() => byHand(pageB).textContent()).toBe('1');
      await pageB
        .getByRole('table', { name: 'Settlement batches' })
        .getByRole('row', { name: /Matched by hand/ })
        .waitFor();
      expect(app.consoleErrors).toEqual([]);
      expect(consoleErrorsB).toEqual([]);
    },
  );
});
