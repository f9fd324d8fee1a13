/**
 * The Settings screen end to end, against the real core, keychain and sandbox: a production profile refused
 * then saved, a custom profile on the running sandbox whose secret is stored, tested, replaced with a wrong one,
 * deleted, and the profile removed. Afterwards the secrets are nowhere in the page, the settings or the logs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePathsUnder } from '../support/files';
import { e2eSystemReady, saveScreenshots, startApp, type RunningApp } from './support';

// The keychain round trip: secrets go to the real OS keychain here, not to memory.
const ready = await e2eSystemReady({ keychain: true });

const PRODUCTION = {
  name: 'HDFC payouts',
  baseUrl: 'https://api.payments.example.in',
  aiUrl: 'https://ai.payments.example.in',
  key: 'live_4f9a21c0',
};

async function fillProfile(form: Locator, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    const control = form.getByLabel(label, { exact: true });
    if (label === 'Environment' || label === 'Hash scheme') await control.selectOption(value);
    else await control.fill(value);
  }
}

describe.runIf(ready)('Settings: profiles and credentials', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ keychain: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses a bad production profile without sending it, then saves the corrected one', async () => {
    const { page, harness, core } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Add profile' }).click();
    const form = page.getByRole('region', { name: 'New profile' });
    await fillProfile(form, {
      Name: PRODUCTION.name,
      Environment: 'production',
      'Base URL': 'http://api.payments.example.in',
      'AI URL': PRODUCTION.aiUrl,
      'Merchant key': PRODUCTION.key,
      'Pages at once': '12',
    });

    const sentBefore = harness.calls.length;
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByText('Base URL must be an https:// address').waitFor();
    await form.getByText('Pages at once must be a whole number of pages from 1 to 8').waitFor();
    const baseUrl = form.getByLabel('Base URL', { exact: true });
    expect(await baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(await baseUrl.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(harness.calls.slice(sentBefore)).toEqual([]);
    expect(core.profiles.list().map((p) => p.name)).toEqual(['Sandbox']);
    await saveScreenshots(page, 'settings-profile-form-refused');

    // A name clash only main can see comes back as an error on the same field.
    await fillProfile(form, { Name: 'sandbox', 'Base URL': PRODUCTION.baseUrl, 'Pages at once': '2' });
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByText('A profile named "sandbox" already exists.').waitFor();
    expect(await form.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(harness.calls.slice(sentBefore)).toEqual(['profiles.create']);
    expect(core.profiles.list()).toHaveLength(1);

    await fillProfile(form, { Name: PRODUCTION.name });
    await form.getByRole('button', { name: 'Save profile' }).click();
    const card = page.getByRole('article', { name: PRODUCTION.name });
    await card.waitFor();
    await form.waitFor({ state: 'detached' });
    expect(await card.textContent()).toContain('Production');
    expect(await card.textContent()).toContain(PRODUCTION.baseUrl);
    expect(await card.textContent()).toContain('Pages at once2');
    expect(core.profiles.list().find((p) => p.name === PRODUCTION.name)).toMatchObject({
      ...PRODUCTION,
      environment: 'production',
      syncConcurrency: 2,
    });
  });

  it('stores, tests, replaces and deletes a secret, then removes the profile', async () => {
    const { page, core, sandbox, merchant } = app;
    const wrongSecret = `sk_wrong_${merchant.secret.slice(-12)}`;

    await page.getByRole('button', { name: 'Add profile' }).click();
    const form = page.getByRole('region', { name: 'New profile' });
    await fillProfile(form, {
      Name: 'Local sandbox',
      Environment: 'custom',
      'Base URL': sandbox.url,
      'AI URL': `${sandbox.url}/ai`,
      'Merchant key': merchant.key,
    });
    await form.getByRole('button', { name: 'Save profile' }).click();
    const card = page.getByRole('article', { name: 'Local sandbox' });
    await card.getByText('Not stored', { exact: true }).waitFor();
    const profileId = core.profiles.list().find((p) => p.name === 'Local sandbox')!.id;

    await card.getByRole('button', { name: 'Activate' }).click();
    const statusBar = page.getByRole('contentinfo');
    await statusBar.getByText('Active profile: Local sandbox').waitFor();
    expect(await statusBar.textContent()).toMatch(/^Custom/);

    // The field is emptied as the form is submitted, while the call is still on its way to main.
    await card.getByRole('button', { name: 'Set secret…' }).click();
    const secretField = card.getByLabel('Secret', { exact: true });
    await secretField.fill(merchant.secret);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/__harness/ipc', async (route) => {
      if ((route.request().postDataJSON() as { channel: string }).channel === 'credentials.set') await held;
      await route.continue();
    });
    await secretField.press('Enter');
    await card.getByRole('button', { name: 'Saving…' }).waitFor();
    expect(await secretField.inputValue()).toBe('');
    release();
    // Whole text: the open form's hint ("Stored in the OS keychain only…") would match a substring before main is done.
    await card.getByText('Stored in the OS keychain', { exact: true }).waitFor();
    await page.unrouteAll();
    expect(await core.credentials.secretFor(profileId)()).toBe(merchant.secret);

    await card.getByRole('button', { name: 'Test connection' }).click();
    const outcome = card.getByRole('status');
    await outcome.getByText('Connected').waitFor();
    for (const gateway of sandbox.fixtures().gateways) expect(await outcome.textContent()).toContain(gateway);
    await statusBar.getByText(/^Online since/).waitFor();

    await card.getByRole('button', { name: 'Replace secret…' }).click();
    await card.getByLabel('New secret', { exact: true }).fill(wrongSecret);
    await card.getByRole('button', { name: 'Save secret' }).click();
    await card.getByRole('button', { name: 'Replace secret…' }).waitFor();
    expect(await outcome.textContent()).toBe('');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await outcome.getByText('Wrong secret.').waitFor();
    const expected = await core.credentials.testConnection(profileId);
    expect(expected).toMatchObject({ ok: false, reason: 'wrong_secret' });
    expect(await outcome.textContent()).toBe(`Wrong secret. ${expected.ok ? '' : expected.message}`);

    await card.getByRole('button', { name: 'Delete secret…' }).click();
    const deleteDialog = page.getByRole('dialog', { name: 'Delete the secret of “Local sandbox”?' });
    await deleteDialog.getByRole('button', { name: 'Delete secret' }).click();
    await card.getByText('Not stored', { exact: true }).waitFor();
    expect(await core.credentials.status(profileId)).toMatchObject({ hasSecret: false });

    // Escape cancels the confirmation; only the confirm button removes.
    await card.getByRole('button', { name: 'Remove…' }).click();
    const removeDialog = page.getByRole('dialog', { name: 'Remove the profile “Local sandbox”?' });
    expect(await removeDialog.textContent()).toContain(sandbox.url);
    await page.keyboard.press('Escape');
    await removeDialog.waitFor({ state: 'detached' });
    expect(await card.getByRole('button', { name: 'Remove…' }).evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    expect(core.profiles.list().some((p) => p.id === profileId)).toBe(true);
    await card.getByRole('button', { name: 'Remove…' }).click();
    await removeDialog.getByRole('button', { name: 'Remove profile' }).click();
    await card.waitFor({ state: 'detached' });
    expect(core.profiles.list().map((p) => p.name)).toEqual(['Sandbox', PRODUCTION.name]);
    await statusBar.getByText('Active profile: Sandbox').waitFor();

    const secrets = [merchant.secret, wrongSecret].flatMap((secret) => [
      secret,
      Buffer.from(secret).toString('base64'),
      Buffer.from(`${merchant.key}:${secret}`).toString('base64'),
    ]);
    const html = await page.content();
    const files = filePathsUnder(app.dataDir);
    expect(files).toEqual(expect.arrayContaining([join(app.dataDir, 'settings.json'), app.logFile]));
    expect(readFileSync(app.logFile, 'utf8')).toMatch(/"message":"request"/);
    for (const secret of secrets) {
      expect(html).not.toContain(secret);
      for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(secret);
    }
    expect(app.consoleErrors).toEqual([]);
  });
});
