/** The writer's in-memory structures: the 53-bit hash, the hash multimap, and the sorted digests. */
import { describe, expect, it } from 'vitest';
import {
  DigestTable,
  decodeDigest,
  digestsOf,
  encodeDigest,
  repeatedIds,
  sortByHash,
  type Digest,
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
    const digests = [...digestsOf(index)];
    expect(digests.map(([code]) => code)).toEqual([0, 1, 2]);
    const ids = digests.flatMap(([code, d]) => {
      for (const id of d.ids) expect(id % 3).toBe(code);
      for (let i = 1; i < d.hashes.length; i++) expect(d.hashes[i]).toBeGreaterThanOrEqual(d.hashes[i - 1]!);
      return [...d.ids];
    });
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it('sortByHash holds for hashes that are not spread evenly: bunched, repeated, at the ends of the range', () => {
    const cases = {
      bunched: Float64Array.from({ length: 5000 }, (_, i) => (i % 2 === 0 ? 2 ** 52 + ((i * 7919) % 4999) : 3 + i)),
      repeated: Float64Array.from({ length: 300 }, (_, i) => 1 + (i % 3)),
      ends: Float64Array.of(2 ** 53 - 1, 1, 2 ** 53 - 2, 2, 2 ** 52),
      one: Float64Array.of(42),
      none: new Float64Array(0),
    };
    for (const [name, hashes] of Object.entries(cases)) {
      const ids = Float64Array.from(hashes, (_, i) => i);
      const sorted = sortByHash(hashes, ids);
      expect([...sorted.hashes], name).toEqual([...hashes].sort((a, b) => a - b));
      expect(
        [...sorted.ids].sort((a, b) => a - b),
        name,
      ).toEqual([...ids]);
      sorted.ids.forEach((id, i) => expect(hashes[id], name).toBe(sorted.hashes[i]));
    }
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

  it('repeats within one name the rows on both sides', () => {
    const a = { hashes: Float64Array.of(1, 2, 2, 5, 9), ids: Float64Array.of(10, 20, 21, 50, 90) };
    const repeated = new Set<number>();
    repeatedIds(a, repeated);
    expect([...repeated].sort()).toEqual([20, 21]);
  });

  /** What meeting `d` with every other date's digest names, pair by pair. */
  const metOneByOne = (d: Digest, others: Digest[]) => {
    const out = new Set<number>();
    for (const o of others) {
      for (let i = 0; i < d.hashes.length; i++) {
        for (let j = 0; j < o.hashes.length; j++) if (d.hashes[i] === o.hashes[j]) out.add(d.ids[i]!).add(o.ids[j]!);
      }
    }
    return [...out].sort((x, y) => x - y);
  };

  it('a table of every date meets a digest as each other date would, leaving out the rows of its own date', () => {
    // Pseudo-random digests of several "dates" (ids 1000 apart), with hashes drawn from few values so they meet:
    // bunched at the bottom of the range, and spread over all of it as hash53's are.
    for (const spread of [1, 2 ** 43]) {
      let seed = 7;
      const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 1) % 400;
      const dates = Array.from({ length: 7 }, (_, date) => {
        const n = 20 + next() / 4;
        return sortByHash(
          Float64Array.from({ length: n }, () => next() * spread + 1),
          Float64Array.from({ length: n }, (_, i) => date * 1000 + i),
        );
      });
      const table = new DigestTable();
      for (const d of dates) table.add(d);
      expect(table.size).toBe(dates.reduce((sum, d) => sum + d.hashes.length, 0));
      for (const [date, d] of dates.entries()) {
        const met = new Set<number>();
        table.meet(d, date * 1000, date * 1000 + 999, met);
        const expected = metOneByOne(
          d,
          dates.filter((_, other) => other !== date),
        );
        expect(expected.length, `date ${date}`).toBeGreaterThan(0);
        expect(
          [...met].sort((x, y) => x - y),
          `date ${date}`,
        ).toEqual(expected);
      }
    }
  });

  it('a table holds each row once, however often its date is added, and grows past its first size', () => {
    const digestOf = (date: number, n: number) =>
      sortByHash(
        Float64Array.from({ length: n }, (_, i) => hash53(`d${date}`, `t${i}`)),
        Float64Array.from({ length: n }, (_, i) => date * 2 ** 32 + i),
      );
    const table = new DigestTable();
    table.add(digestOf(1, 3000));
    // The date synced again with more rows: its digest holds the old rows and the new ones.
    table.add(digestOf(1, 5000));
    table.add(digestOf(2, 4000));
    expect(table.size).toBe(9000);
    const settledAgain = digestOf(3, 1);
    settledAgain.hashes[0] = hash53('d1', 't4999');
    const met = new Set<number>();
    table.meet(settledAgain, 3 * 2 ** 32, 4 * 2 ** 32 - 1, met);
    expect([...met]).toEqual([2 ** 32 + 4999, 3 * 2 ** 32]);
    const none = new Set<number>();
    table.meet(digestOf(4, 2000), 4 * 2 ** 32, 5 * 2 ** 32 - 1, none);
    expect(none.size).toBe(0);
  });
});
