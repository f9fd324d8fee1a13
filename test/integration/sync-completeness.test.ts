/**
 * Completeness and changes against the real sandbox over loopback HTTP into real SQLite files: records dropped and
 * added while a date is paged (the sandbox's mutate hook called between pages) end with the cache equal to the
 * service's final state, count and sums, and a manifest that says how many passes it took; what a re-sync changed
 * is stored per record; the exception workflow survives re-syncs; the triage of a date's exceptions asks the
 * classification operation with nothing but the record, stores the answers and backs off on 429.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MerchantApi } from '../../electron/api';
import type { Cache } from '../../electron/cache/database';
import { idRange } from '../../electron/cache/settlement-ids';
import { MAX_PASSES, syncSettlements } from '../../electron/sync/settlement-sync';
import { runExport, type ExportJob } from '../../electron/export/run-export';
import { triageDate } from '../../electron/treasury/exception-triage';
import type { SettlementRecord } from '../../shared/api/settlements';
import { TRIAGE_CAUSES } from '../../shared/settlement-changes';
import { openpyxlCells, openpyxlProblem, type TypedValue } from '../support/export-files';
import { hook } from '../support/sandbox-http';
import { syncTestFile } from '../support/sync-test-file';
import { requireSystem } from '../support/system';

const PER_DAY = 700;
const PAGE = 100;
const setup = syncTestFile({ settlementsPerDay: PER_DAY, folder: 'sync-completeness-' });
const { freshCache } = setup;

async function served(date: string): Promise<SettlementRecord[]> {
  const out: SettlementRecord[] = [];
  for await (const page of setup.sb.api().settlements.pages({ date })) out.push(...page.data);
  return out;
}

function sums(
  rows: readonly {
    pg?: string | null;
    pg_transaction_id: string;
    settlement_date: string;
    amount: number;
    settled_amount: number;
  }[],
) {
  return {
    count: rows.length,
    amount: rows.reduce((s, r) => s + r.amount, 0),
    settled: rows.reduce((s, r) => s + r.settled_amount, 0),
    keys: [...new Set(rows.map((r) => `${r.pg}|${r.pg_transaction_id}|${r.settlement_date}`))].sort(),
  };
}

function cached(cache: Cache, date: string) {
  return sums(
    cache.db
      .prepare(
        'SELECT pg, pg_transaction_id, settlement_date, amount, settled_amount FROM settlements WHERE vanished_at IS NULL AND date = ?',
      )
      .all(date) as {
      pg: string;
      pg_transaction_id: string;
      settlement_date: string;
      amount: number;
      settled_amount: number;
    }[],
  );
}

const mutate = (body: { date: string; count: number; remove?: number; restore?: number }) =>
  hook<{ changed: unknown[]; removed: unknown[]; restored: unknown[] }>(
    setup.sb.sandbox.url,
    'POST',
    'settlements/mutate',
    body,
  );

/** The real client, with the sandbox's mutate hook called after the answers to the pages named in `plan`. */
function mutatingApi(plan: Map<number, { date: string; count: number; remove?: number; restore?: number }>) {
  const real = setup.sb.api();
  let answered = 0;
  const api: { settlements: Pick<MerchantApi['settlements'], 'page'> } = {
    settlements: {
      async page(query, options) {
        const page = await real.settlements.page(query, options);
        const change = plan.get(++answered);
        if (change) expect((await mutate(change)).http).toBe(200);
        return page;
      },
    },
  };
  return { api, answered: () => answered };
}

