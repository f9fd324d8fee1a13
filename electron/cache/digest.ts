/**
 * Per date and gateway, the sorted transaction hashes of its cached rows with their row ids: what the
 * cross-record rule "the same transaction settled twice" reads instead of an index on transaction ids
 * (see migrations.ts). Two sorted arrays meet in one linear pass; only the rows whose hashes meet are
 * then read and compared by their real ids.
 *
 * Stored as two BLOBs of float64 in the machine's byte order (little-endian on every platform the app
 * ships for); ids are exact as doubles up to 2^53.
 */
import { MAX_CODES, type HashIndex } from './hash-index';

export interface Digest {
  /** Ascending. */
  hashes: Float64Array;
  /** `ids[i]` is the row whose transaction hashes to `hashes[i]`. */
  ids: Float64Array;
}

/** The gateway codes the index holds rows for. */
export function codesOf(index: HashIndex): number[] {
  const counts = new Uint32Array(MAX_CODES);
  index.forEach((slot) => counts[index.code(slot)]!++);
  return [...counts.keys()].filter((code) => counts[code]! > 0);
}

/** The digest of one gateway code: every row the index holds for it. */
export function digestOf(index: HashIndex, code: number): Digest {
  let n = 0;
  index.forEach((slot) => void (index.code(slot) === code && n++));
  const hashes = new Float64Array(n);
  const ids = new Float64Array(n);
  let k = 0;
  index.forEach((slot, hash, rowId) => {
    if (index.code(slot) !== code) return;
    hashes[k] = hash;
    ids[k++] = rowId;
  });
  return sortByHash(hashes, ids);
}

/**
 * Sorts the pairs by hash: an LSD radix sort on 16-bit digits of the hash's low and high words (four
 * passes cover 53 bits). Each pass reads its arrays in order and scatters them whole, so memory is walked
 * sequentially; about twice as fast as a comparison sort at a million rows, and it carries the ids along.
 */
export function sortByHash(hashes: Float64Array, ids: Float64Array): Digest {
  const n = hashes.length;
  let low = new Uint32Array(n);
  let high = new Uint32Array(n);
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    low[i] = hashes[i]! >>> 0;
    high[i] = (hashes[i]! - low[i]!) / 2 ** 32;
    order[i] = i;
  }
  let nextLow = new Uint32Array(n);
  let nextHigh = new Uint32Array(n);
  let nextOrder = new Uint32Array(n);
  const starts = new Uint32Array(0x10000);
  for (let pass = 0; pass < 4; pass++) {
    const shift = pass % 2 === 0 ? 0 : 16;
    const word = pass < 2 ? low : high;
    starts.fill(0);
    for (let i = 0; i < n; i++) starts[(word[i]! >>> shift) & 0xffff]!++;
    for (let d = 0, sum = 0; d < 0x10000; d++) {
      const count = starts[d]!;
      starts[d] = sum;
      sum += count;
    }
    for (let i = 0; i < n; i++) {
      const at = starts[(word[i]! >>> shift) & 0xffff]!++;
      nextLow[at] = low[i]!;
      nextHigh[at] = high[i]!;
      nextOrder[at] = order[i]!;
    }
    [low, nextLow] = [nextLow, low];
    [high, nextHigh] = [nextHigh, high];
    [order, nextOrder] = [nextOrder, order];
  }
  const sorted = { hashes: new Float64Array(n), ids: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    sorted.hashes[i] = high[i]! * 2 ** 32 + low[i]!;
    sorted.ids[i] = ids[order[i]!]!;
  }
  return sorted;
}

export function encodeDigest(d: Digest): { hashes: Buffer; ids: Buffer } {
  return {
    hashes: Buffer.from(d.hashes.buffer, d.hashes.byteOffset, d.hashes.byteLength),
    ids: Buffer.from(d.ids.buffer, d.ids.byteOffset, d.ids.byteLength),
  };
}

