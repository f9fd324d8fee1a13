/**
 * `npm run package`: electron-builder with electron-builder.yml, plus an update feed when PAYOUT_CONSOLE_UPDATE_URL
 * is set (an https:// folder holding latest.yml / latest-mac.yml and the installers). Without it the build has no
 * feed and the app never checks for updates (electron/updates.ts). Nothing is ever uploaded from here.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The arguments electron-builder gets for this environment. */
export function builderArgs(env) {
  const args = ['--publish', 'never'];
  const feed = env.PAYOUT_CONSOLE_UPDATE_URL;
  if (!feed) return args;
  if (!URL.canParse(feed) || new URL(feed).protocol !== 'https:') {
    throw new Error(`PAYOUT_CONSOLE_UPDATE_URL must be an https:// address, got "${feed}"`);
  }
  return [...args, '--config.publish.provider=generic', `--config.publish.url=${new URL(feed).href}`];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = builderArgs(process.env);
  console.log(
    process.env.PAYOUT_CONSOLE_UPDATE_URL
      ? `  • updates: on, feed ${process.env.PAYOUT_CONSOLE_UPDATE_URL}`
      : '  • updates: OFF, no feed (set PAYOUT_CONSOLE_UPDATE_URL to an https:// folder to turn them on)',
  );
  const run = spawnSync('electron-builder', [...args, ...process.argv.slice(2)], { stdio: 'inherit', shell: true });
  process.exit(run.status ?? 1);
}
