/**
 * The rows behind the settlements table: read from the cache a page at a time with keyset cursors, never all
 * of them. A source belongs to one filter and sort; a new filter or sort gets a new source.
 *
 * Page k is read with the cursor the page before it returned, when that page was read: the source keeps two
 * chains of cursors (a few dozen bytes each, kept for every page read), one from the top of the order and one
 * from the bottom (the same query in the opposite direction, whose pages are the last rows read backwards),
 * while it keeps the rows of at most `MAX_PAGES` pages, dropping those farthest from where the table looks. A
 * row whose page was dropped costs one read to get back.
 *
 * A page far from both chains (a scrollbar dragged to the middle of a million rows, "go to row") is read in one
 * request by its position in the result, which the cache finds from its counts per date without reading the
 * rows before it (electron/cache/settlement-pages.ts); its cursor then continues the chain from there. Pages
 * are read one at a time, which keeps the cache's single connection free for the totals and the chart; where
 * the table looks changes while a page is on its way, and the next read follows the new position. A jump's read
 * of the rows on screen is the one exception: it goes out at once, beside a page on its way (see `pump`).
 *
 * A new source's first read is a screen of rows (GRID_FIRST_ROWS), the rest of page 0 straight after it from the cursor
 * it returned: the first rows of a search or a sort come sooner, and page 0 is whole before anything else is read,
 * so the chain has no hole.
 */
import type { IpcError, IpcResult } from '../../../shared/ipc/contract';
import {
  GRID_FIRST_ROWS,
  type CachedSettlement,
  type SettlementFilter,
  type SettlementPageResult,
  type SettlementSort,
} from '../../../shared/settlement-query';

/**
 * Rows a read asks for. Each page that arrives costs the renderer about a frame (parsing it, and the garbage it
 * leaves), so fewer, larger pages scroll smoother (test/bench/ui.ts); 500 rows is still a quick read from the cache.
 */
export const PAGE_SIZE = 500;
/** Pages whose rows are kept (4,000 rows); their cursors are kept regardless. */
const MAX_PAGES = 8;
/** Rows read ahead on either side of what the table shows. */
const MARGIN = Math.floor(PAGE_SIZE / 2);
/**
 * Rows either side of the screen that a jump's first read brings along: the grid lays out a few rows beyond each
 * edge (SettlementsGrid's overscan).
 */
const JUMP_PAD = 16;

type Direction = 'down' | 'up';

interface Chain {
  /** cursors[k] reads page k of this direction; cursors[0] is the start (no cursor). */
  cursors: (string | undefined)[];
  /** Every row of this direction, once a read came back without a next cursor. */
  rowCount: number | null;
}

interface StoredPage {
  direction: Direction;
  page: number;
  rows: CachedSettlement[];
  /** Set while the page holds only its first GRID_FIRST_ROWS rows: the cursor its other rows are read from. */
  rest?: string;
}

type ReadPage = (
  query: SettlementFilter & { sort: SettlementSort; after?: string; position?: number; limit: number },
) => Promise<IpcResult<SettlementPageResult>>;

/** A stored page's key: page k of the down chain is k, of the up chain ~k (-k - 1), so the two never meet. */
const pageKey = (direction: Direction, page: number): number => (direction === 'down' ? page : ~page);

const opposite = (sort: SettlementSort): SettlementSort => ({
  column: sort.column,
  direction: sort.direction === 'asc' ? 'desc' : 'asc',
});

export class PagedRows {
  /** Bumped on every change, for useSyncExternalStore. */
  version = 0;
  /** Rows the filter matches: the totals' count once known, corrected if the pages run out elsewhere. */
  total: number | null = null;
  asOf: string | null = null;
  error: IpcError | null = null;
  /** True from creation until the first page is in. */
  loadingFirst = true;

  private readonly chains: Record<Direction, Chain> = {
    down: { cursors: [undefined], rowCount: null },
    up: { cursors: [undefined], rowCount: null },
  };
  private readonly pages = new Map<number, StoredPage>();
  /**
   * After a jump far from both chains, the rows on screen read on their own (a few dozen, by their position)
   * before the pages around them: one small read instead of one or two whole pages. Index -> row; only the last
   * jump's are kept.
   */
  private jumped = new Map<number, CachedSettlement>();
  private lastJump = -1;
  private readonly listeners = new Set<() => void>();
  private window: [number, number] = [0, PAGE_SIZE];
  /** The rows on screen, inside the window: read before the margins around them. */
  private view: [number, number] = [0, PAGE_SIZE];
  private reading = false;
  /** A jump's read sent while a page was on its way; no other read goes out until it is back. */
  private jumping = false;
  private disposed = false;

