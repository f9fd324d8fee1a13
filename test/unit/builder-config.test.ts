/**
 * electron-builder.yml is what `npm run package` reads, and the Electron binary it needs cannot run here, so the
 * config is checked as data: electron-builder's own schema, the fuses, what ships, the icons and the signing plan.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { updatesEnabled } from '../../electron/updates';
import { ICON_DIR, renderIcons } from '../../scripts/icons.mjs';
import { builderArgs } from '../../scripts/package.mjs';

const require = createRequire(import.meta.url);
const { signingPlan } = require('../../scripts/signing-plan.cjs') as {
  signingPlan: (env: Record<string, string>, platform: string) => string[];
};
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration: (config: unknown, logger: { isEnabled: boolean; add(): void }) => Promise<void>;
};

const root = new URL('../../', import.meta.url);
const config = parse(readFileSync(new URL('electron-builder.yml', root), 'utf8')) as Record<string, unknown> & {
  files: string[];
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  mac: Record<string, unknown>;
  win: Record<string, unknown>;
  nsis: Record<string, unknown>;
};

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    await expect(validateConfiguration(structuredClone(config), { isEnabled: false, add() {} })).resolves.toBe(
      undefined,
    );
  });

  it('turns off every fuse the app does not need and turns on asar integrity, asar-only loading and cookie encryption', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('ships only the built bundles: no sources, tests, harness, benchmarks or scripts', () => {
    const included = config.files.filter((pattern) => !pattern.startsWith('!'));
    expect(included).toEqual(['out/**', 'package.json']);
    // Native addons are the only files outside the archive, so asar integrity covers everything else.
    expect(config.asarUnpack.every((pattern) => pattern.endsWith('.node'))).toBe(true);
    // The test harness is built into test-results/, never into out/.
    const harnessPaths = readFileSync(new URL('test/harness/paths.ts', root), 'utf8');
    expect(harnessPaths).not.toMatch(/['"`]out\//);
  });

  it('builds a DMG and an NSIS installer for all users, with the hardened runtime and no weakening entitlement', () => {
    expect(config.mac).toMatchObject({ target: 'dmg', hardenedRuntime: true, notarize: true });
    expect(config.win).toMatchObject({ target: 'nsis', verifyUpdateCodeSignature: true });
    expect(config.nsis).toMatchObject({ perMachine: true });
    const entitlements = readFileSync(new URL(String(config.mac['entitlements']), root), 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    expect(entitlements).not.toMatch(/disable-library-validation|allow-unsigned-executable-memory|allow-dyld/);
  });

  it('keeps signing material out of the file: certificates and passwords come from the environment', () => {
    const text = readFileSync(new URL('electron-builder.yml', root), 'utf8');
    expect(text).not.toMatch(/^\s*(cscLink|cscKeyPassword|certificatePassword|certificateFile)\s*:/m);
    expect(config['forceCodeSigning']).toBe(false);
  });

  it('has every icon file, exactly as scripts/icons.mjs renders them from resources/icon.svg', () => {
    const rendered = renderIcons();
    for (const [name, bytes] of Object.entries(rendered)) {
      expect(readFileSync(`${ICON_DIR}/${name}`).equals(bytes), `${name} is stale: run node scripts/icons.mjs`).toBe(
        true,
      );
    }
    const png = rendered['icon.png'];
    expect(png.readUInt32BE(16)).toBe(1024);
    const ico = rendered['icon.ico'];
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(7);
    const icns = rendered['icon.icns'];
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect([config['icon'], config.mac['icon'], config.win['icon']]).toEqual([
      'resources/icons/icon.png',
      'resources/icons/icon.icns',
      'resources/icons/icon.ico',
    ]);
  });
});

describe('signing plan', () => {
  it('says plainly that an unconfigured build is unsigned', () => {
    expect(signingPlan({}, 'darwin')).toEqual([
      expect.stringContaining('macOS signing: SKIPPED'),
      expect.stringContaining('macOS notarization: SKIPPED'),
    ]);
    expect(signingPlan({}, 'win32')).toEqual([expect.stringContaining('Windows signing: SKIPPED')]);
  });

  it('names the variables that turn each step on', () => {
    const mac = signingPlan(
      { CSC_LINK: 'cert.p12', APPLE_API_KEY: 'k.p8', APPLE_API_KEY_ID: 'id', APPLE_API_ISSUER: 'iss' },
      'darwin',
    );
    expect(mac).toEqual([
      'macOS signing: on (CSC_LINK or CSC_NAME)',
      'macOS notarization: on (APPLE_API_KEY, APPLE_API_KEY_ID, APPLE_API_ISSUER)',
    ]);
    expect(signingPlan({ CSC_LINK: 'cert.p12' }, 'darwin')[1]).toContain('SKIPPED');
    expect(signingPlan({ WIN_CSC_LINK: 'cert.pfx' }, 'win32')).toEqual([
      'Windows signing: on (WIN_CSC_LINK or CSC_LINK)',
    ]);
  });
});

describe('shipped dependencies', () => {
  it('lists only packages that code bundled into the app imports', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { dependencies: object };
    const sources = execFileSync('git', ['ls-files', 'electron', 'shared'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(new URL(file, root), 'utf8'))
      .join('\n');
    for (const name of Object.keys(pkg.dependencies)) {
      expect(sources, `${name} is shipped but nothing imports it`).toMatch(
        new RegExp(`from '${name.replace('/', '\\/')}(/[^']*)?'`),
      );
    }
  });
});

describe('updates', () => {
  it('are off unless the build is given an https feed, and nothing is ever uploaded', () => {
    expect(builderArgs({})).toEqual(['--publish', 'never']);
    expect(builderArgs({ PAYOUT_CONSOLE_UPDATE_URL: 'https://updates.example.in/payout-console/' })).toEqual([
      '--publish',
      'never',
      '--config.publish.provider=generic',
      '--config.publish.url=https://updates.example.in/payout-console/',
    ]);
    expect(() => builderArgs({ PAYOUT_CONSOLE_UPDATE_URL: 'http://updates.example.in/' })).toThrow(/https/);
  });

  it('are checked only by a packaged app whose build wrote app-update.yml', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-updates-'));
    try {
      expect(updatesEnabled(true, dir)).toBe(false);
      writeFileSync(join(dir, 'app-update.yml'), 'provider: generic\nurl: https://updates.example.in/\n');
      expect(updatesEnabled(true, dir)).toBe(true);
      expect(updatesEnabled(false, dir)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
