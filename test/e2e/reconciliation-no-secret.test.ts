/**
 * The Reconciliation screen of a console without the API secret, on a desk (real PostgreSQL): console A syncs and
 * imports the statement; console B's profile (its own, on the same sandbox, no secret stored) never syncs, yet its
 * screen shows the same batches from the desk's copy, and a batch's records say plainly where they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDdMmYyyy } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { ok, syncedThroughJob } from '../support/core';
import { createTestDesk, joinDesk, joinWithoutSecret, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, secondConsole, startApp, type RunningApp, type SecondConsole } from './support';

const ready = (await e2eSystemReady()) && postgresAvailable();
const to = addDays(TEST_TODAY, -2);
const from = addDays(to, -1);
const ACCOUNT = 'HDFC current';

describe.runIf(ready)('Reconciliation on a console without the API secret', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let app: RunningApp;
  let b: SecondConsole;

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
      await joinWithoutSecret(core, cluster, desk, 'ravi', { url: app.sandbox.url, key: app.merchant.key });
    });
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await app?.close();
    cluster?.destroy();
  });

  it("shows A's batches on B, and says a batch's records are on the consoles that sync", async () => {
    const page = b.page;
    const onA = await ok(app.core, 'recon.report', { account: ACCOUNT, from, to });
    expect(onA.batches.length).toBeGreaterThan(0);

    await page.getByRole('navigation').getByRole('button', { name: 'Reconciliation' }).click();
    await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
    await page.getByLabel('From').fill(formatDdMmYyyy(from));
    await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(to));
    const grid = page.getByRole('table', { name: 'Settlement batches' });
    // Every batch of A's report is a row on B (the header row besides), though B never synced.
    await grid.getByRole('row').nth(onA.batches.length).waitFor();
    expect(await grid.getByRole('row').count()).toBe(onA.batches.length + 1);

    await grid.getByRole('row').nth(1).click();
    const detail = page.getByRole('region', { name: 'Batch', exact: true });
    await detail
      .getByRole('status')
      .filter({ hasText: "This console holds no API secret, so it has the desk's batch totals, not their records" })
      .waitFor();
    expect(b.consoleErrors).toEqual([]);
  });
});
