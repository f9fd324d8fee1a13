/** How a journal is cut into stretches for the verification's worker threads (electron/journal/verify.ts). */
import { describe, expect, it } from 'vitest';
import { stretches } from '../../electron/journal/verify';

describe('stretches', () => {
  it('covers 1..last exactly once, in order, one stretch a thread at most', () => {
    for (const [last, threads] of [
      [1, 1],
      [5, 3],
      [10, 4],
      [1_000_000, 2],
      [7, 7],
      [3, 4],
    ] as const) {
      const cut = stretches(last, threads);
      expect(cut.length).toBeLessThanOrEqual(threads);
      expect(cut[0]![0]).toBe(1);
      expect(cut.at(-1)![1]).toBe(last + 1);
      for (let i = 1; i < cut.length; i++) expect(cut[i]![0]).toBe(cut[i - 1]![1]);
      for (const [lo, hi] of cut) expect(hi).toBeGreaterThan(lo);
    }
  });

  it('gives an empty journal one empty stretch', () => {
    expect(stretches(0, 4)).toEqual([[1, 1]]);
  });
});
