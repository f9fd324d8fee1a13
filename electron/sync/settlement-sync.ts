/**
 * Settlement sync: fills the cache with every settlement record of a date range (optionally one gateway).
 *
 * Each date is paged by offset/limit until `is_last_page`. A few requests are in flight at once: several
 * small dates side by side, or, once a date's first page comes back full, the next pages of that date
 * ahead of time; a slot no other date wants guesses at the next pages of a date whose first is still out (a sync
 * of one date, the last of a range), since an idle slot costs a round trip. Pages are stored strictly in offset
 * order, each in one transaction with the date's checkpoint (cache/settlement-ingest.ts); a page that arrives early
 * waits, and it counts against the same window as the requests, so memory stays bounded by `concurrency` pages, and
 * the one being written, whatever the API's speed.
 *
 * Pages overlap by one record, and each boundary's record is checked (paging-check.ts): a mismatch means the
 * service's list moved while we paged, and the date is paged again until a pass sees no shift and agrees with
 * the pass before it (at most MAX_PASSES); the closing of the date then marks vanished only what the last pass
 * did not see, so the cache ends equal to the service's final state. Each date's passes are recorded as its
 * manifest per gateway (pages, records, digest, passes, stable).
 *
 * A crash, kill or cancel leaves every stored page with its checkpoint; the next sync of the same range
 * resumes the run there (cache/sync-runs.ts). A resumed pass missed its start, so it is followed by a full one. Retries are the API client's (its policy, its backoff); an
 * error that outlives them fails that date only, records why, and the other dates carry on. A fault in
 * the cache itself (disk full, say) stops the whole run and is thrown.
 */
import { ApiError, type MerchantApi } from '../api';
import type { SettlementPage } from '../../shared/api/settlements';
import { SETTLEMENT_PAGE } from '../../shared/api/settlements';
import { groupFailures, syncRequest, type SyncProgress, type SyncSummary } from '../../shared/sync';
import { SYNC_CONCURRENCY } from '../../shared/profiles';
import { addDays } from '../../shared/time';
import type { Cache } from '../cache/database';
import type { DateIngest } from '../cache/settlement-ingest';
import { EMPTY_DIGEST, createPassDigest, type PassDigest } from '../cache/record-digest';
import { keyOf, overlapHolds, type RecordKey } from './paging-check';
import { createProgress } from './progress';

export interface SyncSettlementsOptions {
  api: { settlements: Pick<MerchantApi['settlements'], 'page'> };
  cache: Pick<Cache, 'settlements' | 'syncRuns'>;
  from: string;
  to: string;
  pg?: string;
  /** Records per request: the API's largest page unless told otherwise. */
  pageSize?: number;
  /** Requests (and pages waiting to be stored) at once. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
  /** Milliseconds, for the rate and the summary's timing. */
  clock?: () => number;
}

/** Passes over one date before it is recorded as not stable (the service kept changing while we paged it). */
export const MAX_PASSES = 5;

interface DateState {
  date: string;
  status: 'pending' | 'active' | 'completed' | 'failed' | 'cancelled';
  /** Checkpoint: the offset of the next page to store. */
  next: number;
  /** The offset of the next page to ask for. */
  fetchAt: number;
  /** Known once a last page has come back: no request goes past it. */
  end: number;
  /** A full page came back, so more are likely: ask ahead. */
  ahead: boolean;
  /**
   * A request asked past the next page to store that failed, held until the pages before it say whether it was
   * needed: the interface does not say what a service answers for an offset past a date's end, and it may be an
   * error. Nothing at or past it is asked meanwhile.
   */
  failedAhead: { offset: number; error: ApiError } | null;
  /** A page came back shorter than asked and not last: where later pages start is not known, so none is guessed. */
  short: boolean;
  /** Bumped when the API's pages turn out shorter than asked: answers to older guesses are dropped. */
  generation: number;
  inflight: number;
  /** The requests out, by offset: those past a last page are called off when it comes back. */
  requests: Map<number, AbortController>;
  waiting: Map<number, SettlementPage>;
  ingest: DateIngest | null;
  records: number;
  /** This pass over the date (1-based), its pages, and the boundaries whose overlap did not match. */
  pass: number;
  passPages: number;
  passShifted: boolean;
  /** Started past offset 0 (a resumed run): this pass saw only part of the date. */
  passPartial: boolean;
  shifts: number;
  /** The last record stored, which the next page must start with. */
  lastKey: RecordKey | null;
  digest: PassDigest;
  /** The digest of the previous pass if it read the whole date, else null. */
  previousDigest: string | null;
}

