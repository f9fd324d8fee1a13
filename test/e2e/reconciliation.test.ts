/**
 * The Reconciliation screen end to end, against the real core and sandbox: settlements synced, the sandbox's bank
 * statement (with a missing credit, a short one, a split one and an orphan) imported from its CSV through the file
 * picker, matched; the totals name every discrepancy, a batch opens with its records, a batch is matched by hand
 * with a note. Screenshots in light and dark.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDdMmYyyy } from '../../shared/format';
import { formatMoney } from '../../shared/money';
import { TALLY_LEDGER_LABELS, TALLY_LEDGER_ROLES } from '../../shared/tally';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { call, syncedThroughJob } from '../support/core';
import { libreofficeConvert } from '../support/export-files';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const to = addDays(TEST_TODAY, -2);
const from = addDays(to, -3);

describe.runIf(ready)('Reconciliation', () => {
  let app: RunningApp;
  let statement: string;
  const revealed: string[] = [];

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 60,
      exportTargets: { reveal: (file) => void revealed.push(file) },
      async prepare({ core, sandbox, dataDir }) {
        await syncedThroughJob(core, { from, to });
        const answer = await hook(sandbox.url, 'POST', 'statement', {
          from,
          to,
          discrepancies: { missing: 1, short: 1, split: 1, orphan: 1 },
        });
        statement = join(dataDir, 'HDFC statement.csv');
        writeFileSync(statement, (answer.body as { csv: string }).csv);
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it(
    'imports the statement, matches, names every discrepancy and opens a batch with its records',
    { timeout: 90_000 },
    async () => {
      const { page } = app;
      await page.getByRole('navigation').getByRole('button', { name: 'Reconciliation' }).click();
      await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
      await page.getByText('No bank statement yet').waitFor();
      await page.getByLabel('From').fill(formatDdMmYyyy(from));
      await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(to));
      await page.getByLabel('Bank statement file').setInputFiles(statement);
      // The mapping step: HDFC's layout recognised and preselected; the desk confirms.
      await page.getByTestId('mapping-recognised').getByText('Recognised as HDFC Bank').waitFor();
      expect(await page.getByRole('combobox', { name: 'Credit (deposit)' }).inputValue()).toBe('Deposit Amt.');
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText(/HDFC statement\.csv \(HDFC Bank\): \d+ lines, \d+ added, 0 already imported\./).waitFor();
      // The period on screen is now the statement's own, and Match is offered for it at once.
      const period = app.core
        .cacheFor(app.core.profiles.active().id)
        .db.prepare('SELECT min(date) AS first, max(date) AS last FROM bank_lines')
        .get() as { first: string; last: string };
      expect(await page.getByLabel('From').inputValue()).toBe(formatDdMmYyyy(period.first));
      expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(formatDdMmYyyy(period.last));
      await page
        .getByRole('button', { name: `Match ${formatDdMmYyyy(period.first)} to ${formatDdMmYyyy(period.last)} now` })
        .click();

      const batches = page.getByRole('table', { name: 'Batches' });
      const count = (label: string) =>
        batches
          .getByRole('row', { name: new RegExp(`^${label}`) })
          .getByRole('cell')
          .first();
      await expect.poll(() => count('Amount differs').textContent()).toBe('1');
      expect(await count('Batch without a credit \\(overdue\\)').textContent()).toBe('1');
      // T+n is the profile's: at T+30 the batch without a credit is not yet due; back at T+1 it is overdue again.
      const overdueAfter = page.getByLabel('Overdue after T+');
      await overdueAfter.fill('30');
      await overdueAfter.press('Enter');
      await expect.poll(() => count('Batch without a credit \\(not yet due\\)').textContent()).toBe('1');
      expect(await count('Batch without a credit \\(overdue\\)').textContent()).toBe('0');
      await overdueAfter.fill('1');
      await overdueAfter.press('Enter');
      await expect.poll(() => count('Batch without a credit \\(overdue\\)').textContent()).toBe('1');
      const credits = page.getByRole('table', { name: 'Statement credits' });
      expect(
        Number(
          await credits
            .getByRole('row', { name: /^Credit without a batch/ })
            .getByRole('cell')
            .first()
            .textContent(),
        ),
      ).toBeGreaterThan(0);

      const grid = page.getByRole('table', { name: 'Settlement batches' });
      await grid.getByRole('row', { name: /Amount differs/ }).click();
      const detail = page.getByRole('region', { name: 'Batch', exact: true });
      await detail.getByRole('table', { name: 'Records of the batch' }).waitFor();
      expect(await detail.textContent()).toMatch(/records, net/);
      await detail.scrollIntoViewIfNeeded();
      await saveScreenshots(page, 'reconciliation');

      // At 1280×800 nothing is cut off: each table fits its scroll box, and the Difference column is on screen.
      for (const name of ['Settlement batches', 'Statement credits']) {
        const fits = await page
          .getByRole('table', { name, exact: true })
          // The totals above have a table of that name too; the list is the last.
          .last()
          .evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth);
        expect({ name, fits }).toEqual({ name, fits: true });
      }
      const difference = await grid.getByRole('columnheader', { name: 'Difference' }).boundingBox();
      expect(difference!.x + difference!.width).toBeLessThanOrEqual(1280);
      const records = await detail.getByRole('table', { name: 'Records of the batch' }).evaluate((t) => ({
        table: t.scrollWidth,
        box: t.parentElement!.clientWidth,
      }));
      expect(records.table).toBeLessThanOrEqual(records.box);

      // Match the overdue batch by hand to a credit without a batch, with a note. Each candidate shows what the bank
      // wrote; ticking it shows the difference against the batch, and a difference asks why before the match.
      const before = await call(app.core, 'recon.report', {
        account: 'Collection account',
        from: period.first,
        to: period.last,
      });
      if (!before.ok) throw new Error('no report');
      const overdue = before.value.batches.find((b) => b.state === 'overdue')!;
      const candidate = before.value.credits.find((c) => c.state === 'unmatched')!;
      await grid.getByRole('row', { name: /Batch without a credit/ }).click();
      const row = detail
        .getByRole('table', { name: 'Credits to match by hand' })
        .locator(`tr[data-id="${candidate.id}"]`);
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.slice(1)).toEqual([
        formatDdMmYyyy(candidate.date),
        candidate.valueDate ? formatDdMmYyyy(candidate.valueDate) : '—',
        candidate.narration,
        [...new Set([candidate.reference, candidate.utr].filter((x) => x))].join(' · ') || '—',
        formatMoney(candidate.amount),
      ]);
      await row.getByRole('checkbox').check();
      const apart = candidate.amount - overdue.settled;
      expect(apart).not.toBe(0);
      expect(await detail.getByTestId('match-difference').textContent()).toBe(
        `1 ticked, ${formatMoney(candidate.amount)} against the batch's ${formatMoney(overdue.settled)}: difference ${formatMoney(apart)}.`,
      );
      await detail.getByLabel('Note').fill('bank confirmed by phone');
      const matchButton = detail.getByRole('button', { name: 'Match by hand' });
      expect(await matchButton.isDisabled()).toBe(true);
      await detail.getByLabel('Why do they differ?').fill('bank charges deducted');
      await detail.getByRole('table', { name: 'Credits to match by hand' }).scrollIntoViewIfNeeded();
      await saveScreenshots(page, 'reconciliation-match-by-hand');
      // A button looks like one: as wide as its words, not a full-width white box like the Note field.
      const looksLikeAButton = async (name: string) => {
        const box = await detail.getByRole('button', { name, exact: true }).boundingBox();
        const area = await detail.locator('.recon-actions').boundingBox();
        expect(box!.width, `${name} is as wide as its words`).toBeLessThan(area!.width / 2);
      };
      await looksLikeAButton('Match by hand');
      await detail.getByRole('button', { name: 'Match by hand' }).click();
      await expect.poll(() => count('Matched by hand').textContent()).toBe('1');
      await detail.getByRole('button', { name: 'Unmatch' }).waitFor();
      await looksLikeAButton('Unmatch');
      const report = await call(app.core, 'recon.report', {
        account: 'Collection account',
        from: period.first,
        to: period.last,
      });
      expect(
        report.ok && report.value.batches.filter((b) => b.state === 'manual').map((b) => [b.note, b.reason]),
      ).toEqual([['bank confirmed by phone', 'bank charges deducted']]);
      // Journaled with its note, and shown on the Journal screen.
      const journal = await call(app.core, 'journal.list', { kind: 'action', text: 'bank confirmed by phone' });
      expect(
        journal.ok && journal.value.entries.map((e) => [e.event, e.outcome, e.data['note'], e.data['reason']]),
      ).toEqual([['recon.match_by_hand', 'done', 'bank confirmed by phone', 'bank charges deducted']]);
      await page.getByRole('navigation').getByRole('button', { name: 'Journal' }).click();
      await page.getByText(/Matched batch .* by hand to 1 credit .*: bank confirmed by phone/).waitFor();
      // The summary's difference in the console's money format, not a raw decimal.
      expect(journal.ok && journal.value.entries[0]!.summary).toContain(`(difference ${formatMoney(apart)})`);
    },
  );

  it(
    'exports the matched batches for Tally once its ledgers are named in Settings, and shows the file in its folder',
    { timeout: 60_000 },
    async () => {
      const { page } = app;
      const account = 'Collection account';
      const period = app.core
        .cacheFor(app.core.profiles.active().id)
        .db.prepare('SELECT min(date) AS first, max(date) AS last FROM bank_lines')
        .get() as { first: string; last: string };
      await page.getByRole('navigation').getByRole('button', { name: 'Reconciliation' }).click();
      await page.getByLabel('From').fill(formatDdMmYyyy(period.first));
      await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(period.last));
      // No ledger named yet: refused with the ledgers to name, and nothing written.
      await page.getByRole('button', { name: 'Export for Tally' }).click();
      await page.getByText(/Name the Tally ledgers for Bank \(debited with the net settled\)/).waitFor();

      await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
      const form = page.getByRole('form', { name: 'Tally ledgers' });
      const names = Object.fromEntries(TALLY_LEDGER_ROLES.map((r) => [r, `PC ${r} & Co`]));
      for (const role of TALLY_LEDGER_ROLES) await form.getByLabel(TALLY_LEDGER_LABELS[role]).fill(names[role]!);
      await form.getByRole('button', { name: 'Save Tally ledgers' }).click();
      await form.getByRole('status').getByText('Saved.').waitFor();

      await page.getByRole('navigation').getByRole('button', { name: 'Reconciliation' }).click();
      await page.getByLabel('From').fill(formatDdMmYyyy(period.first));
      await page.getByLabel('To', { exact: true }).fill(formatDdMmYyyy(period.last));
      await page.getByRole('button', { name: 'Export for Tally' }).click();
      const saved = page.getByText(/Saved .*\.xml: \d+ Tally vouchers/);
      await saved.waitFor();
      // What the screen says is what the core plans for the period, and what the file holds.
      // Every ledger is named above, the rounding-off one too.
      const plan = await app.core.reconciliation.tallyPlan(
        app.core.profiles.active().id,
        { account, from: period.first, to: period.last },
        true,
      );
      expect(plan.vouchers.length).toBeGreaterThan(0);
      const line = (await saved.textContent())!;
      expect(line).toContain(`${plan.vouchers.length} Tally vouchers`);
      if (plan.leftOut.length > 0) expect(line).toContain(`${plan.leftOut.length} batches left out`);
      const file = /Saved (.*\.xml):/.exec(line)![1]!;
      const xml = readFileSync(file, 'utf8');
      expect(xml.match(/<VOUCHER /g)?.length).toBe(plan.vouchers.length);
      // The saved names, escaped as XML: Tally matches a ledger by its exact name.
      expect(xml).toContain('<LEDGERNAME>PC bank &amp; Co</LEDGERNAME>');
      await page.getByRole('button', { name: 'Show in folder' }).click();
      await expect.poll(() => revealed).toContain(file);
    },
  );
  it(
    'asks for the password of a protected PDF e-statement: a wrong one is said so, the right one reads it',
    { timeout: 90_000 },
    async () => {
      const { page } = app;
      // The statement printed to a PDF with an open password, by independent writers (openpyxl, LibreOffice).
      const dir = join(app.dataDir, 'pdf');
      mkdirSync(dir, { recursive: true });
      const book = join(dir, 'estatement.xlsx');
      const written = spawnSync(
        // Debian's python3, which has openpyxl (test/support/export-files.ts).
        '/usr/bin/python3',
        [
          '-c',
          `import csv, sys, openpyxl
wb = openpyxl.Workbook(); ws = wb.active
for row in csv.reader(open(sys.argv[1], newline='')): ws.append(row)
for col, width in zip('ABCDEFG', (10, 52, 20, 10, 14, 14, 16)): ws.column_dimensions[col].width = width
ws.page_setup.orientation = 'landscape'; ws.sheet_properties.pageSetUpPr.fitToPage = True
ws.page_setup.fitToWidth = 1; ws.page_setup.fitToHeight = 0
wb.save(sys.argv[2])`,
          statement,
          book,
        ],
        { encoding: 'utf8' },
      );
      expect(written.stderr).toBe('');
      const password = 'ACME2611';
      const options = JSON.stringify({
        EncryptFile: { type: 'boolean', value: 'true' },
        DocumentOpenPassword: { type: 'string', value: password },
      });
      const [pdf] = libreofficeConvert([book], `pdf:calc_pdf_Export:${options}`, dir);

      await page.getByRole('navigation').getByRole('button', { name: 'Reconciliation' }).click();
      await page.getByLabel('Bank statement file').setInputFiles(pdf!);
      const form = page.getByRole('form', { name: 'Password of estatement.pdf' });
      await form.getByLabel('PDF password').fill('WRONG123');
      await form.getByRole('button', { name: 'Read the statement' }).click();
      await page.getByText('The password for estatement.pdf is wrong').waitFor();
      await form.getByLabel('PDF password').fill(password);
      await form.getByRole('button', { name: 'Read the statement' }).click();
      // Read: the mapping step shows the PDF's own rows (its columns are the person's to confirm, as for any file).
      await page.getByRole('heading', { name: /^Columns of estatement\.pdf for / }).waitFor();
      expect(await form.count()).toBe(0);
      const header = page.getByLabel('Header row');
      expect(await header.textContent()).toContain('Narration');
      await page.getByRole('button', { name: 'Cancel' }).click();
    },
  );
});