describe('paging a date that changes under us', () => {
  it('records removed and added between pages: the cache ends equal to the final state, and the manifest says so', async () => {
    const date = setup.dates.at(-20)!;
    // Removed before the sync, so that a restore during it adds records back into the listing.
    await mutate({ date, count: 0, remove: 5 });
    const cache = freshCache();
    const { api } = mutatingApi(
      new Map([
        [2, { date, count: 0, remove: 3 }],
        [4, { date, count: 2, remove: 0, restore: 4 }],
      ]),
    );
    const summary = await syncSettlements({ api, cache, from: date, to: date, pageSize: PAGE, concurrency: 1 });
    expect(summary.status).toBe('completed');
    const final = sums(await served(date));
    expect(final.count).toBe(PER_DAY - 5 - 3 + 4);
    expect(cached(cache, date)).toEqual(final);
    expect(cache.settlements.totals({ from: date, to: date })).toMatchObject({
      count: final.count,
      amount: final.amount,
      settled: final.settled,
    });

    const manifest = cache.manifests.latest({ from: date, to: date });
    expect(manifest.length).toBeGreaterThan(1);
    for (const m of manifest) {
      expect(m).toMatchObject({ stable: true, runId: summary.runId });
      expect(m.passes).toBeGreaterThanOrEqual(2);
      expect(m.shifts).toBeGreaterThanOrEqual(1);
    }
    expect(manifest.reduce((s, m) => s + m.records, 0)).toBe(final.count);
    expect(manifest.reduce((s, m) => s + m.settled, 0)).toBe(final.settled);
    expect(cache.manifests.completeness({ from: date, to: date })).toEqual([
      { date, state: 'complete', gateways: manifest },
    ]);
  });

  it('the same, with pages read ahead four at a time', async () => {
    const date = setup.dates.at(-21)!;
    await mutate({ date, count: 0, remove: 4 });
    const cache = freshCache();
    const { api } = mutatingApi(
      new Map([
        [1, { date, count: 0, remove: 2 }],
        [3, { date, count: 0, remove: 0, restore: 3 }],
        [6, { date, count: 1, remove: 1 }],
      ]),
    );
    const summary = await syncSettlements({ api, cache, from: date, to: date, pageSize: PAGE, concurrency: 4 });
    expect(summary.status).toBe('completed');
    expect(cached(cache, date)).toEqual(sums(await served(date)));
    expect(cache.manifests.completeness({ from: date, to: date })[0]!.state).toBe('complete');
  });

  it('a quiet service takes one pass with no shift, and a re-sync digests the same records alike', async () => {
    const date = setup.dates.at(-22)!;
    const cache = freshCache();
    await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date, pageSize: PAGE });
    const first = cache.manifests.latest({ from: date, to: date });
    expect(first.every((m) => m.passes === 1 && m.shifts === 0 && m.stable)).toBe(true);
    const second = await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date, pageSize: PAGE });
    const again = cache.manifests.latest({ from: date, to: date });
    expect(again.map((m) => m.runId)).toEqual(first.map(() => second.runId));
    expect(again.map((m) => m.digest)).toEqual(first.map((m) => m.digest));
    expect(cache.changes.countOfRun(second.runId)).toBe(0);
  });

  it('a service that changes at every page is paged at most MAX_PASSES times and the date is marked not stable', async () => {
    const date = setup.dates.at(-23)!;
    const cache = freshCache();
    const plan = new Map(Array.from({ length: 60 }, (_, i) => [i + 1, { date, count: 0, remove: 1 }] as const));
    const { api, answered } = mutatingApi(plan);
    const summary = await syncSettlements({ api, cache, from: date, to: date, pageSize: PAGE, concurrency: 1 });
    expect(summary.status).toBe('completed');
    expect(answered()).toBeLessThanOrEqual(MAX_PASSES * Math.ceil(PER_DAY / (PAGE - 1)));
    const [day] = cache.manifests.completeness({ from: date, to: date });
    expect(day!.state).toBe('unstable');
    expect(day!.gateways.every((g) => g.passes === MAX_PASSES && !g.stable)).toBe(true);
  });
});

describe('what a re-sync changed', () => {
  it('stores each record it added, changed (field by field), dropped or got back', async () => {
    const date = setup.dates.at(-25)!;
    await mutate({ date, count: 0, remove: 3 });
    const cache = freshCache();
    const first = await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date });
    // A first sync of a date is not a change: nothing was there to compare with.
    expect(cache.changes.countOfRun(first.runId)).toBe(0);
    const { body } = await mutate({ date, count: 4, remove: 2, restore: 3 });
    const second = await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date });
    expect(second.updated).toBe(4);
    const summary = cache.changes.summary({ from: date, to: date });
    expect(summary.byKind).toEqual({ new: 3, changed: 4, vanished: 2, returned: 0 });
    expect(summary.runs).toEqual([expect.objectContaining({ runId: second.runId, changes: 9 })]);
    const changed = cache.changes.page({ from: date, to: date, kind: 'changed' }).changes;
    const now = await served(date);
    for (const c of changed) {
      const wire = now.find(
        (r) => r.pg_transaction_id === c.pgTransactionId && r.settlement_date === c.settlementDate,
      )!;
      expect(c.fields.length).toBeGreaterThan(0);
      for (const f of c.fields) {
        expect(wire[f.field as 'utr'] ?? null).toBe(f.new);
        expect(f.old).not.toBe(f.new);
        if (f.field === 'utr') expect(['utr_filled', 'utr_replaced']).toContain(f.meaning);
        if (f.field === 'dispute_id') expect(f.meaning).toBe('dispute_opened');
      }
    }
    expect(changed.map((c) => c.pgTransactionId).sort()).toEqual(
      (body.changed as { pg_transaction_id: string }[]).map((c) => c.pg_transaction_id).sort(),
    );
    // Paged by keyset, one at a time, the same changes in the same order.
    const all = cache.changes.page({ from: date, to: date, limit: 1000 }).changes;
    const paged = [];
    for (let after = 0; ;) {
      const p = cache.changes.page({ from: date, to: date, limit: 2, afterId: after });
      paged.push(...p.changes);
      if (p.nextAfterId === null) break;
      after = p.nextAfterId;
    }
    expect(paged).toEqual(all);
  });
});