export async function syncSettlements(options: SyncSettlementsOptions): Promise<SyncSummary> {
  const request = syncRequest.parse({ from: options.from, to: options.to, pg: options.pg });
  const pg = request.pg ?? null;
  const pageSize = checkedCount('pageSize', options.pageSize ?? SETTLEMENT_PAGE.maxLimit, SETTLEMENT_PAGE.maxLimit);
  // Each page repeats the previous page's last record; a page of one record cannot.
  const overlap = pageSize > 1 ? 1 : 0;
  const step = pageSize - overlap;
  const { cache, api, concurrency: pagesAtOnce = SYNC_CONCURRENCY.default } = options;
  const concurrency = checkedCount('concurrency', pagesAtOnce, SYNC_CONCURRENCY.max);
  const clock = options.clock ?? (() => performance.now());
  const started = clock();

  // Oldest first: ids grow with the date, so every date is appended at the end of the table.
  const days: string[] = [];
  for (let d = request.from; d <= request.to; d = addDays(d, 1)) days.push(d);
  const claimed = cache.syncRuns.claim('settlements', { from: request.from, to: request.to, pg }, days);
  const runId = claimed.run.id;
  const states = claimed.dates.map((d) => dateState(d, pg)).sort((a, b) => (a.date < b.date ? -1 : 1));
  const progress = createProgress({
    runId,
    dates: states,
    pages: claimed.run.pages,
    records: claimed.run.records,
    clock,
    emit: options.onProgress,
  });

  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const inflight = new Set<Promise<void>>();
  const pages = createDatePages({ cache, runId, pg, pageSize, overlap, states, progress });

  /** A fault of the cache (or a bug): stops the run. Kept here because a settled task may go unobserved. */
  let fatal = null as { error: unknown } | null;
  const halt = (error: unknown) => {
    fatal ??= { error };
    stop.abort();
  };
  const guarded = (work: () => void) => {
    try {
      work();
    } catch (error) {
      halt(error);
    }
  };

  const fetchPage = (s: DateState) => {
    const offset = s.fetchAt;
    const generation = s.generation;
    const stale = () => signal.aborted || s.status !== 'active' || generation !== s.generation;
    s.fetchAt += step;
    s.inflight++;
    const request = new AbortController();
    s.requests.set(offset, request);
    // The request gives up its place as soon as it is answered, before its page is written: see `receive`.
    const answered = () => {
      s.inflight--;
      if (s.requests.get(offset) === request) s.requests.delete(offset);
      inflight.delete(task);
    };
    const task: Promise<void> = api.settlements
      .page(
        { date: s.date, pg: pg ?? undefined, offset, limit: pageSize },
        { signal: AbortSignal.any([signal, request.signal]) },
      )
      .then(
        (page) =>
          guarded(() => {
            answered();
            if (stale()) return;
            if (page.is_last_page || page.data.length === 0) {
              // Nothing past a last page is asked for (a later pass starts over with no end), and what was asked
              // ahead is called off: over a slow network each would hold a slot for a whole round trip.
              s.end = Math.min(s.end, offset + 1);
              for (const [at, pending] of s.requests) if (at >= s.end) pending.abort();
            }
            pages.receive(s, offset, page, ask);
          }),
        (error: unknown) =>
          guarded(() => {
            answered();
            if (stale()) return;
            if (!(error instanceof ApiError)) throw error;
            // A page asked for ahead of a last page that has since come back was never needed.
            if (offset >= s.end) return;
            pages.failed(s, offset, error);
          }),
      );
    inflight.add(task);
  };

  /** More of the date may be asked: short of its last page, and of a request past the next page that failed. */
  const askable = (s: DateState) => s.fetchAt < Math.min(s.end, s.failedAhead?.offset ?? Infinity);

  /**
   * The date to ask next: one being read ahead, then one waiting on nothing (a page being written is nothing: the
   * next is asked for while it is written, and dropped as stale if the page turns out short), then a new one, then a
   * guess at the next page of one whose first is still out (wrong guesses are dropped as those past a short page are).
   */
  const nextDate = (): DateState | undefined => {
    const active = states.filter((s) => s.status === 'active');
    return (
      active.find((s) => s.ahead && askable(s)) ??
      active.find((s) => s.inflight === 0 && s.waiting.size === 0 && askable(s)) ??
      start(states.find((s) => s.status === 'pending')) ??
      active.find((s) => !s.short && askable(s))
    );
  };

  const start = (s: DateState | undefined) => {
    if (!s) return undefined;
    s.status = 'active';
    s.ingest = cache.settlements.beginDate({ runId, date: s.date, pg });
    return s;
  };

  /** Fills the window: requests out plus pages held behind a gap, `concurrency` in all. */
  const ask = () => {
    while (!signal.aborted && inflight.size + pages.waiting() < concurrency) {
      const s = nextDate();
      if (!s) break;
      fetchPage(s);
    }
  };

  try {
    for (ask(); inflight.size > 0; ask()) await Promise.race(inflight);
  } catch (error) {
    halt(error);
    await Promise.allSettled(inflight);
  }
  if (fatal) failRun(cache, runId, fatal.error);

  const cancelled = signal.aborted && states.some((s) => s.status === 'pending' || s.status === 'active');
  for (const s of states) if (s.status === 'pending' || s.status === 'active') s.status = 'cancelled';
  const failed = states.some((s) => s.status === 'failed');
  const status = cancelled ? 'cancelled' : failed ? 'partial' : 'completed';
  cache.syncRuns.finish(runId, status);
  // The search and sort keys are the caller's to write once the sync has answered (writeKeysAfter).
  progress.report(null, true);
  const ms = Math.round(clock() - started);
  return summarize(options.cache, { runId, resumed: claimed.resumed, concurrency }, request, status, states, ms);
}

