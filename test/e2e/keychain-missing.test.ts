/** Without a keychain the Settings screen says so plainly, offers no secret field, and a test names the cause. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VaultUnavailableError, type SecretStore } from '../../electron/vault/secret-store';
import { e2eSystemReady, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

const REASON = 'No OS keychain is available, so the secret cannot be stored (no Secret Service on this bus).';
const refuse = async (): Promise<never> => {
  throw new VaultUnavailableError(REASON);
};
const missingKeychain: SecretStore = {
  probe: async () => ({ available: false, reason: REASON }),
  get: refuse,
  set: refuse,
  delete: refuse,
  accounts: refuse,
};

describe.runIf(ready)('Settings without an OS keychain', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ vault: missingKeychain });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows the keychain problem, offers no secret field, and the test reports it', async () => {
    const { page, core, sandbox, merchant } = app;
    core.profiles.create({
      name: 'Local sandbox',
      environment: 'custom',
      baseUrl: sandbox.url,
      aiUrl: `${sandbox.url}/ai`,
      key: merchant.key,
    });
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    const card = page.getByRole('article', { name: 'Local sandbox' });
    await card.getByText('Keychain unavailable').waitFor();
    expect(await card.getByRole('alert').textContent()).toBe(`The secret cannot be stored. ${REASON}`);
    expect(await card.getByRole('button', { name: /secret/i }).count()).toBe(0);

    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('status').getByText('Keychain unavailable.').waitFor();
    expect(await card.getByRole('status').textContent()).toBe(`Keychain unavailable. ${REASON}`);

    // The built-in profile needs no keychain: its test still passes.
    const sandboxCard = page.getByRole('article', { name: 'Sandbox', exact: true });
    await sandboxCard.getByRole('button', { name: 'Test connection' }).click();
    await sandboxCard.getByRole('status').getByText('Connected').waitFor();
    expect(app.consoleErrors).toEqual([]);
  });
});
