/**
 * The list exports from their screens: Beneficiaries, Payouts and Accounts each export what the cache holds, show
 * progress and the outcome, and offer the written file in its folder. The files are read back and compared with
 * the cache, so a button that exported the wrong kind or an empty file would fail.
 */
import { existsSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMinor } from '../../shared/money';
import { readCsv } from '../support/export-files';
import { e2eSystemReady, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

describe.runIf(ready)('exports from the Beneficiaries, Payouts and Accounts screens', () => {
  let app: RunningApp;
  const revealed: string[] = [];

  beforeAll(async () => {
    app = await startApp({
      exportTargets: { reveal: (file) => void revealed.push(file) },
      async prepare({ core, sandbox }) {
        const profileId = core.profiles.active().id;
        for (const { id } of sandbox.fixtures().beneficiaries.slice(0, 3)) {
          await core.treasury.beneficiaries.fetch(profileId, id);
        }
        for (const { id } of sandbox.fixtures().payouts.slice(0, 2)) {
          await core.treasury.payouts.lookup(profileId, id, 'normal');
          await core.treasury.payouts.lookup(profileId, id, 'advance');
        }
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const open = (screen: string) =>
    app.page.getByRole('navigation').getByRole('button', { name: screen, exact: true }).click();
  const cache = () => app.core.cacheFor(app.core.profiles.active().id);

  /** Clicks an export button, waits for the outcome, checks "Show in folder", and returns the file. */
  async function exportFrom(
    button: 'Export to Excel' | 'Export CSV' | 'Excel-safe CSV',
    ext: 'xlsx' | 'csv',
  ): Promise<string> {
    const { page } = app;
    await page.getByRole('button', { name: button, exact: true }).click();
    const region = page.getByRole('region', { name: 'Export' });
    const show = region.getByRole('button', { name: 'Show in folder' });
    await show.waitFor({ timeout: 30_000 });
    // The path may hold spaces: a second export of the same kind is "name (2).csv".
    const file = new RegExp(`to (.+\\.${ext}) in `).exec((await region.textContent())!)![1]!;
    expect(existsSync(file)).toBe(true);
    await show.click();
    await expect.poll(() => revealed.at(-1)).toBe(file);
    await region.getByRole('button', { name: 'Dismiss' }).click();
    await region.waitFor({ state: 'detached' });
    return file;
  }

  async function sheetRows(file: string): Promise<ExcelJS.CellValue[][]> {
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    // The data, then the Audit sheet saying where it came from.
    expect(book.worksheets.map((w) => w.name).slice(1)).toEqual(['Audit']);
    const rows: ExcelJS.CellValue[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    return rows;
  }

  it('exports the cached beneficiaries to Excel, account numbers as text', async () => {
    await open('Beneficiaries');
    const file = await exportFrom('Export to Excel', 'xlsx');
    const [header, ...rows] = await sheetRows(file);
    expect(header![0]).toBe('Beneficiary id');
    const cached = [...cache().beneficiaries.every()];
    expect(rows.map((r) => r[0])).toEqual(cached.map((b) => b.beneficiary_id));
    const banked = cached.findIndex((b) => b.account_number);
    expect(rows[banked]![2]).toBe(cached[banked]!.account_number);
  });

  it('exports the payouts the screen lists, each with its latest lookup, as CSV', async () => {
    await open('Payouts');
    const file = await exportFrom('Export CSV', 'csv');
    const { bom, records } = await readCsv(file);
    expect(bom).toBe(true);
    expect([...cache().payouts.every()]).toHaveLength(4);
    const listed = cache().payouts.recent();
    expect(listed).toHaveLength(2);
    expect(records.slice(1).map((r) => [r[0], r[2]])).toEqual(listed.map((l) => [l.payoutId, l.mode]));
  });

  it('offers an Excel-safe CSV, whose identifiers start with a tab so spreadsheets keep them as text', async () => {
    await open('Payouts');
    const file = await exportFrom('Excel-safe CSV', 'csv');
    const { records } = await readCsv(file);
    const listed = cache().payouts.recent();
    expect(records.slice(1).map((r) => r[0])).toEqual(listed.map((l) => `\t${l.payoutId}`));
    expect(existsSync(file.replace(/\.csv$/, '.about.txt'))).toBe(true);
  });

  it('exports the balance snapshots the screen just took', async () => {
    await open('Accounts & balances');
    await app.page.getByTestId('total-available').waitFor();
    const file = await exportFrom('Export to Excel', 'xlsx');
    const [, ...rows] = await sheetRows(file);
    const snapshots = [...cache().accounts.everySnapshot()];
    expect(snapshots.length).toBeGreaterThan(0);
    // Excel holds rupees as numbers; two decimals of what it read must be the exact paise as text.
    expect(rows.map((r) => [r[0], r[1], (r[4] as number).toFixed(2)])).toEqual(
      snapshots.map((s) => [s.pg, s.accountNumber, formatMinor(s.availableBalance)]),
    );
    expect(app.consoleErrors).toEqual([]);
  });
});