interface PagesContext {
  cache: SyncSettlementsOptions['cache'];
  runId: number;
  pg: string | null;
  pageSize: number;
  overlap: number;
  states: readonly DateState[];
  progress: ReturnType<typeof createProgress>;
}

/**
 * The pages of the dates being read. Pages come back in any order; each is held until the pages before it are
 * stored, then stored in order, and a date's last page ends its pass. The run counts the pages held against its
 * concurrency, as it does the requests out.
 */
function createDatePages({ cache, runId, pg, pageSize, overlap, states, progress }: PagesContext) {
  let waitingPages = 0;

  const currentDate = () => states.find((s) => s.status === 'active')?.date ?? null;

  const failDate = (s: DateState, error: unknown) => {
    s.status = 'failed';
    s.ingest = null;
    waitingPages -= s.waiting.size;
    s.waiting.clear();
    const message = error instanceof ApiError ? error.userMessage : String(error);
    cache.syncRuns.failDate(runId, s.date, message);
    progress.report(currentDate(), true);
  };

  const dropWaiting = (s: DateState) => {
    waitingPages -= s.waiting.size;
    s.waiting.clear();
  };

  /** The pass is over: record the date, or page it again when the pass saw the list move or disagreed. */
  const endPass = (s: DateState): 'completed' | 'again' => {
    const digest = s.digest.digest();
    // A resumed pass checked its first boundary against the key stored with the checkpoint, so it is clean if no
    // boundary moved; its digest is then the cache's (the records before the resume were stored by the dead run).
    const clean = !s.passShifted;
    const stable = clean && (s.previousDigest === null || s.previousDigest === digest);
    if (!stable && s.pass < MAX_PASSES) {
      restartPass(s, digest, pg);
      dropWaiting(s);
      s.ingest!.newPass();
      return 'again';
    }
    s.ingest!.finish({
      pages: s.passPages,
      passes: s.pass,
      shifts: s.shifts,
      stable,
      gateways: s.passPartial ? null : s.digest.gateways(),
      emptyDigest: EMPTY_DIGEST,
    });
    s.status = 'completed';
    s.ingest = null;
    dropWaiting(s);
    return 'completed';
  };

  /** The pages asked past the next to store were asked at wrong offsets: their answers are dropped as they come. */
  const askAgainFromNext = (s: DateState) => {
    s.ahead = false;
    s.generation++;
    s.fetchAt = s.next;
    s.failedAhead = null;
    dropWaiting(s);
  };

  /**
   * A request failed. The next page to store fails the date; one asked past it is held (the earliest), and what was
   * asked past that is called off: whether it was needed is known when the pages before it come.
   */
  const failed = (s: DateState, offset: number, error: ApiError) => {
    if (offset === s.next) return failDate(s, error);
    if (s.failedAhead !== null && s.failedAhead.offset < offset) return;
    s.failedAhead = { offset, error };
    for (const [at, pending] of s.requests) if (at > offset) pending.abort();
  };

  /** The page held next in line for `s`, taken out of the window's count; undefined if it has not come. */
  const takeNext = (s: DateState) => {
    const page = s.waiting.get(s.next);
    if (page === undefined) return undefined;
    s.waiting.delete(s.next);
    waitingPages--;
    return page;
  };

  /** Writes `first`, the page next in line, then every held page that follows it without a gap. */
  const store = (s: DateState, first: SettlementPage) => {
    for (
      let page: SettlementPage | undefined = first;
      page !== undefined && s.status === 'active';
      page = takeNext(s)
    ) {
      const last = page.is_last_page || page.data.length === 0;
      const fresh = freshRecords(s, page, overlap, pg);
      const advance = page.data.length > overlap ? page.data.length - overlap : page.data.length;
      const nextOffset = s.next + advance;
      if (page.data.length > 0) s.lastKey = keyOf(page.data[page.data.length - 1]!, pg);
      s.ingest!.upsertPage(fresh, nextOffset, s.lastKey && JSON.stringify(s.lastKey));
      s.digest.add(fresh);
      s.next = nextOffset;
      s.records += fresh.length;
      s.passPages++;
      progress.page(fresh.length);
      if (last) {
        if (endPass(s) === 'completed') {
          progress.report(currentDate(), true);
          return;
        }
        progress.report(currentDate());
        continue;
      }
      // A full page: more are likely. Fewer than asked, yet not the last page: the guesses at later offsets were
      // wrong; ask again.
      if (page.data.length === pageSize) s.ahead = true;
      else {
        s.short = true;
        askAgainFromNext(s);
      }
      // Not a last page: a request that failed right after it was needed.
      if (s.failedAhead !== null && s.next === s.failedAhead.offset) return failDate(s, s.failedAhead.error);
      progress.report(currentDate());
    }
  };

  return {
    /**
     * A page came back. One ahead of a gap is held, against the window, until the pages before it come. The page next
     * in line is written at once, but first `ask` gives its place in the window to the requests that follow, so they
     * travel while it is written: a page's write (1,000 records with their rollup and digest, about a seventh of a
     * 40 ms link's round trip) no longer holds its slot. The pages in memory are then the window plus the one being
     * written.
     */
    receive(s: DateState, offset: number, page: SettlementPage, ask: () => void) {
      if (offset !== s.next) {
        s.waiting.set(offset, page);
        waitingPages++;
        return;
      }
      ask();
      store(s, page);
    },
    failed,
    waiting: () => waitingPages,
  };
}

