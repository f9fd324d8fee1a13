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

/**
 * The digest of each gateway code the index holds rows for, in code order. Two passes over the index in all (a
 * pass per code was most of a date's close after the rule itself); the unsorted pairs of every code are held at
 * once (16 bytes a row of the date), and one code's sorted copy is made as it is taken.
 */
export function* digestsOf(index: HashIndex): Generator<[code: number, digest: Digest]> {
  const counts = new Uint32Array(MAX_CODES);
  index.forEach((slot) => counts[index.code(slot)]!++);
  const unsorted = Array.from(counts, (n) => ({ hashes: new Float64Array(n), ids: new Float64Array(n), filled: 0 }));
  index.forEach((slot, hash, rowId) => {
    const d = unsorted[index.code(slot)]!;
    d.hashes[d.filled] = hash;
    d.ids[d.filled++] = rowId;
  });
  for (const [code, d] of unsorted.entries()) if (d.filled > 0) yield [code, sortByHash(d.hashes, d.ids)];
}

/** More rows than this in one bucket means the hashes are not spread as hash53's are: sort by comparison instead. */
const BUCKET_MOST = 64;

/**
 * Sorts the pairs by hash. The hashes are spread evenly (hash53), so a bucket per row or so, by value, leaves a
 * handful in each bucket: one counting pass, one scatter, then an insertion sort that only moves rows within their
 * bucket. 2–7 times faster than the LSD radix sort it replaced (whose 64k-entry digit tables cost more than a
 * date's few thousand rows); hashes bunched into a few buckets fall back to a comparison sort, so the worst case
 * stays n log n.
 */
export function sortByHash(hashes: Float64Array, ids: Float64Array): Digest {
  const n = hashes.length;
  const sorted = { hashes: new Float64Array(n), ids: new Float64Array(n) };
  if (n === 0) return sorted;
  let min = hashes[0]!;
  let max = hashes[0]!;
  for (let i = 1; i < n; i++) {
    const h = hashes[i]!;
    if (h < min) min = h;
    else if (h > max) max = h;
  }
  const buckets = 2 ** Math.ceil(Math.log2(n));
  const scale = buckets / (max - min + 1);
  // The product can round up to `buckets` at the very top of a 53-bit range.
  const bucketOf = (h: number) => Math.min(buckets - 1, Math.floor((h - min) * scale));
  const next = new Uint32Array(buckets + 1);
  for (let i = 0; i < n; i++) next[bucketOf(hashes[i]!) + 1]!++;
  let most = 0;
  for (let b = 1; b <= buckets; b++) {
    most = Math.max(most, next[b]!);
    next[b]! += next[b - 1]!;
  }
  if (most > BUCKET_MOST) {
    const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => hashes[a]! - hashes[b]!);
    for (let i = 0; i < n; i++) {
      sorted.hashes[i] = hashes[order[i]!]!;
      sorted.ids[i] = ids[order[i]!]!;
    }
    return sorted;
  }
  for (let i = 0; i < n; i++) {
    const at = next[bucketOf(hashes[i]!)]!++;
    sorted.hashes[at] = hashes[i]!;
    sorted.ids[at] = ids[i]!;
  }
  const { hashes: h, ids: id } = sorted;
  for (let i = 1; i < n; i++) {
    if (h[i - 1]! <= h[i]!) continue;
    const hash = h[i]!;
    const rowId = id[i]!;
    let j = i - 1;
    for (; j >= 0 && h[j]! > hash; j--) {
      h[j + 1] = h[j]!;
      id[j + 1] = id[j]!;
    }
    h[j + 1] = hash;
    id[j + 1] = rowId;
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

/** Fewest slots of a DigestTable; it doubles past three quarters full. */
const TABLE_MIN_SLOTS = 1024;

/**
 * Many digests' rows by hash: an open-addressing multimap (linear probing) in two typed arrays, 16 bytes a slot,
 * at most three quarters full (it doubles past that). The slot is the hash's top bits, not its low ones, so a
 * sorted digest is added or met walking the table from its start to its end, memory in order, instead of jumping
 * about it.
 * Rows already held (the same hash and id) are not added again: a date's digest only grows, and is added again
 * each time the date closes.
 */
export class DigestTable {
  private hashes = new Float64Array(TABLE_MIN_SLOTS);
  private ids = new Float64Array(TABLE_MIN_SLOTS);
  private used = 0;

  get size(): number {
    return this.used;
  }

  /** Adds every row of `d` the table does not hold yet. */
  add(d: Digest): void {
    while ((this.used + d.hashes.length) * 4 > this.hashes.length * 3) this.grow();
    const { hashes, ids } = this;
    const mask = hashes.length - 1;
    for (let i = 0; i < d.hashes.length; i++) {
      const hash = d.hashes[i]!;
      const id = d.ids[i]!;
      let slot = this.slotOf(hash);
      for (; hashes[slot] !== 0; slot = (slot + 1) & mask) if (hashes[slot] === hash && ids[slot] === id) break;
      if (hashes[slot] !== 0) continue;
      hashes[slot] = hash;
      ids[slot] = id;
      this.used++;
    }
  }

  /**
   * Adds to `out` the ids, on both sides, of rows whose hash occurs in `d` and in the table, leaving out the
   * table's rows with ids from `lo` to `hi` (the date `d` is of).
   */
  meet(d: Digest, lo: number, hi: number, out: Set<number>): void {
    const { hashes, ids } = this;
    const mask = hashes.length - 1;
    for (let i = 0; i < d.hashes.length; i++) {
      const hash = d.hashes[i]!;
      for (let slot = this.slotOf(hash); hashes[slot] !== 0; slot = (slot + 1) & mask) {
        if (hashes[slot] !== hash) continue;
        const id = ids[slot]!;
        if (id >= lo && id <= hi) continue;
        out.add(id).add(d.ids[i]!);
      }
    }
  }

  /** Hashes are 1 to 2^53 - 1 (hash53); a table of 2^k slots takes their top k bits. */
  private slotOf(hash: number): number {
    return Math.floor(hash / (2 ** 53 / this.hashes.length));
  }

  private grow(): void {
    const { hashes, ids } = this;
    this.hashes = new Float64Array(hashes.length * 2);
    this.ids = new Float64Array(hashes.length * 2);
    this.used = 0;
    const mask = this.hashes.length - 1;
    for (let i = 0; i < hashes.length; i++) {
      if (hashes[i] === 0) continue;
      let slot = this.slotOf(hashes[i]!);
      while (this.hashes[slot] !== 0) slot = (slot + 1) & mask;
      this.hashes[slot] = hashes[i]!;
      this.ids[slot] = ids[i]!;
      this.used++;
    }
  }
}
