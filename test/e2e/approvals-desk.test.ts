/**
 * Approvals on a desk in Chromium: two consoles (two cores, two harnesses, two pages in one browser) joined to one
 * desk on a real PostgreSQL, as a maker (operator) and an approver. The maker's partial refund from the Orders screen
 * becomes a proposal and nothing reaches the service; the approver sees it counted on the status bar, reviews it on
 * the Approvals screen and approves it, and only then does the sandbox hold the refund attempt; the maker's page
 * shows the outcome without a reload. A second proposal is rejected with a reason the maker's page shows. The
 * approver, an admin too, changes the policy in Settings; the maker sees it read-only, and a refund under its new
 * threshold is confirmed as a plain refund and sent at once. Screenshots of the Approvals screen in light and dark at
 * 1280×800.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountInWords } from '../../shared/amount-words';
import { PROPOSAL_STATE_LABELS } from '../../shared/approvals';
import { formatMoney } from '../../shared/money';
import { createTestDesk, joinDesk, joinWithoutSecret, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { refundAttempts } from '../support/sandbox-http';
import {
  e2eSystemReady,
  saveScreenshots,
  secondConsole,
  startApp,
  type RunningApp,
  type SecondConsole,
} from './support';

const ready = (await e2eSystemReady()) && postgresAvailable();

describe.runIf(ready)('Approvals on a desk, maker and approver', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let app: RunningApp;
  let b: SecondConsole;
  let approver: Page;
  let successOrders: string[];

  const attempts = (orderId: string) => refundAttempts(app.sandbox.url, orderId, app.merchant);

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', arun: 'admin', sam: 'operator' });
    app = await startApp({ prepare: ({ core }) => joinDesk(core, cluster, desk, 'olga').then(() => undefined) });
    successOrders = app.sandbox
      .fixtures()
      .orders.filter((o) => o.status === 'success')
      .map((o) => o.id);
    b = await secondConsole(app, 'arun', async (core) => {
      await joinDesk(core, cluster, desk, 'arun');
    });
    approver = b.page;
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await app?.close();
    cluster?.destroy();
  });

  /** The maker proposes a partial refund from the Orders screen and reads the notice that it went for approval. */
  async function proposeRefund(orderId: string, rupees: string, minor: number): Promise<void> {
    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Orders & refunds' }).click();
    await page.getByLabel('Order id', { exact: true }).fill(orderId);
    await page.getByLabel('Order id', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    await page.getByLabel('Partial refund, in rupees').fill(rupees);
    await page.getByRole('button', { name: 'Refund part…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund part of this order?' });
    // The desk's policy (its safe default) asks for an approver: the confirmation says so.
    await dialog.getByRole('button', { name: 'Send for approval' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Sent for approval` })
      .filter({ hasText: formatMoney(minor) })
      .waitFor();
  }

  const openApprovals = async (page: Page, scope: string) => {
    await page.getByRole('navigation').getByRole('button', { name: 'Approvals' }).click();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Which proposals' }).getByRole('button', { name: scope }).click();
  };
  const row = (page: Page, orderId: string) =>
    page.getByRole('table', { name: 'Proposals' }).getByRole('row').filter({ hasText: orderId });

  it('the approver approves the maker’s refund on the Approvals screen; it is sent once, and the maker sees it done', async () => {
    const orderId = successOrders[0]!;
    const before = await attempts(orderId);
    await proposeRefund(orderId, '123.45', 12_345);
    expect(await attempts(orderId)).toEqual(before);
    // The maker's page stays open on the Approvals screen: what follows reaches it through the desk's event.
    await openApprovals(app.page, 'All');
    await row(app.page, orderId).getByText(PROPOSAL_STATE_LABELS.pending).waitFor();

    // The approver's status bar counts it, and links to the screen.
    await approver.getByTestId('approvals-waiting').getByText('1 to approve').click();
    await approver.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await row(approver, orderId).click();
    const review = approver.getByRole('region', { name: /^Proposal / });
    await review.getByText('Refundable now').waitFor();
    expect(
      await review
        .getByRole('definition')
        .filter({ hasText: amountInWords(12_345) })
        .count(),
    ).toBeGreaterThan(0);
    await saveScreenshots(approver, 'approvals');

    await review.getByRole('button', { name: 'Approve…' }).click();
    const confirm = approver.getByRole('dialog', { name: 'Approve and send now?' });
    expect(await confirm.textContent()).toContain('Rupees one hundred twenty-three and paise forty-five');
    await confirm.getByRole('button', { name: 'Approve and send' }).click();
    await review.getByText(PROPOSAL_STATE_LABELS.succeeded, { exact: false }).waitFor();

    // The service holds exactly one more refund attempt, of the proposed amount.
    const after = await attempts(orderId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.amount).toBe(12_345);

    // The maker's page, open on the list all along, shows the outcome without a reload.
    await row(app.page, orderId).getByText(PROPOSAL_STATE_LABELS.succeeded).waitFor();
  });

  it('a rejection with a reason reaches the maker’s page; nothing is sent', async () => {
    const orderId = successOrders[1]!;
    const before = await attempts(orderId);
    await proposeRefund(orderId, '50', 5_000);
    await openApprovals(app.page, 'All');
    await row(app.page, orderId).getByText(PROPOSAL_STATE_LABELS.pending).waitFor();
    await openApprovals(approver, 'Waiting for me');
    await row(approver, orderId).click();
    const review = approver.getByRole('region', { name: /^Proposal / });
    await review.getByRole('button', { name: 'Reject…' }).click();
    const dialog = approver.getByRole('dialog', { name: 'Reject this proposal?' });
    await dialog.getByLabel('Reason (the maker reads it)').fill('no');
    await dialog.getByRole('button', { name: 'Reject' }).click({ force: true });
    expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Reason (the maker reads it)').fill('Customer asked for store credit instead');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row(app.page, orderId).getByText(PROPOSAL_STATE_LABELS.rejected).waitFor();
    await row(app.page, orderId).click();
    await app.page
      .getByRole('region', { name: /^Proposal / })
      .getByText('Customer asked for store credit instead')
      .waitFor();
    expect(await attempts(orderId)).toEqual(before);
  });

  it('a console without the API secret proposes a refund of a typed amount; the approver’s console sends it', async () => {
    // Sam's profile points at the service with no secret stored, as a desk that keeps it on approvers' consoles.
    const sam = await secondConsole(app, 'sam', async (core) => {
      await joinWithoutSecret(core, cluster, desk, 'sam', { url: app.sandbox.url, key: app.merchant.key });
    });
    try {
      const { page } = sam;
      const orderId = successOrders[3]!;
      const before = await attempts(orderId);
      await openApprovals(page, 'All');
      await page.getByRole('note').filter({ hasText: 'This console holds no API secret' }).waitFor();
      await page.getByRole('navigation').getByRole('button', { name: 'Orders & refunds' }).click();
      await page.getByLabel('Order id', { exact: true }).fill(orderId);
      await page.getByLabel('Order id', { exact: true }).press('Enter');
      await page.getByText(`cannot read order ${orderId} from the service`).waitFor();
      await page.getByLabel('Refund, in rupees').fill('40.10');
      await page.getByRole('button', { name: 'Propose refund…' }).click();
      await page
        .getByRole('dialog', { name: 'Propose this refund?' })
        .getByRole('button', { name: 'Send for approval' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Sent for approval' }).waitFor();
      await saveScreenshots(page, 'orders-without-secret');
      expect(await attempts(orderId)).toEqual(before);

      await openApprovals(approver, 'Waiting for me');
      await row(approver, orderId).click();
      const review = approver.getByRole('region', { name: /^Proposal / });
      await review.getByText('Proposed from').waitFor();
      await review.getByRole('button', { name: 'Approve…' }).click();
      await approver
        .getByRole('dialog', { name: 'Approve and send now?' })
        .getByRole('button', { name: 'Approve and send' })
        .click();
      await review.getByText(PROPOSAL_STATE_LABELS.succeeded, { exact: false }).waitFor();
      const after = await attempts(orderId);
      expect(after).toHaveLength(before.length + 1);
      expect(after.at(-1)!.amount).toBe(4_010);
      expect(sam.consoleErrors).toEqual([]);
    } finally {
      await sam.close();
    }
  });

  it('an admin changes the policy in Settings; the maker reads it, and a refund under the threshold is sent at once', async () => {
    await approver.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    const form = approver.getByRole('form', { name: 'Approval policy' });
    await form.getByLabel('Order refund (full or partial): above', { exact: true }).fill('1000');
    await form.getByRole('button', { name: 'Save the policy' }).click();
    await approver
      .getByRole('status')
      .filter({ hasText: /^Saved: journal entry \d+ on the desk\.$/ })
      .waitFor();

    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    const table = page.getByRole('table', { name: 'Approval policy' });
    await table
      .getByRole('row', { name: /^Order refund \(full or partial\)/ })
      .getByText(formatMoney(100_000), { exact: true })
      .waitFor();
    expect(await page.getByRole('form', { name: 'Approval policy' }).count()).toBe(0);

    const orderId = successOrders[2]!;
    const before = await attempts(orderId);
    await page.getByRole('navigation').getByRole('button', { name: 'Orders & refunds' }).click();
    await page.getByLabel('Order id', { exact: true }).fill(orderId);
    await page.getByLabel('Order id', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    await page.getByLabel('Partial refund, in rupees').fill('25');
    await page.getByRole('button', { name: 'Refund part…' }).click();
    await page
      .getByRole('dialog', { name: 'Refund part of this order?' })
      .getByRole('button', { name: 'Refund' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Refunded' }).first().waitFor();
    const after = await attempts(orderId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.amount).toBe(2_500);
  });
});
