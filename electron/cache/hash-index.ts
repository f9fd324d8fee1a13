/**
 * The writer's in-memory index of one settlement date while it is being synced: gateway transaction
 * hash -> cached rows. It stands in for a unique B-tree index on random ids, which would cost several
 * times the insert itself (see migrations.ts); a hash table in typed arrays costs a few dozen
 * nanoseconds per record and 13 bytes a slot (two to four slots a row), and is gone when the date is
 * done. Row ids are kept as 32-bit offsets from the date's first id (settlement-ids.ts).
 *
 * A multimap: one hash may hold several rows (the same transaction settled twice on the date, or a hash
 * collision); the caller compares the real key of each row a hash leads to.
 */

/** Row flags (two bits; the gateway code takes the other six). */
export const SEEN = 1;
export const VANISHED = 2;
const FLAG_MASK = 3;
export const MAX_CODES = 64;

/**
 * A 53-bit hash of texts joined by NUL (two 32-bit FNV/murmur mixes): exact as a double, 0 never
 * returned (it marks an empty slot). Collisions are possible and handled; at a million rows they are
 * about one in 10^4. The parts are read in place: no joined string is built for each record.
 */
export function hash53(...parts: string[]): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let p = 0; p < parts.length; p++) {
    const text = parts[p]!;
    for (let i = p === 0 ? 0 : -1; i < text.length; i++) {
      const c = i < 0 ? 0 : text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 13;
    }
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b ^= b >>> 15;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  const h = (a >>> 0) * 0x200000 + (b >>> 11);
  return h === 0 ? 1 : h;
}

/** The key of the duplicate rule and of the identity lookup: gateway and transaction id. */
export function transactionHash(pg: string, pgTransactionId: string): number {
  return hash53(pg, pgTransactionId);
}

export class HashIndex {
  /** The hash per slot; 0 is an empty slot. */
  private hashes: Float64Array;
  /** Row id minus `base`, per slot. */
  private rows: Uint32Array;
  /** Gateway code << 2 | flags, per slot. */
  private meta: Uint8Array;
  private used = 0;

  /** `base`: the smallest row id the index will hold; ids up to `base + 2^32 - 1`. */
  constructor(
    private readonly base = 0,
    capacity = 1024,
  ) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, capacity * 2)));
    this.hashes = new Float64Array(slots);
    this.rows = new Uint32Array(slots);
    this.meta = new Uint8Array(slots);
  }

  get size(): number {
    return this.used;
  }

  /** Adds a row under `hash`; `code` is the caller's small number (under 64) for the row's gateway. */
  add(hash: number, rowId: number, code: number, flags: number): void {
    if ((this.used + 1) * 2 > this.meta.length) this.grow();
    this.place(hash, rowId - this.base, (code << 2) | flags);
    this.used++;
  }

  /** The next slot holding `hash` after slot `after` (-1 to start), or -1. Slots move when the index grows. */
  find(hash: number, after = -1): number {
    const mask = this.meta.length - 1;
    let i = after < 0 ? hash & mask : (after + 1) & mask;
    for (let k = this.hashes[i]!; k !== 0; k = this.hashes[i]!) {
      if (k === hash) return i;
      i = (i + 1) & mask;
    }
    return -1;
  }

  rowId(slot: number): number {
    return this.base + this.rows[slot]!;
  }

  code(slot: number): number {
    return this.meta[slot]! >> 2;
  }

  flags(slot: number): number {
    return this.meta[slot]! & FLAG_MASK;
  }

  setFlags(slot: number, flags: number): void {
    this.meta[slot] = (this.meta[slot]! & ~FLAG_MASK) | flags;
  }

  /** Every occupied slot, in table order. */
  forEach(visit: (slot: number, hash: number, rowId: number) => void): void {
    const { hashes, rows, base } = this;
    for (let i = 0; i < hashes.length; i++) if (hashes[i] !== 0) visit(i, hashes[i]!, base + rows[i]!);
  }

  private place(hash: number, row: number, meta: number): void {
    const mask = this.meta.length - 1;
    let i = hash & mask;
    while (this.hashes[i] !== 0) i = (i + 1) & mask;
    this.hashes[i] = hash;
    this.rows[i] = row;
    this.meta[i] = meta;
  }

  private grow(): void {
    const { hashes, rows, meta } = this;
    this.hashes = new Float64Array(hashes.length * 2);
    this.rows = new Uint32Array(hashes.length * 2);
    this.meta = new Uint8Array(hashes.length * 2);
    for (let i = 0; i < hashes.length; i++) if (hashes[i] !== 0) this.place(hashes[i]!, rows[i]!, meta[i]!);
  }
}
