/**
 * The settlements table: a hand-rolled virtual grid. Rows have one fixed height, so where each row sits
 * follows from its index; only the rows in view (and a few either side) are in the page, positioned in a
 * spacer as tall as every row the filter matches. Rows come from a PagedRows source, which reads the pages
 * around what is in view; a row not read yet shows as a placeholder.
 *
 * Past MAX_SCROLL_PX (grid-geometry.ts) the spacer stops growing (browsers cap an element's height) and the scroll position
 * maps onto the rows proportionally, so a scrollbar still reaches every row.
 *
 * Keyboard: the grid takes focus as one stop and marks its active row with aria-activedescendant. Up, Down,
 * Page Up, Page Down, Home and End move it and scroll it into view; Enter opens its details.
 */
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
} from 'react';
import { flushSync } from 'react-dom';
import { firstSortDirection, type CachedSettlement, type SettlementSort } from '../../../shared/settlement-query';
import { ErrorNotice } from '../ui/states';
import type { Column } from './columns';
import type { PagedRows } from './paged-rows';
import { formatCount } from '../../../shared/format';
import type { Density } from '../ui/table-prefs';
import { rowKeyTarget } from '../ui/use-roving-rows';
import { geometryOf, rowsInView, scrollPxFor } from './grid-geometry';

/** Row and header heights (px, with the header's border) per density; settlements.css draws the same. */
const HEIGHTS: Readonly<Record<Density, { row: number; head: number }>> = {
  comfortable: { row: 28, head: 32 },
  compact: { row: 20, head: 24 },
};
/**
 * Rows rendered beyond each edge of the view, so a small scroll shows rows already laid out. None in the frame that
 * shows a new sort or filter, or rows far from the last ones (a jump): every row is then new text for the page to
 * render, lay out and paint, and the rows beyond the view were a third of them. They follow once that frame is drawn
 * (`useOverscanRegrowth`).
 */
const OVERSCAN = 8;
const ANCHOR_ROWS = 4096;
/**
 * How long after its last scroll event the table counts as scrolling. Meanwhile its rows take no pointer
 * (`data-scrolling`, settlements.css): with the pointer resting over the table, every frame of a scroll put another
 * row under it, and Chromium hit-tested the rows, moved the hover style from one row to the next (restyling and
 * repainting both) and dispatched pointerout/over through React, 1–7 ms of a 16 ms frame (issue 33).
 */
const SCROLL_IDLE_MS = 150;
/**
 * How long "go to row" keeps the rows on screen while it reads the rows it goes to. Scrolling there at once drew
 * skeleton rows first (a render, a layout and a paint of placeholders), and the read's answer waited on the page's
 * thread behind those frames: 16–24 ms of the 75–95 it took (test/bench/ui.ts, `go_to_row`). Within a second a
 * person's thought is not interrupted; past it the grid goes there and shows skeleton rows until the rows come.
 */
const GO_WAIT_MS = 1000;

interface RowProps {
  index: number;
  /** Pixels from the top of the window layer. */
  top: number;
  row: CachedSettlement | undefined;
  columns: readonly Column[];
  active: boolean;
  id: string;
  onPick(index: number): void;
}

const GridRow = memo(function GridRow({ index, top, row, columns, active, id, onPick }: RowProps) {
  if (!row) {
    return (
      <div
        role="row"
        id={id}
        aria-rowindex={index + 2}
        aria-busy="true"
        className="stl-row stl-row-loading"
        style={{ top }}
      >
        <div role="gridcell" aria-colspan={columns.length} className="stl-cell stl-cell-loading">
          <span className="sr-only">Loading row {index + 1}</span>
          <span className="skeleton-line" aria-hidden="true" />
        </div>
      </div>
    );
  }
  const flagged = row.exceptions.length > 0;
  return (
    <div
      role="row"
      id={id}
      aria-rowindex={index + 2}
      aria-selected={active}
      data-id={row.id}
      className={`stl-row${active ? ' stl-row-active' : ''}${flagged ? ' stl-row-flagged' : ''}${row.vanishedAt ? ' stl-row-vanished' : ''}`}
      style={{ top }}
      onClick={() => onPick(index)}
    >
      {columns.map((c) => (
        <div
          key={c.id}
          role="gridcell"
          className={`stl-cell${c.numeric ? ' money' : ''}${c.mono ? ' mono' : ''}`}
          style={{ width: c.width }}
        >
          {c.cell(row)}
        </div>
      ))}
    </div>
  );
});