describe('the exception workflow', () => {
  it('acknowledge, note, assign and resolve survive a re-sync that changes the record; refusals are specific', async () => {
    const date = setup.dates.at(-27)!;
    const cache = freshCache();
    await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date });
    const [exception] = cache.exceptions.exceptionsOfDate(idRange(date, date), null);
    expect(exception).toBeDefined();
    const id = exception!.id;
    cache.exceptions.act({ recordId: id, action: 'acknowledge' });
    cache.exceptions.act({ recordId: id, action: 'assign', text: 'Asha (recon desk)' });
    cache.exceptions.act({ recordId: id, action: 'note', text: 'Asked the gateway for the fee breakdown' });
    expect(() => cache.exceptions.act({ recordId: id, action: 'acknowledge' })).toThrow(
      /cannot acknowledge an exception that is acknowledged/,
    );
    expect(() => cache.exceptions.act({ recordId: id, action: 'note', text: '   ' })).toThrow(/must not be empty/);
    await mutate({ date, count: 30, remove: 0 });
    await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date });
    cache.exceptions.act({ recordId: id, action: 'resolve', text: 'Refund of the fee received' });
    const detail = cache.exceptions.detail(id);
    expect(detail).toMatchObject({
      state: 'resolved',
      assignee: 'Asha (recon desk)',
      note: 'Refund of the fee received',
    });
    expect(detail.events.map((e) => e.action)).toEqual(['acknowledge', 'assign', 'note', 'resolve']);
    const plain = cache.db
      .prepare('SELECT id FROM settlements WHERE date = ? AND exception_flags = 0 LIMIT 1')
      .pluck()
      .get(date) as number;
    expect(() => cache.exceptions.act({ recordId: plain, action: 'acknowledge' })).toThrow(/breaks no rule/);
    expect(() => cache.exceptions.act({ recordId: 999, action: 'acknowledge' })).toThrow(/not in the cache/);
  });

  it('triages a date: only the record goes out, answers and model are stored, the threshold decides the tag, 429 is waited out', async () => {
    const date = setup.dates.at(-28)!;
    const cache = freshCache();
    await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date });
    const records = cache.exceptions.exceptionsOfDate(idRange(date, date), null);
    expect(records.length).toBeGreaterThan(3);
    // Whatever the client retries, 429s that outlive them are waited out by the triage itself.
    await setup.sb.fault({ path: '/ai/v1/classify/', kind: '429', count: 6 });
    const sent: unknown[] = [];
    const waits: number[] = [];
    const real = setup.sb.api();
    const summary = await triageDate({
      api: {
        classification: {
          classify: (request, options) => (sent.push(request.state), real.classification.classify(request, options)),
        },
      },
      cache,
      request: { date, threshold: 0.99 },
      sleep: async (ms) => void waits.push(ms),
    });
    expect(summary).toMatchObject({ exceptions: records.length, triaged: records.length, skipped: 0, failed: [] });
    expect(summary.model).toBe('sandbox-overlap-v1');
    expect(waits.length).toBeGreaterThan(0);
    // Nothing but the record: its own fields and the rules it breaks.
    for (const state of sent) expect(Object.keys(state as object).sort()).toEqual(['broken_rules', 'record']);
    const stored = records.map((r) => cache.exceptions.stateOf(r)!);
    for (const s of stored) {
      expect(Object.keys(TRIAGE_CAUSES)).toContain(s.triage!.cause);
      expect(s.triage!.model).toBe('sandbox-overlap-v1');
      expect(s.tag).toBe(s.triage!.causeProbability >= 0.99 ? s.triage!.cause : null);
    }
    // A second run skips what is triaged; --again with a low threshold tags them all.
    expect(await triageDate({ api: real, cache, request: { date } })).toMatchObject({
      skipped: records.length,
      triaged: 0,
    });
    const again = await triageDate({ api: real, cache, request: { date, threshold: 0, again: true } });
    expect(again.tagged).toBe(records.length);
  });
});

