/**
 * electron-builder `beforePack` hook: puts the Electron-ABI better-sqlite3 for the platform and arch being packed
 * where `extraResources` in electron-builder.yml picks it up (`.electron-native/pack/${os}-${arch}/`). The folder name
 * needs the Electron version, which electron-builder has no file macro for, hence this hook. It also prints which
 * signing steps the environment enables (signing-plan.cjs).
 */
const { execFileSync } = require('node:child_process');
const { copyFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');
const { Arch } = require('electron-builder');
const { signingPlan } = require('./signing-plan.cjs');

const root = path.join(__dirname, '..');

/** electron-builder's arch names, in the Node names prebuild-install and node-gyp expect. */
function nodeArch(arch) {
  const name = Arch[arch];
  if (name === 'universal') {
    throw new Error('Universal macOS builds need one better-sqlite3 per arch merged; pack x64 and arm64 separately.');
  }
  return name === 'armv7l' ? 'arm' : name;
}

module.exports = async function beforePack(context) {
  for (const line of signingPlan(process.env, context.electronPlatformName)) console.log(`  • ${line}`);
  const arch = nodeArch(context.arch);
  const platform = context.electronPlatformName;
  const electronVersion = context.packager.info.framework.version;
  execFileSync(
    process.execPath,
    [
      path.join(root, 'scripts/electron-native.mjs'),
      '--arch',
      arch,
      '--platform',
      platform,
      '--electron',
      electronVersion,
    ],
    { stdio: 'inherit' },
  );
  const staged = path.join(
    root,
    '.electron-native/pack',
    `${context.packager.platform.buildConfigurationKey}-${Arch[context.arch]}`,
  );
  mkdirSync(staged, { recursive: true });
  copyFileSync(
    path.join(root, '.electron-native', `${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node'),
    path.join(staged, 'better_sqlite3.node'),
  );
};
