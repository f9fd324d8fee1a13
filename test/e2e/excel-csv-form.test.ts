/**
 * The Excel-safe CSV's form of identifiers, chosen in Settings at 1280×800: the tab form until the person picks the
 * `="…"` form for Excel, then the Settlements button writes that form (read back with Python's csv module, checked
 * against the cache), its `.about.txt` says so, the choice outlives a reload, and the Settlements toolbar stays on one
 * line, as it has no choice of its own.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { syncedThroughJob } from '../support/core';
import { pythonCsvFields, pythonProblem } from '../support/export-files';
import { requireSystem } from '../support/system';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = (await e2eSystemReady()) && requireSystem('Python 3 (/usr/bin/python3)', pythonProblem());
const IDENTIFIERS = ['PG transaction id', 'Order id', 'UTR'];

describe.runIf(ready)('the Excel-safe CSV form, chosen in Settings', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 40,
      async prepare({ core }) {
        await syncedThroughJob(core, { from: addDays(TEST_TODAY, -1), to: TEST_TODAY });
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const open = (screen: string) =>
    app.page.getByRole('navigation').getByRole('button', { name: screen, exact: true }).click();

  /** The Settlements screen's Excel-safe CSV: the file's header and rows as Python's csv module splits them. */
  async function excelSafeCsv(): Promise<{ file: string; header: string[]; rows: string[][] }> {
    const { page } = app;
    await open('Settlements');
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    await page.getByRole('grid', { name: 'Settlements' }).locator('[role="row"][aria-rowindex="2"]').waitFor();
    await page.getByRole('button', { name: 'Excel-safe CSV', exact: true }).click();
    const region = page.getByRole('region', { name: 'Export' });
    const show = region.getByRole('button', { name: 'Show in folder' });
    await show.waitFor({ timeout: 30_000 });
    const file = /to (.+\.csv) in /.exec((await region.textContent())!)![1]!;
    await region.getByRole('button', { name: 'Dismiss' }).click();
    await region.waitFor({ state: 'detached' });
    const [header, ...rows] = pythonCsvFields(file, ',');
    return { file, header: header!, rows };
  }

  /** The identifiers of the records on screen (the range the screen opened on), from the cache, in a set. */
  function cachedIds(): Set<string> {
    const rows = app.core
      .cacheFor(app.core.profiles.active().id)
      .db.prepare('SELECT pg_transaction_id, order_id, utr FROM settlements WHERE vanished_at IS NULL')
      .all() as { pg_transaction_id: string; order_id: string; utr: string }[];
    return new Set(rows.flatMap((r) => [r.pg_transaction_id, r.order_id, r.utr].filter((v) => v !== '')));
  }

  function idsOf(csv: { header: string[]; rows: string[][] }): string[] {
    const columns = IDENTIFIERS.map((h) => csv.header.indexOf(h));
    expect(columns.every((c) => c >= 0)).toBe(true);
    return csv.rows.flatMap((r) => columns.map((c) => r[c]!)).filter((v) => v !== '');
  }

  it('writes the tab form until the formula form is picked, then ="…" ids that read back exact', async () => {
    const { page } = app;
    const ids = cachedIds();

    const tab = await excelSafeCsv();
    expect(tab.rows.length).toBeGreaterThan(0);
    for (const id of idsOf(tab)) expect(ids).toContain(id.replace(/^\t/, ''));
    expect(idsOf(tab).every((id) => id.startsWith('\t'))).toBe(true);
    expect(readFileSync(tab.file.replace(/\.csv$/, '.about.txt'), 'utf8')).toContain('needs CLEAN()');

    await open('Settings');
    const forms = page.getByRole('group', { name: 'Identifiers in the Excel-safe CSV' });
    expect(await forms.getByRole('radio', { name: /tab-prefixed text/ }).isChecked()).toBe(true);
    await forms.getByRole('radio', { name: /formulas ="…" \(Excel only\)/ }).check();
    await forms.scrollIntoViewIfNeeded();
    await saveScreenshots(page, 'settings-excel-csv');

    // The choice is the renderer's own: it holds across a reload of the window.
    await page.reload();
    await open('Settings');
    expect(await forms.getByRole('radio', { name: /formulas/ }).isChecked()).toBe(true);

    const formula = await excelSafeCsv();
    expect(formula.rows).toHaveLength(tab.rows.length);
    const written = idsOf(formula);
    expect(written.length).toBe(idsOf(tab).length);
    for (const id of written) {
      const inner = /^="(.*)"$/.exec(id);
      expect(inner, id).not.toBeNull();
      expect(ids).toContain(inner![1]!.replace(/""/g, '"'));
    }
    expect(readFileSync(formula.file.replace(/\.csv$/, '.about.txt'), 'utf8')).toMatch(/each written as ="…"/);
  });

  it('keeps the Settlements toolbar on one line at 1280×800', async () => {
    const { page } = app;
    await open('Settlements');
    const names = ['Changes & completeness', 'Export to Excel', 'Export CSV', 'Excel-safe CSV'];
    const boxes = await Promise.all(names.map((n) => page.getByRole('button', { name: n, exact: true }).boundingBox()));
    const tops = boxes.map((b) => Math.round(b!.y));
    expect(new Set(tops).size, JSON.stringify(tops)).toBe(1);
    expect(Math.max(...boxes.map((b) => b!.x + b!.width))).toBeLessThanOrEqual(1280);
    await saveScreenshots(page, 'settlements-1280-toolbar');
    expect(app.consoleErrors).toEqual([]);
  });
});
