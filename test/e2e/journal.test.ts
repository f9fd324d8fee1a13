/**
 * The Journal screen end to end, against the real core and sandbox: entries filtered by kind and text with an
 * entry's detail and hashes; "Verify the journal" holding, then naming the entry edited in the SQLite file; an
 * outcome-unknown beneficiary create settled by "Check status"; a period closed, changed by the sandbox's mutate
 * hook and a re-sync, its difference shown and acknowledged. Screenshots in light and dark.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCalendarDate } from '../../shared/format';
import { addDays } from '../../shared/time';
import { TEST_TODAY } from '../support/clock';
import { call, nextEvent, ok, syncedThroughJob } from '../support/core';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const day = addDays(TEST_TODAY, -2);

describe.runIf(ready)('Journal', () => {
  let app: RunningApp;
  let profileId: string;
  const journal = () => app.core.journals.for(profileId).journal;

  async function openJournal(): Promise<void> {
    await app.page.getByRole('navigation').getByRole('button', { name: 'Journal' }).click();
    await app.page.getByRole('heading', { name: 'Journal', level: 1 }).waitFor();
  }

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 30,
      async prepare({ core }) {
        await syncedThroughJob(core, { from: day, to: day });
      },
    });
    profileId = app.core.profiles.active().id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('filters entries, shows one with its hashes, and verifies the chain', async () => {
    const { page } = app;
    await openJournal();
    const table = page.getByRole('table', { name: 'Journal entries' });
    await table.getByRole('cell', { name: 'sync.settlements' }).waitFor();
    await page.getByRole('search', { name: 'Filter the journal' }).getByLabel('Kind').selectOption('sync');
    await expect.poll(() => table.getByRole('row').count()).toBe(1 + journal().list({ kind: 'sync' }).length);

    const entry = journal().list({ kind: 'sync' })[0]!;
    // A row opens by a click (or Enter on it): the shared table.
    await table.locator(`tr[data-id="${entry.seq}"]`).click();
    const detail = page.getByRole('region', { name: `Entry ${entry.seq}` });
    await detail.getByText(entry.hash, { exact: true }).waitFor();
    expect(await detail.textContent()).toContain(entry.prevHash);

    await page.getByRole('button', { name: 'Verify the journal' }).click();
    await page.getByText(/^The journal holds \d+ entr(y|ies), every hash/).waitFor();
    await saveScreenshots(page, 'journal');

    const db = new Database(app.core.cacheFor(profileId).file);
    db.prepare(`UPDATE journal SET summary = 'quietly edited' WHERE seq = ?`).run(entry.seq);
    db.close();
    await page.getByRole('button', { name: 'Verify the journal' }).click();
    await page.getByText(`The journal does not hold at entry ${entry.seq}:`, { exact: false }).waitFor();
    // Put it back, so the rest of the file works on a sound chain.
    const back = new Database(app.core.cacheFor(profileId).file);
    back.prepare('UPDATE journal SET summary = ? WHERE seq = ?').run(entry.summary, entry.seq);
    back.close();
    await page.getByRole('search', { name: 'Filter the journal' }).getByLabel('Kind').selectOption('');
  });

  it('settles an outcome-unknown create with "Check status"', async () => {
    const { page } = app;
    await hook(app.sandbox.url, 'POST', 'faults', { path: '/api/v2/payout/beneficiary/create', kind: 'malformed' });
    const before = new Set(
      (await hook<{ beneficiaries: { id: string }[] }>(app.sandbox.url, 'GET', 'fixtures')).body.beneficiaries.map(
        (b) => b.id,
      ),
    );
    const reply = await call(app.core, 'beneficiaries.create', {
      requestKey: 'e2e-journal',
      beneficiary: { name: 'E2E Vendor', vpa: 'vendor@okbank' },
    });
    expect(reply.ok).toBe(false);
    const made = (
      await hook<{ beneficiaries: { id: string }[] }>(app.sandbox.url, 'GET', 'fixtures')
    ).body.beneficiaries.find((b) => !before.has(b.id))!;

    await page.getByRole('navigation').getByRole('button', { name: 'Payouts' }).click();
    await openJournal();
    const unknown = page.getByRole('region', { name: 'Outcome unknown' });
    await unknown.getByLabel('Beneficiary id at the service').fill(made.id);
    await unknown.getByRole('button', { name: 'Check status' }).click();
    await page
      .getByRole('status')
      .getByText(`Looked up ${made.id}: it is the beneficiary that was asked for`, { exact: false })
      .waitFor();
    await unknown.waitFor({ state: 'detached' });
    expect(journal().unresolved()).toEqual([]);
  });

  it('closes a period, shows it changed after a re-sync with the difference, and acknowledges it', async () => {
    const { page } = app;
    const periods = page.getByRole('region', { name: 'Closed settlement periods' });
    const closeForm = page.getByRole('form', { name: 'Close a period' });
    // Typed dd/mm/yyyy, as every date field of the console is, whatever the machine's locale.
    const typed = day.split('-').reverse().join('/');
    await closeForm.getByLabel('From').fill(typed);
    await closeForm.getByLabel('To').fill(typed);
    await closeForm.getByRole('button', { name: 'Close period' }).click();
    const closedRows = page.getByRole('table', { name: 'Closed periods' });
    await closedRows.getByRole('cell', { name: 'Closed', exact: true }).waitFor();

    const mutated = await hook<{ changed: unknown[] }>(app.sandbox.url, 'POST', 'settlements/mutate', {
      date: day,
      count: 2,
      remove: 1,
    });
    expect(mutated.body.changed).toHaveLength(2);
    const { jobId } = await ok(app.core, 'sync.start', { from: day, to: day });
    await nextEvent(app.core, 'syncFinished', (p) => p.jobId === jobId);
    await page.getByRole('navigation').getByRole('button', { name: 'Payouts' }).click();
    await openJournal();
    await closedRows.getByText('Changed after close: 0 added, 1 vanished, 2 changed').waitFor();

    await periods.getByRole('button', { name: 'Difference' }).click();
    const diff = page.getByRole('region', { name: 'Difference since close' });
    await diff.getByRole('heading', { name: 'Changed' }).waitFor();
    expect(await diff.getByRole('heading', { name: 'Vanished' }).count()).toBe(1);
    await saveScreenshots(page, 'journal-period-changed');

    // The Settlements screen marks the closed dates, and this one loudly.
    await page.getByRole('navigation').getByRole('button', { name: 'Settlements' }).click();
    await page
      .getByRole('list', { name: 'Closed periods in these dates' })
      .getByText(`${formatCalendarDate(day)} closed, changed after close: 0 added, 1 vanished, 2 changed`, {
        exact: false,
      })
      .waitFor();
    await openJournal();

    await periods.getByRole('button', { name: 'Acknowledge' }).click();
    await closedRows.getByRole('cell', { name: 'Closed', exact: true }).waitFor();
    expect(journal().list({ kind: 'period', limit: 1 })[0]!.event).toBe('period.acknowledge');

    // Reopening asks why first, and the journal keeps the reason.
    await periods.getByRole('button', { name: 'Reopen…' }).click();
    const why = periods.getByRole('form', { name: /^Reopen / });
    await why.getByLabel('Why reopen (required on a desk)').fill('A chargeback came in late');
    await why.getByRole('button', { name: 'Reopen with this reason' }).click();
    await page.getByText('Reopened the period.').waitFor();
    expect(journal().list({ kind: 'period', limit: 1 })[0]).toMatchObject({
      event: 'period.reopen',
      data: { reason: 'A chargeback came in late' },
    });
    expect(app.consoleErrors).toEqual([]);
  });
});
