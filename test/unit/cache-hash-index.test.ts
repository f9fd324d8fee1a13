/** The writer's in-memory structures: the 53-bit hash, the hash multimap, and the sorted digests. */
import { describe, expect, it } from 'vitest';
import {
  codesOf,
  decodeDigest,
  digestOf,
  encodeDigest,
  mergeAll,
  repeatedIds,
  sharedIds,
  sharedOutside,
  sortByHash,
} from '../../electron/cache/digest';
import { HashIndex, SEEN, VANISHED, hash53, transactionHash } from '../../electron/cache/hash-index';

describe('hash53', () => {
  it('is a whole number below 2^53, never 0, and stable', () => {
    for (const text of ['', 'a', 'pay_ABC123', 'x'.repeat(500)]) {
      const h = hash53(text);
      expect(Number.isSafeInteger(h)).toBe(true);
      expect(h).toBeGreaterThan(0);
      expect(h).toBe(hash53(text));
    }
  });

  it('keeps the parts apart: a NUL separates them', () => {
    expect(transactionHash('ab', 'c')).not.toBe(transactionHash('a', 'bc'));
    expect(transactionHash('razorpay', 'pay_1')).toBe(hash53('razorpay', 'pay_1'));
  });

  it('spreads 200,000 transaction ids without a collision', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200_000; i++) seen.add(transactionHash('cashfree', `pay_${i.toString(36).toUpperCase()}`));
    expect(seen.size).toBe(200_000);
  });
});

describe('HashIndex', () => {
  it('finds every row under a hash, including several under one', () => {
    const index = new HashIndex(0, 4);
    index.add(7, 100, 0, SEEN);
    index.add(7, 101, 1, 0);
    index.add(8, 102, 0, 0);
    const under7: number[] = [];
    for (let s = index.find(7); s >= 0; s = index.find(7, s)) under7.push(index.rowId(s));
    expect(under7.sort()).toEqual([100, 101]);
    expect(index.find(9)).toBe(-1);
    expect(index.size).toBe(3);
  });

  it('keeps row ids (past 2^32, from its base), gateway codes and flags through growth', () => {
    const base = 20_000 * 2 ** 32;
    const index = new HashIndex(base, 2);
    for (let i = 1; i <= 10_000; i++) index.add(hash53(String(i)), base + i, i % 64, i % 3);
    for (let i = 1; i <= 10_000; i += 997) {
      const slot = index.find(hash53(String(i)));
      expect(index.rowId(slot)).toBe(base + i);
      expect(index.code(slot)).toBe(i % 64);
      expect(index.flags(slot)).toBe(i % 3);
    }
  });

  it('sets flags without touching the gateway code', () => {
    const index = new HashIndex();
    index.add(5, 1, 37, 0);
    const slot = index.find(5);
    index.setFlags(slot, SEEN | VANISHED);
    expect(index.flags(slot)).toBe(SEEN | VANISHED);
    expect(index.code(slot)).toBe(37);
  });
});

describe('digests', () => {
  it('sortByHash orders by hash and carries each id with its hash', () => {
    const n = 70_000;
    const hashes = Float64Array.from({ length: n }, (_, i) => hash53(`t${i % 60_000}`));
    const ids = Float64Array.from({ length: n }, (_, i) => i);
    const sorted = sortByHash(hashes, ids);
    expect([...sorted.hashes]).toEqual([...hashes].sort((a, b) => a - b));
    for (let i = 0; i < n; i += 101) expect(hashes[sorted.ids[i]!]).toBe(sorted.hashes[i]);
  });

  it('one digest per gateway code, holding every row of it', () => {
    const index = new HashIndex();
    for (let i = 1; i <= 1000; i++) index.add(hash53(`t${i}`), i, i % 3, 0);
    expect(codesOf(index)).toEqual([0, 1, 2]);
    const ids = codesOf(index).flatMap((code) => {
      const d = digestOf(index, code);
      for (const id of d.ids) expect(id % 3).toBe(code);
      return [...d.ids];
    });
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it('survive a round trip through BLOBs, from an aligned buffer and from an unaligned one', () => {
    const d = sortByHash(Float64Array.of(3, 1, 2), Float64Array.of(30, 10, 20));
    const { hashes, ids } = encodeDigest(d);
    const at = (offset: number) => (b: Buffer) => Buffer.concat([Buffer.alloc(offset), b]).subarray(offset);
    for (const offset of [0, 1, 8]) {
      expect(decodeDigest(at(offset)(hashes), at(offset)(ids)), `at ${offset}`).toEqual({
        hashes: Float64Array.of(1, 2, 3),
        ids: Float64Array.of(10, 20, 30),
      });
    }
  });

  it('meet: repeats within one, and hashes shared by two, name the rows on both sides', () => {
    const a = { hashes: Float64Array.of(1, 2, 2, 5, 9), ids: Float64Array.of(10, 20, 21, 50, 90) };
    const b = { hashes: Float64Array.of(2, 3, 9, 9), ids: Float64Array.of(200, 300, 900, 901) };
    const repeated = new Set<number>();
    repeatedIds(a, repeated);
    expect([...repeated].sort()).toEqual([20, 21]);
    const shared = new Set<number>();
    sharedIds(a, b, shared);
    expect([...shared].sort((x, y) => x - y)).toEqual([20, 21, 90, 200, 900, 901]);
  });

  it('merged into one, meet a digest as each of them would, leaving out the rows of its own date', () => {
    // Pseudo-random digests of several "dates" (ids 1000 apart), with hashes drawn from a small range so they meet.
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 1) % 400;
    const dates = Array.from({ length: 7 }, (_, date) => {
      const n = 20 + next() / 4;
      return sortByHash(
        Float64Array.from({ length: n }, () => next() + 1),
        Float64Array.from({ length: n }, (_, i) => date * 1000 + i),
      );
    });
    const merged = mergeAll(dates);
    expect(merged.hashes.length).toBe(dates.reduce((sum, d) => sum + d.hashes.length, 0));
    for (let i = 1; i < merged.hashes.length; i++)
      expect(merged.hashes[i]).toBeGreaterThanOrEqual(merged.hashes[i - 1]!);
    expect([...merged.ids].sort((x, y) => x - y)).toEqual(dates.flatMap((d) => [...d.ids]).sort((x, y) => x - y));
    for (const [date, d] of dates.entries()) {
      const oneByOne = new Set<number>();
      for (const [other, o] of dates.entries()) if (other !== date) sharedIds(d, o, oneByOne);
      const atOnce = new Set<number>();
      sharedOutside(d, merged, date * 1000, date * 1000 + 999, atOnce);
      expect(oneByOne.size, `date ${date}`).toBeGreaterThan(0);
      expect(
        [...atOnce].sort((x, y) => x - y),
        `date ${date}`,
      ).toEqual([...oneByOne].sort((x, y) => x - y));
    }
    expect(mergeAll([]).hashes.length).toBe(0);
  });
});
