/**
 * Progress of a sync for the UI and the CLI: counts, the rate of this attempt, and an ETA once one date
 * has finished (the API never says how many records a date has, so the finished dates' average stands in
 * for the others). Events are throttled: a million records are a thousand pages.
 */
import type { SyncProgress } from '../../shared/sync';

export interface DateCounts {
  status: 'pending' | 'active' | 'completed' | 'failed' | 'cancelled';
  records: number;
}

const MIN_INTERVAL_MS = 100;

export function createProgress(options: {
  runId: number;
  dates: readonly DateCounts[];
  /** The run's pages and records from earlier attempts. */
  pages: number;
  records: number;
  clock: () => number;
  emit?: (p: SyncProgress) => void;
}) {
  const { dates, clock, emit } = options;
  const started = clock();
  let pages = options.pages;
  let records = options.records;
  let recordsNow = 0;
  let lastEmit = -Infinity;

  const snapshot = (currentDate: string | null): SyncProgress => {
    const seconds = (clock() - started) / 1000;
    const ratePerSec = seconds > 0 ? recordsNow / seconds : 0;
    const finished = dates.filter((d) => d.status === 'completed');
    let etaSeconds: number | null = null;
    if (finished.length > 0 && ratePerSec > 0) {
      const average = finished.reduce((sum, d) => sum + d.records, 0) / finished.length;
      const left = dates
        .filter((d) => d.status === 'pending' || d.status === 'active')
        .reduce((sum, d) => sum + Math.max(0, average - d.records), 0);
      etaSeconds = left / ratePerSec;
    }
    return {
      runId: options.runId,
      dates: dates.length,
      datesDone: dates.filter((d) => d.status === 'completed' || d.status === 'failed').length,
      pages,
      records,
      ratePerSec,
      etaSeconds,
      currentDate,
    };
  };

  return {
    page(recordCount: number): void {
      pages += 1;
      records += recordCount;
      recordsNow += recordCount;
    },
    /** Emits unless one went out in the last 100 ms; `force` for date ends and the last event. */
    report(currentDate: string | null, force = false): void {
      if (!emit) return;
      const t = clock();
      if (!force && t - lastEmit < MIN_INTERVAL_MS) return;
      lastEmit = t;
      emit(snapshot(currentDate));
    },
  };
}
