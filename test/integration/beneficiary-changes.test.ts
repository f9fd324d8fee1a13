/**
 * Bank-detail change history over the real router, cache and sandbox: a fetch that returns another account, IFSC or
 * UPI address than the cached one keeps the old values with the time; the same details (in another case, or ""
 * for none) are no change; the list filters the changed payees and each carries the time of its last change. The
 * CLI shows the same: `beneficiaries get` with every change, `beneficiaries changed` from the cache alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { SANDBOX_PROFILE_ID } from '../../shared/profiles';
import { EMBEDDED_SECRET, coreOnSandbox, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';
import { cliRunner } from '../support/cli';
import { epochMsToIst } from '../../shared/time';

let sandbox: Sandbox;
let core: Core;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 1 });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-bene-changes-'));
  core = coreOnSandbox(sandbox, { dataDir, vault: memoryStore() });
});
afterAll(async () => {
  await core.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('bank-detail changes', () => {
  it('keeps the old details when a fetch finds new ones, and lists only the changed payees', async () => {
    const [a, b] = sandbox.fixtures().beneficiaries.map((x) => x.id);
    const cache = core.cacheFor(SANDBOX_PROFILE_ID).beneficiaries;
    // What this cache held for A before the service's details changed: another account and UPI address.
    const old = { account_number: '999900001111', ifsc: 'UTIB0000999', vpa: 'old.payee@okaxis' };
    cache.upsert({ beneficiary_id: a!, name: 'Earlier name', ...old });
    expect(cache.get(a!)!.bankDetailsChangedAt).toBeNull();
    expect(await ok(core, 'beneficiaries.changes', { id: a! })).toEqual([]);

    // B's details again in another case and with "" for none: not a change.
    const fetchedB = await ok(core, 'beneficiaries.fetch', { id: b! });
    expect(fetchedB.bankDetailsChangedAt).toBeNull();
    cache.upsert({
      ...fetchedB,
      ifsc: fetchedB.ifsc?.toLowerCase() ?? '',
      vpa: fetchedB.vpa?.toUpperCase() ?? '',
      account_number: fetchedB.account_number ?? '',
    });
    expect(await ok(core, 'beneficiaries.changes', { id: b! })).toEqual([]);

    const again = await ok(core, 'beneficiaries.fetch', { id: a! });
    expect(again.bankDetailsChangedAt).not.toBeNull();
    expect([again.account_number, again.vpa]).not.toEqual([old.account_number, old.vpa]);
    const changes = await ok(core, 'beneficiaries.changes', { id: a! });
    expect(changes).toEqual([
      {
        changedAt: again.bankDetailsChangedAt,
        before: old,
        after: { account_number: again.account_number, ifsc: again.ifsc, vpa: again.vpa },
      },
    ]);
    const changed = await ok(core, 'beneficiaries.list', { changed: true });
    expect(changed.rows.map((r) => r.beneficiary_id)).toEqual([a]);
    const all = await ok(core, 'beneficiaries.list', {});
    expect(all.rows.length).toBeGreaterThan(1);
  });

  it('the CLI lists the changed payees from the cache, and shows the changes with the payee', async () => {
    const [a] = sandbox.fixtures().beneficiaries.map((x) => x.id);
    const changes = await ok(core, 'beneficiaries.changes', { id: a! });
    expect(changes).toHaveLength(1);
    // The CLI on the same data folder: the built-in profile's cache is the one the core wrote.
    const cli = cliRunner(dataDir);
    const listed = await cli.run('--json', 'beneficiaries', 'changed');
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      (JSON.parse(listed.stdout) as { beneficiary: { beneficiary_id: string }; changes: unknown }[]).map((r) => [
        r.beneficiary.beneficiary_id,
        r.changes,
      ]),
    ).toEqual([[a, changes]]);
    const text = await cli.run('beneficiaries', 'changed');
    expect(text.stdout).toContain(
      `${epochMsToIst(Date.parse(changes[0]!.changedAt))} IST: account ${changes[0]!.before.account_number} (${changes[0]!.before.ifsc})`,
    );

    const shown = await cli.run('beneficiaries', 'get', a!);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`BANK DETAILS CHANGED on ${epochMsToIst(Date.parse(changes[0]!.changedAt))} IST`);
    const json = await cli.run('--json', 'beneficiaries', 'get', a!);
    expect(JSON.parse(json.stdout)).toMatchObject({ beneficiary_id: a, changes });
  });
});
