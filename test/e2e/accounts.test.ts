/**
 * The Accounts & balances screen end to end, against the real core and sandbox: every gateway's accounts with the
 * exact balances the sandbox answers on the wire (and the cache keeps), the gateway that answers with its own error
 * shown in its card, the exact total, a balance check, the low-balance alert (refused when malformed, kept across a
 * reload), a refresh that fails while the cached cards stay, and the cards offline. Screenshots in light and dark.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { majorNumberToMinor, formatMinor, formatMoney, sumMinor } from '../../shared/money';
import { formatRupeesTyped } from '../../shared/rupees';
import { hook, rawCall } from '../support/sandbox-http';
import { formatIstInstant } from '../../shared/format';
import { e2eSystemReady, startApp, type RunningApp, saveScreenshots } from './support';

const ready = await e2eSystemReady();

interface WireAccount {
  pg: string;
  accountNumber: string;
  ifsc: string;
  available: number;
  balance: number;
  minimum: number;
  hold: number | null;
  overdraft: number | null;
  limit: number;
}

/** What the sandbox answers on the wire, in paise: the truth the screen must match. */
async function wireAccounts(app: RunningApp) {
  const { body } = await rawCall(app.sandbox.url, 'payout.accounts', {}, app.merchant);
  const answers = (body as { accounts: Record<string, Record<string, unknown>> }).accounts;
  const ok: WireAccount[] = [];
  const failed: { pg: string; code: string; message: string }[] = [];
  for (const [pg, answer] of Object.entries(answers)) {
    if (answer.status !== true) {
      const error = answer.error as { code: string; message: string };
      failed.push({ pg, ...error });
      continue;
    }
    for (const a of answer.data as Record<string, number | string | null>[]) {
      const paise = (v: unknown) => (v === null ? null : majorNumberToMinor(v as number));
      ok.push({
        pg,
        accountNumber: a.account_number as string,
        ifsc: a.ifsc_code as string,
        available: paise(a.available_balance)!,
        balance: paise(a.account_balance)!,
        minimum: paise(a.minimum_balance)!,
        hold: paise(a.hold_fund),
        overdraft: paise(a.overdraft),
        limit: paise(a.transaction_limit)!,
      });
    }
  }
  return { ok, failed };
}

const accountCard = (app: RunningApp, a: Pick<WireAccount, 'pg' | 'accountNumber'>): Locator =>
  app.page.getByRole('article', { name: `${a.pg} account ending ${a.accountNumber.slice(-4)}`, exact: true });

/** The value beside a label in the card's facts. */
const fact = (card: Locator, label: string) => card.locator(`dt:text-is("${label}") + dd`);

async function openAccounts(app: RunningApp): Promise<void> {
  await app.page.getByRole('navigation').getByRole('button', { name: 'Accounts & balances' }).click();
  await app.page.getByRole('heading', { name: 'Accounts & balances', level: 1 }).waitFor();
}

async function refreshed(app: RunningApp): Promise<void> {
  await app.page.getByRole('button', { name: 'Refresh balances' }).and(app.page.locator(':enabled')).waitFor();
}

