/**
 * What a package build will sign and notarize, from the environment alone, as one line per step. electron-builder
 * reads the same variables; this only says, before it starts, which steps run and which are skipped and why, so an
 * unsigned build is never mistaken for a signed one.
 */
const MAC_NOTARIZE_SETS = [
  ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
  ['APPLE_KEYCHAIN', 'APPLE_KEYCHAIN_PROFILE'],
];

const set = (env, name) => typeof env[name] === 'string' && env[name] !== '';

/** @returns {string[]} */
function signingPlan(env, platform) {
  if (platform === 'darwin') {
    const certificate = set(env, 'CSC_LINK') || set(env, 'CSC_NAME');
    const notarize = MAC_NOTARIZE_SETS.find((names) => names.every((n) => set(env, n)));
    return [
      certificate
        ? 'macOS signing: on (CSC_LINK or CSC_NAME)'
        : 'macOS signing: SKIPPED, the app will be unsigned (set CSC_LINK and CSC_KEY_PASSWORD, or CSC_NAME)',
      !certificate
        ? 'macOS notarization: SKIPPED (an unsigned app cannot be notarized)'
        : notarize
          ? `macOS notarization: on (${notarize.join(', ')})`
          : 'macOS notarization: SKIPPED (set APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER)',
    ];
  }
  if (platform === 'win32') {
    const certificate = set(env, 'WIN_CSC_LINK') || set(env, 'CSC_LINK');
    return [
      certificate
        ? 'Windows signing: on (WIN_CSC_LINK or CSC_LINK)'
        : 'Windows signing: SKIPPED, the installer will be unsigned (set WIN_CSC_LINK and WIN_CSC_KEY_PASSWORD)',
    ];
  }
  return [`${platform}: no signing step`];
}

module.exports = { signingPlan };
