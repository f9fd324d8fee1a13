/**
 * What changed and the exception workflow, end to end against the real core, cache and sandbox: a sync, records
 * changed and dropped by the sandbox, a re-sync whose "N changed" opens the Changes dialog at its run with every
 * changed field old → new and each date's completeness; then an exception acknowledged, assigned, noted, triaged
 * with the classification service and resolved from its detail. Screenshots in light and dark.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import { addDays } from '../../shared/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TODAY } from '../support/clock';
import { ok } from '../support/core';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const DAYS = 7;
const TO = TEST_TODAY;
const FROM = addDays(TO, -(DAYS - 1));

describe.runIf(ready)('Settlements: changes, completeness and the exception workflow', () => {
  let app: RunningApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ settlementsPerDay: 600 });
    page = app.page;
  });
  afterAll(async () => {
    await app?.close();
  });

  const db = () => app.core.cacheFor(app.core.profiles.active().id).db;
  const syncRegion = () => page.getByRole('region', { name: 'Sync' });

  it(
    'a re-sync’s "N changed" opens the changes of that run, field by field, with each date complete',
    { timeout: 90_000 },
    async () => {
      await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
      await page.getByRole('button', { name: 'Sync', exact: true }).click();
      await syncRegion()
        .getByText(/^Sync completed for/)
        .waitFor({ timeout: 30_000 });
      const mutated = await hook<{ changed: { pg_transaction_id: string }[]; removed: unknown[] }>(
        app.sandbox.url,
        'POST',
        'settlements/mutate',
        { date: TO, count: 4, remove: 2 },
      );
      expect(mutated.http).toBe(200);
      await page
        .getByRole('button', { name: 'Dismiss' })
        .click()
        .catch(() => {});
      await page.getByRole('button', { name: 'Sync', exact: true }).click();
      const link = syncRegion().getByRole('button', { name: '4 changed, 2 no longer returned' });
      await link.waitFor({ timeout: 30_000 });
      await link.focus();
      await page.keyboard.press('Enter');

      const dialog = page.getByRole('dialog', { name: /^Changes and completeness/ });
      await dialog.waitFor();
      await dialog
        .getByTestId('changes-counts')
        .getByText('0 new · 4 changed · 2 no longer returned · 0 returned again')
        .waitFor();
      const table = dialog.getByRole('grid', { name: 'Changes' }).or(dialog.getByRole('table', { name: 'Changes' }));
      for (const c of mutated.body.changed) await table.getByText(c.pg_transaction_id).waitFor();
      const text = (await table.textContent())!;
      expect(text).toMatch(/(UTR \((UTR replaced|UTR filled in)\)|Dispute ID \(dispute opened\)): .+ → /);
      // What changed is the point of a row: shown whole, wrapped, never cut off at an ellipsis.
      const cut = await table
        .locator('td.dt-wrap')
        .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent));
      expect(cut).toEqual([]);
      expect(await table.locator('td.dt-wrap').count()).toBe(6);
      const runId = db().prepare("SELECT max(id) FROM sync_runs WHERE kind = 'settlements'").pluck().get() as number;
      expect(await dialog.getByLabel('Sync run').inputValue()).toBe(String(runId));
      await dialog.getByTestId('completeness-summary').getByText(`${DAYS} of ${DAYS} synced dates complete.`).waitFor();
      await saveScreenshots(page, 'settlement-changes');

      // The view's own export, named after its filter (this sync run), with every change line of the run.
      await dialog
        .getByRole('group', { name: 'Export the changes' })
        .getByRole('button', { name: 'Export CSV' })
        .click();
      const done = dialog.getByText(/^Exported \d+ rows to/);
      await done.waitFor({ timeout: 30_000 });
      const file = (await done.locator('.mono').textContent())!;
      expect(basename(file)).toMatch(new RegExp(`-changes-${FROM}-to-${TO}-sync-${runId}\\.csv$`));
      const lines = db().prepare('SELECT kind, fields FROM settlement_changes WHERE run_id = ?').all(runId) as {
        kind: string;
        fields: string;
      }[];
      const expected = lines.reduce(
        (n, l) => n + Math.max(1, l.fields === null ? 0 : (JSON.parse(l.fields) as unknown[]).length),
        0,
      );
      expect(expected).toBeGreaterThanOrEqual(6);
      const csv = readFileSync(file, 'utf8').trim().split(/\r?\n/);
      expect(csv).toHaveLength(expected + 1);
      for (const c of mutated.body.changed) expect(csv.some((l) => l.includes(c.pg_transaction_id))).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    },
  );

  it(
    'acknowledges, assigns, notes, triages and resolves an exception from its detail',
    { timeout: 90_000 },
    async () => {
      await page.getByRole('checkbox', { name: 'Exceptions only' }).check();
      const grid = page.getByRole('grid', { name: 'Settlements' });
      // The rows of the filter, not the previous result's still on screen while its read runs: Enter opens the first.
      const flagsOf = db().prepare('SELECT exception_flags FROM settlements WHERE id = ?').pluck();
      const firstId = () =>
        grid.locator('[role=row][data-id]').evaluateAll((rows) => rows[0]?.getAttribute('data-id') ?? null);
      await expect.poll(async () => flagsOf.get(Number(await firstId())) ?? 0).not.toBe(0);
      await grid.focus();
      await page.keyboard.press('Enter');
      const detail = page.getByRole('complementary', { name: /^Settlement / });
      await detail.waitFor();
      const workflow = detail.getByRole('group', { name: 'Exception workflow' });
      await workflow.getByTestId('exception-state').getByText('Open').waitFor();

      await workflow.getByRole('button', { name: 'Acknowledge' }).click();
      await workflow.getByTestId('exception-state').getByText('Acknowledged').waitFor();
      await workflow.getByLabel('Note or assignee').fill('Priya');
      await workflow.getByRole('button', { name: 'Assign' }).click();
      await workflow.getByText('assigned to Priya').waitFor();
      await workflow.getByLabel('Note or assignee').fill('Gateway confirms the fee was wrong');
      await workflow.getByRole('button', { name: 'Add note' }).click();
      await workflow.getByText('Note: Gateway confirms the fee was wrong', { exact: true }).waitFor();
      // The profile's threshold, set here: at 100% nothing the scorer says is sure enough to tag.
      const threshold = workflow.getByLabel('Tag when the likely cause is at least');
      expect(await threshold.inputValue()).toBe('50');
      await threshold.fill('100');
      await threshold.press('Enter');
      await expect.poll(async () => (await ok(app.core, 'recon.accounts', undefined)).settings.triageThreshold).toBe(1);
      await workflow.getByRole('button', { name: /^Triage / }).click();
      await workflow.getByTestId('triage-summary').waitFor({ timeout: 30_000 });
      expect(await workflow.getByTestId('triage-summary').textContent()).toMatch(/\(0 tagged at 100% or more,/);
      await workflow.getByText('— below the threshold, not tagged').waitFor();
      await workflow
        .getByTestId('exception-triage')
        .getByText(/^Triage \(sandbox-overlap-v1\): likely \w+ \(\d+%\)/)
        .waitFor();
      await saveScreenshots(page, 'settlement-exception-workflow');
      await workflow.getByRole('button', { name: 'Resolve' }).click();
      await workflow.getByTestId('exception-state').getByText('Resolved').waitFor();
      const trail = await workflow.getByRole('list', { name: 'Trail' }).textContent();
      expect(trail).toMatch(/acknowledge.*assign: Priya.*note: Gateway confirms.*triage: .*resolve/s);
      const states = db().prepare('SELECT state, assignee, triage_model FROM settlement_exception_states').all();
      expect(states).toEqual(
        expect.arrayContaining([{ state: 'resolved', assignee: 'Priya', triage_model: 'sandbox-overlap-v1' }]),
      );
      expect(app.consoleErrors).toEqual([]);
    },
  );
});
