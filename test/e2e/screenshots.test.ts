/**
 * Pictures of the Settings screen in both colour schemes, for people to look at (test-results/screenshots/):
 * the built-in profile, a production profile without a secret, and a custom one whose connection test passed;
 * then the payout settings (expected turnaround per method, NEFT batches, the watch list's advance checks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eSystemReady, startApp, type RunningApp, saveScreenshots } from './support';

const ready = await e2eSystemReady();

describe.runIf(ready)('Settings screenshots', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      async prepare({ core, sandbox, merchant }) {
        core.profiles.create({
          name: 'HDFC payouts',
          environment: 'production',
          baseUrl: 'https://api.payments.example.in',
          aiUrl: 'https://ai.payments.example.in',
          key: 'live_4f9a21c0',
        });
        const local = core.profiles.create({
          name: 'Local sandbox',
          environment: 'custom',
          baseUrl: sandbox.url,
          aiUrl: `${sandbox.url}/ai`,
          key: merchant.key,
        });
        await core.credentials.set(local.id, merchant.secret);
        core.profiles.activate(local.id);
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('saves the Settings screen in light and dark', async () => {
    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    const card = page.getByRole('article', { name: 'Local sandbox' });
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('status').getByText('Connected').waitFor();
    const statusBar = page.getByRole('contentinfo');
    await statusBar.getByText('Active profile: Local sandbox').waitFor();
    await statusBar.getByText(/^Online since/).waitFor();

    await saveScreenshots(page, 'settings');

    const payouts = page.getByRole('region', { name: 'Payouts: expected turnaround and the watch list' });
    await payouts.getByRole('form', { name: 'Payout settings' }).waitFor();
    await payouts.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await saveScreenshots(page, 'settings-payouts');
    expect(app.consoleErrors).toEqual([]);
  });
});
