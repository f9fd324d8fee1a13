/**
 * Secret containment of export files: a profile whose merchant secret is known fills its cache through the app
 * (a settlement sync, beneficiary fetches, payout lookups, accounts and balances, all accepted by a sandbox that
 * checks that secret), then every export kind is written in both formats over IPC, by the worker, to the default
 * exports folder. Every part of every XLSX (unzipped) and every CSV's bytes, and every export event, are searched
 * for the secret and its encodings: zero hits. secret-containment.test.ts covers the rest of the data folder.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core';
import { createXlsxWriter } from '../../electron/export/xlsx-writer';
import { createLogger, createRedactor } from '../../electron/log';
import type { Sandbox } from '../../electron/sandbox/server';
import { EXPORT_FORMATS, EXPORT_KINDS, type ExportRequest } from '../../shared/exports';
import { addDays } from '../../shared/time';
import { zipParts } from '../support/export-files';
import { hook } from '../support/sandbox-http';
import { nextEvent, ok } from '../support/core';
import { memoryStore } from '../support/memory-store';
import { type Haystack, filesUnder, hitsIn } from './support';
import { startTestSandbox } from '../support/sandbox';
import { TEST_TODAY, testClock } from '../support/clock';

const SECRET = 'sk_live_' + randomBytes(16).toString('hex');
const KEY = 'merchant_' + randomBytes(4).toString('hex');
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** What must never appear: the secret, its base64, and the Basic credentials made from it. */
const NEEDLES: [string, string][] = [
  ['secret', SECRET],
  ['base64(secret)', b64(SECRET)],
  ['base64(key:secret)', b64(`${KEY}:${SECRET}`)],
];

let merchant: Sandbox;
let core: Core;
let dataDir: string;
const exportEvents: string[] = [];

/** The texts of an export file to search: an XLSX's raw bytes and each inflated part, a CSV's bytes. */
async function haystacksOf(file: string): Promise<Haystack[]> {
  const raw = { label: basename(file), text: readFileSync(file).toString('utf8') };
  if (!file.endsWith('.xlsx')) return [raw];
  const parts = await zipParts(file);
  return [raw, ...[...parts].map(([part, text]) => ({ label: `${basename(file)}:${part}`, text }))];
}

beforeAll(async () => {
  merchant = await startTestSandbox({ key: KEY, secret: SECRET, settlementsPerDay: 40 });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-export-containment-'));
  const redactor = createRedactor();
  core = createCore({
    now: testClock(),
    appVersion: '0.0.0-containment',
    dataDir,
    vault: memoryStore(),
    sandbox: null,
    log: createLogger('test', () => {}, redactor),
    redactor,
  });
  core.events.subscribe((event, payload) => {
    if (event.startsWith('export')) exportEvents.push(JSON.stringify(payload));
  });
});

afterAll(async () => {
  await core?.close();
  await merchant?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('export containment', () => {
  it(
    'keeps the secret out of every export file, XLSX part by part and CSV byte by byte',
    { timeout: 120_000 },
    async () => {
      const { id } = await ok(core, 'profiles.create', {
        name: 'Export containment',
        environment: 'custom',
        baseUrl: merchant.url,
        aiUrl: `${merchant.url}/ai`,
        key: KEY,
      });
      await ok(core, 'credentials.set', { profileId: id, secret: SECRET });
      await ok(core, 'profiles.activate', { id });

      // The cache filled through the app, every answer authenticated with the secret.
      const today = TEST_TODAY;
      const range = { from: addDays(today, -3), to: addDays(today, -1) };
      const sync = await ok(core, 'sync.start', range);
      expect(await nextEvent(core, 'syncFinished', (p) => p.jobId === sync.jobId)).toMatchObject({
        summary: { status: 'completed', records: 3 * 40 },
      });
      // Records changed at the service and synced again: the changes export has rows.
      expect(
        (await hook(merchant.url, 'POST', 'settlements/mutate', { date: range.to, count: 3, remove: 1 })).http,
      ).toBe(200);
      const resync = await ok(core, 'sync.start', range);
      await nextEvent(core, 'syncFinished', (p) => p.jobId === resync.jobId);
      const fixtures = merchant.fixtures();
      for (const b of fixtures.beneficiaries) await ok(core, 'beneficiaries.fetch', { id: b.id });
      for (const p of fixtures.payouts) {
        await ok(core, 'payouts.lookup', { payoutId: p.id, mode: 'normal' });
        await ok(core, 'payouts.lookup', { payoutId: p.id, mode: 'advance' });
      }
      await ok(core, 'accounts.refresh', {});
      await ok(core, 'accounts.checkBalance', {});
      const check = await ok(core, 'payouts.check', { ids: fixtures.payouts.map((p) => p.id), mode: 'normal' });

      const files: string[] = [];
      for (const kind of EXPORT_KINDS) {
        for (const format of EXPORT_FORMATS) {
          const request = (
            kind === 'settlements' || kind === 'changes'
              ? { kind, format, filter: range }
              : kind === 'payoutCheck'
                ? { kind, format, runId: check.id }
                : { kind, format }
          ) as ExportRequest;
          const { jobId, file } = (await ok(core, 'exports.start', request)) as { jobId: string; file: string };
          const end = await nextEvent(core, 'exportFinished', (p) => p.jobId === jobId);
          expect(end, `${kind} ${format}`).toMatchObject({ status: 'completed', file });
          expect(end['rows'], `${kind} ${format}`).toBeGreaterThan(0);
          // Every file: a CSV's provenance sidecar is searched too.
          files.push(...(end['files'] as string[]));
        }
      }
      // Written where the app puts exports by default, and nothing else there (no temporary file left).
      expect(
        filesUnder(join(dataDir, 'exports'))
          .map((f) => f.path)
          .sort(),
      ).toEqual([...files].sort());

      const haystacks = [
        ...(await Promise.all(files.map(haystacksOf))).flat(),
        ...exportEvents.map((text, i) => ({ label: `export event ${i}`, text })),
      ];
      const labels = haystacks.map((h) => h.label);
      for (const f of files.filter((f) => f.endsWith('.xlsx')))
        expect(labels).toContain(`${basename(f)}:xl/worksheets/sheet1.xml`);

      // The search finds the secret when it is there, even deflated inside a workbook, so zero hits is a result.
      const planted = join(dataDir, 'planted.xlsx');
      const writer = createXlsxWriter(createWriteStream(planted));
      await writer.addSheet('Planted', [{ header: 'Note', type: 'text' }]).addRow([`..${SECRET}..`]);
      await writer.finish();
      const plantedHits = hitsIn(NEEDLES, await haystacksOf(planted));
      expect(plantedHits).toEqual(['secret in planted.xlsx:xl/worksheets/sheet1.xml']);

      expect(hitsIn(NEEDLES, haystacks)).toEqual([]);
      const bytes = haystacks.reduce((n, h) => n + Buffer.byteLength(h.text), 0);
      console.log(
        `export containment: ${files.length} files (${files.map((f) => basename(f)).join(', ')}), ` +
          `${haystacks.length} texts, ${bytes} bytes searched for ${NEEDLES.length} needles; 0 hits`,
      );
    },
  );
});
