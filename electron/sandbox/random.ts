/**
 * Deterministic randomness for the sandbox. Everything the sandbox invents comes from here, so the same
 * seed gives byte-identical data, and settlement records can be computed one at a time from
 * (seed, date, index) without generating the days before them.
 */

/** A 32-bit hash of up to four integers (murmur3's finaliser folded over the inputs). */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = 0x9e3779b9;
  h = fold(h, a);
  h = fold(h, b);
  h = fold(h, c);
  h = fold(h, d);
  return h >>> 0;
}

function fold(h: number, v: number): number {
  // Numbers up to 2^53 are split so that large inputs (day numbers times counts) still mix fully.
  let x = Math.imul(h ^ (v >>> 0), 0x85ebca6b);
  x ^= Math.floor(v / 4294967296) | 0;
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

/** A small seeded generator (mulberry32): fast, 32-bit state, good enough for test data. */
export class Rng {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let u = this.next() * total;
    for (const [item, w] of items) {
      u -= w;
      if (u < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** `n` decimal digits; leading zeros are kept because UTRs and account numbers are text. */
  digits(n: number): string {
    let out = '';
    while (out.length < n) out += String(Math.floor(this.next() * 1e6)).padStart(6, '0');
    return out.slice(0, n);
  }

  /** `n` characters of upper-case base 36. */
  base36(n: number): string {
    let out = '';
    while (out.length < n) out += Math.floor(this.next() * 36).toString(36);
    return out.toUpperCase();
  }
}

const HALF = 0x100000; // 2^20

/**
 * A keyed permutation of [0, 2^40): a 4-round Feistel network on two 20-bit halves. Distinct inputs give
 * distinct outputs whatever the key, which is how settlement transaction ids stay unique across
 * 90 days x 1,000,000 records without remembering any of them.
 */
export function permute40(value: number, key: number): number {
  let left = Math.floor(value / HALF) % HALF;
  let right = value % HALF;
  for (let round = 0; round < 4; round++) {
    const f = hash32(right, key, round) & (HALF - 1);
    [left, right] = [right, left ^ f];
  }
  return left * HALF + right;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}
