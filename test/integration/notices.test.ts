/**
 * A file moved aside is told to the user: a tampered cache when it is opened, an unreadable settings file at start.
 * Through the IPC router on a real data folder: the event pushed at once, the list, the reveal by notice id (the file
 * manager is asked to show exactly the moved file) and the dismissal.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { openCache } from '../../electron/cache/database';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import { addDays } from '../../shared/time';
import { TEST_NOW, TEST_TODAY } from '../support/clock';
import { EMBEDDED_SECRET, call, coreOnSandbox, nextEvent, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 5 });
});
afterAll(() => sandbox?.close());

let dataDir: string;
let core: Core | null = null;
const revealed: string[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'pc-notices-'));
  revealed.length = 0;
});
afterEach(async () => {
  await core?.close();
  core = null;
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () =>
  coreOnSandbox(sandbox, {
    dataDir,
    vault: memoryStore(),
    exportTargets: { reveal: (file) => void revealed.push(file) },
  });

describe('files moved aside', () => {
  it('a cache with a planted trigger: pushed as an event, listed, revealed by id and dismissed', async () => {
    const file = join(dataDir, 'cache', 'sandbox.sqlite');
    openCache(file, { now: () => new Date(TEST_NOW) }).close();
    const db = new Database(file);
    db.exec('CREATE TRIGGER planted AFTER INSERT ON settlements BEGIN DELETE FROM settlements; END');
    db.close();

    core = start();
    const pushed = nextEvent(core, 'fileMovedAside');
    const day = addDays(TEST_TODAY, -1);
    expect(await ok(core, 'settlements.totals', { from: day, to: day })).toMatchObject({ count: 0 });
    const notice = await pushed;
    expect(notice).toMatchObject({ kind: 'cache', movedTo: expect.stringContaining('sandbox.sqlite.corrupt-') });
    expect(notice.message).toMatch(/trigger "planted"/);
    expect(notice.message).toContain(notice.movedTo);

    expect(await ok(core, 'notices.list', undefined)).toEqual([notice]);
    expect(await ok(core, 'notices.reveal', { id: notice.id })).toEqual({ revealed: true });
    expect(revealed).toEqual([notice.movedTo]);
    expect(await ok(core, 'notices.reveal', { id: 'not-a-notice' })).toEqual({ revealed: false });
    expect(await ok(core, 'notices.dismiss', { id: notice.id })).toEqual({ dismissed: true });
    expect(await ok(core, 'notices.list', undefined)).toEqual([]);
  });

  it('an unreadable settings file is a notice from the start', async () => {
    writeFileSync(join(dataDir, 'settings.json'), '{"version":1,');
    core = start();
    const [notice] = await ok(core, 'notices.list', undefined);
    expect(notice).toMatchObject({ kind: 'settings', movedTo: expect.stringContaining('settings.json.unreadable-') });
    expect(notice!.message).toMatch(/could not be read/);
  });

  it('a folder where the cache belongs is moved aside and the profile keeps working', async () => {
    mkdirSync(join(dataDir, 'cache', 'sandbox.sqlite'), { recursive: true });
    core = start();
    const day = addDays(TEST_TODAY, -1);
    const reply = await call(core, 'settlements.totals', { from: day, to: day });
    expect(reply.ok).toBe(true);
    expect((await ok(core, 'notices.list', undefined))[0]?.message).toMatch(/other than a file/);
  });
});