/** Column headers; a sortable column's header is a button. Memoised: scrolling does not touch it. */
const GridHeader = memo(function GridHeader({
  columns,
  sort,
  onSort,
  width,
}: {
  columns: readonly Column[];
  sort: SettlementSort;
  onSort(sort: SettlementSort): void;
  width: number;
}) {
  return (
    <div role="rowgroup" className="stl-head" style={{ width }}>
      <div role="row" aria-rowindex={1} className="stl-row stl-row-head">
        {columns.map((c) => {
          const sorted = c.sort !== undefined && sort.column === c.sort;
          return (
            <div
              key={c.id}
              role="columnheader"
              aria-sort={sorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
              className={`stl-cell${c.numeric ? ' money' : ''}`}
              style={{ width: c.width }}
            >
              {c.sort === undefined ? (
                c.abbr ? (
                  <>
                    <span aria-hidden="true" title={c.label}>
                      {c.abbr}
                    </span>
                    <span className="sr-only">{c.label}</span>
                  </>
                ) : (
                  c.label
                )
              ) : (
                <button
                  type="button"
                  className="stl-sort"
                  onClick={() =>
                    onSort({
                      column: c.sort!,
                      direction: sorted ? (sort.direction === 'asc' ? 'desc' : 'asc') : firstSortDirection(c.sort!),
                    })
                  }
                >
                  {c.label}
                  <span aria-hidden="true" className="stl-sort-mark">
                    {sorted ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
});

/** "Go to row" on its way: the scroll position it goes to and the row it selects, once the rows there are in. */
interface Going {
  top: number;
  target: number;
}

interface GridProps {
  source: PagedRows;
  columns: readonly Column[];
  sort: SettlementSort;
  onSort(sort: SettlementSort): void;
  onOpen(row: CachedSettlement): void;
  /** Shown while the next filter's first page is on its way: the rows on screen are the previous filter's. */
  busy: boolean;
  /** Compact by default below 900 px of window height (ui/table-prefs.ts); the foot switches it. */
  density: Density;
  onDensity(density: Density): void;
}

export function SettlementsGrid({ source, columns, sort, onSort, onOpen, busy, density, onDensity }: GridProps) {
  const { row: rowHeight, head: headHeight } = HEIGHTS[density];
  const version = useSyncExternalStore(source.subscribe, source.getVersion);
  const id = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  /**
   * Where the grid's own scroll events last left it. A new result resets the scroll by this, not by reading
   * `el.scrollTop`: that read, in the middle of React's commit, made the browser lay out the new rows there and then
   * (6–7 ms a search at 1440×900), and again for the frame.
   */
  const scrolledTo = useRef(0);
  const [view, setView] = useState(400);
  const [active, setActive] = useState(0);
  const markScrolling = useScrollingMark();
  const [going, setGoing] = useState<Going | null>(null);
  const [shownSource, setShownSource] = useState(source);
  const [grown, setGrown] = useState(true);
  if (shownSource !== source) {
    // A new filter or sort starts at its first row.
    setShownSource(source);
    setActive(0);
    setScrollTop(0);
    setGoing(null);
    setGrown(false);
  }

  const rows = source.count;
  const { spacer, scale } = geometryOf(rows, view, rowHeight);
  const offset = scrollTop * scale;
  const inView = useCallback(
    (top: number) => rowsInView(top, { rows, scale, rowHeight, view }),
    [rows, scale, rowHeight, view],
  );
  const [first, last] = inView(scrollTop);
  useOverscanRegrowth(grown, setGrown, source, first, last, version);
  const overscan = grown ? OVERSCAN : 0;
  const start = Math.max(0, first - overscan);
  const end = Math.min(rows - 1, last + overscan);
  const perPage = Math.max(1, Math.floor(view / rowHeight) - 1);
  const width = columns.reduce((sum, c) => sum + c.width, 0);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setView(Math.max(rowHeight, el.clientHeight - headHeight)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [rowHeight, headHeight]);

  useLayoutEffect(() => {
    if (scroller.current && scrolledTo.current !== 0) scroller.current.scrollTop = 0;
  }, [source]);

  // While "go to row" waits, the rows it goes to are the ones wanted (moveTo); once it ends, arrived or called off,
  // the rows in view are again. Called off, the view had not moved: left wanting the rows it was to go to, the source
  // read around them and let go of the rows on screen to keep its pages, and those stayed skeletons.
  useEffect(() => {
    if (rows > 0 && going === null) source.want(first, last);
  }, [source, first, last, rows, going]);

  // Scrolls where "go to row" goes and renders the rows there at once, before the browser's scroll event.
  const arrive = useCallback(
    (to: Going) => {
      const el = scroller.current;
      if (!el) return;
      el.scrollTop = to.top;
      flushSync(() => {
        setGoing(null);
        setScrollTop(el.scrollTop);
        setActive(to.target);
        setGrown(false);
      });
    },
    [setGrown],
  );
  useArrival(going, source, inView, arrive);

  // `target` is one of the rows: rowKeyTarget clamps it. The keys scroll only as far as they must; "go to row"
  // (`toTop`) puts the row at the top of the view, where the eye starts reading, as far as the result allows.
  const moveTo = useCallback(
    (target: number, toTop = false) => {
      const el = scroller.current;
      if (!el || rows === 0) return;
      setGoing(null);
      const top = target * rowHeight;
      const seen = el.scrollTop * scale;
      let nextOffset = seen;
      if (toTop || top < seen) nextOffset = top;
      else if (top + rowHeight > seen + view) nextOffset = top + rowHeight - view;
      if (toTop) {
        // Where the browser will clamp the scroll: the rows asked for are the ones that scroll's render shows, so it
        // asks for nothing more. Asked now, the read goes out before any frame; the grid moves once they are in.
        const to = { top: Math.min(scrollPxFor(nextOffset, scale), el.scrollHeight - el.clientHeight), target };
        const [from, last] = inView(to.top);
        if (!source.hasRows(from, last)) {
          source.want(from, last);
          setGoing(to);
          return;
        }
      }
      setActive(target);
      if (nextOffset !== seen) el.scrollTop = scrollPxFor(nextOffset, scale);
    },
    [rows, scale, view, rowHeight, source, inView],
  );

  const pick = useCallback(
    (index: number) => {
      setActive(index);
      const row = source.rowAt(index);
      if (row) onOpen(row);
    },
    [source, onOpen],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    setGoing(null);
    const target = rowKeyTarget(event.key, active, rows, perPage);
    if (target !== null) {
      event.preventDefault();
      moveTo(target);
    } else if (event.key === 'Enter') {
      const row = source.rowAt(active);
      if (row) {
        event.preventDefault();
        onOpen(row);
      }
    }
  };

  // Rows sit at fixed places in one layer, which only the compositor moves: scrolling then paints the rows that
  // come into view and nothing else. The layer's origin moves on every ANCHOR_ROWS rows.
  const anchor = Math.floor(start / ANCHOR_ROWS) * ANCHOR_ROWS;
  const windowTop = scrollTop + (anchor * rowHeight - offset);
  const rowIds = (index: number) => `${id}-row-${index}`;
  const visible: number[] = [];
  for (let i = start; i <= end; i++) visible.push(i);
  // Rows are drawn in a pool of slots: the row that comes into view takes over the element of the one that left, so a
  // scroll changes the text and place of a few elements instead of removing rows of cells and creating others. Any
  // run of rows no longer than the pool falls in different slots; the pool changes only when the number of rows drawn
  // crosses a power of two.
  const slots = 2 ** Math.ceil(Math.log2(Math.max(visible.length, 1)));

  return (
    <div className="stl-grid-wrap">
      <div
        ref={scroller}
        role="grid"
        aria-label="Settlements"
        aria-rowcount={rows + 1}
        aria-colcount={columns.length}
        aria-busy={busy || source.loadingFirst || going !== null}
        // Only a row that is drawn: one scrolled out of view is not in the page for a screen reader to read.
        aria-activedescendant={active >= start && active <= end && rows > 0 ? rowIds(active) : undefined}
        tabIndex={0}
        className={`stl-grid stl-grid-${density}`}
        // The person's own move (the wheel, the scrollbar, a row, a key) calls off a "go to row" on its way; a scroll
        // event does not: one comes for an earlier move (Home's, sent with the next frame) or a pixel's adjustment of
        // the browser's own, and taking those for the person's left the table where it was (the UI bench, 1 Dec).
        onWheel={() => setGoing(null)}
        onPointerDown={() => setGoing(null)}
        // Rendered in the scroll event itself, which the browser dispatches before painting the frame: the rows
        // for the new position are in that frame rather than the next.
        onScroll={(e) => {
          const el = e.currentTarget;
          const top = el.scrollTop;
          scrolledTo.current = top;
          markScrolling(el);
          const [nextFirst, nextLast] = inView(top);
          // None of the rows drawn are in view there: a jump.
          const jumped = nextLast < start || nextFirst > end;
          flushSync(() => {
            setScrollTop(top);
            if (jumped) setGrown(false);
          });
        }}
        onKeyDown={onKeyDown}
      >
        <GridHeader columns={columns} sort={sort} onSort={onSort} width={width} />
        <div role="rowgroup" className="stl-body" style={{ height: spacer, width }}>
          <div role="presentation" className="stl-window" style={{ transform: `translateY(${windowTop}px)` }}>
            {visible.map((i) => (
              <GridRow
                key={i % slots}
                index={i}
                top={(i - anchor) * rowHeight}
                row={source.rowAt(i)}
                columns={columns}
                active={i === active}
                id={rowIds(i)}
                onPick={pick}
              />
            ))}
          </div>
        </div>
      </div>
      <div className="stl-grid-foot">
        <GridStatus source={source} first={first} last={last} rows={rows} />
        <DensityToggle density={density} onDensity={onDensity} />
        {rows > 0 && (
          <GoToRow
            rows={rows}
            onGo={(index) => {
              moveTo(index, true);
              scroller.current?.focus();
            }}
          />
        )}
      </div>
    </div>
  );
}

/**
 * The rows beyond the view (OVERSCAN) are left out where every row in view is new, a new source or a jump (the grid
 * sets `grown` false for those), and drawn again a task after the frame that shows the rows in view with their
 * data. Drawn with them, they delayed that frame; and while a jump's read was out, they were drawn as placeholders.
 */
function useOverscanRegrowth(
  grown: boolean,
  setGrown: (grown: boolean) => void,
  source: PagedRows,
  first: number,
  last: number,
  version: number,
): void {
  useEffect(() => {
    if (grown || !source.hasRows(first, last)) return;
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setGrown(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
    // Again at each move or read while not grown: the timer waits for the frame of the latest rows.
  }, [grown, setGrown, source, first, last, version]);
}

/**
 * Marks the grid `data-scrolling` until SCROLL_IDLE_MS after its last scroll event. An attribute React does not
 * render, so no render of the grid sets or clears it, and it is set once a scroll, not every frame.
 */
function useScrollingMark(): (el: HTMLElement) => void {
  const idle = useRef<number | undefined>(undefined);
  useEffect(() => () => clearTimeout(idle.current), []);
  return useCallback((el: HTMLElement) => {
    if (!el.hasAttribute('data-scrolling')) el.setAttribute('data-scrolling', '');
    clearTimeout(idle.current);
    idle.current = window.setTimeout(() => el.removeAttribute('data-scrolling'), SCROLL_IDLE_MS);
  }, []);
}

/**
 * Ends "go to row"'s wait (`arrive`) once the rows where it goes are in, the read failed, or GO_WAIT_MS passed.
 */
function useArrival(
  going: Going | null,
  source: PagedRows,
  inView: (top: number) => [number, number],
  arrive: (to: Going) => void,
): void {
  useEffect(() => {
    if (going === null) return;
    const [from, to] = inView(going.top);
    // Each read that comes in tells the source's subscribers.
    const unsubscribe = source.subscribe(() => {
      if (source.error || source.hasRows(from, to)) arrive(going);
    });
    const timer = window.setTimeout(() => arrive(going), source.hasRows(from, to) ? 0 : GO_WAIT_MS);
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [going, source, inView, arrive]);
}

function DensityToggle({ density, onDensity }: { density: Density; onDensity(density: Density): void }) {
  return (
    <button
      type="button"
      className="button stl-density"
      aria-pressed={density === 'compact'}
      onClick={() => onDensity(density === 'compact' ? 'comfortable' : 'compact')}
    >
      Compact rows
    </button>
  );
}

function GridStatus({ source, first, last, rows }: { source: PagedRows; first: number; last: number; rows: number }) {
  if (source.error) return <ErrorNotice error={source.error} onRetry={() => source.retry()} />;
  return (
    <p className="stl-grid-status muted">
      {rows > 0 && `Rows ${formatCount(first + 1)}–${formatCount(last + 1)} of `}
      {/* Until the filter's total is in, the rows laid out so far are not its count ("of 500"): said in words. */}
      {rows > 0 && (source.total === null ? <span className="stl-counting">counting…</span> : formatCount(rows))}
    </p>
  );
}

/** "Go to row": any row of the result in one read (PagedRows reads a far page by its position). */
function GoToRow({ rows, onGo }: { rows: number; onGo(index: number): void }) {
  const [text, setText] = useState('');
  const number = Number(text.replace(/[,\s]/g, ''));
  const valid = Number.isSafeInteger(number) && number >= 1 && number <= rows;
  return (
    <form
      className="stl-goto"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onGo(number - 1);
      }}
    >
      <label>
        Go to row{' '}
        <input
          inputMode="numeric"
          size={9}
          value={text}
          aria-invalid={text !== '' && !valid}
          onChange={(e) => setText(e.target.value)}
        />
      </label>{' '}
      <button type="submit" disabled={!valid}>
        Go
      </button>
      {text !== '' && !valid && <span className="muted"> 1 to {formatCount(rows)}</span>}
    </form>
  );
}
