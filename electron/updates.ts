/**
 * Whether the app looks for updates. electron-updater reads its feed from `app-update.yml` beside app.asar, which
 * electron-builder writes only when the build was given one (`PAYOUT_CONSOLE_UPDATE_URL`, scripts/package.mjs). No
 * file, no feed: updates are off, and a development run never checks. What it downloads is checked before it is
 * installed: the SHA-512 in the feed, and the code signature (Squirrel.Mac on macOS; on Windows the installer must be
 * signed by the same publisher as the running app, `verifyUpdateCodeSignature` in electron-builder.yml).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const UPDATE_CONFIG_FILE = 'app-update.yml';

export function updatesEnabled(isPackaged: boolean, resourcesPath: string): boolean {
  return isPackaged && existsSync(join(resourcesPath, UPDATE_CONFIG_FILE));
}
