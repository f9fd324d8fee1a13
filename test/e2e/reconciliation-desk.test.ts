/**
 * The Reconciliation screen on a desk: two consoles (two cores on two data folders, each with its own harness and
 * page in one Chromium) joined to one desk on a real PostgreSQL, both synced over the same dates. A's statement
 * import is the desk's, so B's screen shows the account and its credits; A matches a batch by hand from its screen,
 * and B's screen shows the match without a reload, through the desk's event.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { formatDdMmYyyy } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { ok, syncedThroughJob } from '../support/core';
import { createTestDesk, joinDesk, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, secondConsole, startApp, type RunningApp, type SecondConsole } from './support';

const ready = (await e2eSystemReady()) && postgresAvailable();
const to = addDays(TEST_TODAY, -2);
const from = addDays(to, -3);
const ACCOUNT = 'HDFC current';

describe.runIf(ready)('Reconciliation on a desk, two consoles', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let app: RunningApp;
  let coreB: Core;
  let b: SecondConsole;
  let pageB: Page;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', ravi: 'operator' });
    app = await startApp({
      settlementsPerDay: 60,
      async prepare({ core, sandbox }) {
        await joinDesk(core, cluster, desk, 'asha');
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
    b = await secondConsole(app, 'ravi', async (core) => {
      await joinDesk(core, cluster, desk, 'ravi');
      await syncedThroughJob(core, { from, to });
    });
    ({ core: coreB, page: pageB } = b);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await app?.close();
    cluster?.destroy();
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
      expect(b.consoleErrors).toEqual([]);
    },
  );
});
