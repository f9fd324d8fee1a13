/**
 * The real OS keychain through keytar. On Linux CI this is gnome-keyring's Secret Service under
 * dbus-run-session (see .ci/run); on a laptop without a keychain it skips loudly.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeytarStore } from '../../electron/vault/keytar-store';
import { VaultUnavailableError } from '../../electron/vault/secret-store';
import { requireSystem } from '../support/system';

const service = `payout-console-test-${randomBytes(4).toString('hex')}`;
const store = createKeytarStore(service);
const probe = await store.probe();
const available = requireSystem('the OS keychain', probe.available ? null : probe.reason);

describe.runIf(available)('keychain round trip', () => {
  afterAll(async () => {
    for (const account of await store.accounts()) await store.delete(account);
  });

  it('sets, reads, replaces, lists and deletes', async () => {
    const secret = 'sk_' + randomBytes(16).toString('hex');
    expect(await store.get('profile-a')).toBeNull();
    await store.set('profile-a', secret);
    expect(await store.get('profile-a')).toBe(secret);
    await store.set('profile-a', secret + '-rotated');
    expect(await store.get('profile-a')).toBe(secret + '-rotated');
    await store.set('profile-b', 'other ✓ ünïcode | with pipes');
    expect(await store.get('profile-b')).toBe('other ✓ ünïcode | with pipes');
    expect((await store.accounts()).sort()).toEqual(['profile-a', 'profile-b']);
    expect(await store.delete('profile-a')).toBe(true);
    expect(await store.delete('profile-a')).toBe(false);
    expect(await store.get('profile-a')).toBeNull();
    expect(await store.accounts()).toEqual(['profile-b']);
  });

  it('keeps services apart', async () => {
    const other = createKeytarStore(service + '-other');
    await store.set('shared-account', 'one');
    expect(await other.get('shared-account')).toBeNull();
  });
});

describe('without a keychain', () => {
  it('refuses with a clear reason instead of storing anywhere else', async () => {
    // A D-Bus address that does not exist is what a Linux desktop without a Secret Service looks like.
    const { execFileSync } = await import('node:child_process');
    const script = `
      import { createKeytarStore } from './electron/vault/keytar-store.ts';
      const s = createKeytarStore('payout-console-nokeychain');
      const p = await s.probe();
      let setError = '';
      try { await s.set('a', 'secret-value-123'); } catch (e) { setError = e.name + ': ' + e.message; }
      console.log(JSON.stringify({ probe: p, setError }));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
      probe: { available: boolean; reason?: string };
      setError: string;
    };
    if (process.platform !== 'linux') return; // macOS and Windows keychains do not depend on D-Bus.
    expect(result.probe.available).toBe(false);
    expect(result.probe.reason).toMatch(/No OS keychain is available/);
    expect(result.setError).toMatch(/^VaultUnavailableError: No OS keychain is available/);
    expect(result.setError).not.toContain('secret-value-123');
    expect(VaultUnavailableError.name).toBe('VaultUnavailableError');
  });
});
