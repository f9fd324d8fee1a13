/**
 * The settlements table's row source over a real keyset reader: rows sorted in memory and paged with cursors the
 * way the cache pages them (a cursor is the last key read). What the grid shows must be exactly the sorted rows,
 * wherever it looks, reading only what it needs.
 */
import { describe, expect, it } from 'vitest';
import type { IpcResult } from '../../shared/ipc/contract';
import {
  GRID_FIRST_ROWS,
  type CachedSettlement,
  type SettlementFilter,
  type SettlementPageResult,
  type SettlementSort,
} from '../../shared/settlement-query';
import { PAGE_SIZE, PagedRows } from '../../renderer/src/settlements/paged-rows';

type Query = SettlementFilter & { sort: SettlementSort; after?: string; position?: number; limit: number };

/** Settlement rows with only what ordering needs: an id and a date. */
function rows(count: number): CachedSettlement[] {
  return Array.from(
    { length: count },
    (_, i) => ({ id: i + 1, date: `2026-06-${String(1 + (i % 28)).padStart(2, '0')}` }) as unknown as CachedSettlement,
  );
}

/**
 * A keyset reader over `all` ordered by id: `after` is the id the previous page ended on; `position` starts a page
 * at that row of the order, as the cache does for a jump.
 */
function keysetReader(all: CachedSettlement[], options: { failAt?: number } = {}) {
  const reads: Query[] = [];
  const read = async (query: Query): Promise<IpcResult<SettlementPageResult>> => {
    reads.push(query);
    if (options.failAt !== undefined && reads.length === options.failAt) {
      return { ok: false, error: { code: 'CACHE_UNREADABLE', message: 'The cache could not be read.' } };
    }
    const ordered = query.sort.direction === 'asc' ? all : [...all].reverse();
    const start =
      query.after !== undefined ? ordered.findIndex((r) => String(r.id) === query.after) + 1 : (query.position ?? 0);
    const page = ordered.slice(start, start + query.limit);
    const more = start + query.limit < ordered.length;
    const value = {
      rows: page,
      nextCursor: more ? String(page.at(-1)!.id) : null,
      asOf: '2026-06-15T06:30:00.000Z',
    } as SettlementPageResult;
    return { ok: true, value };
  };
  return { read, reads };
}

/** Over `keysetReader(all)`: the first read answered at once, every later one held until `release()`. */
function holdingLaterReads(all: CachedSettlement[]) {
  const { read, reads } = keysetReader(all);
  let held: (() => void) | null = null;
  return {
    reads,
    read: async (query: Query) => {
      if (reads.length > 0) await new Promise<void>((resolve) => (held = resolve));
      return read(query);
    },
    isHeld: () => held !== null,
    /** Waits a few turns of the event loop for a later read to be held. */
    async untilHeld(): Promise<void> {
      for (let i = 0; i < 50 && !held; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    },
    release: () => held!(),
  };
}

/** Resolves once the source has no read in flight and nothing left to read for its window. */
async function settled(source: PagedRows): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { reading, jumping } = source as unknown as { reading: boolean; jumping: boolean };
    if (!reading && !jumping) return;
  }
  throw new Error('the source never settled');
}

/** A source over `keysetReader(all)` told its total, its first page read. */
async function sourceWithTotal(all: CachedSettlement[]) {
  const { read, reads } = keysetReader(all);
  const source = new PagedRows(FILTER, ASC, read);
  source.setTotal(all.length);
  await settled(source);
  return { source, reads };
}

const FILTER: SettlementFilter = { from: '2026-06-01', to: '2026-06-28' } as SettlementFilter;
const ASC: SettlementSort = { column: 'date', direction: 'asc' } as SettlementSort;

