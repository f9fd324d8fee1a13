/**
 * Exports started over IPC, as the renderer starts them: a core with the built-in sandbox profile, its cache
 * filled by a sync over IPC, then `exports.*` calls. Each export runs in a worker thread (registering tsx, as
 * from sources), reports progress and its end as events, can be cancelled and shown in the file manager by job
 * id; a dismissed save dialog starts nothing, a target that cannot be written fails cleanly, and the cache cannot
 * be cleared under a running export.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../electron/sandbox/server';
import type { ExportRequest } from '../../shared/exports';
import type { IpcEvent } from '../../shared/ipc/channels';
import { exportFinishedEvent, exportProgressEvent } from '../../shared/ipc/exports';
import { addDays } from '../../shared/time';
import { memoryStore } from '../support/memory-store';
import type { Core } from '../../electron/core';
import { EMBEDDED_SECRET, call, coreOnSandbox, nextEvent, ok } from '../support/core';
import { startTestSandbox } from '../support/sandbox';
import { TEST_TODAY } from '../support/clock';

// Two days big enough that an export is still writing when the first progress event arrives (one every 200 ms).
const PER_DAY = 12_000;
const DAYS = 2;
const today = TEST_TODAY;
const range = { from: addDays(today, -DAYS), to: addDays(today, -1) };

let sandbox: Sandbox;
let core: Core;
let dataDir: string;
let outDir: string;
const events: { event: IpcEvent; payload: Record<string, unknown> }[] = [];
/** What the save dialog answers; every call is recorded. */
let choose: (name: string, dir: string) => string | null;
const asked: { name: string; dir: string }[] = [];
const revealed: string[] = [];

/** The first event (already seen or still to come) that matches. */
function seenOrNext(event: IpcEvent, match: (p: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const seen = events.find((e) => e.event === event && match(e.payload));
  if (seen) return Promise.resolve(seen.payload);
  return nextEvent(core, event, (p) => match(p as Record<string, unknown>)) as Promise<Record<string, unknown>>;
}

const finished = (jobId: string) => seenOrNext('exportFinished', (p) => p['jobId'] === jobId);

const SETTLEMENTS: ExportRequest = { kind: 'settlements', format: 'xlsx', filter: range };

async function start(request: ExportRequest): Promise<{ jobId: string; file: string }> {
  const started = await ok(core, 'exports.start', request);
  if (started.jobId === null || started.file === null) throw new Error('the export did not start');
  return { jobId: started.jobId, file: started.file };
}

const partFiles = () => readdirSync(outDir).filter((n) => n.endsWith('.part'));

beforeAll(async () => {
  sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: PER_DAY });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-export-jobs-'));
  outDir = join(dataDir, 'chosen');
  mkdirSync(outDir);
  core = coreOnSandbox(sandbox, {
    dataDir,
    vault: memoryStore(),
    exportTargets: {
      choose: async (name, dir) => {
        asked.push({ name, dir });
        return choose(name, dir);
      },
      reveal: (file) => void revealed.push(file),
    },
  });
  core.events.subscribe((event, payload) => events.push({ event, payload: payload as Record<string, unknown> }));
  const { jobId } = await ok(core, 'sync.start', range);
  const synced = await seenOrNext('syncFinished', (p) => p['jobId'] === jobId);
  expect(synced).toMatchObject({ summary: { status: 'completed', records: DAYS * PER_DAY } });
  choose = (name) => join(outDir, name);
});