describe.runIf(ready)('Accounts & balances', () => {
  let app: RunningApp;
  let wire: Awaited<ReturnType<typeof wireAccounts>>;
  let profileId: string;

  beforeAll(async () => {
    app = await startApp();
    wire = await wireAccounts(app);
    profileId = app.core.profiles.active().id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows every gateway with the exact balances, the failing gateway its error, and the exact total', async () => {
    const { page, core, sandbox } = app;
    expect(wire.ok.length).toBeGreaterThanOrEqual(4);
    expect(wire.failed.map((f) => f.pg)).toEqual(['easebuzz']);

    const callsBefore = app.harness.calls.length;
    await openAccounts(app);
    // Nothing cached yet: the screen refreshes on its own as it opens.
    await page.getByRole('article').first().waitFor();
    await refreshed(app);
    const calls = app.harness.calls.slice(callsBefore);
    expect(calls.filter((c) => c === 'accounts.overview')).toHaveLength(1);
    expect(calls.filter((c) => c === 'accounts.refresh')).toHaveLength(1);

    const cached = core.cacheFor(profileId).accounts.overview();
    expect(cached.accounts).toHaveLength(wire.ok.length);
    for (const a of wire.ok) {
      const card = accountCard(app, a);
      expect(await card.locator('.acct-number > [aria-hidden="true"]').textContent()).toBe(
        `•••••${a.accountNumber.slice(-4)}`,
      );
      expect(await card.locator('.acct-available-amount').textContent()).toBe(formatMoney(a.available));
      expect(await fact(card, 'Account balance').textContent()).toBe(formatMoney(a.balance));
      expect(await fact(card, 'Minimum balance').textContent()).toBe(formatMoney(a.minimum));
      expect(await fact(card, 'On hold').textContent()).toBe(a.hold === null ? '—' : formatMoney(a.hold));
      expect(await fact(card, 'Overdraft').textContent()).toBe(a.overdraft === null ? '—' : formatMoney(a.overdraft));
      expect(await fact(card, 'Transaction limit').textContent()).toBe(formatMoney(a.limit));
      const payable = a.available - a.minimum;
      expect(await fact(card, 'Payable now').textContent()).toBe(formatMoney(payable));
      expect(await fact(card, 'With overdraft').textContent()).toBe(formatMoney(payable + (a.overdraft ?? 0)));
      expect(await fact(card, 'IFSC').textContent()).toBe(a.ifsc);
      // Under the gateway that reported it.
      expect(await page.getByRole('region', { name: a.pg, exact: true }).locator(card).count()).toBe(1);
      // The cache agrees with the wire, and the chart has the one reading the refresh took.
      const kept = cached.accounts.find((c) => c.pg === a.pg && c.accountNumber === a.accountNumber);
      expect(kept?.latest?.availableBalance).toBe(a.available);
      expect(await card.getByRole('img').getAttribute('aria-labelledby')).toBeTruthy();
      expect(await card.getByRole('img').textContent()).toContain(`1 reading, steady at ${formatMoney(a.available)}`);
    }
    // Only the last four digits of any account reach the page.
    const html = await page.content();
    for (const a of wire.ok) expect(html).not.toContain(a.accountNumber);

    const failing = page.getByRole('region', { name: 'easebuzz', exact: true });
    const alert = failing.getByRole('alert');
    const failure = wire.failed[0]!;
    expect(await alert.textContent()).toContain(`${failure.message} (${failure.code})`);
    expect(await alert.textContent()).toMatch(/Reported .* IST\./);
    expect(cached.gatewayErrors.map((e) => e.pg)).toEqual(['easebuzz']);

    expect(await page.getByTestId('total-available').textContent()).toBe(
      formatMoney(sumMinor(wire.ok.map((a) => a.available))),
    );
    const totals = page.getByRole('region', { name: 'Total available' });
    expect(await totals.textContent()).toContain(`${wire.ok.length} accounts across 3 gateways; leaves out easebuzz`);
    expect(await page.getByTestId('as-of').first().textContent()).toMatch(/^As of .* IST$/);
    expect(sandbox.fixtures().gateways.sort()).toEqual([...new Set(wire.ok.map((a) => a.pg)), 'easebuzz'].sort());
    expect(app.consoleErrors).toEqual([]);
  });

  it('checks one account’s balance and adds the reading to its chart', async () => {
    const { core } = app;
    const a = wire.ok.find((x) => x.pg === 'razorpay')!;
    const card = accountCard(app, a);
    await card
      .getByRole('button', { name: `Check balance of razorpay account ending ${a.accountNumber.slice(-4)}` })
      .click();
    const outcome = card.getByRole('status');
    await outcome.getByText('Balance now').waitFor();
    expect(await outcome.textContent()).toMatch(
      new RegExp(`^Balance now ${escape(formatMoney(a.available))} · checked .* IST$`),
    );

    const snapshots = core.cacheFor(profileId).accounts.snapshots('razorpay', a.accountNumber);
    expect(snapshots.map((s) => [s.source, s.availableBalance])).toEqual([
      ['accounts', a.available],
      ['balance', a.available],
    ]);
    await card.getByRole('img').filter({ hasText: '2 readings' }).waitFor();
  });

  it('refuses a malformed alert threshold, then flags the accounts below a valid one, across a reload', async () => {
    const { page } = app;
    const field = page.getByLabel('Alert below (₹)');
    await field.fill('12,34.5');
    await field.press('Enter');
    await page.getByText('Enter an amount in rupees, such as 50000 or 1,00,000.50.').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('100.005');
    await field.press('Enter');
    await page.getByText('Use at most two decimal places (paise).').waitFor();
    expect(await page.locator('.acct-low-tag').count()).toBe(0);

    // One paisa above the second-smallest balance: exactly the two smallest are low.
    const sorted = wire.ok.map((a) => a.available).sort((x, y) => x - y);
    const threshold = sorted[1]! + 1;
    const low = wire.ok.filter((a) => a.available < threshold);
    expect(low).toHaveLength(2);
    await field.fill(formatMinor(threshold));
    await page.getByRole('button', { name: 'Set alert' }).click();
    await page.getByText(`Alert when available is below ${formatMoney(threshold)} (INR accounts).`).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('false');
    await page.getByText('2 accounts are low on funds').waitFor();
    for (const a of wire.ok) {
      const card = accountCard(app, a);
      const flagged = low.includes(a);
      expect(await card.getByText('Low balance', { exact: true }).count(), a.accountNumber).toBe(flagged ? 1 : 0);
      if (flagged) {
        expect(await card.locator('.notice-warning').textContent()).toBe(
          `Available ${formatMoney(a.available)} is below your alert threshold of ${formatMoney(threshold)}.`,
        );
      }
    }
    // The threshold is kept for this profile, exactly as parsed (the screen a reload reopens is the session's).
    expect(await page.evaluate(() => ({ ...localStorage }))).toEqual({
      [`payout-console:low-balance-threshold:${profileId}`]: String(threshold),
    });

    await page.reload();
    await app.harness.eventStreamOpen();
    await openAccounts(app);
    await refreshed(app);
    await page.getByText('2 accounts are low on funds').waitFor();
    // Shown back in the console's own grouping, as a person types rupees, not as raw decimal text.
    expect(await page.getByLabel('Alert below (₹)').inputValue()).toBe(formatRupeesTyped(threshold));

    await saveScreenshots(app.page, 'accounts', { height: 1400 });

    await page.getByRole('button', { name: 'Clear alert' }).click();
    await page.getByText('No alert set.', { exact: false }).waitFor();
    expect(await page.locator('.acct-low-tag').count()).toBe(0);
  });

  it('shows payable now by gateway and in total, exact in paise, and a low-headroom alert on every screen', async () => {
    const { page } = app;
    const payable = (a: WireAccount) => a.available - a.minimum;
    expect(await page.getByTestId('payable-now').textContent()).toBe(formatMoney(sumMinor(wire.ok.map(payable))));
    const section = page.getByRole('region', { name: 'Payable now' });
    const withOverdraft = sumMinor(wire.ok.map((a) => payable(a) + (a.overdraft ?? 0)));
    expect(await section.textContent()).toContain(`with overdraft ${formatMoney(withOverdraft)}`);
    const table = section.getByRole('table', { name: 'Payable now by gateway' });
    for (const pg of new Set(wire.ok.map((a) => a.pg))) {
      const row = table.locator(`tr[data-id="${pg}"]`);
      expect(await row.locator('td').nth(1).textContent()).toBe(
        formatMoney(sumMinor(wire.ok.filter((a) => a.pg === pg).map(payable))),
      );
    }
    // The gateway that failed has no good figure yet, and says what it answered: "—", never ₹0.00.
    const silent = table.locator('tr[data-id="easebuzz"]');
    expect(await silent.textContent()).toContain(`the gateway answered “${wire.failed[0]!.message}”`);
    for (const column of [1, 2, 4]) expect(await silent.locator('td').nth(column).textContent()).toBe('—');
    expect(await section.textContent()).toContain('without easebuzz, which gave no figure');

    // An alert one paisa above a gateway's headroom marks it here and in the status bar, on every screen.
    const pg = wire.ok[0]!.pg;
    const headroom = sumMinor(wire.ok.filter((a) => a.pg === pg).map(payable));
    await section.getByRole('combobox', { name: 'Gateway' }).selectOption(pg);
    await section.getByLabel('Low headroom below (₹)').fill(formatMinor(headroom + 1));
    await section.getByRole('button', { name: 'Set headroom alert' }).click();
    // Behind the bar's count of alerts, which opens their list.
    await page.getByRole('contentinfo').getByRole('button', { name: '1 alert', exact: true }).click();
    const statusAlert = page.getByRole('contentinfo').getByTestId('headroom-alert');
    await statusAlert.waitFor();
    expect(await statusAlert.textContent()).toBe(`Low headroom: ${pg}`);
    await page.getByRole('navigation').getByRole('button', { name: 'Beneficiaries' }).click();
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor();
    expect(await statusAlert.textContent()).toBe(`Low headroom: ${pg}`);
    await openAccounts(app);
    await section.getByRole('combobox', { name: 'Gateway' }).selectOption(pg);
    await section.getByLabel('Low headroom below (₹)').fill(formatMinor(headroom));
    await section.getByRole('button', { name: 'Set headroom alert' }).click();
    await statusAlert.waitFor({ state: 'detached' });
    expect(app.core.treasury.accounts.headroom(profileId).gateways.find((g) => g.pg === pg)).toMatchObject({
      threshold: headroom,
      low: false,
    });
    expect(app.consoleErrors).toEqual([]);
  });

  it('keeps a headroom alert as typed, per gateway, and never cuts the payable-now table at 1280 px', async () => {
    const { page } = app;
    const section = page.getByRole('region', { name: 'Payable now' });
    const field = section.getByLabel('Low headroom below (₹)');
    const gateway = section.getByRole('combobox', { name: 'Gateway' });
    const [first, second] = wire.ok.map((a) => a.pg).filter((pg, i, all) => all.indexOf(pg) === i);
    await gateway.selectOption(first!);
    await field.fill('2,50,00,000');
    await section.getByRole('button', { name: 'Set headroom alert' }).click();
    await expect
      .poll(() => app.core.treasury.accounts.headroom(profileId).gateways.find((g) => g.pg === first)?.threshold)
      .toBe(2_50_00_000_00);
    expect(await field.inputValue()).toBe('2,50,00,000');
    // Another gateway shows its own alert (none), and coming back shows this one as typed.
    await gateway.selectOption(second!);
    expect(await field.inputValue()).toBe('');
    await gateway.selectOption(first!);
    expect(await field.inputValue()).toBe('2,50,00,000');
    await field.fill('');
    await section.getByRole('button', { name: 'Set headroom alert' }).click();
    await expect
      .poll(() => app.core.treasury.accounts.headroom(profileId).gateways.find((g) => g.pg === first)?.threshold)
      .toBeNull();

    // Every cell of the table is whole at 1280 px: none is cut to an ellipsis, the table no wider than its box.
    const table = section.getByRole('table', { name: 'Payable now by gateway' });
    const cut = await table.evaluate((t) =>
      [...t.querySelectorAll('td, th')]
        .filter((cell) => cell.scrollWidth > cell.clientWidth)
        .map((cell) => cell.textContent),
    );
    expect(cut).toEqual([]);
    const [tableWidth, boxWidth] = await table.evaluate((t) => [t.scrollWidth, t.parentElement!.clientWidth]);
    expect(tableWidth).toBeLessThanOrEqual(boxWidth);
  });

  it('finds an account by its last digits after Ctrl+F', async () => {
    const { page } = app;
    const a = wire.ok.find((x) => x.pg === 'razorpay')!;
    await page.getByRole('heading', { name: 'Accounts & balances', level: 1 }).click();
    await page.keyboard.press('Control+f');
    const find = page.getByLabel('Find account');
    expect(await find.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(a.accountNumber.slice(-4));
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    expect(await accountCard(app, a).isVisible()).toBe(true);
    await find.fill('no such account');
    await page.getByText('No account matches “no such account”').waitFor();
    await find.fill('');
    await expect.poll(() => page.getByRole('article').count()).toBe(wire.ok.length);
  });

  it('keeps the cached cards when a refresh fails, and says so with a way to try again', async () => {
    const { page, sandbox } = app;
    // Four: the client retries a safe call three times before it gives up.
    await hook(sandbox.url, 'POST', 'faults', { path: '/api/v2/payout/accounts', kind: '500', count: 4 });
    await page.getByRole('button', { name: 'Refresh balances' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The balances could not be refreshed' });
    await alert.waitFor();
    for (const a of wire.ok) {
      expect(await accountCard(app, a).locator('.acct-available-amount').textContent()).toBe(formatMoney(a.available));
    }
    await alert.getByRole('button', { name: 'Try again' }).click();
    await alert.waitFor({ state: 'detached' });
    await refreshed(app);
  });

  it('shows the cached cards offline, with the offline banner', async () => {
    const { page, sandbox } = app;
    await sandbox.close();
    await page.getByRole('button', { name: 'Refresh balances' }).click();
    await page.getByRole('alert').filter({ hasText: 'The balances could not be refreshed' }).waitFor();
    const banner = page.locator('.offline-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/^Offline since .* IST: showing cached data\./);

    // Opened again while offline: the cache, with no refresh attempted.
    await page.getByRole('navigation').getByRole('button', { name: 'Payouts' }).click();
    const callsBefore = app.harness.calls.length;
    await openAccounts(app);
    await accountCard(app, wire.ok[0]!).waitFor();
    await banner.waitFor();
    expect(app.harness.calls.slice(callsBefore)).not.toContain('accounts.refresh');
    for (const a of wire.ok) {
      expect(await accountCard(app, a).locator('.acct-available-amount').textContent()).toBe(formatMoney(a.available));
    }
    expect(await page.getByTestId('total-available').textContent()).toBe(
      formatMoney(sumMinor(wire.ok.map((a) => a.available))),
    );
    expect(await page.getByRole('region', { name: 'easebuzz', exact: true }).getByRole('alert').count()).toBe(1);

    // Payable now still shows, read from the cache, and says offline and how old its figures are.
    const payable = (a: WireAccount) => a.available - a.minimum;
    expect(await page.getByTestId('payable-now').textContent()).toBe(formatMoney(sumMinor(wire.ok.map(payable))));
    const asOf = app.core.treasury.accounts.headroom(profileId).asOf!;
    expect(await page.getByTestId('payable-as-of').textContent()).toMatch(
      new RegExp(
        `^Offline: from the cache, figures of ${escape(formatIstInstant(asOf))} \\(\\d+ min old, the oldest in the total\\)\\.$`,
      ),
    );
    expect(await page.getByTestId('payable-as-of').getAttribute('class')).toContain('acct-stale');
    await page.getByRole('region', { name: 'Payable now' }).scrollIntoViewIfNeeded();
    await saveScreenshots(page, 'accounts-offline');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
