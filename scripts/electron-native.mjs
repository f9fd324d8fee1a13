#!/usr/bin/env node
/**
 * Makes sure an Electron-ABI build of better-sqlite3 exists at
 * `.electron-native/<electron version>-<platform>-<arch>/better_sqlite3.node`.
 *
 * Tests and the CLI run under Node and load node_modules/better-sqlite3/build/Release, which this script never
 * touches: it works on a copy of the package in a temporary folder, tries the published prebuilt binary first
 * (prebuild-install) and compiles against Electron's headers second (node-gyp). Electron then loads the result through
 * better-sqlite3's `nativeBinding` option (electron/native-binding.ts). keytar needs none of this: it is an N-API
 * addon, and N-API's ABI is the same in Node and Electron.
 *
 * Usage: node scripts/electron-native.mjs [--arch x64|arm64|…] [--platform linux|darwin|win32] [--electron 43.8.12]
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const PREBUILD_TIMEOUT_MS = 2 * 60 * 1000;
// Compiling SQLite takes a few minutes on a small machine; a hung download must not block a build for ever.
const NODE_GYP_TIMEOUT_MS = 20 * 60 * 1000;
const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';
const NETWORK_ERROR_CODE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b[^\n]*/;

// npm passes its configuration to scripts as npm_config_* variables. These would retarget the child builds (this
// machine's npmrc sets nodedir to the system Node headers, which would yield a Node-ABI build), so they are dropped.
const RETARGETING_NPM_CONFIG =
  /^npm_config_(nodedir|runtime|target|arch|platform|disturl|dist_url|build_from_source)$/i;

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    arch: { type: 'string', default: process.arch },
    platform: { type: 'string', default: process.platform },
    electron: { type: 'string' },
  },
});
const electronVersion =
  args.electron ?? JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
const target = join(
  root,
  '.electron-native',
  `${electronVersion}-${args.platform}-${args.arch}`,
  'better_sqlite3.node',
);
const label = `better-sqlite3 for Electron ${electronVersion} (${args.platform}-${args.arch})`;

function childEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !RETARGETING_NPM_CONFIG.test(key)));
}

/** Runs a Node script in `cwd`; returns null on success, else why it failed in one line. */
function runNode(script, scriptArgs, cwd, timeout) {
  const result = spawnSync(process.execPath, [script, ...scriptArgs], {
    cwd,
    env: childEnv(),
    encoding: 'utf8',
    timeout,
    killSignal: 'SIGKILL',
  });
  if (result.error?.code === 'ETIMEDOUT') return `timed out after ${timeout / 1000} s`;
  if (result.error) return result.error.message;
  if (result.status === 0) return null;
  const output = `${result.stderr}\n${result.stdout}`;
  const network = networkFailure(output);
  if (network) return `no network access (${network})`;
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const error = lines.find((line) => /\bError:/.test(line)) ?? lines.findLast((line) => /err/i.test(line));
  return error?.replace(/^gyp ERR! (stack )?/, '') ?? `exited with status ${result.status}`;
}

// prebuild-install prints the socket error code; node-gyp only says "network connectivity" after the URL it fetched.
function networkFailure(output) {
  const code = NETWORK_ERROR_CODE.exec(output);
  if (code) return code[0].trim();
  if (!/network connectivity/i.test(output)) return null;
  const url = /GET (\S+)/.exec(output);
  return url ? `could not download ${url[1]}` : 'a download failed';
}

function findNodeGyp() {
  const candidates = [
    join(root, 'node_modules/node-gyp/bin/node-gyp.js'),
    join(dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
  ];
  return candidates.find((candidate) => existsSync(candidate));
}

function viaPrebuildInstall(workDir) {
  const bin = join(root, 'node_modules/prebuild-install/bin.js');
  if (!existsSync(bin)) return 'prebuild-install is not in node_modules';
  return runNode(
    bin,
    ['--runtime', 'electron', '--target', electronVersion, '--arch', args.arch, '--platform', args.platform],
    workDir,
    PREBUILD_TIMEOUT_MS,
  );
}

function viaNodeGyp(workDir) {
  if (args.platform !== process.platform) return `cannot compile for ${args.platform} on ${process.platform}`;
  const bin = findNodeGyp();
  if (!bin) return 'node-gyp is neither in node_modules nor bundled with npm';
  return runNode(
    bin,
    [
      'rebuild',
      '--release',
      '--runtime=electron',
      `--target=${electronVersion}`,
      `--arch=${args.arch}`,
      `--dist-url=${ELECTRON_HEADERS_URL}`,
    ],
    workDir,
    NODE_GYP_TIMEOUT_MS,
  );
}

function install(built) {
  mkdirSync(dirname(target), { recursive: true });
  // Copy then rename, so an interrupted run never leaves a half-written file that the fast path would accept.
  const partial = `${target}.partial`;
  copyFileSync(built, partial);
  renameSync(partial, target);
}

function main() {
  const shown = relative(root, target);
  if (existsSync(target)) {
    console.log(`electron-native: ${label} is ready at ${shown}`);
    return 0;
  }
  const workDir = mkdtempSync(join(tmpdir(), 'electron-native-'));
  try {
    // The package without its Node-ABI build, so nothing below can mistake that one for the result.
    cpSync(join(root, 'node_modules/better-sqlite3'), workDir, {
      recursive: true,
      filter: (source) => !/[\\/]better-sqlite3[\\/](build|node_modules)([\\/]|$)/.test(source),
    });
    const built = join(workDir, 'build/Release/better_sqlite3.node');
    const failures = [];
    for (const [name, attempt] of [
      ['prebuild-install', viaPrebuildInstall],
      ['node-gyp', viaNodeGyp],
    ]) {
      const failure = attempt(workDir);
      if (failure === null && existsSync(built)) {
        install(built);
        console.log(`electron-native: ${label} obtained with ${name} and saved to ${shown}`);
        return 0;
      }
      failures.push(`  ${name}: ${failure ?? 'finished without producing build/Release/better_sqlite3.node'}`);
    }
    const offline = failures.some((line) => line.includes('no network access'));
    console.error(
      [
        `electron-native: could not get ${label}.`,
        ...failures,
        offline
          ? '  Both need the internet: prebuilt binaries come from GitHub releases, Electron headers from electronjs.org.'
          : '  Compiling needs Python 3, make and a C++ compiler.',
        `  Re-run \`node scripts/electron-native.mjs\` where that is available, or place a better_sqlite3.node built for this Electron at ${shown}.`,
      ].join('\n'),
    );
    return 1;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

process.exitCode = main();
