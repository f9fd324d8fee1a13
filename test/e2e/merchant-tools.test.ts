/**
 * The Payment tools, Plans, Webhooks and Classification screens end to end against the real core and sandbox,
 * checked against the sandbox's own state: a double-clicked process order starts one payment and shows its UPI link
 * as a QR code; a plan's amount reaches the service exact to the paisa; a webhook deactivated after its
 * confirmation is inactive at the service and the answer's endpoint is shown; classification answers with bars,
 * and a fifth question cannot be added. Offline, the actions are disabled with the reason. Screenshots in light
 * and dark at 1280×800.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../shared/api/operations';
import { readQrSvg } from '../support/qr-reader';
import { amountInWords } from '../../shared/amount-words';
import { formatMoney } from '../../shared/money';
import { hook, rawCall } from '../support/sandbox-http';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

describe.runIf(ready)('Merchant tools', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp();
  }, 120_000);
  afterAll(() => app?.close());

  /** By its shortcut, as the desk does: `g` then the screen's key, from outside any field. */
  const open = async (label: string, key: string) => {
    await app.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await app.page.keyboard.press('g');
    await app.page.keyboard.press(key);
    await app.page.getByRole('heading', { name: label, level: 1 }).waitFor();
  };

  it('Payment tools: the methods grouped as listed, a double-clicked process order starts one payment with a QR code', async () => {
    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Payment tools' }).click();
    await page.getByRole('heading', { name: 'Payment tools', level: 1 }).waitFor();

    await page.getByLabel('Amount (₹)', { exact: true }).fill('12.345');
    await page.getByRole('button', { name: 'List methods' }).click();
    await page.getByText('"12.345" has more than two decimals; paise are the smallest unit.').first().waitFor();
    await page.getByLabel('Amount (₹)', { exact: true }).fill('4,999');
    await page.getByRole('button', { name: 'List methods' }).click();
    const banks = page.getByRole('list', { name: 'Net banking' });
    await banks.waitFor();
    const yes = banks.getByRole('listitem').filter({ hasText: 'YESB' });
    expect(await yes.textContent()).toContain('Down');
    expect(await page.getByRole('list', { name: 'Flags' }).textContent()).toContain('EMI: yes');

    const order = app.sandbox.fixtures().orders.find((o) => o.status === 'created' && o.payments === 0)!;
    await page.getByLabel('Order id', { exact: true }).fill(order.id);
    await page.getByLabel('Method', { exact: true }).selectOption('upi');
    await page.getByLabel('Code', { exact: true }).selectOption('qr');
    await page.getByRole('button', { name: 'Process order…' }).click();
    const dialog = page.getByRole('dialog', { name: `Process order ${order.id}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Sandbox/i);
    // The confirmation says what will be paid: the order's amount and currency as the service holds them.
    const wire = (await rawCall(app.sandbox.url, 'order.fetch', { id: order.id }, app.merchant)).body as {
      order: { amount: number; currency: string };
    };
    const figures = formatMoney(wire.order.amount, wire.order.currency);
    await dialog.getByText(figures, { exact: true }).waitFor();
    expect(await dialog.textContent()).toContain(amountInWords(wire.order.amount, wire.order.currency));
    expect(await dialog.getByRole('definition').nth(1).textContent()).toBe(wire.order.currency);
    await dialog.getByRole('button', { name: 'Process order' }).dblclick();
    const result = page.getByLabel('Processed payment', { exact: true });
    await result.waitFor();
    const qr = page.getByRole('img', { name: /QR code of the UPI link/ });
    const link = await qr.getAttribute('data-qr-text');
    expect(link).toMatch(/^upi:\/\/pay\?/);
    expect(await result.textContent()).toContain(link!);
    // What a phone scans is the link shown: the drawn code read back by an independent decoder.
    const svg = await qr.evaluate((el) => {
      const copy = el.cloneNode(true) as Element;
      copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      return copy.outerHTML;
    });
    expect(readQrSvg(svg)).toBe(link);
    expect(app.sandbox.fixtures().orders.find((o) => o.id === order.id)!.payments).toBe(1);
    // Submitting the same, unedited form again is the same submission: nothing more is started.
    await page.getByRole('button', { name: 'Process order…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Process order' }).click();
    await result.waitFor();
    expect(app.sandbox.fixtures().orders.find((o) => o.id === order.id)!.payments).toBe(1);

    await page.getByLabel('Method', { exact: true }).selectOption('card');
    expect(await page.getByRole('note').textContent()).toMatch(/Card fields: not shown by the interface/);
    expect(await page.getByRole('button', { name: 'Process order…' }).isDisabled()).toBe(true);
    await page.getByLabel('Method', { exact: true }).selectOption('upi');
    await page.getByLabel('Code', { exact: true }).selectOption('qr');

    await page.getByLabel('UPI address', { exact: true }).fill('asha.rao@okhdfcbank');
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('asha.rao@okhdfcbank is valid: ASHA RAO.').waitFor();
    await page.getByLabel('Amount', { exact: true }).fill('10');
    await page.getByRole('button', { name: 'Convert' }).click();
    await page.getByText(/^1 USD = /).waitFor();
    await saveScreenshots(page, 'tools', { height: 1400 });
  });

  it('Plans: created with every field, the amount exact at the service, then shown', async () => {
    const { page } = app;
    await open('Plans', 'l');
    const before = app.sandbox.fixtures().plans.length;
    await page.getByLabel('Title', { exact: true }).fill('Gold monthly');
    await page.getByLabel('Amount (₹)', { exact: true }).fill('1,499.999');
    await page.getByLabel('Merchant reference id', { exact: true }).fill('E2E-GOLD-1');
    await page.getByRole('button', { name: 'Create plan…' }).click();
    await page.getByText('has more than two decimals; paise are the smallest unit.', { exact: false }).waitFor();
    expect(app.sandbox.fixtures().plans.length).toBe(before);
    await page.getByLabel('Amount (₹)', { exact: true }).fill('1,499.50');
    await page.getByLabel('Description', { exact: true }).fill('Gold tier');
    await page.getByLabel('udf1', { exact: true }).fill('desk');
    await page.getByRole('button', { name: 'Create plan…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create the plan “Gold monthly”?' });
    expect(await dialog.textContent()).toContain('₹1,499.50');
    await dialog.getByRole('button', { name: 'Create plan' }).dblclick();
    const detail = page.getByRole('definition').filter({ hasText: '₹1,499.50' });
    await detail.waitFor();
    const made = app.sandbox.fixtures().plans.filter((p) => p.reference === 'E2E-GOLD-1');
    expect(made).toHaveLength(1);
    expect(made[0]!.amount).toBe(149_950);
    expect(await page.getByLabel(`Plan ${made[0]!.id}`).textContent()).toContain('desk');
    await saveScreenshots(page, 'plans', { height: 1000 });
  });

  it('Webhooks: the active filter, an edit, and a confirmed deactivation the service holds', async () => {
    const { page } = app;
    await open('Webhooks', 'w');
    const table = page.getByRole('table', { name: 'Webhook endpoints' });
    await table.waitFor();
    const all = app.sandbox.fixtures().webhooks;
    expect(await table.locator('tbody tr').count()).toBe(all.length);
    await page.getByRole('radio', { name: 'Inactive' }).check();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(all.filter((w) => w.status === 'inactive').length);
    await page.getByRole('radio', { name: 'All' }).check();
    const target = all.find((w) => w.status === 'active')!;
    await table.locator('tr', { hasText: target.id }).getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('form', { name: `Edit webhook ${target.id}` });
    await editor.getByLabel('URL', { exact: true }).fill('http://merchant.example.in/hooks/e2e');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await editor.getByText('URL must be an https:// address.').waitFor();
    await editor.getByLabel('URL', { exact: true }).fill('https://merchant.example.in/hooks/e2e');
    await editor.getByLabel('Other topics', { exact: true }).fill('refund.processed');
    await editor.getByRole('checkbox', { name: 'Active' }).uncheck();
    await editor.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: `Deactivate webhook ${target.id}?` });
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    const answer = page.getByRole('status', { name: 'Service answer' });
    await answer.waitFor();
    expect(await answer.textContent()).toContain('inactive');
    expect(app.sandbox.fixtures().webhooks.find((w) => w.id === target.id)).toMatchObject({
      status: 'inactive',
      url: 'https://merchant.example.in/hooks/e2e',
    });
    expect(app.sandbox.fixtures().webhooks.find((w) => w.id === target.id)!.topics).toContain('refund.processed');
    await saveScreenshots(page, 'webhooks');
  });

  it('Classification: answers with bars, confidence and usage; at most four questions', async () => {
    const { page } = app;
    await open('Classification', 'i');
    await page.getByLabel('Text or JSON to classify', { exact: true }).fill('The refund for my order has not arrived');
    await page.getByRole('button', { name: 'Add a question' }).click();
    const second = page.getByRole('group', { name: 'Question 2' });
    await second.getByLabel('Instructions', { exact: true }).fill('Is it urgent?');
    await page.getByRole('button', { name: 'Classify' }).click();
    const topic = page.getByRole('region', { name: 'Answer topic' });
    await topic.waitFor();
    expect(await topic.getByRole('heading').textContent()).toBe('topic: refund');
    expect(await topic.getByRole('meter').count()).toBe(3);
    expect(await page.getByLabel('Usage', { exact: true }).textContent()).toMatch(/tokens read/);
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByRole('button', { name: 'Add a question' }).click();
    expect(await page.getByRole('button', { name: 'Add a question' }).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: /JSON/ }).check();
    await page.getByRole('button', { name: 'Classify' }).click();
    await page.getByRole('alert').filter({ hasText: 'not valid JSON' }).waitFor();
    await saveScreenshots(page, 'classification', { height: 1200 });
  });

  it('a lost process answer says outcome unknown; offline, every action is disabled with the reason', async () => {
    const { page } = app;
    await open('Payment tools', 't');
    // An order the service does not know: the confirmation says its amount could not be fetched.
    await page.getByLabel('Order id', { exact: true }).fill('order_not_at_the_service');
    await page.getByLabel('Method', { exact: true }).selectOption('wallet');
    await page.getByLabel('Code', { exact: true }).fill('paytm');
    await page.getByRole('button', { name: 'Process order…' }).click();
    await page
      .getByRole('dialog')
      .getByRole('note')
      .filter({ hasText: "The order's amount and currency could not be fetched" })
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    const order = app.sandbox.fixtures().orders.find((o) => o.status === 'created' && o.payments === 0)!;
    await hook(app.sandbox.url, 'POST', 'faults', { path: OPERATIONS['order.process'].path, kind: 'drop', count: 1 });
    await page.getByLabel('Order id', { exact: true }).fill(order.id);
    await page.getByLabel('Method', { exact: true }).selectOption('wallet');
    await page.getByLabel('Code', { exact: true }).fill('paytm');
    await page.getByRole('button', { name: 'Process order…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Process order' }).click();
    await page.getByText(/Outcome unknown — check status/).waitFor();
    expect(app.sandbox.fixtures().orders.find((o) => o.id === order.id)!.payments).toBe(0);

    // A plan create whose answer is lost: "Check status" finds it by its reference and records that it succeeded.
    await open('Plans', 'l');
    await hook(app.sandbox.url, 'POST', 'faults', {
      path: OPERATIONS['plan.create'].path,
      kind: 'malformed',
      count: 1,
    });
    await page.getByLabel('Title', { exact: true }).fill('Lost answer plan');
    await page.getByLabel('Amount (₹)', { exact: true }).fill('250');
    await page.getByLabel('Merchant reference id', { exact: true }).fill('E2E-LOST-1');
    await page.getByRole('button', { name: 'Create plan…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Create plan' }).click();
    await page
      .getByRole('note')
      .filter({ hasText: 'Outcome unknown — check status' })
      .getByRole('button', { name: 'Check status' })
      .click();
    await page.getByText(/with the reference E2E-LOST-1: the create succeeded/).waitFor();
    expect(app.sandbox.fixtures().plans.filter((p) => p.reference === 'E2E-LOST-1')).toHaveLength(1);

    // The journal lists the process order still unknown, with what to check.
    await open('Journal', 'j');
    const unknown = page.getByRole('region', { name: 'Outcome unknown' });
    await unknown.getByText('Fetch the order and look at its payments before processing it again.').waitFor();

    await open('Payment tools', 't');
    await app.sandbox.close();
    await page.getByRole('button', { name: 'List methods' }).click();
    await page.locator('.offline-banner').waitFor();
    for (const name of ['Process order…', 'List methods', 'Validate', 'Convert']) {
      const button = page.getByRole('button', { name });
      expect(await button.isDisabled(), name).toBe(true);
      expect(await button.getAttribute('title'), name).toMatch(/^Needs the service/);
    }
    await open('Plans', 'l');
    expect(await page.getByRole('button', { name: 'Create plan…' }).getAttribute('title')).toMatch(
      /^Needs the service/,
    );
  });
});