describe('PagedRows', () => {
  it('reads the first page at once, a screen of rows then the rest from their cursor, and shows them in order', async () => {
    const all = rows(PAGE_SIZE * 3 + 17);
    const { read, reads } = keysetReader(all);
    const source = new PagedRows(FILTER, ASC, read);
    await settled(source);
    expect(source.loadingFirst).toBe(false);
    expect(reads).toHaveLength(2);
    expect(reads[0]).toMatchObject({ from: FILTER.from, to: FILTER.to, sort: ASC, limit: GRID_FIRST_ROWS });
    expect(reads[0]!.after).toBeUndefined();
    expect(reads[0]!.position).toBeUndefined();
    expect(reads[1]).toMatchObject({
      sort: ASC,
      after: String(all[GRID_FIRST_ROWS - 1]!.id),
      limit: PAGE_SIZE - GRID_FIRST_ROWS,
    });
    expect(reads[1]!.position).toBeUndefined();
    for (let i = 0; i < PAGE_SIZE; i++) expect(source.rowAt(i), `row ${i}`).toBe(all[i]);
    // The next page continues from the cursor the whole page 0 returned: no hole, no row twice.
    source.setTotal(all.length);
    source.want(PAGE_SIZE + 10, PAGE_SIZE + 40);
    await settled(source);
    expect(reads.at(-1)).toMatchObject({ after: String(all[PAGE_SIZE - 1]!.id), limit: PAGE_SIZE });
    for (let i = 0; i < PAGE_SIZE * 2; i++) expect(source.rowAt(i), `row ${i}`).toBe(all[i]);
  });

  it('shows the first rows before the rest of the page, and asks for the rest a task after announcing them', async () => {
    const all = rows(PAGE_SIZE * 2);
    const { read, reads, isHeld, untilHeld, release } = holdingLaterReads(all);
    const source = new PagedRows(FILTER, ASC, read);
    // What a listener (the grid; the first-page query that lets the totals go) finds asked when the first rows come:
    // only them, so the grid draws them before main reads on.
    const asked: number[] = [];
    source.subscribe(() => asked.push(reads.length + (isHeld() ? 1 : 0)));
    await untilHeld();
    expect(source.loadingFirst).toBe(false);
    expect(asked[0]).toBe(1);
    expect(isHeld()).toBe(true);
    for (let i = 0; i < GRID_FIRST_ROWS; i++) expect(source.rowAt(i)).toBe(all[i]);
    expect(source.rowAt(GRID_FIRST_ROWS)).toBeUndefined();
    // Laid out as a whole page, so the window reaches past the first rows and keeps reading.
    expect(source.count).toBe(PAGE_SIZE);
    release();
    await settled(source);
    expect(source.rowAt(PAGE_SIZE - 1)).toBe(all[PAGE_SIZE - 1]);
  });

  it('counts a result shorter than the first read from that read, and one shorter than a page from its rest', async () => {
    const few = rows(GRID_FIRST_ROWS - 3);
    const one = keysetReader(few);
    const small = new PagedRows(FILTER, ASC, one.read);
    await settled(small);
    expect(one.reads).toHaveLength(1);
    expect(small.count).toBe(few.length);
    expect(small.rowAt(few.length - 1)).toBe(few.at(-1));

    const some = rows(GRID_FIRST_ROWS + 30);
    const two = keysetReader(some);
    const source = new PagedRows(FILTER, ASC, two.read);
    await settled(source);
    expect(two.reads).toHaveLength(2);
    expect(source.count).toBe(some.length);
    for (let i = 0; i < some.length; i++) expect(source.rowAt(i)).toBe(some[i]);
    expect(source.rowAt(some.length)).toBeUndefined();
  });

  it('keeps the first rows when the rest fails, and reads the rest from their cursor after retry()', async () => {
    const all = rows(PAGE_SIZE * 2);
    const { read, reads } = keysetReader(all, { failAt: 2 });
    const source = new PagedRows(FILTER, ASC, read);
    await settled(source);
    expect(source.error).toMatchObject({ code: 'CACHE_UNREADABLE' });
    for (let i = 0; i < GRID_FIRST_ROWS; i++) expect(source.rowAt(i)).toBe(all[i]);
    source.retry();
    await settled(source);
    expect(reads[2]).toMatchObject({ after: String(all[GRID_FIRST_ROWS - 1]!.id), limit: PAGE_SIZE - GRID_FIRST_ROWS });
    for (let i = 0; i < PAGE_SIZE; i++) expect(source.rowAt(i)).toBe(all[i]);
  });

  it('drops an answer that comes after the source was disposed', async () => {
    const { read, reads, untilHeld, release } = holdingLaterReads(rows(PAGE_SIZE * 2));
    const source = new PagedRows(FILTER, ASC, read);
    await untilHeld();
    const version = source.version;
    source.dispose();
    release();
    await settled(source);
    expect(source.version).toBe(version);
    expect(source.rowAt(GRID_FIRST_ROWS)).toBeUndefined();
    expect(reads).toHaveLength(2);
  });

  it('reaches the last rows through the reverse chain in one read, once the total is known', async () => {
    const all = rows(PAGE_SIZE * 6 + 3);
    const { read, reads } = keysetReader(all);
    const source = new PagedRows(FILTER, ASC, read);
    source.setTotal(all.length);
    await settled(source);
    const before = reads.length;
    source.want(all.length - 20, all.length - 1);
    await settled(source);
    // One read from the bottom (the opposite sort), not the five pages in between.
    expect(reads.slice(before)).toHaveLength(1);
    expect(reads.at(-1)!.sort).toEqual({ column: 'date', direction: 'desc' });
    for (let i = all.length - 20; i < all.length; i++) expect(source.rowAt(i)).toBe(all[i]);
  });

  it('reads the rows of a far place by their position, shows exactly the right rows, and goes on by cursor', async () => {
    const all = rows(PAGE_SIZE * 10);
    const { source, reads } = await sourceWithTotal(all);
    const before = reads.length;
    const target = PAGE_SIZE * 4 + 42;
    source.want(target, target + 30);
    await settled(source);
    // The rows on screen first, on their own with a few either side; then the window around them: the page before,
    // which its margin reaches into, by its position, and the target's page by the cursor that returned. Not the
    // four pages in between.
    const jumps = reads.slice(before);
    expect(jumps).toHaveLength(3);
    expect(jumps[0]).toMatchObject({ position: target - 16, limit: 30 + 1 + 32 });
    expect(jumps[0]!.after).toBeUndefined();
    expect(jumps[1]).toMatchObject({ position: PAGE_SIZE * 3, limit: PAGE_SIZE });
    expect(jumps[2]).toMatchObject({ after: String(all[PAGE_SIZE * 4 - 1]!.id) });
    for (let i = target; i <= target + 30; i++) expect(source.rowAt(i)).toBe(all[i]);
    // The page after continues from the cursor the jump returned.
    source.want(PAGE_SIZE * 5 + 10, PAGE_SIZE * 5 + 20);
    await settled(source);
    expect(reads.at(-1)).toMatchObject({ after: String(all[PAGE_SIZE * 5 - 1]!.id) });
    expect(reads.at(-1)!.position).toBeUndefined();
    expect(source.rowAt(PAGE_SIZE * 5 + 10)).toBe(all[PAGE_SIZE * 5 + 10]);
  });

  it('shows the rows of a jump after its first read, before the pages around them', async () => {
    const all = rows(PAGE_SIZE * 10);
    const { read, reads } = keysetReader(all);
    let held: (() => void) | null = null;
    // The reads after the jump's first wait until released, so what the screen has after one read can be seen.
    const slow = async (query: Query) => {
      if (reads.length > 1 && query.limit === PAGE_SIZE) await new Promise<void>((resolve) => (held = resolve));
      return read(query);
    };
    const source = new PagedRows(FILTER, ASC, slow);
    source.setTotal(all.length);
    await settled(source).catch(() => {});
    const target = PAGE_SIZE * 6 + 490;
    source.want(target, target + 30);
    for (let i = 0; i < 50 && !held; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    // The rows on screen straddle two pages, and both are still on their way: the jump's own read shows them.
    for (let i = target - 16; i <= target + 30 + 16; i++) expect(source.rowAt(i), `row ${i}`).toBe(all[i]);
    const jumpReads = () => reads.filter((q) => q.position !== undefined && q.limit !== PAGE_SIZE);
    expect(jumpReads()).toHaveLength(1);
    for (let i = 0; i < 20 && held; i++) {
      const release: () => void = held;
      held = null;
      release();
      for (let k = 0; k < 50 && !held; k++) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await settled(source);
    expect(jumpReads()).toHaveLength(1);
    for (let i = target - PAGE_SIZE / 2; i < target + PAGE_SIZE / 2; i++) expect(source.rowAt(i)).toBe(all[i]);
  });

  it("announces a jump's rows before it asks for the page around them", async () => {
    const all = rows(PAGE_SIZE * 10);
    const { source, reads } = await sourceWithTotal(all);
    const target = PAGE_SIZE * 6 + 490;
    // What the grid finds asked when it is told the jump's rows are in: only the jump's own read, so it draws them
    // before main reads on.
    const asked: number[] = [];
    source.subscribe(() => {
      if (source.rowAt(target) !== undefined) asked.push(reads.length);
    });
    const before = reads.length;
    source.want(target, target + 30);
    await settled(source);
    expect(reads[before]!.position).toBeDefined();
    expect(asked[0]).toBe(before + 1);
    expect(reads.length).toBeGreaterThan(before + 1);
    for (let i = target - PAGE_SIZE / 2; i < target + PAGE_SIZE / 2; i++) expect(source.rowAt(i)).toBe(all[i]);
  });

  it("sends a jump's read while a page is on its way, and shows its rows before that page is in", async () => {
    const all = rows(PAGE_SIZE * 10);
    const { read } = keysetReader(all);
    // Whole pages wait until released; a jump's read (fewer rows) is answered at once.
    const held: (() => void)[] = [];
    const reads: Query[] = [];
    const source = new PagedRows(FILTER, ASC, async (query) => {
      reads.push(query);
      if (query.limit === PAGE_SIZE) await new Promise<void>((resolve) => held.push(resolve));
      return read(query);
    });
    source.setTotal(all.length);
    await settled(source);
    // The table looks near the end of page 0: page 1, which its margin reaches, is on its way.
    source.want(PAGE_SIZE - 40, PAGE_SIZE - 10);
    for (let i = 0; i < 50 && held.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reads.at(-1)).toMatchObject({ after: String(all[PAGE_SIZE - 1]!.id), limit: PAGE_SIZE });
    const target = PAGE_SIZE * 6 + 42;
    source.want(target, target + 30);
    for (let i = 0; i < 50 && source.rowAt(target) === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    // The jump went out and came back while page 1 is still held, and nothing else went out beside it.
    expect(held).toHaveLength(1);
    expect(reads.at(-1)).toMatchObject({ position: target - 16, limit: 30 + 1 + 32 });
    for (let i = target; i <= target + 30; i++) expect(source.rowAt(i), `row ${i}`).toBe(all[i]);
    // Page 1 comes in, then the pages around the jump one at a time, each exactly the sorted rows.
    while (held.length > 0) {
      held.shift()!();
      for (let i = 0; i < 50 && held.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await settled(source);
    for (let i = target - PAGE_SIZE / 2; i < target + PAGE_SIZE / 2; i++) expect(source.rowAt(i)).toBe(all[i]);
  });

  it('keeps at most eight pages of rows and reads a dropped page again when it is wanted', async () => {
    const all = rows(PAGE_SIZE * 12);
    const { read, reads } = keysetReader(all);
    const source = new PagedRows(FILTER, ASC, read);
    source.setTotal(all.length);
    for (let page = 0; page < 12; page++) {
      source.want(page * PAGE_SIZE, page * PAGE_SIZE + 10);
      await settled(source);
    }
    const held = Array.from({ length: 12 }, (_, p) => source.rowAt(p * PAGE_SIZE) !== undefined).filter(Boolean);
    expect(held.length).toBeLessThanOrEqual(8);
    expect(source.rowAt(0)).toBeUndefined();
    const before = reads.length;
    source.want(0, 10);
    await settled(source);
    expect(source.rowAt(0)).toBe(all[0]);
    expect(reads.length).toBe(before + 1);
  });

  it('lays out only what the first page showed until the totals say more', async () => {
    const all = rows(PAGE_SIZE * 3);
    const { read, reads } = keysetReader(all);
    const source = new PagedRows(FILTER, ASC, read);
    await settled(source);
    expect(source.count).toBe(PAGE_SIZE);
    // The first rows and the rest of their page, nothing past it.
    expect(reads).toHaveLength(2);
    source.setTotal(all.length);
    expect(source.count).toBe(all.length);
  });

  it('trusts where the pages ran out over a stale total, and ignores totals after that', async () => {
    const all = rows(PAGE_SIZE + 5);
    const { read } = keysetReader(all);
    const source = new PagedRows(FILTER, ASC, read);
    // Totals read before a sync removed rows: more than the pages hold.
    source.setTotal(all.length + 100);
    source.want(0, PAGE_SIZE + 4);
    await settled(source);
    expect(source.count).toBe(all.length);
    expect(source.rowAt(all.length - 1)).toBe(all.at(-1));
    source.setTotal(all.length + 100);
    expect(source.count).toBe(all.length);
  });

  it('stops on a failed read, keeps the error, and carries on after retry()', async () => {
    const all = rows(PAGE_SIZE * 2);
    const { read } = keysetReader(all, { failAt: 1 });
    const source = new PagedRows(FILTER, ASC, read);
    await settled(source);
    expect(source.error).toMatchObject({ code: 'CACHE_UNREADABLE' });
    expect(source.rowAt(0)).toBeUndefined();
    source.retry();
    await settled(source);
    expect(source.error).toBeNull();
    expect(source.rowAt(0)).toBe(all[0]);
  });

  it('reads nothing more once disposed', async () => {
    const all = rows(PAGE_SIZE * 4);
    const { read, reads } = keysetReader(all);
    const source = new PagedRows(FILTER, ASC, read);
    await settled(source);
    source.dispose();
    const before = reads.length;
    source.want(PAGE_SIZE * 2, PAGE_SIZE * 2 + 10);
    await settled(source);
    expect(reads.length).toBe(before);
  });
});
