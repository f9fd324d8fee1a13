/**
 * The Subscriptions screen end to end, checked against the sandbox's state: a subscription fetched by the merchant's
 * receipt id, an ad hoc charge in rupees that a double click makes once, the amount typed again above ₹1,00,000, a charge whose answer is lost (outcome
 * unknown, and a check that cannot settle it because the interface lists no charges), cancelling (and the 1035 of an
 * already-cancelled one in plain words), and offline review with the actions disabled. Screenshots in light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../shared/api/operations';
import { formatMoney } from '../../shared/money';
import { ALREADY_CANCELLED_WORDS } from '../../shared/subscriptions';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, startApp, type RunningApp, saveScreenshots } from './support';

const ready = await e2eSystemReady();

describe.runIf(ready)('Subscriptions', () => {
  let app: RunningApp;
  let active: { id: string; receipt: string }[];
  let cancelled: string;
  const sub = (id: string) => app.sandbox.fixtures().subscriptions.find((s) => s.id === id)!;

  async function lookUp(id: string, by: 'Subscription id' | 'Receipt id' = 'Subscription id'): Promise<void> {
    const { page } = app;
    await page.getByRole('radio', { name: `By ${by.toLowerCase()}` }).check();
    const field = page.getByLabel(by === 'Subscription id' ? 'Subscription id' : 'Merchant receipt id', {
      exact: true,
    });
    await field.fill(id);
    await field.press('Enter');
    await page.locator('#subscription-detail-title').waitFor();
    await page.locator('.order-form [aria-busy="false"]').waitFor();
  }

  beforeAll(async () => {
    app = await startApp();
    const seeded = app.sandbox.fixtures().subscriptions;
    active = seeded.filter((s) => s.status === 'active');
    cancelled = seeded.find((s) => s.status === 'canceled')!.id;
    await app.page.getByRole('navigation').getByRole('button', { name: 'Subscriptions' }).click();
    await app.page.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('finds a subscription by its receipt id; a double-clicked charge is made once', async () => {
    const { page } = app;
    const { id, receipt } = active[0]!;
    await lookUp(receipt, 'Receipt id');
    expect(await page.locator('#subscription-detail-title').textContent()).toBe(`Subscription ${id}`);
    await page.getByLabel('Ad hoc charge, in rupees').fill('1,234.50');
    await page.getByText('Rupees one thousand two hundred thirty-four and paise fifty').waitFor();
    // Above the subscription's own amount the form asks why, as the core does.
    await page.getByLabel('Reason for the charge (needed)').fill('Annual maintenance, agreed by phone');
    await page.getByRole('button', { name: 'Charge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Charge under this subscription?' });
    expect(await dialog.textContent()).toContain(formatMoney(123450));
    expect(await dialog.textContent()).toContain('Sandbox');
    await dialog.getByRole('button', { name: 'Charge' }).dblclick();
    await page
      .getByRole('status')
      .filter({ hasText: `Charged ${formatMoney(123450)} under subscription ${id}` })
      .waitFor();
    expect(sub(id).charges.map((c) => c.amount)).toEqual([123450]);
    await saveScreenshots(page, 'subscriptions');
  });

  it('above ₹1,00,000 the amount must be typed again, to the paisa, before Charge works', async () => {
    const { page } = app;
    const { id } = active[0]!;
    await lookUp(id);
    await page.getByLabel('Ad hoc charge, in rupees').fill('150000');
    await page.getByLabel('Reason for the charge (needed)').fill('Three years in advance, on request');
    await page.getByRole('button', { name: 'Charge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Charge under this subscription?' });
    expect(await dialog.textContent()).toContain('Rupees one lakh fifty thousand');
    const confirm = dialog.getByRole('button', { name: 'Charge' });
    expect(await confirm.isDisabled()).toBe(true);
    const again = dialog.getByLabel('Type the amount again, in rupees');
    await again.fill('150000.01');
    await dialog.getByText('That is not the same amount.').waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await again.fill('1,50,000.00');
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Charged ${formatMoney(150_000_00)}` })
      .waitFor();
    expect(sub(id).charges.map((c) => c.amount)).toEqual([123450, 150_000_00]);
  });

  it('a lost charge stays "outcome unknown" (no list of charges to check) until the desk records what the gateway shows', async () => {
    const { page } = app;
    const { id } = active[1]!;
    await lookUp(id);
    await hook(app.sandbox.url, 'POST', 'faults', { path: OPERATIONS['subscription.adhoc'].path, kind: 'malformed' });
    await page.getByLabel('Ad hoc charge, in rupees').fill('10');
    await page.getByRole('button', { name: 'Charge…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Charge' }).click();
    await page.getByRole('status').filter({ hasText: 'Outcome unknown — check status' }).waitFor();
    expect(sub(id).charges).toHaveLength(1);

    await page.getByRole('button', { name: 'Check status' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /lists no charges/ })
      .waitFor();
    await page.getByRole('button', { name: 'Charge…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Charge' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /has an unknown outcome/ })
      .waitFor();
    expect(sub(id).charges).toHaveLength(1);

    // The desk learns from the gateway that the charge was made: recorded, and a new charge goes, once.
    await page.getByRole('button', { name: 'Gateway shows it charged' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Recorded by the desk: the gateway shows the charge/ })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Check status' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Charge…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Charge' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Charged ${formatMoney(1000)} under subscription ${id}` })
      .waitFor();
    expect(sub(id).charges.map((c) => c.amount)).toEqual([1000, 1000]);
  });

  it('cancels an active subscription; an already-cancelled one says 1035 in plain words', async () => {
    const { page } = app;
    const { id } = active[2]!;
    await lookUp(id);
    await page.getByRole('button', { name: 'Cancel subscription…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Cancelled subscription ${id}.` })
      .waitFor();
    expect(sub(id).status).toBe('canceled');

    await lookUp(cancelled);
    await page.getByRole('button', { name: 'Cancel subscription…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('status').filter({ hasText: ALREADY_CANCELLED_WORDS }).waitFor();
  });

  it('offline: read from the cache, the actions off with the reason', async () => {
    const { page, sandbox } = app;
    const { id } = active[0]!;
    await sandbox.close();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('.offline-banner').waitFor();
    await page
      .getByRole('table', { name: 'Recent subscriptions' })
      .getByRole('row', { name: new RegExp(id) })
      .click();
    await expect.poll(() => page.locator('#subscription-detail-title').textContent()).toBe(`Subscription ${id}`);
    const charge = page.getByRole('button', { name: 'Charge…' });
    expect(await charge.isDisabled()).toBe(true);
    expect(await charge.getAttribute('title')).toMatch(/^Needs the service, which cannot be reached/);
    expect(app.consoleErrors).toEqual([]);
  });
});