  constructor(
    readonly filter: SettlementFilter,
    readonly sort: SettlementSort,
    private readonly read: ReadPage,
  ) {
    this.pump();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /**
   * Rows the table can lay out now: the total when known, else what the first pages have shown (a whole page once
   * the first rows say more follow, so the window reaches past them and the rest of the page is read).
   */
  get count(): number {
    const down = this.chains.down;
    const shown = this.pages.get(0)?.rest !== undefined ? 1 : down.cursors.length - 1;
    return this.total ?? down.rowCount ?? shown * PAGE_SIZE;
  }

  /** The totals' count for the same filter. Pages that already ran out know better. */
  setTotal(total: number): void {
    if (this.disposed || this.total === total) return;
    if (this.chains.down.rowCount !== null || this.chains.up.rowCount !== null) return;
    this.total = total;
    this.changed();
    this.pump();
  }

  /** Row `index` counted from the top, when its page is in memory. */
  rowAt(index: number): CachedSettlement | undefined {
    // No page is negative; the checks keep a row outside 0..total-1 from landing in the other chain's keys.
    const k = Math.floor(index / PAGE_SIZE);
    const down = k >= 0 ? this.pages.get(k)?.rows[index - k * PAGE_SIZE] : undefined;
    if (down) return down;
    if (this.total === null) return undefined;
    const fromEnd = this.total - 1 - index;
    const j = Math.floor(fromEnd / PAGE_SIZE);
    if (j < 0) return undefined;
    return this.pages.get(~j)?.rows[fromEnd - j * PAGE_SIZE] ?? this.jumped.get(index);
  }

  /** Whether rows `first` to `last` inclusive are all in memory. */
  hasRows(first: number, last: number): boolean {
    for (let i = first; i <= last; i++) if (!this.rowAt(i)) return false;
    return true;
  }

  /** Where the table looks: rows `first` to `last` inclusive. Reads what is missing around them. */
  want(first: number, last: number): void {
    const from = Math.max(0, first - MARGIN);
    const to = Math.min(this.count, last + 1 + MARGIN);
    this.view = [Math.max(0, first), Math.min(this.count, last + 1)];
    if (from === this.window[0] && to === this.window[1]) return;
    this.window = [from, to];
    this.pump();
  }

  retry(): void {
    if (this.disposed) return;
    this.error = null;
    this.changed();
    this.pump();
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }

  private changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  /**
   * The next page to read for the current window, or null when everything in it is in memory. The rows on screen
   * come first: after a jump the margin above them is often another page, and reading it first kept the screen on
   * skeleton rows for a second read.
   */
  private nextRead(): { direction: Direction; page: number } | { jump: number; limit: number } | null {
    const onScreen = this.firstMissing(...this.view);
    if (onScreen && this.total !== null && this.isFar(onScreen)) {
      const first = Math.max(0, this.view[0] - JUMP_PAD);
      const last = Math.min(this.total, this.view[1] + JUMP_PAD);
      // Once per place: rows a jump did not bring (the result changed under it) come with their pages.
      if (first !== this.lastJump) {
        this.lastJump = first;
        return { jump: first, limit: last - first };
      }
    }
    return onScreen ?? this.firstMissing(...this.window);
  }

  /** A page neither chain of cursors reaches: read by its position. */
  private isFar(read: { direction: Direction; page: number }): boolean {
    return read.page > 0 && this.chains[read.direction].cursors[read.page] === undefined;
  }

  /** The page of the first row from `from` up to `to` (exclusive) not in memory, or null. */
  private firstMissing(from: number, to: number): { direction: Direction; page: number } | null {
    // Until some read says how many rows there are, the window itself is the bound.
    const known = this.total ?? this.chains.down.rowCount;
    const end = known === null ? to : Math.min(to, known);
    for (let i = from; i < end; i++) {
      if (this.rowAt(i)) continue;
      const down = this.chains.down;
      const k = Math.floor(i / PAGE_SIZE);
      if (down.cursors[k] !== undefined || k === 0) return { direction: 'down', page: k };
      if (this.total === null) return { direction: 'down', page: down.cursors.length - 1 };
      const j = Math.floor((this.total - 1 - i) / PAGE_SIZE);
      if (this.chains.up.cursors[j] !== undefined || j === 0) return { direction: 'up', page: j };
      // Far from both chains: page k by its position.
      return { direction: 'down', page: k };
    }
    return null;
  }

  private pump(): void {
    if (this.jumping || this.disposed || this.error) return;
    if (this.reading) {
      this.jumpAlongside();
      return;
    }
    const next = this.nextRead();
    if (!next) return;
    this.reading = true;
    // Rows the screen waits for: a new source's first, or a jump's, which are the rows on screen.
    const awaited = this.loadingFirst || 'jump' in next;
    const reading = 'jump' in next ? this.readJump(next.jump, next.limit) : this.readPage(next.direction, next.page);
    void reading.finally(() => {
      if (awaited && !this.disposed) {
        // Those rows are drawn before the next read goes out: main reading and sending the page around them, and the
        // page taking it in, competed with drawing them for the machine's cores, and an answer that came in as they
        // were rendered was taken in before the frame that shows them (test/bench/ui.ts; a jump's frame 16 ms
        // later in Chromium's trace). A task is enough: the render is a microtask of the announcement. The read
        // still goes before the totals that first rows set off, which wait a task of their own
        // (settlements-queries.ts) so as to queue behind it on the cache's one connection.
        setTimeout(() => {
          this.reading = false;
          this.pump();
        }, 0);
      } else {
        this.reading = false;
        this.pump();
      }
      if (!this.disposed) this.changed();
    });
  }

  /**
   * A jump while a page is on its way (read for where the table looked before: 500 rows, 30–45 ms through the IPC
   * bridge): the rows on screen are read now, not after that page. A scrollbar dragged soon after "go to row" or
   * another drag waited for the page those had set off, and showed skeleton rows a frame or two longer
   * (test/bench/ui.ts). Any other read still waits its turn.
   */
  private jumpAlongside(): void {
    const next = this.nextRead();
    if (!next || !('jump' in next)) return;
    this.jumping = true;
    void this.readJump(next.jump, next.limit).finally(() => {
      if (this.disposed) {
        this.jumping = false;
        return;
      }
      this.changed();
      // As in `pump`, the rows on screen are drawn before anything more is read.
      setTimeout(() => {
        this.jumping = false;
        this.pump();
      }, 0);
    });
  }

  private async readPage(direction: Direction, page: number): Promise<void> {
    const chain = this.chains[direction];
    const key = pageKey(direction, page);
    // The rest of a page read in part, or the whole page; a new source's very first read takes GRID_FIRST_ROWS.
    const stored = this.pages.get(key);
    const part = stored?.rest !== undefined ? stored : undefined;
    const after = part?.rest ?? chain.cursors[page];
    const first = this.loadingFirst && key === 0;
    const result = await this.read({
      ...this.filter,
      sort: direction === 'down' ? this.sort : opposite(this.sort),
      ...(after !== undefined ? { after } : page > 0 ? { position: page * PAGE_SIZE } : {}),
      limit: first ? GRID_FIRST_ROWS : PAGE_SIZE - (part?.rows.length ?? 0),
    });
    if (this.disposed) return;
    if (!result.ok) {
      this.error = result.error;
      return;
    }
    const { nextCursor, asOf } = result.value;
    const rows = part ? part.rows.concat(result.value.rows) : result.value.rows;
    this.asOf = asOf;
    this.loadingFirst = false;
    if (first && nextCursor !== null) {
      this.pages.set(key, { direction, page, rows, rest: nextCursor });
      return;
    }
    if (nextCursor !== null) chain.cursors[page + 1] = nextCursor;
    else {
      chain.rowCount = page * PAGE_SIZE + rows.length;
      // Where the pages ran out is the truth, should the totals have been read before a sync wrote more.
      this.total = chain.rowCount;
    }
    this.pages.set(key, { direction, page, rows });
    this.evict();
  }

  /** The rows from `position` on screen after a jump, `limit` of them, kept until the next jump. */
  private async readJump(position: number, limit: number): Promise<void> {
    const result = await this.read({ ...this.filter, sort: this.sort, position, limit });
    if (this.disposed) return;
    if (!result.ok) {
      this.error = result.error;
      return;
    }
    this.asOf = result.value.asOf;
    this.jumped = new Map(result.value.rows.map((row, i) => [position + i, row]));
  }

  /** Drops the pages farthest from the window until at most MAX_PAGES remain. */
  private evict(): void {
    if (this.pages.size <= MAX_PAGES) return;
    const centre = (this.window[0] + this.window[1]) / 2;
    const distance = (p: StoredPage): number => {
      const start = p.direction === 'down' ? p.page * PAGE_SIZE : (this.total ?? 0) - (p.page + 1) * PAGE_SIZE;
      return Math.abs(start + PAGE_SIZE / 2 - centre);
    };
    const byDistance = [...this.pages.entries()].sort(([, a], [, b]) => distance(b) - distance(a));
    for (const [key] of byDistance.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(key);
  }
}