/** A claimed date as the run tracks it: a date the dead run finished stays done, any other resumes at its checkpoint. */
function dateState(d: ReturnType<Cache['syncRuns']['claim']>['dates'][number], pg: string | null): DateState {
  return {
    date: d.date,
    status: d.status === 'completed' ? ('completed' as const) : ('pending' as const),
    next: d.nextOffset,
    fetchAt: d.nextOffset,
    end: Infinity,
    ahead: false,
    failedAhead: null,
    short: false,
    generation: 0,
    inflight: 0,
    requests: new Map<number, AbortController>(),
    waiting: new Map<number, SettlementPage>(),
    ingest: null,
    records: d.records,
    pass: 1,
    passPages: 0,
    passShifted: false,
    passPartial: d.nextOffset > 0,
    shifts: 0,
    lastKey: d.lastKey === null ? null : (JSON.parse(d.lastKey) as RecordKey),
    digest: createPassDigest(pg),
    previousDigest: null,
  };
}

/** The date is paged again from the start; a pass that saw all of it leaves its digest for the next to agree with. */
function restartPass(s: DateState, digest: string, pg: string | null): void {
  s.previousDigest = s.passPartial ? null : digest;
  s.pass++;
  s.passPages = 0;
  s.passShifted = false;
  s.passPartial = false;
  s.lastKey = null;
  s.digest = createPassDigest(pg);
  s.next = 0;
  s.fetchAt = 0;
  s.end = Infinity;
  s.ahead = false;
  s.failedAhead = null;
  s.generation++;
}

/**
 * The page's records not stored yet. The page should start with the last record stored; when it does, that record is
 * not stored twice, and when it does not, the list moved under the pass (counted, and the pass is paged again).
 */
