/**
 * The Settlements screen end to end, against the real core, cache and sandbox: a sync of the last seven days
 * (three pages a day) shown with its progress, cancelled half-way and resumed; the totals bar under filters
 * checked against direct SQL sums on the cache file; sorting, search by a UTR, exceptions with their rules and
 * the detail panel; the virtual table reading pages as it scrolls while the page holds a bounded number of rows;
 * the cached view offline; an Excel export offered in its folder; screenshots in light and dark.
 */
import { formatDdMmYyyy, formatIstInstant, formatIstWallClock } from '../../shared/format';
import { existsSync, statSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_SHORT } from '../../renderer/src/settlements/columns';
import { formatMoney } from '../../shared/money';
import { RULES, type RuleId } from '../../shared/reconciliation';
import { addDays } from '../../shared/time';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';
import { TEST_TODAY } from '../support/clock';

const ready = await e2eSystemReady();

/** Three API pages a day (the sync asks for 1000 at a time), seven days: 17,500 records. */
const PER_DAY = 2500;
const DAYS = 7;
const SETTLEMENT_PATH = '/api/v2/settlement/fetch';
const TO = TEST_TODAY;
const FROM = addDays(TO, -(DAYS - 1));
const count = new Intl.NumberFormat('en-IN');

interface Sums {
  count: number;
  amount: number;
  fees: number;
  taxes: number;
  settled: number;
}

