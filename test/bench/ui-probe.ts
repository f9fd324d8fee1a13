/**
 * The UI bench's eye in the page (test/bench/ui.ts): armed before a person's input, it notes the input events the
 * page receives (from Playwright's keyboard and mouse, through Chromium's own input pipeline) and checks, in every
 * animation frame after them, whether what the screen shows is final for the action:
 *  - the action's own rows (a search's first row matches the text, a sort's header is marked, "go to row" shows
 *    that row, the detail names the record), no skeleton row, the grid not busy: `first_rows_ms`;
 *  - and beside them the count the grid holds, the footer's "of N", the totals bar's Records and Settled and the
 *    chart's "settled in all" agreeing with each other and with the figures the bench read from the cache itself,
 *    nothing dimmed, busy, a skeleton or "counting…": `final_ms`.
 * A frame's callback runs after the DOM changes of the tasks before it and before that frame is painted, so the
 * first callback that sees the final screen is the frame that paints it. Times are from the input event's own
 * timestamp (the event's `timeStamp`, on performance.now's clock), the last one of the kinds the action starts on.
 * Functions only: the page's CSP allows no eval.
 */
import type { Page } from 'playwright-core';

/** What the action shows when its rows are in. */
export type RowCheck =
  | { kind: 'search'; text: string }
  | { kind: 'column'; column: string; value: string }
  | { kind: 'exceptions' }
  | { kind: 'sorted'; column: string }
  /** The grid's first row shown within `slack` rows of `row` (1-based, as the footer counts). */
  | { kind: 'at'; row: number; slack: number }
  | { kind: 'detail'; txn: string }
  | { kind: 'any' };

export interface ProbeSpec {
  name: string;
  row: RowCheck;
  /** The cache's own figures for the action's filter (test/bench/ui.ts reads them with SQL). */
  count: number;
  settled: number;
  /** Input events the time starts from: the last one seen of these kinds. */
  startOn: readonly ('keydown' | 'pointerdown' | 'wheel')[];
  /** Input events the action sends before it can be final (a typed text's keys): none is final before them. */
  minInputs: number;
  /** Whether the chart is on screen (and so must agree). */
  chart: boolean;
}

export interface ProbeResult {
  first_rows_ms: number;
  final_ms: number;
  /** Frames drawn between the input and the final one that showed a skeleton row or a dimmed figure. */
  waiting_frames: number;
}

declare global {
  interface Window {
    __uiProbe?: Promise<ProbeResult>;
  }
}

