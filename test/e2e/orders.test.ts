/**
 * The Orders screen end to end, against the real core and sandbox and checked against the sandbox's own state: an
 * order with every documented field and its refund attempts, a partial refund typed in rupees that a double click
 * sends once (it appears exactly once in the service's refund attempts), a refund above the refundable balance
 * refused before anything is sent, a capture, a refund whose answer is lost (outcome unknown, a second try refused
 * until "Check status" finds it in the attempts), a Variant B answer with its gaps marked, and offline review from the
 * cache with the actions disabled and the reason on hover. Screenshots in light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../shared/api/operations';
import { amountInWords } from '../../shared/amount-words';
import { formatMoney } from '../../shared/money';
import { hook, rawCall } from '../support/sandbox-http';
import { e2eSystemReady, startApp, type RunningApp, saveScreenshots } from './support';

const ready = await e2eSystemReady();

interface WireAttempts {
  data: { refund_id: string; amount: number; status: string }[];
}

describe.runIf(ready)('Orders', () => {
  let app: RunningApp;
  const attempts = async (orderId: string) =>
    ((await rawCall(app.sandbox.url, 'order.refundAttempts', { order_id: orderId }, app.merchant)).body as WireAttempts)
      .data;
  // Taken once: a refund changes an order's status, and each test keeps to its own order.
  let seeded: { id: string; status: string }[];
  const orderIdsWith = (status: string) => seeded.filter((o) => o.status === status).map((o) => o.id);
  const arm = (operation: keyof typeof OPERATIONS, kind: string) =>
    hook(app.sandbox.url, 'POST', 'faults', { path: OPERATIONS[operation].path, kind, count: 1 });

  async function lookUp(orderId: string): Promise<void> {
    const { page } = app;
    await page.getByLabel('Order id', { exact: true }).fill(orderId);
    await page.getByLabel('Order id', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    await page.locator('.order-form [aria-busy="false"]').waitFor();
  }

  beforeAll(async () => {
    app = await startApp();
    seeded = app.sandbox.fixtures().orders;
    await app.page.getByRole('navigation').getByRole('button', { name: 'Orders & refunds' }).click();
    await app.page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows every field and the refund attempts with the refundable balance', async () => {
    const { page } = app;
    const id = orderIdsWith('partially_refunded')[0]!;
    const wire = (await rawCall(app.sandbox.url, 'order.fetch', { id }, app.merchant)).body as {
      order: { amount: number; currency: string; card_last_4: string; unmapped_status: string };
    };
    const before = await attempts(id);
    await lookUp(id);
    const fields = page.locator('.order-fields');
    expect(await fields.textContent()).toContain(`Amount${formatMoney(wire.order.amount)}`);
    expect(await fields.textContent()).toContain(`Card last four${wire.order.card_last_4}`);
    expect(await fields.textContent()).toContain(`Gateway's own status${wire.order.unmapped_status}`);
    expect(await page.locator('.order-missing').count()).toBe(0);
    const table = page.getByRole('table', { name: 'Refund attempts' });
    expect(await table.locator('tbody tr').count()).toBe(before.length);
    const done = before.filter((a) => a.status === 'success').reduce((s, a) => s + a.amount, 0);
    expect(await page.getByTestId('refundable').textContent()).toContain(
      `Refundable ${formatMoney(wire.order.amount - done)}`,
    );
    await saveScreenshots(page, 'orders');
  });

  it('a partial refund typed in rupees, double-clicked, is made exactly once', async () => {
    const { page } = app;
    const id = orderIdsWith('success')[0]!;
    await lookUp(id);
    const before = await attempts(id);
    const field = page.getByLabel('Partial refund, in rupees');
    await field.fill('123.45');
    await page.getByText(amountInWords(12345)).waitFor();
    await page.getByRole('button', { name: 'Refund part…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund part of this order?' });
    await dialog.waitFor();
    const text = await dialog.textContent();
    expect(text).toContain(id);
    expect(text).toContain(formatMoney(12345));
    expect(text).toContain('Rupees one hundred twenty-three and paise forty-five');
    expect(text).toContain('Sandbox');
    await saveScreenshots(page, 'orders-confirm');
    await dialog.getByRole('button', { name: 'Refund' }).dblclick();
    await page
      .getByRole('status')
      .filter({ hasText: `Refunded ${formatMoney(12345)} of order ${id}` })
      .waitFor();

    const after = await attempts(id);
    const made = after.filter((a) => !before.some((b) => b.refund_id === a.refund_id));
    expect(made.map((a) => a.amount)).toEqual([12345]);
    const table = page.getByRole('table', { name: 'Refund attempts' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(after.length);
    expect(await table.getByRole('row', { name: new RegExp(made[0]!.refund_id) }).count()).toBe(1);
  });

  it('refuses an amount above the refundable balance, or with three decimals, before sending', async () => {
    const { page } = app;
    const id = orderIdsWith('success')[1]!;
    await lookUp(id);
    const before = await attempts(id);
    const field = page.getByLabel('Partial refund, in rupees');
    await field.fill('10.505');
    await page.getByRole('button', { name: 'Refund part…' }).click();
    await page.getByText('"10.505" has more than two decimals; paise are the smallest unit.').waitFor();
    await field.fill('99999999');
    await page.getByRole('button', { name: 'Refund part…' }).click();
    await page.getByText(/is more than the refundable balance of/).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await attempts(id)).toEqual(before);
  });

  it('captures an authorized order', async () => {
    const { page } = app;
    const id = orderIdsWith('authorized')[0]!;
    await lookUp(id);
    await page.getByRole('button', { name: 'Capture…' }).click();
    await page.getByRole('dialog', { name: 'Capture this payment?' }).getByRole('button', { name: 'Capture' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Captured order ${id}.` })
      .waitFor();
    expect(app.sandbox.fixtures().orders.find((o) => o.id === id)!.status).toBe('captured');
    await expect.poll(() => page.locator('.order-status').textContent()).toBe('captured');
  });

  it('a lost answer is "outcome unknown"; a new try is refused until Check status finds the refund', async () => {
    const { page } = app;
    const id = orderIdsWith('success')[2]!;
    await lookUp(id);
    const before = await attempts(id);
    await arm('order.refundPartial', 'malformed');
    await page.getByLabel('Partial refund, in rupees').fill('50');
    await page.getByRole('button', { name: 'Refund part…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('status').filter({ hasText: 'Outcome unknown — check status' }).waitFor();
    // The service did refund: the answer was cut after it was made.
    expect((await attempts(id)).length).toBe(before.length + 1);

    await page.getByRole('button', { name: 'Refund part…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /has an unknown outcome\. Check its status/ })
      .waitFor();
    expect((await attempts(id)).length).toBe(before.length + 1);

    // The Journal screen lists it as unknown and sends the desk to the order to check it.
    await page.getByRole('navigation').getByRole('button', { name: 'Journal' }).click();
    await page.getByRole('button', { name: 'Open the order to check' }).click();
    await page.getByRole('heading', { name: `Order ${id}` }).waitFor();
    await page.getByRole('button', { name: 'Check status' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /is this refund/ })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Check status' }).count()).toBe(0);
    expect((await attempts(id)).length).toBe(before.length + 1);
  });

  it('marks what a Variant B answer leaves out', async () => {
    const { page } = app;
    const id = orderIdsWith('created')[0]!;
    await arm('order.fetch', 'variant-b');
    await lookUp(id);
    await page.getByText(/The service answered in its short form: 14 of the 20 documented fields/).waitFor();
    expect(await page.locator('.order-missing').count()).toBe(14);
  });

  it('offline: the order is read from the cache and the actions say why they are off', async () => {
    const { page, sandbox } = app;
    // Refunded in the test above, so its actions are in the journal.
    const id = orderIdsWith('success')[0]!;
    await sandbox.close();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('.offline-banner').waitFor({ timeout: 15_000 });
    await page
      .getByRole('table', { name: 'Recent orders' })
      .getByRole('row', { name: new RegExp(id) })
      .click();
    await page.getByRole('heading', { name: `Order ${id}` }).waitFor();
    const refund = page.getByRole('button', { name: 'Refund in full…' });
    expect(await refund.isDisabled()).toBe(true);
    expect(await refund.getAttribute('title')).toMatch(/^Needs the service, which cannot be reached/);
    expect(await page.getByRole('button', { name: 'Show cached' }).isVisible()).toBe(true);
    expect(await page.locator('.action-entries li').count()).toBeGreaterThan(0);
    // Nothing widens the page: the offline reason in the status bar is cut there.
    expect(await page.evaluate(() => document.querySelector('main.content')!.getBoundingClientRect().right)).toBe(1280);
    await page.locator('main.content').evaluate((el) => el.scrollTo(0, 0));
    await saveScreenshots(page, 'orders-offline', { schemes: ['dark'] });
    expect(app.consoleErrors).toEqual([]);
  });
});