describe.runIf(ready)('Settlements: sync, table, totals, chart, exports', () => {
  let app: RunningApp;
  let page: Page;
  const revealed: string[] = [];

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: PER_DAY,
      viewport: { width: 1440, height: 900 },
      exportTargets: { reveal: (file) => void revealed.push(file) },
    });
    page = app.page;
  });
  afterAll(async () => {
    await app?.close();
  });

  const db = () => app.core.cacheFor(app.core.profiles.active().id).db;

  /** Count and sums of current records in the default range, straight from the cache file. */
  function sqlSums(where = '1 = 1', ...params: unknown[]): Sums {
    const row = db()
      .prepare(
        `SELECT count(*) AS count, ifnull(sum(amount), 0) AS amount, ifnull(sum(mer_service_fee), 0) AS fees,
                ifnull(sum(mer_service_tax), 0) AS taxes, ifnull(sum(settled_amount), 0) AS settled
         FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL AND (${where})`,
      )
      .get(FROM, TO, ...params) as Sums;
    return row;
  }

  const grid = () => page.getByRole('grid', { name: 'Settlements' });
  const totalsBar = () => page.getByRole('region', { name: 'Totals' });

  /**
   * An attribute of the element `locator` finds now, or null: a poll's read of a row that may be out of the page for
   * a moment, where a locator's read would wait up to 30 s for it, longer than the poll.
   */
  const attributeNow = (locator: Locator, name: string) =>
    locator.evaluateAll((found, n) => found[0]?.getAttribute(n) ?? null, name);

  async function settled(locator: Locator): Promise<void> {
    await page.waitForFunction((el) => el?.getAttribute('aria-busy') !== 'true', await locator.elementHandle());
  }

  /** The totals bar once it shows the answer for the filter on screen. */
  async function totalsShown(): Promise<Record<string, string>> {
    await settled(totalsBar());
    const terms = await totalsBar().locator('dt').allTextContents();
    const values = await totalsBar().locator('dd').allTextContents();
    return Object.fromEntries(terms.map((t, i) => [t, values[i]!]));
  }

  async function expectTotals(expected: Sums): Promise<void> {
    await expect.poll(totalsShown, { timeout: 10_000 }).toEqual({
      Records: count.format(expected.count),
      Amount: formatMoney(expected.amount),
      Fees: formatMoney(expected.fees),
      Taxes: formatMoney(expected.taxes),
      Settled: formatMoney(expected.settled),
    });
    await page.waitForFunction(() => document.querySelector('[role=grid]')?.getAttribute('aria-busy') === 'false');
    expect(await grid().getAttribute('aria-rowcount')).toBe(String(expected.count + 1));
  }

  /** Cell texts of the rendered data rows, by column header. */
  async function renderedRows(): Promise<Record<string, string>[]> {
    return grid().evaluate((el) => {
      const heads = [...el.querySelectorAll('[role=columnheader]')].map((h) => h.textContent!.replace(/[▲▼]/g, ''));
      return [...el.querySelectorAll('[role=row][data-id]')].map((row) => {
        const cells = [...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? '');
        return Object.fromEntries([['id', row.getAttribute('data-id')!], ...heads.map((h, i) => [h, cells[i]!])]);
      });
    });
  }

  async function armFault(spec: Record<string, unknown>): Promise<void> {
    const method = spec.kind === undefined ? 'DELETE' : 'POST';
    expect((await hook(app.sandbox.url, method, 'faults', spec)).http).toBe(200);
  }

  /** A column's order, whose rows past its first page no earlier test read (each goes back to the date's after). */
  async function sortBy(column: string): Promise<void> {
    const head = grid().getByRole('columnheader', { name: column, exact: true });
    await head.getByRole('button').click();
    await expect.poll(() => head.getAttribute('aria-sort')).not.toBeNull();
    await settled(grid());
  }

  /** The rows of the result on screen, as the grid tells a screen reader. */
  const resultRows = async () => Number(await grid().getAttribute('aria-rowcount')) - 1;

  async function backToDateOrder(): Promise<void> {
    const date = grid().getByRole('columnheader', { name: 'Date' });
    await date.getByRole('button').click();
    await expect.poll(() => date.getAttribute('aria-sort')).toBe('descending');
    await settled(grid());
  }

  interface GoProbe {
    /** The read of the rows "go to row" goes to is on its way, held. */
    held: boolean;
    /** Its answer came back, released. */
    answered: boolean;
    /** The grid's reads after the held one's answer. */
    after: { position?: number; limit: number }[];
    release(): void;
  }
  const goProbe = () => page.evaluate(() => (window as unknown as { __goProbe: GoProbe }).__goProbe);

  /**
   * Holds the read of the rows "go to row" goes to (by their position, a screen of them: a jump's) until `release`,
   * and records the grid's reads after its answer.
   */
  async function holdGoToRead(): Promise<void> {
    await page.evaluate(() => {
      const probe: GoProbe = { held: false, answered: false, after: [], release: () => {} };
      const gate = new Promise<void>((resolve) => (probe.release = resolve));
      const ownFetch = window.fetch;
      window.fetch = async (url, init) => {
        const body =
          typeof init?.body === 'string'
            ? (JSON.parse(init.body) as { channel: string; input: { position?: number; limit: number } })
            : null;
        if (body?.channel !== 'settlements.query') return ownFetch(url, init);
        if (probe.answered) probe.after.push(body.input);
        const answer = ownFetch(url, init);
        if (!probe.held && body.input.position !== undefined && body.input.limit < 500) {
          probe.held = true;
          await gate;
          const response = await answer;
          // Its whole body in, so that what the grid does with it needs nothing more from the network.
          await response.clone().text();
          probe.answered = true;
          return response;
        }
        return answer;
      };
      Object.assign(window, { __goProbe: probe, __ownFetch: ownFetch });
    });
  }

  async function stopHoldingGoToRead(): Promise<void> {
    await page.evaluate(() => {
      const own = window as unknown as { __ownFetch: typeof fetch; __goProbe: GoProbe };
      own.__goProbe.release();
      window.fetch = own.__ownFetch;
    });
  }

  /** Two frames drawn. */
  const nextFrames = () =>
    page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

  /** The page's thread idle twice over: the tasks an answer set off (and theirs) have run. */
  const idle = () => page.evaluate(() => new Promise((done) => requestIdleCallback(() => requestIdleCallback(done))));

  /** "Go to row" `n` by its button, once its read is on its way and held. */
  async function goToRowHeld(n: number): Promise<void> {
    await page.getByLabel('Go to row').fill(String(n));
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.waitForFunction(() => (window as unknown as { __goProbe: GoProbe }).__goProbe.held);
  }

  it('says nothing is cached, then syncs a week with progress, cancels half-way and resumes', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
    await page.getByText('Nothing cached for these dates — Sync to fetch them').waitFor();
    // Shown and typed as dd/mm/yyyy whatever the machine's locale.
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(formatDdMmYyyy(FROM));
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(formatDdMmYyyy(TO));

    // Slow pages, so the sync is still running when Cancel is pressed.
    await armFault({ path: SETTLEMENT_PATH, kind: 'delay', delayMs: 350, count: 1000 });
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    const progress = page.getByRole('progressbar', { name: 'Sync progress' });
    await progress.waitFor();
    const syncRegion = page.getByRole('region', { name: 'Sync' });
    await syncRegion.getByText(/ [1-9][\d,]* records · [\d,]+ records\/s/).waitFor();
    expect(await syncRegion.textContent()).toMatch(/of 7 dates · [\d,]+ pages/);

    // A second sync while this one runs is main's to refuse; the screen shows main's words.
    const sender = { frameUrl: `${app.harness.origin}/index.html`, isMainFrame: true };
    const second = await app.core.router.handle('sync.start', { from: FROM, to: TO }, sender, app.harness.origin);
    expect(second).toMatchObject({ ok: false, error: { code: 'SYNC_RUNNING' } });
    expect(await page.getByRole('button', { name: 'Sync', exact: true }).isDisabled()).toBe(true);

    await syncRegion.getByRole('button', { name: 'Cancel' }).click();
    await syncRegion.getByText(/^Sync cancelled for/).waitFor({ timeout: 15_000 });
    const partial = sqlSums();
    expect(partial.count).toBeGreaterThan(0);
    expect(partial.count).toBeLessThan(PER_DAY * DAYS);
    await expectTotals(partial);

    await armFault({});
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await syncRegion.getByText(/^Sync completed for .*, resumed\)\.$/).waitFor({ timeout: 20_000 });
    const all = sqlSums();
    expect(all.count).toBe(PER_DAY * DAYS);
    await expectTotals(all);
    // The chart is collapsed until opened (so the grid keeps its rows); opened, it stays open.
    await page.getByRole('button', { name: 'Show chart' }).click();
    await page.getByRole('figure', { name: 'Settled amount by day' }).waitFor();
    expect(app.consoleErrors).toEqual([]);
  }, 60_000);

  it('saves the screen in light and dark', async () => {
    await saveScreenshots(page, 'settlements');
  });

  it('refuses to start a sync while another runs, with main’s reason', async () => {
    const sender = { frameUrl: `${app.harness.origin}/index.html`, isMainFrame: true };
    await armFault({ path: SETTLEMENT_PATH, kind: 'delay', delayMs: 2000, count: 1 });
    const other = await app.core.router.handle('sync.start', { from: TO, to: TO }, sender, app.harness.origin);
    expect(other.ok).toBe(true);
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page
      .getByRole('alert')
      .getByText('A settlement sync is already running for this profile. Wait for it or cancel it.')
      .waitFor();
    const jobId = (other as { ok: true; value: { jobId: string } }).value.jobId;
    await app.core.router.handle('sync.cancel', { jobId }, sender, app.harness.origin);
    await armFault({});
  });

  it('filters, and the totals bar agrees with SQL sums on the cache file', async () => {
    await page.getByLabel('Payment mode', { exact: true }).selectOption('UPI');
    await expectTotals(sqlSums("payment_mode = 'UPI'"));
    for (const row of await renderedRows()) expect(row['Mode']).toBe('UPI');

    await page.getByLabel('Gateway', { exact: true }).selectOption('cashfree');
    await expectTotals(sqlSums("payment_mode = 'UPI' AND pg = 'cashfree'"));
    for (const row of await renderedRows()) expect([row['Gateway'], row['Mode']]).toEqual(['cashfree', 'UPI']);

    await page.getByLabel('Gateway status').selectOption('failed');
    await expectTotals(sqlSums("payment_mode = 'UPI' AND pg = 'cashfree' AND pg_status = 'failed'"));

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Gateway', { exact: true }).selectOption('');
    await expectTotals(sqlSums());
    expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);
  });

  it('shows the totals of the filter on screen when an older answer arrives last', async () => {
    // The UPI totals are held back until the CC ones are in: the late UPI answer must not replace them.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/__harness/ipc', async (route) => {
      const body = route.request().postDataJSON() as { channel: string; input?: { paymentMode?: string } };
      if (body.channel === 'settlements.totals' && body.input?.paymentMode === 'UPI') await held;
      await route.continue();
    });
    const mode = page.getByLabel('Payment mode', { exact: true });
    await mode.selectOption('UPI');
    await mode.selectOption('CC');
    const cc = sqlSums("payment_mode = 'CC'");
    await expect.poll(() => totalsBar().locator('dd').first().textContent()).toBe(count.format(cc.count));
    release();
    await page.waitForTimeout(300);
    await expectTotals(cc);
    await page.unrouteAll();
    await mode.selectOption('');
    await expectTotals(sqlSums());
  });

  it('sorts by amount both ways', async () => {
    const amountHeader = grid().getByRole('columnheader', { name: 'Amount' });
    expect(await grid().getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort')).toBe('descending');
    await amountHeader.getByRole('button').click();
    await expect.poll(() => amountHeader.getAttribute('aria-sort')).toBe('descending');
    await settled(grid());
    const { max, min } = db()
      .prepare(
        'SELECT max(amount) AS max, min(amount) AS min FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL',
      )
      .get(FROM, TO) as { max: number; min: number };
    let rows = await renderedRows();
    expect(rows[0]!['Amount']).toBe(formatMoney(max));
    const amounts = (r: Record<string, string>[]) => r.map((x) => Number(x['Amount']!.replace(/[₹,]/g, '')));
    expect(amounts(rows)).toEqual([...amounts(rows)].sort((a, b) => b - a));

    await amountHeader.getByRole('button').click();
    await expect.poll(() => amountHeader.getAttribute('aria-sort')).toBe('ascending');
    await settled(grid());
    rows = await renderedRows();
    expect(rows[0]!['Amount']).toBe(formatMoney(min));
    expect(amounts(rows)).toEqual([...amounts(rows)].sort((a, b) => a - b));

    await grid().getByRole('columnheader', { name: 'Date' }).getByRole('button').click();
    await expect
      .poll(() => grid().getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort'))
      .toBe('descending');
  });

  it('draws only the rows in view where all of them are new (a sort, “Go to row”), and the rows beyond them after', async () => {
    /**
     * Each commit of the grid's rows from `act` until the grid draws `rows` rows from `firstIndex` on: the first row's
     * id and the indexes of the rows drawn.
     */
    const commits = async (act: () => Promise<void>, until: { firstIndex: number; rows: number }) => {
      await grid().evaluate((el) => {
        const seen: { firstId: string | null; indexes: number[] }[] = [];
        const observer = new MutationObserver(() => {
          const rows = [...el.querySelectorAll('.stl-window [role=row]')];
          seen.push({
            firstId: rows[0]?.getAttribute('data-id') ?? null,
            indexes: rows.map((r) => Number(r.getAttribute('aria-rowindex')) - 2),
          });
        });
        observer.observe(el.querySelector('.stl-window')!, { subtree: true, childList: true, characterData: true });
        Object.assign(window, { __commits: { seen, observer } });
      });
      await act();
      await page.waitForFunction(
        ({ firstIndex, rows }) => {
          const drawn = [...document.querySelectorAll('[role=grid] .stl-window [role=row][data-id]')];
          return drawn.length === rows && drawn[0]!.getAttribute('aria-rowindex') === String(firstIndex + 2);
        },
        until,
        { timeout: 10_000 },
      );
      return grid().evaluate((el) => {
        const { seen, observer } = (
          window as unknown as {
            __commits: { seen: { firstId: string | null; indexes: number[] }[]; observer: MutationObserver };
          }
        ).__commits;
        observer.disconnect();
        // The rows in view at the scroll position the grid ends at, as the grid counts them (grid-geometry.ts).
        const view = el.clientHeight - 32;
        return { seen, first: Math.floor(el.scrollTop / 28), last: Math.floor((el.scrollTop + view - 1) / 28) };
      });
    };
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const overscan = 8;
    const inView = await grid().evaluate((el) => Math.ceil((el.clientHeight - 32) / 28));

    const largest = db()
      .prepare(
        `SELECT id FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL
         ORDER BY amount DESC, id DESC LIMIT 1`,
      )
      .pluck()
      .get(FROM, TO) as number;
    const amount = grid().getByRole('columnheader', { name: 'Amount' });
    const sorted = await commits(() => amount.getByRole('button').click(), { firstIndex: 0, rows: inView + overscan });
    const shown = sorted.seen.findIndex((c) => c.firstId === String(largest));
    expect(shown, 'a commit drew the new order').toBeGreaterThanOrEqual(0);
    expect(sorted.seen[shown]!.indexes).toEqual(range(sorted.first, sorted.last));
    expect(sorted.seen.at(-1)!.indexes).toEqual(range(0, sorted.last + overscan));
    expect(sorted.seen.at(-1)!.firstId).toBe(String(largest));

    const total = await resultRows();
    const n = Math.floor(total / 2);
    await page.getByLabel('Go to row').fill(String(n));
    const went = await commits(() => page.getByRole('button', { name: 'Go', exact: true }).click(), {
      firstIndex: n - 1 - overscan,
      rows: inView + 2 * overscan,
    });
    const arrived = went.seen.findIndex((c) => c.indexes.includes(n - 1));
    expect(arrived, 'a commit drew the row gone to').toBeGreaterThanOrEqual(0);
    expect(went.first).toBe(n - 1);
    expect(went.seen[arrived]!.indexes).toEqual(range(went.first, went.last));
    expect(went.seen.at(-1)!.indexes).toEqual(range(went.first - overscan, went.last + overscan));

    await backToDateOrder();
  });

  it('finds a record by its UTR, and Ctrl+F goes to the search box', async () => {
    const known = db()
      .prepare(
        `SELECT id, utr, pg_transaction_id FROM settlements WHERE date = ? AND utr IS NOT NULL AND vanished_at IS NULL
         ORDER BY id LIMIT 1 OFFSET 777`,
      )
      .get(TO) as { id: number; utr: string; pg_transaction_id: string };
    await grid().focus();
    await page.keyboard.press('Control+f');
    const search = page.getByRole('searchbox', { name: 'Search order ID, gateway transaction ID or UTR' });
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(known.utr);
    await expectTotals(sqlSums("utr LIKE ? || '%'", known.utr));
    // A UTR is a bank credit's, shared by its batch's records (issue 14): every row shown is one of them.
    const batch = new Set(
      (
        db().prepare(`SELECT id FROM settlements WHERE utr = ? AND vanished_at IS NULL`).all(known.utr) as {
          id: number;
        }[]
      ).map((r) => String(r.id)),
    );
    const rows = await renderedRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row['UTR']).toContain(known.utr);
      expect(batch.has(row['id']!)).toBe(true);
    }
    // The record itself, by its gateway transaction id.
    await search.fill(known.pg_transaction_id);
    await expectTotals(sqlSums("pg_transaction_id LIKE ? || '%'", known.pg_transaction_id));
    expect((await renderedRows()).map((r) => r['id'])).toContain(String(known.id));

    await search.fill('');
    await expectTotals(sqlSums());
  });

  it('never shows the previous filter’s figures beside a new search’s rows: they say “counting…” until theirs are in', async () => {
    const all = sqlSums();
    await expectTotals(all);
    const { utr } = db()
      .prepare(
        `SELECT utr FROM settlements WHERE date = ? AND utr <> '' AND vanished_at IS NULL ORDER BY id LIMIT 1 OFFSET 1234`,
      )
      .get(FROM) as { utr: string };
    const searched = sqlSums(
      "utr LIKE ? || '%' OR order_id LIKE ? || '%' OR pg_transaction_id LIKE ? || '%'",
      utr,
      utr,
      utr,
    );
    expect(searched.count).not.toBe(all.count);
    // Every state the page commits, recorded as it is made: a MutationObserver's callback runs before the frame that
    // would paint it, so no state the person could see is missed.
    await page.evaluate(() => {
      const states: { utr: string; records: string; footer: string }[] = [];
      (window as unknown as { states: typeof states }).states = states;
      new MutationObserver(() => {
        const g = document.querySelector('[role=grid]');
        const heads = [...(g?.querySelectorAll('[role=columnheader]') ?? [])].map((h) => h.textContent);
        const row = g?.querySelector('[role=row][data-id]');
        states.push({
          utr:
            row?.querySelectorAll('[role=gridcell]')[heads.findIndex((h) => h?.startsWith('UTR'))]?.textContent ?? '',
          records: document.querySelector('[aria-label=Totals] dd')?.textContent ?? '',
          footer: document.querySelector('.stl-grid-status')?.textContent ?? '',
        });
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await page.getByRole('searchbox', { name: 'Search order ID, gateway transaction ID or UTR' }).fill(utr);
    await expectTotals(searched);
    const states = await page.evaluate(
      () => (window as unknown as { states: { utr: string; records: string; footer: string }[] }).states,
    );
    const withNewRows = states.filter((s) => s.utr.startsWith(utr));
    expect(withNewRows.length).toBeGreaterThan(0);
    for (const state of withNewRows) {
      expect([count.format(searched.count), 'counting…']).toContain(state.records);
      expect(state.footer).toMatch(new RegExp(`of (${count.format(searched.count)}|counting…)$`));
    }
    expect(withNewRows.at(-1)).toMatchObject({ records: count.format(searched.count) });
    await page.getByRole('searchbox', { name: 'Search order ID, gateway transaction ID or UTR' }).fill('');
    await expectTotals(all);
  });

  it('shows only exceptions with the rules each row broke, and every detail of one', async () => {
    await page.getByRole('checkbox', { name: 'Exceptions only' }).check();
    await expectTotals(sqlSums('exception_flags <> 0'));
    const rows = await renderedRows();
    expect(rows.length).toBeGreaterThan(5);
    const stored = db().prepare('SELECT exceptions FROM settlements WHERE id = ?');
    for (const row of rows) {
      const exceptions = JSON.parse((stored.get(Number(row['id'])) as { exceptions: string }).exceptions) as {
        rule: RuleId;
      }[];
      expect(exceptions.length).toBeGreaterThan(0);
      expect(row['Rules broken']).toBe(exceptions.map((e) => RULE_SHORT[e.rule]).join(', '));
    }

    await page.getByLabel('Rule').selectOption('missing_utr');
    const missingUtr =
      "EXISTS (SELECT 1 FROM json_each(exceptions) WHERE json_extract(value, '$.rule') = 'missing_utr')";
    await expectTotals(sqlSums(missingUtr));
    for (const row of await renderedRows()) expect(row['Rules broken']).toContain('No UTR');

    // The first row is active: Enter opens its details; Escape returns to the table.
    await grid().focus();
    await page.keyboard.press('Enter');
    const first = (await renderedRows())[0]!;
    const record = db().prepare('SELECT * FROM settlements WHERE id = ?').get(Number(first['id'])) as Record<
      string,
      string | number | null
    >;
    const dialog = page.getByRole('complementary', { name: `Settlement ${record['pg_transaction_id']}` });
    await dialog.waitFor();
    const text = (await dialog.textContent())!;
    expect(text).toContain(RULES.missing_utr);
    for (const field of ['order_id', 'order_status', 'pg_status', 'payment_mode', 'pg'] as const) {
      expect(text).toContain(String(record[field]));
    }
    // The API's IST wall-clock times, in the console's one timestamp format.
    expect(text).toContain(formatIstWallClock(String(record['settlement_date'])));
    expect(text).toContain(formatIstWallClock(String(record['order_date'])));
    for (const amount of ['amount', 'mer_service_fee', 'mer_service_tax', 'settled_amount'] as const) {
      expect(text).toContain(formatMoney(record[amount] as number));
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await grid().evaluate((el) => el === document.activeElement)).toBe(true);

    // Each exception's workflow state is a column; one resolved in its detail leaves "Exceptions only" (its rows and
    // totals) until "Include resolved" is ticked.
    expect((await renderedRows()).every((r) => r['State'] === 'open')).toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    await dialog.getByRole('button', { name: 'Reopen' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const unresolved = `${missingUtr} AND NOT EXISTS (SELECT 1 FROM settlement_exception_states st
      WHERE st.state = 'resolved' AND st.date = settlements.date AND st.pg = settlements.pg
        AND st.pg_transaction_id = settlements.pg_transaction_id AND st.settlement_date = settlements.settlement_date)`;
    await expectTotals(sqlSums(unresolved));
    expect((await renderedRows()).map((r) => r['id'])).not.toContain(first['id']);
    await page.getByRole('checkbox', { name: 'Include resolved' }).check();
    await expectTotals(sqlSums(missingUtr));
    expect((await renderedRows()).find((r) => r['id'] === first['id'])).toMatchObject({ State: 'resolved' });

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expectTotals(sqlSums());
  });

  it('reads pages as the table scrolls, keeps few rows in the page, and moves by keyboard', async () => {
    const readsBefore = app.harness.calls.filter((c) => c === 'settlements.query').length;
    const ids = db()
      .prepare('SELECT id FROM settlements WHERE date BETWEEN ? AND ? AND vanished_at IS NULL ORDER BY id DESC')
      .all(FROM, TO)
      .map((r) => (r as { id: number }).id);
    let most = 0;
    // Down the whole table a screen at a time, as a user dragging the scrollbar slowly would. Each position is
    // checked once the rows in view are the ones for it and all of them are read.
    for (let step = 1; step <= 24; step++) {
      const top = await grid().evaluate((el, f) => (el.scrollTop = (el.scrollHeight - el.clientHeight) * f), step / 24);
      const shown = await page.waitForFunction(
        (rowAtTop) => {
          const rows = [...document.querySelectorAll('[role=grid] [role=row][aria-rowindex]')].slice(1);
          const indexes = rows.map((r) => Number(r.getAttribute('aria-rowindex')) - 2);
          if (rows.some((r) => !r.hasAttribute('data-id')) || !indexes.includes(rowAtTop)) return null;
          return { first: indexes[0]!, ids: rows.map((r) => Number(r.getAttribute('data-id'))), all: rows.length + 1 };
        },
        Math.floor(top / 28),
        { timeout: 10_000 },
      );
      const { first, ids: shownIds, all } = (await shown.jsonValue())!;
      most = Math.max(most, all);
      expect(shownIds).toEqual(ids.slice(first, first + shownIds.length));
      // The first row, active and scrolled out of view, is not named to a screen reader as if it were there.
      const named = await grid().evaluate((el) => {
        const id = el.getAttribute('aria-activedescendant');
        return id === null || document.getElementById(id) !== null;
      });
      expect(named, `the active row at step ${step}`).toBe(true);
    }
    const total = ids.length;
    expect(most).toBeLessThan(80);
    const reads = app.harness.calls.filter((c) => c === 'settlements.query').length - readsBefore;
    expect(reads).toBeGreaterThan(10);

    // From the bottom, a new order starts at its first row: the grid resets its scroll by what its scroll events
    // said, without reading the position back in the middle of a render.
    const dateHeader = grid().getByRole('columnheader', { name: 'Date' });
    await grid().getByRole('columnheader', { name: 'Amount' }).getByRole('button').click();
    await settled(grid());
    expect(await grid().evaluate((el) => el.scrollTop)).toBe(0);
    expect(await grid().locator('[role=row][data-id]').first().getAttribute('aria-rowindex')).toBe('2');
    await dateHeader.getByRole('button').click();
    await expect.poll(() => dateHeader.getAttribute('aria-sort')).toBe('descending');
    await settled(grid());

    await grid().focus();
    await page.keyboard.press('Home');
    // One read in the page: the row the grid names may be gone from the page by a second read (drawn out of view),
    // and a locator waiting for it would outlast the poll.
    const active = () =>
      grid().evaluate((el) => {
        const id = el.getAttribute('aria-activedescendant');
        return id ? (document.getElementById(id)?.getAttribute('data-id') ?? null) : null;
      });
    await expect.poll(active).toBe(String(ids[0]));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(active).toBe(String(ids[2]));
    expect(await page.locator('[role=row][aria-selected=true]').getAttribute('data-id')).toBe(String(ids[2]));
    await page.keyboard.press('End');
    await expect.poll(active, { timeout: 10_000 }).toBe(String(ids[total - 1]));
    await page.keyboard.press('PageUp');
    const perPage = await grid().evaluate((el) => Math.floor((el.clientHeight - 32) / 28) - 1);
    await expect.poll(active, { timeout: 10_000 }).toBe(String(ids[total - 1 - perPage]));
    await page.keyboard.press('Home');
    await expect.poll(active).toBe(String(ids[0]));

    // "Go to row" puts the row at the top of the view, selected, whichever way it moves.
    for (const n of [Math.floor(total / 2), 40, Math.floor(total / 3)]) {
      await page.getByLabel('Go to row').fill(String(n));
      await page.getByRole('button', { name: 'Go', exact: true }).click();
      await expect.poll(active, { timeout: 10_000 }).toBe(String(ids[n - 1]));
      const selected = page.locator('[role=grid] [role=row][aria-selected=true]');
      await expect.poll(() => attributeNow(selected, 'data-id'), { timeout: 10_000 }).toBe(String(ids[n - 1]));
      const head = (await grid().locator('[role=row]').first().boundingBox())!;
      const row = (await selected.boundingBox())!;
      expect(Math.abs(row.y - (head.y + head.height)), `row ${n} at the top`).toBeLessThanOrEqual(1);
      expect(await grid().evaluate((el) => el === document.activeElement)).toBe(true);
    }
  });

  it('asks for the rows “Go to row” goes to before the browser’s scroll event, and for nothing more', async () => {
    const amount = grid().getByRole('columnheader', { name: 'Amount' });
    await page.evaluate(() => {
      const probe = { reads: [] as unknown[], atScroll: -1 };
      const ownFetch = window.fetch;
      window.fetch = (url, init) => {
        const body =
          typeof init?.body === 'string' ? (JSON.parse(init.body) as { channel: string; input: unknown }) : null;
        if (body?.channel === 'settlements.query') probe.reads.push(body.input);
        return ownFetch(url, init);
      };
      // Capture on the window: before any listener of the grid's own, React's among them.
      const onScroll = () => probe.atScroll < 0 && (probe.atScroll = probe.reads.length);
      window.addEventListener('scroll', onScroll, { capture: true });
      Object.assign(window, { __goToProbe: probe, __ownFetch: ownFetch, __goToScroll: onScroll });
    });
    try {
      // A new order: none of its rows past the first page are read yet.
      await amount.getByRole('button').click();
      await expect.poll(() => amount.getAttribute('aria-sort')).not.toBeNull();
      await settled(grid());
      const total = await resultRows();
      const n = Math.floor(total * 0.7);
      await page.evaluate(() => {
        const probe = (window as unknown as { __goToProbe: { reads: unknown[]; atScroll: number } }).__goToProbe;
        probe.reads = [];
        probe.atScroll = -1;
      });
      await page.getByLabel('Go to row').fill(String(n));
      await page.getByRole('button', { name: 'Go', exact: true }).click();
      const selected = page.locator('[role=grid] [role=row][aria-selected=true]');
      await expect.poll(() => attributeNow(selected, 'aria-rowindex'), { timeout: 10_000 }).toBe(String(n + 1));
      await page.waitForFunction(() => !document.querySelector('[role=grid] [role=row][aria-busy=true]'));
      const probe = await page.evaluate(
        () =>
          (window as unknown as { __goToProbe: { reads: { position?: number; limit: number }[]; atScroll: number } })
            .__goToProbe,
      );
      expect(probe.atScroll, 'reads asked before the scroll event').toBeGreaterThanOrEqual(1);
      // One read of the rows on screen by their position (a jump's, a few dozen rows; pages around it are whole): the
      // scroll's own render asked for the same rows, so not again.
      expect(probe.reads.filter((r) => r.position !== undefined && r.limit < 500)).toHaveLength(1);
    } finally {
      await page.evaluate(() => {
        const own = window as unknown as { __ownFetch: typeof fetch; __goToScroll: () => void };
        window.fetch = own.__ownFetch;
        window.removeEventListener('scroll', own.__goToScroll, { capture: true });
      });
      await backToDateOrder();
    }
  });

  it('keeps the rows on screen while “Go to row” reads the rows it goes to, and draws no skeleton row', async () => {
    await sortBy('Tax');
    await holdGoToRead();
    await page.evaluate(() => {
      const probe = { skeletons: 0 };
      const seen = new MutationObserver((changes) => {
        for (const change of changes) {
          for (const node of change.addedNodes) {
            if (node instanceof Element && node.matches('.stl-row-loading, :has(.stl-row-loading)')) probe.skeletons++;
          }
        }
      });
      seen.observe(document.querySelector('[role=grid]')!, { childList: true, subtree: true });
      Object.assign(window, { __skeletons: probe, __skeletonsSeen: seen });
    });
    const skeletons = () =>
      page.evaluate(() => (window as unknown as { __skeletons: { skeletons: number } }).__skeletons.skeletons);
    try {
      const total = await resultRows();
      const n = Math.floor(total * 0.6);
      const before = await grid().evaluate((el) => el.scrollTop);
      await goToRowHeld(n);
      // Two frames drawn while the read is on its way: the rows there are the ones before, the grid busy.
      await nextFrames();
      const waiting = {
        top: await grid().evaluate((el) => el.scrollTop),
        busy: await grid().getAttribute('aria-busy'),
      };
      expect({ ...waiting, skeletons: await skeletons() }).toEqual({ top: before, busy: 'true', skeletons: 0 });

      await page.evaluate(() => (window as unknown as { __goProbe: GoProbe }).__goProbe.release());
      const selected = page.locator('[role=grid] [role=row][aria-selected=true]');
      await expect.poll(() => attributeNow(selected, 'aria-rowindex'), { timeout: 10_000 }).toBe(String(n + 1));
      const head = (await grid().locator('[role=row]').first().boundingBox())!;
      expect(
        Math.abs((await selected.boundingBox())!.y - (head.y + head.height)),
        'the row at the top',
      ).toBeLessThanOrEqual(1);
      await expect.poll(() => grid().getAttribute('aria-busy')).toBe('false');
      expect(await skeletons()).toBe(0);
    } finally {
      await page.evaluate(() =>
        (window as unknown as { __skeletonsSeen: MutationObserver }).__skeletonsSeen.disconnect(),
      );
      await stopHoldingGoToRead();
      await backToDateOrder();
    }
  });

  it('goes to the row when an earlier move’s scroll event comes after “Go to row”', async () => {
    await sortBy('Settled');
    try {
      const total = await resultRows();
      const n = Math.floor(total * 0.7);
      await grid().evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 3));
      await settled(grid());
      await page.getByLabel('Go to row').fill(String(n));
      // Home's move, whose scroll event the browser sends with the next frame, then "Go" in the same task: that
      // event comes while "go to row" reads its rows, and finds the table where it was left.
      await page.getByLabel('Go to row').evaluate((input: HTMLInputElement) => {
        document.querySelector('[role=grid]')!.scrollTop = 0;
        input.form!.requestSubmit();
      });
      const selected = page.locator('[role=grid] [role=row][aria-selected=true]');
      await expect.poll(() => attributeNow(selected, 'aria-rowindex'), { timeout: 10_000 }).toBe(String(n + 1));
    } finally {
      await backToDateOrder();
    }
  });

  it('goes to the row when the table scrolls by no move of the person’s while “Go to row” reads', async () => {
    await sortBy('Fee');
    await holdGoToRead();
    try {
      const total = await resultRows();
      const n = Math.floor(total * 0.8);
      await goToRowHeld(n);
      // A pixel's scroll that no input made (the browser's own adjustment, seen in the UI bench), its event handled.
      await grid().evaluate((el) => (el.scrollTop += 1));
      await nextFrames();
      await page.evaluate(() => (window as unknown as { __goProbe: GoProbe }).__goProbe.release());
      const selected = page.locator('[role=grid] [role=row][aria-selected=true]');
      await expect.poll(() => attributeNow(selected, 'aria-rowindex'), { timeout: 10_000 }).toBe(String(n + 1));
    } finally {
      await stopHoldingGoToRead();
      await backToDateOrder();
    }
  });

  it('stays on the row the person clicks while “Go to row” reads, and reads nothing more where it was going', async () => {
    await sortBy('Mode');
    await holdGoToRead();
    try {
      const total = await resultRows();
      const n = Math.floor(total * 0.4);
      const top = await grid().evaluate((el) => el.scrollTop);
      await goToRowHeld(n);
      const clicked = grid().locator('[role=row][aria-rowindex="4"]');
      await clicked.click();
      await page.evaluate(() => (window as unknown as { __goProbe: GoProbe }).__goProbe.release());
      await page.waitForFunction(() => (window as unknown as { __goProbe: GoProbe }).__goProbe.answered);
      // The grid's next reads go out a task after an answer's is taken in (paged-rows.ts).
      await idle();
      await expect.poll(() => grid().getAttribute('aria-busy')).toBe('false');
      expect(await grid().evaluate((el) => el.scrollTop)).toBe(top);
      const selected = page.locator('[role=grid] [role=row][aria-selected=true]');
      expect(await attributeNow(selected, 'aria-rowindex')).toBe('4');
      expect(await grid().locator('[role=row][aria-busy=true]').count()).toBe(0);
      // Wanting the rows in view again: no page around row n was read once its screen came back.
      expect((await goProbe()).after).toEqual([]);
    } finally {
      await stopHoldingGoToRead();
      await page.keyboard.press('Escape');
      await backToDateOrder();
    }
  });

  it('takes the pointer off the rows while the table scrolls, and gives it back once it stops', async () => {
    const box = (await grid().boundingBox())!;
    // The last test's "Go to row" scrolled the table: until it counts as stopped, its rows take no pointer, and a
    // pointer that arrived meanwhile hovers nothing until it moves again. So wait, and move on every look.
    await expect.poll(() => grid().getAttribute('data-scrolling')).toBeNull();
    const hovered = () => grid().evaluate((g) => g.querySelector('[role=row][data-id]:hover')?.getAttribute('data-id'));
    let nudge = 0;
    const hoveredAfterMove = async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + (nudge++ % 2));
      return hovered();
    };
    await expect.poll(hoveredAfterMove).toBeTruthy();
    // Read in the frame of the scroll's first event: a frame's callbacks run after its scroll events, before any
    // task (the grid's own timer among them) can run. The listener is in place before the wheel turns.
    type During = { during: Promise<{ pointer: string; hovered: boolean }> };
    await grid().evaluate((g) => {
      (window as unknown as During).during = new Promise((resolve) =>
        g.addEventListener(
          'scroll',
          () =>
            requestAnimationFrame(() =>
              resolve({
                pointer: getComputedStyle(g.querySelector('[role=row][data-id]')!).pointerEvents,
                hovered: g.querySelector('[role=row][data-id]:hover') !== null,
              }),
            ),
          { once: true },
        ),
      );
    });
    await page.mouse.wheel(0, 28 * 20);
    expect(await page.evaluate(() => (window as unknown as During).during)).toEqual({
      pointer: 'none',
      hovered: false,
    });
    await expect.poll(() => grid().getAttribute('data-scrolling')).toBeNull();
    // Stopped, the row under the pointer takes it again: it hovers on the next move.
    await expect.poll(hoveredAfterMove).toBeTruthy();
  }, 60_000);

  it('shows records a re-sync no longer found, and since when', async () => {
    const mutated = await hook(app.sandbox.url, 'POST', 'settlements/mutate', { date: TO, count: 4, remove: 3 });
    expect(mutated.http).toBe(200);
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    const syncRegion = page.getByRole('region', { name: 'Sync' });
    await syncRegion.getByText(/^Sync completed for .* 4 changed, 3 no longer returned/).waitFor({ timeout: 30_000 });
    await expectTotals(sqlSums());

    await page.getByLabel('Records').selectOption('vanished');
    const vanished = db()
      .prepare(
        'SELECT id, pg_transaction_id, vanished_at FROM settlements WHERE vanished_at IS NOT NULL ORDER BY id DESC',
      )
      .all() as { id: number; pg_transaction_id: string; vanished_at: string }[];
    expect(vanished).toHaveLength(3);
    await expect
      .poll(async () => (await renderedRows()).map((r) => Number(r['id'])))
      .toEqual(vanished.map((v) => v.id));
    expect(await totalsBar().locator('dd').first().textContent()).toBe('3');

    await grid().locator('[role=row][data-id]').first().click();
    const dialog = page.getByRole('complementary', { name: `Settlement ${vanished[0]!.pg_transaction_id}` });
    await dialog
      .getByText(`The API stopped returning this record on ${formatIstInstant(vanished[0]!.vanished_at)}.`)
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Records').selectOption('current');
    await expectTotals(sqlSums());
  }, 60_000);

  it('exports the filtered records to Excel and offers the file in its folder', async () => {
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    const exportRegion = page.getByRole('region', { name: 'Export' });
    await exportRegion.getByRole('button', { name: 'Show in folder' }).waitFor({ timeout: 30_000 });
    const text = (await exportRegion.textContent())!;
    expect(text).toContain(`Exported ${count.format(sqlSums().count)} rows`);
    const file = /to (\S+\.xlsx) in/.exec(text)![1]!;
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    await exportRegion.getByRole('button', { name: 'Show in folder' }).click();
    await expect.poll(() => revealed).toEqual([file]);
    await exportRegion.getByRole('button', { name: 'Dismiss' }).click();
  }, 60_000);

  it('keeps the cached table, totals and chart working offline, with the banner', async () => {
    await app.sandbox.close();
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page
      .getByText(/^Offline/)
      .first()
      .waitFor({ timeout: 30_000 });
    await page.getByRole('status').filter({ hasText: 'showing cached data' }).waitFor();
    await page.getByLabel('Payment mode', { exact: true }).selectOption('CC');
    await expectTotals(sqlSums("payment_mode = 'CC'"));
    for (const row of await renderedRows()) expect(row['Mode']).toBe('CC');
    await page.getByRole('figure', { name: 'Settled amount by day' }).waitFor();
    await page.getByRole('radio', { name: 'By payment mode' }).check();
    expect(await page.getByRole('list', { name: 'Legend' }).textContent()).toBe('CC');
    await page
      .getByRole('region', { name: 'Sync' })
      .getByText(/dates failed|could not run/)
      .waitFor({ timeout: 30_000 });
    expect(app.consoleErrors).toEqual([]);
  }, 60_000);

  it('a record’s “Open order” opens its order on the Orders screen (offline: from the cache, which has not seen it)', async () => {
    await grid().focus();
    await page.keyboard.press('Enter');
    const first = (await renderedRows())[0]!;
    const orderId = (
      db().prepare('SELECT order_id FROM settlements WHERE id = ?').get(Number(first['id'])) as {
        order_id: string;
      }
    ).order_id;
    await page
      .getByRole('complementary', { name: /^Settlement / })
      .getByRole('button', { name: 'Open order' })
      .click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.getByText(`Order ${orderId} has not been read on this profile yet.`, { exact: false }).waitFor();
    expect(app.harness.calls.filter((c) => c === 'orders.fetch')).toEqual([]);
    expect(app.consoleErrors).toEqual([]);
  });
});
