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
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import { EXPORT_FORMATS, EXPORT_KINDS, type ExportRequest } from '../../shared/exports';
import type { IpcChannel } from '../../shared/ipc/channels';
import { addDays, epochMsToIstDate } from '../../shared/time';
import { zipParts } from '../support/export-files';
import { APP_ORIGIN, MAIN_FRAME, filesUnder, memoryStore } from './support';

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

async function call<T>(channel: IpcChannel, input: unknown): Promise<T> {
  const reply = await core.router.handle(channel, input, MAIN_FRAME, APP_ORIGIN);
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.code} ${reply.error.message}`);
  return reply.value as T;
}

function finished(event: 'syncFinished' | 'exportFinished', jobId: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const stop = core.events.subscribe((e, payload) => {
      const p = payload as Record<string, unknown>;
      if (e === event && p['jobId'] === jobId) {
        stop();
        resolve(p);
      }
    });
  });
}

/** The texts of an export file to search: an XLSX's raw bytes and each inflated part, a CSV's bytes. */
async function haystacksOf(file: string): Promise<{ label: string; text: string }[]> {
  const raw = { label: basename(file), text: readFileSync(file).toString('utf8') };
  if (!file.endsWith('.xlsx')) return [raw];
  const parts = await zipParts(file);
  return [raw, ...[...parts].map(([part, text]) => ({ label: `${basename(file)}:${part}`, text }))];
}

const hitsIn = (haystacks: readonly { label: string; text: string }[]) =>
  haystacks.flatMap(({ label, text }) =>
    NEEDLES.filter(([, needle]) => text.includes(needle)).map(([name]) => `${name} in ${label}`),
  );

beforeAll(async () => {
  merchant = await startSandbox({ port: 0, key: KEY, secret: SECRET, settlementsPerDay: 40 });
  dataDir = mkdtempSync(join(tmpdir(), 'pc-export-containment-'));
  const redactor = createRedactor();
  core = createCore({
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
      const { id } = await call<{ id: string }>('profiles.create', {
        name: 'Export containment',
        environment: 'custom',
        baseUrl: merchant.url,
        aiUrl: `${merchant.url}/ai`,
        key: KEY,
      });
      await call('credentials.set', { profileId: id, secret: SECRET });
      await call('profiles.activate', { id });

      // The cache filled through the app, every answer authenticated with the secret.
      const today = epochMsToIstDate(Date.now());
      const range = { from: addDays(today, -3), to: addDays(today, -1) };
      const sync = await call<{ jobId: string }>('sync.start', range);
      expect(await finished('syncFinished', sync.jobId)).toMatchObject({
        summary: { status: 'completed', records: 3 * 40 },
      });
      const fixtures = merchant.fixtures();
      for (const b of fixtures.beneficiaries) await call('beneficiaries.fetch', { id: b.id });
      for (const p of fixtures.payouts) {
        await call('payouts.lookup', { payoutId: p.id, mode: 'normal' });
        await call('payouts.lookup', { payoutId: p.id, mode: 'advance' });
      }
      await call('accounts.refresh', {});
      await call('accounts.checkBalance', {});

      const files: string[] = [];
      for (const kind of EXPORT_KINDS) {
        for (const format of EXPORT_FORMATS) {
          const request = (
            kind === 'settlements' ? { kind, format, filter: range } : { kind, format }
          ) as ExportRequest;
          const { jobId, file } = await call<{ jobId: string; file: string }>('exports.start', request);
          const end = await finished('exportFinished', jobId);
          expect(end, `${kind} ${format}`).toMatchObject({ status: 'completed', file });
          expect(end['rows'], `${kind} ${format}`).toBeGreaterThan(0);
          files.push(file);
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
      const plantedHits = hitsIn(await haystacksOf(planted));
      expect(plantedHits).toEqual(['secret in planted.xlsx:xl/worksheets/sheet1.xml']);

      expect(hitsIn(haystacks)).toEqual([]);
      const bytes = haystacks.reduce((n, h) => n + Buffer.byteLength(h.text), 0);
      console.log(
        `export containment: ${files.length} files (${files.map((f) => basename(f)).join(', ')}), ` +
          `${haystacks.length} texts, ${bytes} bytes searched for ${NEEDLES.length} needles; 0 hits`,
      );
    },
  );
});
