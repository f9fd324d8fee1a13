/**
 * The column-mapping step of a statement import, end to end against the real core and sandbox: a statement in a
 * layout no bank table recognises (the sandbox's own, with every header renamed, and a row with an impossible
 * date) is mapped once by the desk from the keyboard, imported with the bad row listed by its number and reason,
 * the mapping remembered for the bank account; the same file again comes with the saved columns preselected and
 * adds nothing. Matching then reconciles it as it does the bank's own layout. Screenshots in light and dark.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDdMmYyyy } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { syncedThroughJob } from '../support/core';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const to = addDays(TEST_TODAY, -2);
const from = addDays(to, -2);
const ACCOUNT = 'Unusual current';
const HEADERS = {
  date: 'Posted On',
  narration: 'Details of transaction',
  reference: 'Cheque/Ref',
  valueDate: 'Value On',
  debit: 'Paid Out',
  credit: 'Paid In',
  balance: 'Running Total',
};

describe.runIf(ready)('Reconciliation: the column-mapping step', () => {
  let app: RunningApp;
  let file: string;
  let lines: number;

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 60,
      async prepare({ core, sandbox, dataDir }) {
        await syncedThroughJob(core, { from, to });
        const answer = await hook(sandbox.url, 'POST', 'statement', {
          from,
          to,
          discrepancies: { missing: 0, short: 0, split: 0, orphan: 0 },
        });
        const [, ...body] = (answer.body as { csv: string }).csv.trim().split('\n');
        lines = body.length;
        const header = [
          HEADERS.date,
          HEADERS.narration,
          HEADERS.reference,
          HEADERS.valueDate,
          HEADERS.debit,
          HEADERS.credit,
          HEADERS.balance,
        ].join(',');
        file = join(dataDir, 'Unusual bank.csv');
        writeFileSync(
          file,
          [header, ...body, '31/02/26,NEFT CR-NOWHERE-123456789012,1,31/02/26,,10.00,1.00'].join('\n'),
        );
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const db = () => app.core.cacheFor(app.core.profiles.active().id).db;

  it(
    'maps an unknown layout once from the keyboard, lists the bad row, and remembers the columns',
    { timeout: 90_000 },
    async () => {
      const { page } = app;
      await page.getByRole('navigation').getByRole('button', { name: 'Reconciliation' }).click();
      await page.getByText('No bank statement yet').waitFor();
      await page.getByLabel('New bank account').fill(ACCOUNT);
      await page.getByLabel('From').fill(formatDdMmYyyy(from));
      await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(to));
      await page.getByLabel('Bank statement file').setInputFiles(file);

      const step = page.getByRole('region', { name: `Columns of Unusual bank.csv for ${ACCOUNT}` });
      await step.getByText('Not recognised: choose the columns below.').waitFor();
      // The file's first rows are there to map from, and nothing can be imported until Date and money are chosen.
      const preview = step.getByRole('table', { name: 'Preview of the statement' });
      expect(await preview.locator('thead th').allTextContents()).toEqual([
        'Row',
        ...Object.values(HEADERS).slice(0, 4),
        'Paid Out',
        'Paid In',
        'Running Total',
      ]);
      expect(await preview.locator('tbody tr').count()).toBe(5);
      const importButton = step.getByRole('button', { name: 'Import', exact: true });
      expect(await importButton.isDisabled()).toBe(true);
      await step.getByRole('alert').getByText('Choose the Date column.').waitFor();

      const roles: [string, string][] = [
        ['Date', HEADERS.date],
        ['Narration', HEADERS.narration],
        ['Ref (cheque / reference no.)', HEADERS.reference],
        ['Value date', HEADERS.valueDate],
        ['Debit (withdrawal)', HEADERS.debit],
        ['Credit (deposit)', HEADERS.credit],
        ['Balance', HEADERS.balance],
      ];
      // Keyboard only: focus each role's menu and choose by typing, as a desk without a mouse does.
      for (const [label, header] of roles) {
        const menu = step.getByRole('combobox', { name: label, exact: true });
        await menu.focus();
        await menu.selectOption(header);
      }
      await step.getByText('→ Credit (deposit)').waitFor();
      await saveScreenshots(page, 'statement-mapping');
      await importButton.focus();
      await page.keyboard.press('Enter');

      await page
        .getByText(
          `Unusual bank.csv (Saved mapping): ${lines} lines, ${lines} added, 0 already imported, 1 rows left out.`,
        )
        .waitFor();
      const bad = await page.getByRole('list', { name: 'Rows left out' }).textContent();
      expect(bad).toMatch(new RegExp(`^Row ${lines + 2}: .*31/02/26`));
      const stored = db().prepare('SELECT mapping FROM bank_accounts WHERE name = ?').pluck().get(ACCOUNT) as string;
      expect(JSON.parse(stored)).toEqual(HEADERS);

      // The same file again: the saved columns are preselected, and it adds nothing.
      await page.getByLabel('Bank statement file').setInputFiles(file);
      await step.getByText(`The columns saved for ${ACCOUNT} are preselected.`).waitFor();
      expect(await step.getByRole('combobox', { name: 'Credit (deposit)', exact: true }).inputValue()).toBe(
        HEADERS.credit,
      );
      await step.getByRole('button', { name: 'Import', exact: true }).click();
      await page
        .getByText(
          `Unusual bank.csv (Saved mapping): ${lines} lines, 0 added, ${lines} already imported, 1 rows left out.`,
        )
        .waitFor();
      expect(db().prepare('SELECT count(*) FROM bank_lines').pluck().get()).toBe(lines);

      // The mapping is this account's: another bank account starts with nothing saved.
      await page.getByRole('combobox', { name: /^Bank account/ }).selectOption({ label: 'Another bank account…' });
      await page.getByLabel('New bank account').fill('Second current');
      await page.getByLabel('Bank statement file').setInputFiles(file);
      const second = page.getByRole('region', { name: 'Columns of Unusual bank.csv for Second current' });
      await second.getByText('Not recognised: choose the columns below.').waitFor();
      await second.getByRole('button', { name: 'Cancel' }).click();
      await second.waitFor({ state: 'detached' });
      expect(db().prepare('SELECT count(*) FROM bank_accounts').pluck().get()).toBe(1);
      await page.getByRole('combobox', { name: /^Bank account/ }).selectOption(ACCOUNT);

      // Reconciled like the bank's own layout: every batch of the period has its credit (no discrepancies asked for).
      await page.getByRole('button', { name: 'Match', exact: true }).click();
      const batches = page.getByRole('table', { name: 'Batches' });
      const count = (label: string) =>
        batches
          .getByRole('row', { name: new RegExp(`^${label}`) })
          .getByRole('cell')
          .first();
      await expect.poll(() => count('Batch without a credit \\(overdue\\)').textContent()).toBe('0');
      expect(Number(await count('Matched').textContent())).toBeGreaterThan(0);
      expect(app.consoleErrors).toEqual([]);
    },
  );
});