describe.runIf(requireSystem('openpyxl (/usr/bin/python3 with python3-openpyxl)', openpyxlProblem()))(
  'the settlement workbook, as openpyxl reads it',
  () => {
    it('has a Manifest sheet equal to the manifests, a Changes sheet of every changed field, and the workflow on Exceptions', async () => {
      const date = setup.dates.at(-30)!;
      await mutate({ date, count: 0, remove: 2 });
      const cache = freshCache();
      await syncSettlements({ api: setup.sb.api(), cache, from: date, to: date });
      await mutate({ date, count: 3, remove: 1, restore: 2 });
      const { api } = mutatingApi(new Map([[2, { date, count: 0, remove: 1 }]]));
      await syncSettlements({ api, cache, from: date, to: date, pageSize: PAGE, concurrency: 1 });
      const [exception] = cache.exceptions.exceptionsOfDate(idRange(date, date), null);
      cache.exceptions.act({ recordId: exception!.id, action: 'assign', text: 'Meera' });

      const file = join(setup.dir, 'workbook.xlsx');
      const request = { kind: 'settlements', format: 'xlsx', filter: { from: date, to: date } } as ExportJob['request'];
      const context = {
        profileName: 'Desk',
        environment: 'sandbox' as const,
        baseUrl: setup.sb.sandbox.url,
        generatedAtIst: '2026-01-15 12:00:00',
        appVersion: '0.0.0',
        journalHead: '0'.repeat(64),
      };
      expect((await runExport({ request, cacheFile: cache.file, file, context })).status).toBe('completed');
      const book = openpyxlCells(file);
      expect(Object.keys(book)).toEqual([
        'Summary',
        'Settlements',
        'Exceptions',
        'Changes',
        'Manifest',
        'Bank credits',
        'Audit',
      ]);
      const rows = (sheet: string) => {
        const [head, ...body] = book[sheet]!;
        return body.map((r) => Object.fromEntries(head!.map(([, h], i) => [String(h), (r[i] ?? ['n', null])[1]])));
      };

      const manifest = cache.manifests.latest({ from: date, to: date });
      expect(manifest.every((m) => m.stable)).toBe(true);
      expect(
        rows('Manifest').map((r) => [
          r['Gateway'],
          r['Records'],
          r['Passes'],
          r['Stable'],
          r['Digest'],
          r['Settled (INR)'],
        ]),
      ).toEqual(manifest.map((m) => [m.pg, m.records, m.passes, 'yes', m.digest, m.settled / 100]));
      const manifestSettled = rows('Manifest').reduce((t, r) => t + Math.round(Number(r['Settled (INR)']) * 100), 0);
      expect(manifestSettled).toBe(cache.settlements.totals({ from: date, to: date }).settled);

      const changes = rows('Changes');
      const stored = [...cache.changes.all({ from: date, to: date })];
      expect(changes).toHaveLength(stored.reduce((t, c) => t + Math.max(1, c.fields.length), 0));
      expect(new Set(changes.map((r) => r['Change']))).toEqual(new Set(['new', 'changed', 'vanished']));
      expect(changes.filter((r) => r['Change'] === 'changed').every((r) => r['Field'] && r['What it means'])).toBe(
        true,
      );

      const assigned = rows('Exceptions').filter((r) => r['PG transaction id'] === exception!.pg_transaction_id);
      expect(assigned.length).toBeGreaterThan(0);
      expect(assigned.every((r) => r['Workflow state'] === 'open' && r['Assigned to'] === 'Meera')).toBe(true);
      const cells: TypedValue[] = book['Manifest']!.flat();
      expect(cells.some(([type]) => type === 'f')).toBe(false);
    });
  },
);
