/**
 * The data folder the desktop app uses (Electron's `userData` for the product name), so the CLI and the app
 * share profiles and caches by default.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'Payout Console';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', PRODUCT_NAME);
  return join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), PRODUCT_NAME);
}
