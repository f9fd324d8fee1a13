/** Settlement fetch over HTTP: paging, limits, filters, window, determinism by seed, the mutate hook. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLEMENT_PAGE, settlementFetchResponse } from '../../shared/api/settlements';
import type { Sandbox } from '../../electron/sandbox/server';
import { hook, rawCall } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

const NOW = Date.parse('2025-06-30T20:00:00Z'); // 2025-07-01 01:30 in IST: "today" is the IST date
type Page = { status: boolean; data: Record<string, unknown>[]; is_last_page: boolean; request_id: string };
const sandboxes: Sandbox[] = [];
let sb: Sandbox;

async function start(seed: number, perDay = 250): Promise<Sandbox> {
  const s = await startTestSandbox({ seed, settlementsPerDay: perDay, now: () => NOW });
  sandboxes.push(s);
  return s;
}
const fetchPage = async (s: Sandbox, input: Record<string, unknown>) =>
  (await rawCall(s.url, 'settlement.fetch', input)).body as Page;

async function fetchAll(s: Sandbox, date: string, limit: number, pg?: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await fetchPage(s, { date, offset: String(offset), limit: String(limit), ...(pg ? { pg } : {}) });
    out.push(...page.data);
    if (page.is_last_page) return out;
    expect(page.data).toHaveLength(limit);
  }
}

beforeAll(async () => {
  sb = await start(21);
});
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

describe('settlement paging', () => {
  it('covers 90 days ending today in IST', () => {
    const dates = sb.fixtures().settlementDates;
    expect(dates).toHaveLength(90);
    expect(dates.at(-1)).toBe('2025-07-01');
    expect(dates[0]).toBe('2025-04-03');
  });

  it('defaults to 100 records, allows up to 1000, and marks the last page', async () => {
    const date = '2025-06-15';
    const first = await fetchPage(sb, { date });
    expect(first.data).toHaveLength(SETTLEMENT_PAGE.defaultLimit);
    expect(first.is_last_page).toBe(false);
    expect(settlementFetchResponse.safeParse(first).success).toBe(true);
    const max = await fetchPage(sb, { date, limit: String(SETTLEMENT_PAGE.maxLimit) });
    expect(max.data).toHaveLength(250);
    expect(max.is_last_page).toBe(true);
    const tail = await fetchPage(sb, { date, offset: '200', limit: '50' });
    expect([tail.data.length, tail.is_last_page]).toEqual([50, true]);
    const numbers = await fetchPage(sb, { date, offset: 240, limit: 5 });
    expect([numbers.data.length, numbers.is_last_page]).toEqual([5, false]);
  });

  it('answers an empty last page past the end and for a date outside the 90 days', async () => {
    for (const input of [
      { date: '2025-06-15', offset: '250' },
      { date: '2025-06-15', offset: '99999' },
      { date: '2025-04-02' },
      { date: '2025-07-02' },
    ]) {
      const page = await fetchPage(sb, input);
      expect([page.status, page.data, page.is_last_page]).toEqual([true, [], true]);
    }
  });

  it('keeps a stable order, and a pg filter returns exactly that gateway’s records in the same order', async () => {
    const date = '2025-05-20';
    const a = await fetchAll(sb, date, 60);
    expect(await fetchAll(sb, date, 37)).toEqual(a);
    for (const pg of sb.fixtures().gateways)
      expect(await fetchAll(sb, date, 17, pg)).toEqual(a.filter((r) => r.pg === pg));
  });

  it('is deterministic by seed (same seed, same day: identical data and fixtures; another seed differs)', async () => {
    const twin = await start(21);
    const other = await start(22);
    const date = '2025-06-01';
    expect(await fetchAll(twin, date, 1000)).toEqual(await fetchAll(sb, date, 1000));
    expect(twin.fixtures()).toEqual(sb.fixtures());
    expect((await fetchPage(other, { date })).data).not.toEqual((await fetchPage(sb, { date })).data);
    expect(other.fixtures().orders).not.toEqual(sb.fixtures().orders);
  });
});

describe('settlement mutate hook', () => {
  it('changes and removes records so that a re-sync sees both', async () => {
    const s = await start(31, 400);
    const date = '2025-06-20';
    const before = await fetchAll(s, date, 1000);
    type Key = { pg: string; pg_transaction_id: string; settlement_date: string };
    const res = await hook<{ status: boolean; changed: (Key & { fields: string[] })[]; removed: Key[] }>(
      s.url,
      'POST',
      'settlements/mutate',
      { date, count: 6 },
    );
    expect(res.http).toBe(200);
    expect(res.body.changed).toHaveLength(6);
    expect(res.body.removed).toHaveLength(3);
    const after = await fetchAll(s, date, 1000);
    expect(after).toHaveLength(before.length - 3);
    const key = (r: Record<string, unknown>) =>
      `${String(r.pg)}|${String(r.pg_transaction_id)}|${String(r.settlement_date)}`;
    const was = new Map(before.map((r) => [key(r), r]));
    const now = new Map(after.map((r) => [key(r), r]));
    expect(was.size).toBe(before.length);
    for (const r of res.body.removed) {
      expect(was.has(key(r))).toBe(true);
      expect(now.has(key(r))).toBe(false);
    }
    const differing = [...now].filter(([k, r]) => JSON.stringify(was.get(k)) !== JSON.stringify(r)).map(([k]) => k);
    expect(differing.sort()).toEqual(res.body.changed.map(key).sort());
  });

  it('refuses a date outside the window or a malformed request', async () => {
    expect((await hook(sb.url, 'POST', 'settlements/mutate', { date: '2020-01-01', count: 1 })).http).toBe(400);
    expect((await hook(sb.url, 'POST', 'settlements/mutate', { date: '2025-06-20' })).http).toBe(400);
  });
});

describe('scale', () => {
  // Its speed is `npm run bench -- --only sandbox`; here, that the last page of a huge day is served right.
  it('starts with 1,000,000 records a day and serves the last page', async () => {
    const big = await start(1, 1_000_000);
    const page = await fetchPage(big, { date: '2025-06-30', offset: '999000', limit: '1000' });
    expect([page.data.length, page.is_last_page]).toEqual([1000, true]);
  });
});