function freshRecords(s: DateState, page: SettlementPage, overlap: number, pg: string | null): SettlementPage['data'] {
  if (overlap === 0 || s.next === 0 || s.lastKey === null) return page.data;
  if (overlapHolds(s.lastKey, page.data[0], pg)) return page.data.slice(overlap);
  s.passShifted = true;
  s.shifts++;
  return page.data;
}

/** A fault of the cache (or a bug) ends the run as failed, and the fault is what the caller sees. */
function failRun(cache: SyncSettlementsOptions['cache'], runId: number, error: unknown): never {
  try {
    cache.syncRuns.finish(runId, 'failed', error instanceof Error ? error.message : String(error));
  } catch {
    // The cache itself is failing; the first error says more than this one would.
  }
  throw error;
}

function summarize(
  cache: SyncSettlementsOptions['cache'],
  { runId, resumed, concurrency }: Pick<SyncSummary, 'runId' | 'resumed' | 'concurrency'>,
  request: { from: string; to: string; pg?: string },
  status: SyncSummary['status'],
  states: readonly DateState[],
  ms: number,
): SyncSummary {
  const stored = new Map(cache.syncRuns.dates(runId).map((d) => [d.date, d]));
  const dates = states.map((s) => {
    const d = stored.get(s.date)!;
    return {
      date: s.date,
      status:
        s.status === 'completed'
          ? ('completed' as const)
          : s.status === 'failed'
            ? ('failed' as const)
            : ('cancelled' as const),
      records: d.records,
      pages: d.pages,
      updated: d.updated,
      vanished: d.vanished,
      ...(d.error ? { error: d.error } : {}),
    };
  });
  const sum = (k: 'records' | 'pages' | 'updated' | 'vanished') => dates.reduce((t, d) => t + d[k], 0);
  return {
    runId,
    resumed,
    concurrency,
    status,
    from: request.from,
    to: request.to,
    pg: request.pg ?? null,
    dates,
    empty: dates.filter((d) => d.status === 'completed' && d.records === 0).map((d) => d.date),
    failures: groupFailures(dates),
    records: sum('records'),
    pages: sum('pages'),
    updated: sum('updated'),
    vanished: sum('vanished'),
    ms,
  };
}

function checkedCount(name: string, value: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be a whole number from 1 to ${max}, got ${value}`);
  }
  return value;
}

/**
 * A sync's progress handler (`onProgress`) that starts the sort keys of each date as it closes (Cache.writeSortKeys):
 * their sorting, in a worker thread, then overlaps the storing of the dates after it, and main writes each date's
 * lists between pages. `onError` hears why a date's keys were not written; writeKeysAfter writes what is left.
 */
export function sortKeysAsDatesClose(
  cache: Pick<Cache, 'writeSortKeys'>,
  onError: (e: unknown) => void,
): (progress: SyncProgress) => void {
  let closed = 0;
  return (progress) => {
    if (progress.datesDone <= closed) return;
    closed = progress.datesDone;
    cache.writeSortKeys().catch(onError);
  };
}

/**
 * The search and sort keys of the dates a sync changed, written after it has answered: a search or a sort is exact
 * without them (it walks the dates without keys), only slower, and together they take longer than the pages' own
 * writes (docs/performance/search-keys.md, sort-keys-and-marks.md), so the desk is not kept waiting for them. A date
 * per transaction with a turn of the event loop between, so other reads interleave. `sortKeys`: where the sort keys'
 * sorting runs: the app's `worker` thread (Cache.writeSortKeys), so its event loop, which answers every screen, only
 * writes each date's lists; the CLI's `main`, whose process answers nobody meanwhile and would only pay a worker's
 * start. One kind after the other: the worker sorting while main wrote the search keys was no sooner done
 * (docs/performance/sort-keys-and-marks.md). Stopped by `signal`, the rest is written after the next sync. The
 * milliseconds each kind took, for the benchmark.
 */
export async function writeKeysAfter(
  cache: Pick<Cache, 'settlements' | 'writeSortKeys' | 'stopSortKeys'>,
  sortKeys: 'worker' | 'main',
  signal?: AbortSignal,
): Promise<{ searchKeysMs: number; sortKeysMs: number }> {
  const started = performance.now();
  await cache.settlements.searchKeys.writeAll(signal);
  const searched = performance.now();
  if (sortKeys === 'main') await cache.settlements.sortKeys.writeAll(signal);
  else {
    await cache.writeSortKeys(signal);
    await cache.stopSortKeys();
  }
  return { searchKeysMs: Math.round(searched - started), sortKeysMs: Math.round(performance.now() - searched) };
}
