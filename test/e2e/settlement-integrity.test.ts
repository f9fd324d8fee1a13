/**
 * The Settlements screen's mismatch banner end to end, against the real core, cache and sandbox: a record's amount
 * raised by a billion paise in the cache file by another program is named on screen with its date, and "Re-fetch this
 * date" syncs it again, after which the banner is gone and the totals are the service's again. Screenshots in light
 * and dark.
 */
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idRange } from '../../electron/cache/settlement-ids';
import { formatCalendarDate } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { nextEvent, syncedThroughJob } from '../support/core';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const TO = TEST_TODAY;
const FROM = addDays(TO, -2);
const EDITED = addDays(TO, -1);
const BILLION = 1_000_000_000;

describe.runIf(ready)('Settlements: records edited in the cache', () => {
  let app: RunningApp;
  let page: Page;
  /** The settled sum of the edited date as the sync stored it. */
  let truth = 0;

  const settled = () => {
    const { lo, hi } = idRange(EDITED, EDITED);
    const cache = app.core.cacheFor(app.core.profiles.active().id);
    return cache.db
      .prepare('SELECT sum(settled_amount) FROM settlements WHERE id BETWEEN ? AND ? AND vanished_at IS NULL')
      .pluck()
      .get(lo, hi) as number;
  };

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 60,
      async prepare({ core }) {
        await syncedThroughJob(core, { from: FROM, to: TO });
        const cache = core.cacheFor(core.profiles.active().id);
        const { lo, hi } = idRange(EDITED, EDITED);
        truth = cache.db
          .prepare('SELECT sum(settled_amount) FROM settlements WHERE id BETWEEN ? AND ? AND vanished_at IS NULL')
          .pluck()
          .get(lo, hi) as number;
        // Another program, on the file.
        const other = new Database(cache.file);
        try {
          other
            .prepare('UPDATE settlements SET settled_amount = settled_amount + ? WHERE id = ?')
            .run(BILLION, other.prepare('SELECT min(id) FROM settlements WHERE id >= ?').pluck().get(lo));
        } finally {
          other.close();
        }
      },
    });
    page = app.page;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('names the date, and re-fetching it repairs it', { timeout: 60_000 }, async () => {
    expect(settled()).toBe(truth + BILLION);
    await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'The cache was changed outside the app' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`on ${formatCalendarDate(EDITED)}:`);
    expect(await banner.textContent()).toContain(`The records of ${formatCalendarDate(EDITED)}`);
    await saveScreenshots(page, 'settlements-integrity');

    const finished = nextEvent(app.core, 'syncFinished', () => true);
    await banner.getByRole('button', { name: 'Re-fetch this date' }).click();
    expect((await finished).summary).toMatchObject({ from: EDITED, to: EDITED, status: 'completed' });
    await banner.waitFor({ state: 'detached' });
    expect(settled()).toBe(truth);
  });
});