afterAll(async () => {
  await core?.close();
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('exports over IPC', () => {
  it('writes the workbook in a worker with progress events, then shows it in the folder by job id', async () => {
    const { jobId, file } = await start(SETTLEMENTS);
    expect(core.exports.isRunning('sandbox')).toBe(true);
    expect(asked.at(-1)).toEqual({
      name: `sandbox-settlements-${range.from}-to-${range.to}.xlsx`,
      dir: join(dataDir, 'exports'),
    });
    expect(file).toBe(join(outDir, asked.at(-1)!.name));

    const end = exportFinishedEvent.parse(await finished(jobId));
    expect(end).toMatchObject({ jobId, profileId: 'sandbox', status: 'completed', file, rows: DAYS * PER_DAY });
    expect(core.exports.isRunning('sandbox')).toBe(false);
    const progress = events
      .filter((e) => e.event === 'exportProgress' && e.payload['jobId'] === jobId)
      .map((e) => exportProgressEvent.parse(e.payload));
    expect(progress[0]).toMatchObject({ phase: 'counting', kind: 'settlements', profileId: 'sandbox' });
    expect(progress.some((p) => p.phase === 'writing' && p.rowsTotal === DAYS * PER_DAY)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ phase: 'finishing', rowsWritten: DAYS * PER_DAY });
    const written = progress.map((p) => p.rowsWritten);
    expect(written).toEqual([...written].sort((a, b) => a - b));

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    expect(book.worksheets.map((s) => s.name)).toEqual([
      'Summary',
      'Settlements',
      'Exceptions',
      'Changes',
      'Manifest',
      'Bank credits',
      'Audit',
    ]);
    expect(book.getWorksheet('Settlements')!.rowCount).toBe(DAYS * PER_DAY + 1);
    expect(partFiles()).toEqual([]);

    expect(await ok(core, 'exports.reveal', { jobId })).toEqual({ revealed: true });
    expect(revealed).toEqual([file]);
    expect(await ok(core, 'exports.reveal', { jobId: 'no-such-job' })).toEqual({ revealed: false });
    expect(revealed).toEqual([file]);
  });

  it('runs list exports in the worker too', async () => {
    const { jobId, file } = await start({ kind: 'balances', format: 'csv' });
    expect(exportFinishedEvent.parse(await finished(jobId))).toMatchObject({ status: 'completed', file, rows: 0 });
    expect(existsSync(file)).toBe(true);
  });

  it('cancels a running export: the file it would replace is untouched, and no temporary file is left', async () => {
    // The user agreed to replace an earlier export; a cancelled one must leave that file as it was.
    const target = join(outDir, 'replace-me.xlsx');
    writeFileSync(target, 'the earlier export');
    choose = () => target;
    try {
      const { jobId, file } = await start(SETTLEMENTS);
      expect(file).toBe(target);
      // Cancelled once rows are being written; were the export to end first, this says so rather than time out.
      const writing = await Promise.race([
        seenOrNext('exportProgress', (p) => p['jobId'] === jobId && p['phase'] === 'writing'),
        finished(jobId),
      ]);
      expect(writing).toMatchObject({ phase: 'writing' });
      expect(await ok(core, 'exports.cancel', { jobId })).toEqual({ cancelled: true });
      const end = exportFinishedEvent.parse(await finished(jobId));
      expect(end).toMatchObject({ jobId, status: 'cancelled', file: null, rows: 0 });
      expect(readFileSync(target, 'utf8')).toBe('the earlier export');
      expect(partFiles()).toEqual([]);
      expect(await ok(core, 'exports.cancel', { jobId })).toEqual({ cancelled: false });
      expect(await ok(core, 'exports.reveal', { jobId })).toEqual({ revealed: false });
    } finally {
      choose = (name) => join(outDir, name);
    }
  });

  it('gives two exports of the same thing started together two files, and both complete', async () => {
    // The person saves where the dialog opens, under the name it offers, twice before the first has finished.
    choose = (name, dir) => join(dir, name);
    const BALANCES: ExportRequest = { kind: 'balances', format: 'xlsx' };
    try {
      const [one, two] = await Promise.all([start(BALANCES), start(BALANCES)]);
      const name = `sandbox-balances-${today}`;
      expect(asked.slice(-2).map((a) => a.name)).toEqual([`${name}.xlsx`, `${name}-2.xlsx`]);
      expect([one.file, two.file]).toEqual([
        join(dataDir, 'exports', `${name}.xlsx`),
        join(dataDir, 'exports', `${name}-2.xlsx`),
      ]);
      for (const { jobId, file } of [one, two]) {
        expect(await finished(jobId)).toMatchObject({ status: 'completed', file });
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(file);
        expect(book.worksheets.map((w) => w.name).at(-1)).toBe('Audit');
      }
    } finally {
      choose = (name) => join(outDir, name);
    }
  });

  it('writes two templates asked for together to two files, each shown in its folder by its own job id', async () => {
    choose = (name, dir) => join(dir, name);
    try {
      const saved = await Promise.all([
        ok(core, 'beneficiaries.importTemplate', undefined),
        ok(core, 'beneficiaries.importTemplate', undefined),
      ]);
      const files = saved.map((s) => s.file!);
      expect(files.map((f) => basename(f)).sort()).toEqual([
        'sandbox-beneficiary-import-template-2.xlsx',
        'sandbox-beneficiary-import-template.xlsx',
      ]);
      for (const { file, jobId } of saved) {
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(file!);
        expect(book.worksheets.length).toBeGreaterThan(0);
        expect(await ok(core, 'exports.reveal', { jobId: jobId! })).toEqual({ revealed: true });
        expect(revealed.at(-1)).toBe(file);
      }
    } finally {
      choose = (name) => join(outDir, name);
    }
  });

  it('refuses a file another running export is writing, naming it', async () => {
    const target = join(outDir, 'same-place.xlsx');
    choose = () => target;
    const BALANCES: ExportRequest = { kind: 'balances', format: 'xlsx' };
    try {
      const first = await start(BALANCES);
      const refused = await call(core, 'exports.start', BALANCES);
      expect(refused).toMatchObject({
        ok: false,
        error: { message: `Another export is writing ${target} now; choose another name.` },
      });
      expect(await finished(first.jobId)).toMatchObject({ status: 'completed', file: target });
    } finally {
      choose = (name) => join(outDir, name);
    }
  });

  it('starts nothing when the save dialog is dismissed', async () => {
    choose = () => null;
    try {
      const before = events.length;
      expect(await ok(core, 'exports.start', SETTLEMENTS)).toEqual({ jobId: null, file: null });
      expect(core.exports.isRunning('sandbox')).toBe(false);
      expect(events.slice(before).filter((e) => e.event.startsWith('export'))).toEqual([]);
    } finally {
      choose = (name) => join(outDir, name);
    }
  });

  it('fails the job when the chosen place cannot be written, leaving nothing', async () => {
    const blocker = join(outDir, 'a-file-not-a-folder');
    writeFileSync(blocker, '');
    choose = (name) => join(blocker, name);
    try {
      const { jobId } = await start(SETTLEMENTS);
      const end = exportFinishedEvent.parse(await finished(jobId));
      expect(end).toMatchObject({ jobId, status: 'failed', file: null });
      expect(end.error).toMatch(/EEXIST|ENOTDIR/);
      expect(readdirSync(dirname(blocker))).not.toContainEqual(expect.stringMatching(/\.part$/));
      expect(await ok(core, 'exports.reveal', { jobId })).toEqual({ revealed: false });
    } finally {
      choose = (name) => join(outDir, name);
    }
  });

  it('refuses to clear the cache while an export reads it, and clears it once the export is done', async () => {
    const { jobId } = await start(SETTLEMENTS);
    const refused = await call(core, 'cache.clear', { profileId: 'sandbox' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CACHE_BUSY' } });
    expect(refused.ok || refused.error.message).toMatch(/export/);
    expect(await finished(jobId)).toMatchObject({ status: 'completed' });
    expect(await ok(core, 'cache.clear', { profileId: 'sandbox' })).toMatchObject({ cleared: true });
  });
});

describe('an export of the filter on screen', () => {
  it('names the gateway and every filter in the file name, and holds exactly the filtered records', async () => {
    // The test before cleared the cache.
    const sync = await ok(core, 'sync.start', range);
    await seenOrNext('syncFinished', (p) => p['jobId'] === sync.jobId);
    const gateway = core.cacheFor('sandbox').settlements.page({ ...range, limit: 1 }).rows[0]!.pg;
    const filter = { ...range, pg: gateway, exceptionsOnly: true, search: 'pay_' };
    const { jobId } = await start({ kind: 'settlements', format: 'csv', filter });
    expect(asked.at(-1)!.name).toBe(
      `sandbox-settlements-${range.from}-to-${range.to}-${gateway.toLowerCase()}-exceptions-search-pay.csv`,
    );
    const end = exportFinishedEvent.parse(await finished(jobId));
    expect(end).toMatchObject({ status: 'completed' });
    expect(end.rows).toBe(core.cacheFor('sandbox').settlements.totals(filter).count);
    expect(end.rows).toBeGreaterThan(0);
  });
});