export function decodeDigest(hashes: Buffer, ids: Buffer): Digest {
  // A view where the Buffer sits on an 8-byte boundary (a BLOB of a date's digest is its own allocation), else a
  // copy. Closing a date reads every other date's digest of the gateway: copying them all was a third of the
  // rule's time, and most of the garbage an ingest of 90 dates made.
  const floats = (b: Buffer) =>
    b.byteOffset % Float64Array.BYTES_PER_ELEMENT === 0
      ? new Float64Array(b.buffer, b.byteOffset, b.byteLength / Float64Array.BYTES_PER_ELEMENT)
      : new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  return { hashes: floats(hashes), ids: floats(ids) };
}

/** Adds to `out` the ids of rows whose hash occurs more than once in `d`. */
export function repeatedIds(d: Digest, out: Set<number>): void {
  for (let i = 1; i < d.hashes.length; i++) {
    if (d.hashes[i] === d.hashes[i - 1]) out.add(d.ids[i - 1]!).add(d.ids[i]!);
  }
}

/** Adds to `out` the ids, on both sides, of rows whose hash occurs in both `a` and `b`. */
export function sharedIds(a: Digest, b: Digest, out: Set<number>): void {
  let i = 0;
  let j = 0;
  while (i < a.hashes.length && j < b.hashes.length) {
    const x = a.hashes[i]!;
    const y = b.hashes[j]!;
    if (x < y) i++;
    else if (y < x) j++;
    else {
      for (; i < a.hashes.length && a.hashes[i] === x; i++) out.add(a.ids[i]!);
      for (; j < b.hashes.length && b.hashes[j] === x; j++) out.add(b.ids[j]!);
    }
  }
}

/**
 * Adds to `out` the ids, on both sides, of rows whose hash occurs in `d` and in `base`, leaving out the rows of
 * `base` with ids from `lo` to `hi` (the date `d` is of). Each hash of `d` is searched in `base` (from where the
 * previous one was found, as both are sorted): what it costs follows the size of `d`, not of `base`.
 */
export function sharedOutside(d: Digest, base: Digest, lo: number, hi: number, out: Set<number>): void {
  const n = base.hashes.length;
  let from = 0;
  for (let i = 0; i < d.hashes.length && from < n; i++) {
    const h = d.hashes[i]!;
    let a = from;
    let b = n;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (base.hashes[m]! < h) a = m + 1;
      else b = m;
    }
    from = a;
    for (let j = a; j < n && base.hashes[j] === h; j++) {
      const id = base.ids[j]!;
      if (id >= lo && id <= hi) continue;
      out.add(id).add(d.ids[i]!);
    }
  }
}

/** One sorted digest of all of `digests` (each sorted): merged pairwise, smallest first, so each entry moves few times. */
export function mergeAll(digests: readonly Digest[]): Digest {
  const queue = [...digests].sort((x, y) => x.hashes.length - y.hashes.length);
  if (queue.length === 0) return { hashes: new Float64Array(0), ids: new Float64Array(0) };
  while (queue.length > 1) {
    const merged = mergeTwo(queue.shift()!, queue.shift()!);
    const at = queue.findIndex((q) => q.hashes.length >= merged.hashes.length);
    queue.splice(at < 0 ? queue.length : at, 0, merged);
  }
  return queue[0]!;
}

function mergeTwo(a: Digest, b: Digest): Digest {
  const n = a.hashes.length + b.hashes.length;
  const out = { hashes: new Float64Array(n), ids: new Float64Array(n) };
  let i = 0;
  let j = 0;
  for (let k = 0; k < n; k++) {
    const fromA = j >= b.hashes.length || (i < a.hashes.length && a.hashes[i]! <= b.hashes[j]!);
    out.hashes[k] = fromA ? a.hashes[i]! : b.hashes[j]!;
    out.ids[k] = fromA ? a.ids[i++]! : b.ids[j++]!;
  }
  return out;
}