/** Arms the probe; `probeResult` waits for what it saw. */
export function armProbe(page: Page, spec: ProbeSpec): Promise<void> {
  return page.evaluate((spec) => {
    const starts: number[] = [];
    const onInput = (event: Event) => starts.push(event.timeStamp);
    for (const type of spec.startOn) window.addEventListener(type, onInput, { capture: true, passive: true });
    const digits = (text: string | null | undefined): number | null => {
      if (!text || !/\d/.test(text)) return null;
      const n = Number(text.replace(/[^\d]/g, ''));
      return /[-−]/.test(text) ? -n : n;
    };
    // Dimmed, busy, a skeleton, or a figure still being counted, anywhere on the screen.
    const STALE = '.stl-screen :is(.stl-stale, .stl-counting, .skeleton-line, .skeleton, [aria-busy=true])';
    const grid = () => document.querySelector<HTMLElement>('[role=grid]');
    const heads = (g: HTMLElement) =>
      [...g.querySelectorAll('[role=columnheader]')].map(
        (h) => h.querySelector('button')?.firstChild?.textContent ?? h.textContent,
      );
    const firstRow = (g: HTMLElement) => g.querySelector('[role=row][data-id][aria-rowindex="2"]');
    const cell = (g: HTMLElement, row: Element, column: string) =>
      row.querySelectorAll('[role=gridcell]')[heads(g).indexOf(column)]?.textContent ?? '';
    /** The action's rows are on screen, read, and the grid is not waiting for another answer. */
    const rowsShown = (): string | null => {
      const g = grid();
      if (!g) return 'no grid';
      if (g.getAttribute('aria-busy') !== 'false') return 'grid busy';
      if (g.querySelector('[role=row][aria-busy=true]')) return 'skeleton rows';
      const row = spec.row;
      const first = firstRow(g);
      if (row.kind === 'search') {
        const text = row.text.toLowerCase();
        const ok =
          first !== null &&
          ['UTR', 'Order ID', 'Gateway txn ID'].some((c) => cell(g, first, c).toLowerCase().startsWith(text));
        return ok ? null : 'first row not the search';
      }
      if (row.kind === 'column')
        return first && cell(g, first, row.column) === row.value ? null : 'first row not the filter';
      if (row.kind === 'exceptions') return heads(g).includes('Rules broken') && first ? null : 'not the exceptions';
      if (row.kind === 'sorted') {
        const head = [...g.querySelectorAll('[role=columnheader]')].find(
          (h) => h.querySelector('button')?.firstChild?.textContent === row.column,
        );
        return head?.hasAttribute('aria-sort') && first ? null : 'not sorted';
      }
      if (row.kind === 'at') {
        const status = document.querySelector('.stl-grid-status')?.textContent ?? '';
        const shownFrom = digits(/Rows ([\d,]+)/.exec(status)?.[1]) ?? 0;
        return shownFrom > 0 && Math.abs(shownFrom - row.row) <= row.slack ? null : `rows from ${shownFrom} shown`;
      }
      if (row.kind === 'detail')
        return document.querySelector('.stl-detail h2')?.textContent?.includes(row.txn) ? null : 'no detail';
      return first ? null : 'no rows';
    };
    /** Everything the person reads agrees, with each other and the cache, and nothing is stale or loading. */
    const final = (): string | null => {
      const rows = rowsShown();
      if (rows) return rows;
      const g = grid()!;
      if (document.querySelector(STALE)) return 'stale or loading';
      const inGrid = Number(g.getAttribute('aria-rowcount')) - 1;
      const status = document.querySelector('.stl-grid-status')?.textContent ?? '';
      const ofN = digits(/of ([\d,]+)/.exec(status)?.[1]);
      const figures = [...document.querySelectorAll('[aria-label=Totals] dd')].map((d) => d.textContent);
      const records = digits(figures[0]);
      const settled = digits(figures.at(-1));
      if (inGrid !== spec.count || ofN !== spec.count || records !== spec.count)
        return `count grid ${inGrid} footer ${ofN} totals ${records}, the cache ${spec.count}`;
      if (settled !== spec.settled) return `settled ${settled}, the cache ${spec.settled}`;
      if (spec.chart) {
        const desc = document.querySelector('#stl-chart desc')?.textContent ?? '';
        const charted = digits(/; ([^;]*) settled in all/.exec(desc)?.[1]);
        if (charted !== spec.settled) return `chart ${charted}, the cache ${spec.settled}`;
      }
      return null;
    };
    const armed = performance.now();
    window.__uiProbe = new Promise<ProbeResult>((resolve, reject) => {
      let firstRows: number | null = null;
      let waiting = 0;
      let why = 'no input';
      const stop = () => {
        clearTimeout(timer);
        for (const type of spec.startOn) window.removeEventListener(type, onInput, { capture: true });
      };
      const timer = setTimeout(() => {
        stop();
        // What the screen said, for a run that stopped here: the footer's rows and any error shown.
        const said = [...document.querySelectorAll('.stl-grid-status, .stl-screen [role=alert]')]
          .map((e) => e.textContent?.trim())
          .filter(Boolean)
          .join('; ');
        reject(new Error(`${spec.name}: not final within 30 s (${why}; the screen: ${said || 'nothing'})`));
      }, 30_000);
      const frame = () => {
        if (starts.length < spec.minInputs) {
          requestAnimationFrame(frame);
          return;
        }
        const now = performance.now();
        if (firstRows === null && rowsShown() === null) firstRows = now;
        const problem = final();
        if (problem === null) {
          stop();
          // Nothing to wait for (an untimed wait): timed from the arming.
          const start = starts.at(-1) ?? armed;
          resolve({ first_rows_ms: (firstRows ?? now) - start, final_ms: now - start, waiting_frames: waiting });
          return;
        }
        why = problem;
        if (document.querySelector(STALE)) waiting++;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  }, spec);
}

export function probeResult(page: Page): Promise<ProbeResult> {
  return page.evaluate(() => window.__uiProbe!);
}
