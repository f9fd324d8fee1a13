/**
 * A long read of the records, in slices of ids with a turn of the event loop between two, so that main answers the
 * window's other reads meanwhile.
 *
 * A walked search's totals and chart read every record of their dates (settlement-search.ts): about 200 ms for a
 * date of 1,000,000 records. Main answers every read on one thread, so the next search's first rows, or a scroll's
 * page, waited behind all of it. In slices of WALK_SLICE_IDS ids (about 4 ms of records) such a read waits for one
 * slice at most.
 *
 * Each slice is a statement of its own, so the slices add up to one answer only if nothing was written between
 * them: the data's generation (data-generation.ts) is compared after each turn, and after a write the read is
 * made again in one statement, which no write can split.
 */
import type { Database } from 'better-sqlite3';
import { createDataGeneration } from './data-generation';
import { PER_DAY } from './settlement-ids';

/** Ids a slice covers. The ids of a date are dense (settlement-ids.ts), so this is about as many records. */
export const WALK_SLICE_IDS = 20_000;

/** A read done a step at a time; the caller decides what runs between two steps. */
export type Steps<T> = Generator<void, T, void>;

/** Every step at once, with no turn given up: for a caller that wants the answer now (the CLI, an export). */
export function allSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The steps with a turn of the event loop between two (setImmediate: after the I/O that came in meanwhile, such as
 * the next read asked of main).
 */
export async function inTurns<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export function createWalkSlices(db: Database) {
  const generation = createDataGeneration(db);
  const lastId = db.prepare('SELECT max(id) FROM settlements WHERE id BETWEEN ? AND ?').pluck();

  /** The id ranges of [lo, hi], in order, at most WALK_SLICE_IDS each, none past its date's last record. */
  function* slices(lo: number, hi: number): Generator<[number, number]> {
    for (let day = Math.floor(lo / PER_DAY); day <= Math.floor(hi / PER_DAY); day++) {
      const first = Math.max(lo, day * PER_DAY);
      const last = lastId.get(first, Math.min(hi, (day + 1) * PER_DAY - 1)) as number | null;
      if (last === null) continue;
      for (let from = first; from <= last; from += WALK_SLICE_IDS) {
        yield [from, Math.min(last, from + WALK_SLICE_IDS - 1)];
      }
    }
  }

  /**
   * What `read` answers over the ids `lo` to `hi` of `params`, read a slice at a time with a step between two: the
   * answers of the slices, in id order. After a write between two slices, the answer of one read over all of them.
   */
  function* sliced<P extends { lo: number; hi: number }, R>(params: P, read: (params: P) => R[]): Steps<R[]> {
    const before = generation();
    const answers: R[] = [];
    let first = true;
    for (const [lo, hi] of slices(params.lo, params.hi)) {
      if (!first) {
        yield;
        if (generation() !== before) return read(params);
      }
      first = false;
      answers.push(...read({ ...params, lo, hi }));
    }
    return answers;
  }

  return { sliced };
}
