/**
 * The Exceptions screen on a desk: two consoles (two cores on two data folders, each with its own harness and page
 * in one Chromium) joined to one desk on a real PostgreSQL, as two people. Console A syncs a date (its exceptions
 * are published to the desk), bulk-assigns a filtered set to B's person from its screen; B's screen, open on "assigned
 * to me", shows them without a reload, through the desk's event. Assigning to someone not on the desk is refused
 * with the desk's sentence.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import { addDays } from '../../shared/time';
import { formatCount } from '../../shared/format';
import { TEST_TODAY } from '../support/clock';
import { ok, syncedThroughJob } from '../support/core';
import { createTestDesk, joinDesk, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import {
  e2eSystemReady,
  saveScreenshots,
  secondConsole,
  startApp,
  type RunningApp,
  type SecondConsole,
} from './support';

const ready = (await e2eSystemReady()) && postgresAvailable();
const day = addDays(TEST_TODAY, -2);
const all = { offset: 0, limit: 200 };

describe.runIf(ready)('Exceptions on a desk, two consoles', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let app: RunningApp;
  let b: SecondConsole;
  let coreB: Core;
  let pageB: Page;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { asha: 'operator', ravi: 'operator' });
    app = await startApp({
      settlementsPerDay: 40,
      async prepare({ core }) {
        await joinDesk(core, cluster, desk, 'asha');
        // On a desk, a sync publishes the date's exceptions for everyone.
        await syncedThroughJob(core, { from: day, to: day });
      },
    });
    b = await secondConsole(app, 'ravi', async (core) => {
      await joinDesk(core, cluster, desk, 'ravi');
    });
    ({ core: coreB, page: pageB } = b);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await app?.close();
    cluster?.destroy();
  });

  const open = async (page: Page) => {
    await page.getByRole('navigation').getByRole('button', { name: 'Exceptions' }).click();
    await page.getByRole('heading', { name: 'Exceptions', level: 1 }).waitFor();
  };
  const totals = (page: Page) => page.getByRole('status', { name: 'Filtered set' });

  it("assigns a filtered set on A to B's person, and B's queue shows it without a reload", async () => {
    const { page, core } = app;
    const ravi = desk.who('ravi');
    const onDesk = await ok(coreB, 'exceptions.queue', { ...all, filter: { state: 'unresolved' } });
    expect(onDesk.total).toBeGreaterThan(0);

    await open(page);
    await page
      .getByRole('status', { name: 'Desk' })
      .getByText(`Desk ${cluster.host}/${desk.database} as ${desk.who('asha')} (operator)`)
      .waitFor();
    await open(pageB);
    await pageB.getByRole('status', { name: 'Desk' }).getByText(`as ${ravi} (operator)`).waitFor();
    await pageB.getByRole('search', { name: 'Filter the exceptions' }).getByLabel('Assigned').selectOption('me');
    await pageB.getByText('No exceptions match').waitFor();

    // A filters to one gateway and assigns the whole filtered set to ravi.
    const pg = onDesk.rows[0]!.pg;
    const target = await ok(core, 'exceptions.queue', { ...all, filter: { state: 'unresolved', pg } });
    await page.getByRole('search', { name: 'Filter the exceptions' }).getByLabel('Gateway').selectOption(pg);
    await totals(page).getByText(formatCount(target.total), { exact: true }).waitFor();
    const bulk = page.getByRole('form', { name: 'Act on exceptions' });
    await bulk.getByLabel('Action').selectOption('assign');
    await bulk.getByLabel('Assign to').fill(ravi);
    await bulk.getByRole('button', { name: /^Assign / }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Assign / })
      .click();
    await page
      .getByRole('region', { name: 'Bulk action' })
      .getByText(new RegExp(`^Assigned ${formatCount(target.total)} exceptions? to ${ravi} — journal entry \\d+$`))
      .waitFor();

    // B: no reload, no click; the desk's event made its queue stale.
    await totals(pageB).getByText(formatCount(target.total), { exact: true }).waitFor();
    const table = pageB.getByRole('table', { name: 'Exceptions' });
    await expect.poll(() => table.getByRole('cell', { name: ravi, exact: true }).count()).toBe(target.total);
    await saveScreenshots(pageB, 'exceptions-desk');

    // Someone not on the desk: refused whole, with the desk's sentence.
    await bulk.getByLabel('Assign to').fill('mallory');
    await bulk.getByRole('button', { name: /^Assign / }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Assign / })
      .click();
    const refused = page.getByRole('region', { name: 'Bulk action' }).getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/^Not done: mallory /);
    expect(await refused.getAttribute('data-code')).toBe('EXCEPTION_REFUSED');
    expect(app.consoleErrors).toEqual([]);
    expect(b.consoleErrors).toEqual([]);
  });
});
