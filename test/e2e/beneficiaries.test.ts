/**
 * The Beneficiaries screen end to end, against the real core, cache and sandbox: the cached list with search,
 * keyboard and detail; fetch by id; the add form's checks (nothing is sent while a field is wrong), UPI
 * verification, the duplicate warning, the confirmation, and the request key that makes a double click or a
 * retry after a lost answer create one beneficiary; then the same screen with the service gone. Every claim is
 * checked against the sandbox's own state, the profile's cache and the IPC calls the page made.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../shared/profiles';
import { hook } from '../support/sandbox-http';
import { e2eSystemReady, startApp, type RunningApp, saveScreenshots } from './support';

const ready = await e2eSystemReady();
const CREATE_PATH = '/api/v2/payout/beneficiary/create';

/** Main's own sender for calls made before the page opens, as the harness reports the page. */
const PREPARE_ORIGIN = 'http://prepare.invalid';

const GOOD = {
  Name: 'Kavya Raghunathan',
  Phone: '9876501234',
  Email: 'kavya.r@example.in',
  Address: '12, Residency Road, Bengaluru',
  'Account number': '501002345678',
  IFSC: 'HDFC0004321',
  'UPI address': 'kavya.r@okhdfcbank',
};

describe.runIf(ready)('Beneficiaries', () => {
  let app: RunningApp;
  /** The seeded beneficiary left out of the cache, for fetch by id. */
  let uncachedId: string;
  /** requestKey of every beneficiaries.create the page sent, in order. */
  const createKeys: string[] = [];

  const cache = () => app.core.cacheFor(SANDBOX_PROFILE_ID).beneficiaries;
  const sandboxCount = () => app.sandbox.fixtures().beneficiaries.length;
  const sandboxIds = () => new Set(app.sandbox.fixtures().beneficiaries.map((b) => b.id));
  const beneficiaryCalls = (since: number) =>
    app.harness.calls.slice(since).filter((c) => c.startsWith('beneficiaries.'));
  const rowIds = (page: Page) =>
    page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['id']));
  const selectedId = (page: Page) => page.locator('tbody tr[aria-selected="true"]').getAttribute('data-id');
  const focusedId = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['id']);

  /** Fills the form; an account number is typed into its confirmation too unless that is given. */
  async function fill(page: Page, fields: Partial<typeof GOOD & { 'Confirm account number': string }>): Promise<void> {
    const form = page.getByRole('region', { name: 'New beneficiary' });
    const all = { ...fields };
    if (all['Account number'] !== undefined) all['Confirm account number'] ??= all['Account number'];
    for (const [label, value] of Object.entries(all)) await form.getByLabel(label, { exact: true }).fill(value);
  }

  async function openForm(page: Page) {
    await page.getByRole('button', { name: 'Add beneficiary', exact: true }).click();
    return page.getByRole('region', { name: 'New beneficiary' });
  }

  async function armFault(kind: string): Promise<void> {
    expect((await hook(app.sandbox.url, 'POST', 'faults', { path: CREATE_PATH, kind })).http).toBe(200);
  }

  beforeAll(async () => {
    app = await startApp({
      async prepare({ core, sandbox }) {
        // Five of the six seeded beneficiaries come into the cache the way the app fetches them.
        const [left, ...rest] = sandbox.fixtures().beneficiaries.map((b) => b.id);
        uncachedId = left!;
        for (const id of rest) {
          const result = await core.router.handle(
            'beneficiaries.fetch',
            { id },
            { frameUrl: `${PREPARE_ORIGIN}/index.html`, isMainFrame: true },
            PREPARE_ORIGIN,
          );
          expect(result.ok).toBe(true);
        }
      },
    });
    // Under the test's own timeout, so a wait that fails names its locator.
    app.page.setDefaultTimeout(8_000);
    await app.page.route('**/__harness/ipc', async (route) => {
      const body = route.request().postDataJSON() as { channel: string; input?: { requestKey?: string } };
      if (body.channel === 'beneficiaries.create') createKeys.push(body.input?.requestKey ?? '');
      await route.continue();
    });
    await app.page.getByRole('navigation').getByRole('button', { name: 'Beneficiaries' }).click();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists the cache, narrows it by search, and moves through it with the keyboard', async () => {
    const { page } = app;
    const all = cache()
      .list()
      .rows.map((b) => b.beneficiary_id);
    expect(all).toHaveLength(5);
    await expect.poll(() => rowIds(page)).toEqual(all);
    expect(await page.getByTestId('as-of').first().textContent()).toMatch(/^Newest fetch .* IST$/);

    // Ctrl+F reaches the search from anywhere on the screen.
    await page.locator('tbody tr').first().click();
    await page.keyboard.press('Control+f');
    const search = page.getByRole('searchbox', { name: 'Search' });
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);

    const someone = cache().get(all[2]!)!;
    const term = someone.name.split(' ')[0]!.toLowerCase();
    const expected = cache()
      .list({ search: term })
      .rows.map((b) => b.beneficiary_id);
    expect(expected.length).toBeLessThan(all.length);
    await page.keyboard.type(term);
    await expect.poll(() => rowIds(page)).toEqual(expected);
    await page.getByText(`matching “${term}”`).waitFor();

    await search.fill('no such beneficiary');
    await page.getByText('No cached beneficiary matches “no such beneficiary”').waitFor();
    await search.fill('');
    await expect.poll(() => rowIds(page)).toEqual(all);

    // A click selects and opens; the arrows move selection and focus together, and the detail follows.
    await page.locator(`tbody tr[data-id="${all[0]}"]`).click();
    expect(await selectedId(page)).toBe(all[0]);
    await page.keyboard.press('ArrowDown');
    expect(await selectedId(page)).toBe(all[1]);
    expect(await focusedId(page)).toBe(all[1]);
    const second = cache().get(all[1]!)!;
    await page.getByRole('complementary', { name: second.name }).waitFor();
    await page.keyboard.press('End');
    expect(await focusedId(page)).toBe(all[4]);
    await page.keyboard.press('ArrowDown');
    expect(await selectedId(page)).toBe(all[4]);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowUp');
    expect(await focusedId(page)).toBe(all[0]);

    await page.keyboard.press('Escape');
    await page.getByRole('complementary').waitFor({ state: 'detached' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const detail = page.getByRole('complementary', { name: second.name });
    await detail.waitFor();
    const text = await detail.textContent();
    for (const value of [second.beneficiary_id, second.phone, second.email, second.address]) {
      if (value) expect(text).toContain(value);
    }
    expect(text).toMatch(/Fetched .* IST/);
    // The table shows only the last four digits of an account; the detail shows it whole.
    const banked = cache()
      .list()
      .rows.find((b) => b.account_number)!;
    const row = await page.locator(`tbody tr[data-id="${banked.beneficiary_id}"]`).textContent();
    expect(row).toContain(`•••••${banked.account_number!.slice(-4)}account ending ${banked.account_number!.slice(-4)}`);
    expect(row).not.toContain(banked.account_number!);
  });

  it('fetches a seeded beneficiary by id into the cache and selects it', async () => {
    const { page, sandbox } = app;
    expect(cache().get(uncachedId)).toBeNull();
    const fetchBox = page.getByLabel('Fetch by id', { exact: true });

    await fetchBox.fill('bene_NOSUCHONE000');
    await page.getByRole('button', { name: 'Fetch', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'bene_NOSUCHONE000' });
    await refusal.waitFor();
    expect(await fetchBox.getAttribute('aria-invalid')).toBe('true');

    await fetchBox.fill(uncachedId);
    await page.getByRole('button', { name: 'Fetch', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `(${uncachedId}) from the service` })
      .waitFor();
    const cached = cache().get(uncachedId);
    expect(cached).not.toBeNull();
    expect(sandbox.fixtures().beneficiaries.map((b) => b.id)).toContain(uncachedId);
    expect(await selectedId(page)).toBe(uncachedId);
    expect(await focusedId(page)).toBe(uncachedId);
    await page.getByRole('complementary', { name: cached!.name }).waitFor();
    expect(await rowIds(page)).toEqual(
      cache()
        .list()
        .rows.map((b) => b.beneficiary_id),
    );

    // Refresh reads it again from the service; the cache's fetched time moves on.
    const before = cached!.fetchedAt;
    await page.getByRole('button', { name: 'Refresh from service' }).click();
    await expect.poll(() => cache().get(uncachedId)!.fetchedAt).not.toBe(before);
    await page.getByRole('button', { name: 'Refresh from service' }).waitFor();
  });

  it('shows a bad IFSC on its field and sends nothing', async () => {
    const { page, harness } = app;
    const form = await openForm(page);
    const count = sandboxCount();
    const cached = cache().list().rows.length;
    const since = harness.calls.length;

    await fill(page, { Name: 'Arjun Mehta', 'Account number': '123456789012', IFSC: 'HDFC001234', Phone: '12345' });
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    const ifsc = form.getByLabel('IFSC', { exact: true });
    await form.getByText('IFSC must be an IFSC code such as HDFC0001234.').waitFor();
    expect(await ifsc.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await ifsc.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(
      'IFSC must be an IFSC code such as HDFC0001234.',
    );
    const phone = form.getByLabel('Phone', { exact: true });
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    await form.getByText('Phone must be a 10-digit Indian mobile number.').waitFor();
    // The first field in error takes focus.
    expect(await phone.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await form.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('false');

    // A bank account without its IFSC, and neither account nor UPI address, are the form's rules too.
    await fill(page, { IFSC: '', Phone: '' });
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await form.getByText('Account number and IFSC go together.').waitFor();
    await fill(page, { 'Account number': '' });
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await form.getByText('Give a bank account (number and IFSC) or a UPI address.').waitFor();

    expect(beneficiaryCalls(since)).toEqual([]);
    expect(sandboxCount()).toBe(count);
    expect(cache().list().rows).toHaveLength(cached);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('names the bank of the IFSC as it is typed, and warns of one the IFSC list does not hold', async () => {
    const { page, harness } = app;
    const form = await openForm(page);
    const ifsc = form.getByLabel('IFSC', { exact: true });
    const hint = async () => page.locator(`[id="${(await ifsc.getAttribute('aria-describedby'))!}"]`).textContent();
    await ifsc.fill('hdfc000000');
    expect(await hint()).toBe('11 characters, such as HDFC0001234.');
    await ifsc.pressSequentially('1');
    // The first lookup reads the list in main (under the test runner, through its transform): no short bound.
    await form.getByText('HDFC Bank', { exact: true }).waitFor({ timeout: 0 });
    expect(await hint()).toBe('HDFC Bank');
    // The list lives in main: the page asked over IPC rather than loading it.
    expect(harness.calls).toContain('beneficiaries.ifsc');
    await ifsc.fill('HDFC0ZZZZZZ');
    await form.getByText(/^HDFC Bank has no branch HDFC0ZZZZZZ in Razorpay's IFSC list/).waitFor();
    await ifsc.fill('QQQQ0000001');
    await form
      .getByText("No bank in Razorpay's IFSC list has the code QQQQ: check the IFSC on a cheque or the bank's letter.")
      .waitFor();
    // A warning, not a refusal: the field is not in error.
    expect(await ifsc.getAttribute('aria-invalid')).toBe('false');
    await saveScreenshots(page, 'beneficiary-ifsc-warning');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it("verifies a UPI address and shows its holder's name", async () => {
    const { page } = app;
    const form = await openForm(page);
    const vpa = form.getByLabel('UPI address', { exact: true });
    const verify = form.getByRole('button', { name: 'Verify UPI address' });

    await vpa.fill('meera.iyer@ybl');
    await verify.click();
    await form.getByText('meera.iyer@ybl belongs to MEERA IYER').waitFor();
    // The result describes the field, so a screen reader reads it with the address.
    const describedBy = (await vpa.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain('MEERA IYER');

    await vpa.fill('meera.iyer@nosuchpsp');
    expect(await form.textContent()).not.toContain('MEERA IYER');
    await verify.click();
    await form.getByText('meera.iyer@nosuchpsp is not a valid UPI address: no UPI app knows it.').waitFor();

    await vpa.fill('not-an-address');
    await verify.click();
    await form.getByText('UPI address must be a UPI address such as name@bank.').waitFor();
    expect(await vpa.getAttribute('aria-invalid')).toBe('true');

    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('normalises phone, account and IFSC, asks for the account twice, and warns of a holder name mismatch twice', async () => {
    const { page } = app;
    const form = await openForm(page);
    const before = sandboxIds();
    await fill(page, {
      Name: 'Test Vendor Pvt Ltd',
      Phone: '+91 98765 43210',
      'Account number': '1234 5678 9012',
      'Confirm account number': '1234 5678 9013',
      IFSC: 'hdfc0001234',
      'UPI address': 'ishaan@oksbi',
    });
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await form.getByText('Confirm account number does not match the account number.').waitFor();
    await fill(page, { 'Confirm account number': '123456789012' });
    await form.getByRole('button', { name: 'Verify UPI address' }).click();
    await form.getByText('ishaan@oksbi belongs to ISHAAN').waitFor();
    const mismatch = 'The UPI address is registered to “ISHAAN”, which does not resemble “Test Vendor Pvt Ltd”.';
    await form.getByText(mismatch).waitFor();
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add “Test Vendor Pvt Ltd” as a beneficiary?' });
    await dialog.waitFor();
    const said = await dialog.textContent();
    expect(said).toContain('Bank account 123456789012, IFSC HDFC0001234');
    expect(said).toContain(mismatch);
    await saveScreenshots(page, 'beneficiary-confirm-mismatch');
    await dialog.getByRole('button', { name: 'Add beneficiary', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Test Vendor Pvt Ltd' }).waitFor();
    const [made] = [...sandboxIds()].filter((id) => !before.has(id));
    expect(cache().get(made!)).toMatchObject({
      account_number: '123456789012',
      ifsc: 'HDFC0001234',
      phone: '9876543210',
      vpa: 'ishaan@oksbi',
    });
  });

  it('adds a beneficiary after a confirmation that repeats the target; a double click adds one', async () => {
    const { page, core } = app;
    const form = await openForm(page);
    const before = sandboxIds();
    const keysBefore = createKeys.length;
    await fill(page, GOOD);
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();

    const dialog = page.getByRole('dialog', { name: `Add “${GOOD.Name}” as a beneficiary?` });
    await dialog.waitFor();
    const said = await dialog.textContent();
    expect(said).toContain(`Bank account ${GOOD['Account number']}, IFSC ${GOOD.IFSC}`);
    expect(said).toContain(`UPI address ${GOOD['UPI address']}`);
    expect(said).toContain('Sandbox');
    // Focus starts on Cancel, so a stray Enter does not add.
    expect(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement)).toBe(
      true,
    );

    // Hold the create on its way to main, so the double click and the button's state can be seen mid-flight.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      if ((route.request().postDataJSON() as { channel: string }).channel === 'beneficiaries.create') await held;
      await route.fallback();
    };
    await page.route('**/__harness/ipc', hold);
    await dialog.getByRole('button', { name: 'Add beneficiary', exact: true }).dblclick();
    const adding = form.getByRole('button', { name: 'Adding…' });
    await adding.waitFor();
    expect(await adding.isDisabled()).toBe(true);
    // A click that reaches the disabled button while the create is out sends nothing either.
    await adding.click({ force: true });
    release();
    await page.unroute('**/__harness/ipc', hold);

    const notice = page.getByRole('status').filter({ hasText: 'was added and is in the list.' });
    await notice.waitFor();
    await form.waitFor({ state: 'detached' });
    expect(createKeys.length - keysBefore).toBe(1);
    const added = [...sandboxIds()].filter((id) => !before.has(id));
    expect(added).toHaveLength(1);
    const id = added[0]!;
    expect(await notice.textContent()).toContain(`${GOOD.Name} (${id}) was added and is in the list.`);
    expect(await notice.textContent()).not.toContain('successfully');

    expect(core.cacheFor(SANDBOX_PROFILE_ID).beneficiaries.get(id)).toMatchObject({
      beneficiary_id: id,
      name: GOOD.Name,
      phone: GOOD.Phone,
      email: GOOD.Email,
      address: GOOD.Address,
      account_number: GOOD['Account number'],
      ifsc: GOOD.IFSC,
      vpa: GOOD['UPI address'],
    });
    expect(await selectedId(page)).toBe(id);
    expect(await focusedId(page)).toBe(id);
    expect(await rowIds(page)).toContain(id);
  });

  it('warns before adding an account the cache already has, and adds only on "Add anyway"', async () => {
    const { page, harness } = app;
    const existing = cache()
      .list({ search: GOOD['Account number'] })
      .rows.map((b) => b.beneficiary_id);
    expect(existing).toHaveLength(1);
    const form = await openForm(page);
    const count = sandboxCount();
    await fill(page, { Name: 'K. Raghunathan', 'Account number': GOOD['Account number'], IFSC: GOOD.IFSC });
    const since = harness.calls.length;
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();

    const warning = form.getByRole('alert').filter({ hasText: 'Possible duplicate' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain(`${GOOD.Name} ${existing[0]}`);
    expect(await warning.textContent()).toContain(`account ending ${GOOD['Account number'].slice(-4)} ${GOOD.IFSC}`);
    expect(beneficiaryCalls(since)).toEqual(['beneficiaries.matches']);

    await warning.getByRole('button', { name: 'Back to the form' }).click();
    await warning.waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await warning.getByRole('button', { name: 'Add anyway…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add “K. Raghunathan” as a beneficiary?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(beneficiaryCalls(since)).toEqual(['beneficiaries.matches', 'beneficiaries.matches']);
    expect(sandboxCount()).toBe(count);

    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await warning.getByRole('button', { name: 'Add anyway…' }).click();
    await dialog.getByRole('button', { name: 'Add beneficiary', exact: true }).click();
    await form.waitFor({ state: 'detached' });
    expect(sandboxCount()).toBe(count + 1);
    expect(
      cache()
        .list({ search: GOOD['Account number'] })
        .rows.map((b) => b.name)
        .sort(),
    ).toEqual(['K. Raghunathan', GOOD.Name]);
  });

  it('keeps the request key after a lost answer, so trying again cannot add twice; an edit makes a new key', async () => {
    const { page } = app;
    const form = await openForm(page);
    const count = sandboxCount();
    const keysBefore = createKeys.length;
    await fill(page, { Name: 'Farhan Qureshi', 'UPI address': 'farhan.q@paytm' });

    // The service adds the beneficiary, but its answer arrives cut in half.
    await armFault('malformed');
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add beneficiary', exact: true }).click();
    const error = form.getByRole('alert').filter({ hasText: 'the outcome is unknown' });
    await error.waitFor();
    expect(await error.textContent()).toContain('may have added this beneficiary');
    expect(sandboxCount()).toBe(count + 1);
    expect(cache().list({ search: 'farhan.q@paytm' }).rows).toEqual([]);

    await form.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => createKeys.length - keysBefore).toBe(2);
    await error.waitFor();
    const [first, second] = createKeys.slice(keysBefore);
    expect(second).toBe(first);
    expect(sandboxCount()).toBe(count + 1);
    expect(await form.getByLabel('UPI address', { exact: true }).inputValue()).toBe('farhan.q@paytm');

    await fill(page, { Address: 'Lucknow' });
    await error.waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add beneficiary', exact: true }).click();
    await form.waitFor({ state: 'detached' });
    const third = createKeys.at(-1);
    expect(createKeys.length - keysBefore).toBe(3);
    expect(third).not.toBe(first);
    expect(sandboxCount()).toBe(count + 2);
    expect(cache().list({ search: 'farhan.q@paytm' }).rows).toHaveLength(1);
  });

  it('saves the screen in light (list and detail) and dark (the add form)', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('button', { name: 'Close details' }).click();
    await page.waitForTimeout(300);
    const someone = cache()
      .list()
      .rows.find((b) => b.account_number && b.vpa)!;
    await page.locator(`tbody tr[data-id="${someone.beneficiary_id}"]`).click();
    await page.getByRole('complementary', { name: someone.name }).waitFor();
    await page
      .getByRole('contentinfo')
      .getByText(/^Online since/)
      .waitFor();

    await saveScreenshots(page, 'beneficiaries', { schemes: ['light'] });

    const form = await openForm(page);
    await fill(page, { Name: 'Sneha Kulkarni', Phone: '98220', 'UPI address': 'sneha.k@oksbi', IFSC: 'ICIC001234' });
    await form.getByRole('button', { name: 'Verify UPI address' }).click();
    await form.getByText('belongs to SNEHA K').waitFor();
    await form.getByRole('button', { name: 'Add beneficiary…' }).click();
    await form.getByText('IFSC must be an IFSC code').waitFor();
    await saveScreenshots(page, 'beneficiaries', { schemes: ['dark'] });
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('keeps the list and search working offline, and offers no create until the service answers, losing nothing typed', async () => {
    const { page, sandbox, harness } = app;
    const cachedIds = cache()
      .list()
      .rows.map((b) => b.beneficiary_id);
    await sandbox.close();

    // The first call that needs the service finds it gone.
    await page.getByLabel('Fetch by id', { exact: true }).fill(uncachedId);
    await page.getByRole('button', { name: 'Fetch', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Nothing is answering|could not be reached/ })
      .waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'showing cached data' });
    await banner.waitFor();

    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('');
    await expect.poll(() => rowIds(page)).toEqual(cachedIds);
    await search.fill('raghunathan');
    const matching = cache()
      .list({ search: 'raghunathan' })
      .rows.map((b) => b.beneficiary_id);
    expect(matching.length).toBeLessThan(cachedIds.length);
    await expect.poll(() => rowIds(page)).toEqual(matching);

    const form = await openForm(page);
    const typed = {
      Name: 'Imran Sheikh',
      Phone: '9123456780',
      'Account number': '00112233445566',
      IFSC: 'SBIN0012345',
    };
    await fill(page, typed);
    // Known offline, an action that needs the service is not offered: disabled, with the reason on hover, and
    // the form keeps everything typed for when the service answers again.
    const add = form.getByRole('button', { name: 'Add beneficiary…' });
    expect(await add.isDisabled()).toBe(true);
    expect(await add.getAttribute('title')).toMatch(/cannot be reached/);
    for (const [label, value] of Object.entries(typed)) {
      expect(await form.getByLabel(label, { exact: true }).inputValue()).toBe(value);
    }
    await banner.waitFor();
    expect(harness.calls.filter((c) => c === 'beneficiaries.create').length).toBe(createKeys.length);
    expect(cache().list({ search: 'Imran' }).rows).toEqual([]);
    expect(app.consoleErrors).toEqual([]);
  });
});

describe.runIf(ready)('Beneficiaries: an empty cache, then more than a page', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp();
    app.page.setDefaultTimeout(8_000);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('says what to do when nothing is cached, and pages through a long list with "Load more"', async () => {
    const { page, core } = app;
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Beneficiaries' }).click();
    await page.getByText('No beneficiaries cached yet').waitFor();
    expect(await page.getByTestId('as-of').textContent()).toBe('Not fetched yet');

    const repo = core.cacheFor(SANDBOX_PROFILE_ID).beneficiaries;
    for (let i = 0; i < 130; i++) {
      const n = String(i).padStart(3, '0');
      repo.upsert({ beneficiary_id: `bene_PAGE${n}`, name: `Payee ${n}`, vpa: `payee${n}@ybl` });
    }
    // The screen reads the cache each time it opens.
    await nav.getByRole('button', { name: 'Settings' }).click();
    await nav.getByRole('button', { name: 'Beneficiaries' }).click();
    const everything = repo.list({ limit: 500 }).rows.map((b) => b.beneficiary_id);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(100);
    expect(
      await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['id'])),
    ).toEqual(everything.slice(0, 100));
    await page.getByText('100 beneficiaries', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('130 beneficiaries, all shown').waitFor();
    expect(
      await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['id'])),
    ).toEqual(everything);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // End reaches the last loaded row and scrolls it into view.
    await page.locator('tbody tr').first().click();
    await page.keyboard.press('End');
    const last = page.locator(`tbody tr[data-id="${everything.at(-1)}"]`);
    expect(await last.getAttribute('aria-selected')).toBe('true');
    expect(await last.isVisible()).toBe(true);
    expect(
      await last.evaluate((row) => {
        const box = row.getBoundingClientRect();
        const pane = row.closest('.dt-scroll')!.getBoundingClientRect();
        return box.top >= pane.top && box.bottom <= pane.bottom;
      }),
    ).toBe(true);
    expect(app.consoleErrors).toEqual([]);
  });
});
