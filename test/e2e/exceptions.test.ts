/**
 * The Exceptions screen end to end on the embedded sandbox, a profile working alone: a synced date's exceptions in
 * the queue with their count and amount at risk, filtered by a group of the panel and by the date fields, the whole
 * filtered set resolved after a confirmation naming its count, the counts following and the journal entry named;
 * a second resolve of resolved rows refused with the service's sentence. Keyboard: a row ticked with Space.
 * Screenshots in light and dark at 1280×800.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/time';
import { formatCount } from '../../shared/format';
import { TEST_TODAY } from '../support/clock';
import { ok, syncedThroughJob } from '../support/core';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();
const day = addDays(TEST_TODAY, -2);
const typed = day.split('-').reverse().join('/');
const all = { offset: 0, limit: 200 };

describe.runIf(ready)('Exceptions', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({
      settlementsPerDay: 40,
      async prepare({ core }) {
        await syncedThroughJob(core, { from: day, to: day });
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const totals = () => app.page.getByRole('status', { name: 'Filtered set' });

  it('opens from the sidebar with the unresolved queue, its total and the desk line', async () => {
    const { page, core } = app;
    const queue = await ok(core, 'exceptions.queue', { ...all, filter: { state: 'unresolved' } });
    expect(queue.total).toBeGreaterThan(1);
    await page.getByRole('navigation').getByRole('button', { name: 'Exceptions' }).click();
    await page.getByRole('heading', { name: 'Exceptions', level: 1 }).waitFor();
    await totals().getByText(formatCount(queue.total), { exact: true }).waitFor();
    const desk = (await ok(core, 'desk.status', {})) as { mode: 'local'; person: string };
    await page.getByRole('status', { name: 'Desk' }).getByText(`Working alone as ${desk.person}`).waitFor();
    const table = page.getByRole('table', { name: 'Exceptions' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(Math.min(queue.total, 200));
    await saveScreenshots(page, 'exceptions');

    // From another screen, `g x` comes back, keyboard only.
    await page.getByRole('navigation').getByRole('button', { name: 'Journal' }).click();
    await page.getByRole('heading', { name: 'Journal', level: 1 }).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('g');
    await page.keyboard.press('x');
    await page.getByRole('heading', { name: 'Exceptions', level: 1 }).waitFor();
    expect(app.consoleErrors).toEqual([]);
  });

  it('filters by a group, ticks a row from the keyboard, and resolves the whole filtered set', async () => {
    const { page, core } = app;
    const before = await ok(core, 'exceptions.queue', { ...all, filter: { state: 'unresolved' } });
    const group = [...before.groups].sort((a, b) => b.count - a.count)[0]!;
    await page
      .getByRole('region', { name: 'Groups' })
      .getByRole('button', { name: new RegExp(`^${group.rule.replace(/_/g, ' ')} · ${group.pg}`) })
      .first()
      .click();
    const filter = { rule: group.rule, pg: group.pg, from: group.date, to: group.date, state: group.state };
    const target = await ok(core, 'exceptions.queue', { ...all, filter: filter as never });
    await totals().getByText(formatCount(target.total), { exact: true }).waitFor();
    const search = page.getByRole('search', { name: 'Filter the exceptions' });
    expect(await search.getByLabel('Rule').inputValue()).toBe(group.rule);
    expect(await search.getByLabel('From').inputValue()).toBe(typed);

    // Keyboard: the table's row takes Space as "tick it".
    const table = page.getByRole('table', { name: 'Exceptions' });
    await table.locator('tbody tr').first().focus();
    await page.keyboard.press('Space');
    const bulk = page.getByRole('form', { name: 'Act on exceptions' });
    await bulk.getByText('The ticked rows (1)').waitFor();

    await bulk.getByLabel('The whole filtered set').check();
    await bulk.getByLabel('Action').selectOption('resolve');
    await bulk.getByLabel('Note').fill('cleared with the gateway');
    await bulk.getByRole('button', { name: /^Resolve / }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Every exception the filters match: ${formatCount(target.total)} exception`).waitFor();
    expect(await dialog.textContent()).toContain(`gateway ${group.pg}`);
    await saveScreenshots(page, 'exceptions-confirm', { schemes: ['dark'] });
    await dialog.getByRole('button', { name: /^Resolve / }).click();

    const entry = () => core.journals.for(core.profiles.active().id).journal.list({ kind: 'exception', limit: 1 })[0];
    await page
      .getByRole('region', { name: 'Bulk action' })
      .getByText(new RegExp(`^Resolved ${formatCount(target.total)} exceptions? — journal entry \\d+$`))
      .waitFor();
    expect(entry()).toMatchObject({ event: 'exception.bulk', data: { action: 'resolve', count: target.total } });
    await page.getByText(`journal entry ${entry()!.seq}`).waitFor();

    // The filter was "open" from the group: nothing open is left in it; as "resolved" they are all there.
    await page.getByRole('table', { name: 'Exceptions' }).waitFor({ state: 'detached' });
    await page.getByText('No exceptions match').waitFor();
    await search.getByLabel('State').selectOption('resolved');
    await totals().getByText(formatCount(target.total), { exact: true }).waitFor();
    const after = await ok(core, 'exceptions.queue', { ...all, filter: { state: 'unresolved' } });
    expect(after.total).toBe(before.total - target.total);

    // Resolving resolved rows is refused whole, with the service's own sentence.
    await bulk.getByLabel('Action').selectOption('resolve');
    await bulk.getByLabel('Note').fill('again');
    await bulk.getByRole('button', { name: /^Resolve / }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Resolve / })
      .click();
    const refused = page.getByRole('region', { name: 'Bulk action' }).getByRole('alert');
    await refused.waitFor();
    expect(await refused.getAttribute('data-code')).toBe('EXCEPTION_REFUSED');
    await saveScreenshots(page, 'exceptions-resolved');

    // Clear filters goes back to the unresolved queue, now without them.
    await search.getByRole('button', { name: 'Clear filters' }).click();
    await totals().getByText(formatCount(after.total), { exact: true }).waitFor();
    expect(app.consoleErrors).toEqual([]);
  });
});
