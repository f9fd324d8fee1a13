/**
 * A core whose built-in Sandbox profile talks to a sandbox a test started (with the secret "embedded"), on a
 * data folder of the test's, with a silent log: the set-up of the integration tests that drive the router.
 */
import { createCore, type Core, type CoreOptions } from '../../electron/core';
import { createLogger, createRedactor } from '../../electron/log';
import type { Sandbox } from '../../electron/sandbox/server';
import type { SecretStore } from '../../electron/vault/secret-store';

export const EMBEDDED_SECRET = 'embedded';

export function coreOnSandbox(
  sandbox: Sandbox,
  options: { dataDir: string; vault: SecretStore } & Partial<CoreOptions>,
): Core {
  const redactor = createRedactor();
  return createCore({
    appVersion: '0.0.0',
    sandbox: { url: sandbox.url, key: 'test_key', secret: EMBEDDED_SECRET },
    log: createLogger('test', () => {}, redactor),
    redactor,
    ...options,
  });
}
