/**
 * Output bytes built in place, in chunks of about `flushBytes` handed to the ZIP writer one at a time.
 *
 * The XLSX writer used to build each row as a string, append it to a 64 K-character string and encode that with
 * `Buffer.from`: every `+=` was a heap object, the long string survived young collections until it was flattened
 * and encoded, and the export worker spent more time collecting garbage than writing XML. Here ASCII text (nearly all
 * of a sheet) is copied into the chunk code unit by code unit, other text is encoded into it by `Buffer#write`, and
 * what a row leaves behind is its few short strings.
 *
 * A caller reserves room before a unit it may need to take back (a row): the unit then never spans two chunks, and
 * `rewind` to the position it started at removes it whole.
 */

/** 10^0 to 10^15: the powers below 2^53, for counting a safe integer's digits. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** Room past `flushBytes`, so that the row which crosses it usually still fits in the same chunk. */
const SLACK_BYTES = 16 * 1024;

export class ByteChunks {
  /** The write position in the current chunk. */
  pos = 0;
  private chunk: Buffer;
  private sealed: Buffer[] = [];

  constructor(private readonly flushBytes: number) {
    this.chunk = Buffer.allocUnsafe(flushBytes + SLACK_BYTES);
  }

  /** Makes room for `bytes` more in the current chunk, starting a new chunk when they do not fit. */
  reserve(bytes: number): void {
    if (this.pos + bytes <= this.chunk.length) return;
    this.seal(Math.max(this.flushBytes + SLACK_BYTES, bytes));
  }

  /** Takes back everything written since `pos` (a position in the current chunk, after a `reserve`). */
  rewind(pos: number): void {
    this.pos = pos;
  }

  /** Text known to be ASCII, from its code unit `from` on, within reserved room. */
  ascii(text: string, from = 0): void {
    const chunk = this.chunk;
    let p = this.pos;
    for (let i = from; i < text.length; i++) chunk[p++] = text.charCodeAt(i);
    this.pos = p;
  }

  /**
   * A non-negative safe integer's decimal digits, within reserved room (at most 16). Written digit by digit: a row's
   * number and amounts as strings were most of the short-lived strings an export made.
   */
  digits(n: number): void {
    let count = 1;
    while (count < POWERS_OF_TEN.length && n >= POWERS_OF_TEN[count]!) count++;
    const chunk = this.chunk;
    let p = this.pos + count;
    this.pos = p;
    do {
      const digit = n % 10;
      chunk[--p] = 0x30 + digit;
      n = (n - digit) / 10;
    } while (n > 0);
  }

  /** One byte, within reserved room. */
  byte(c: number): void {
    this.chunk[this.pos++] = c;
  }

  /** The bytes from `from` to `to` of the current chunk again, within reserved room: a row's number in each cell. */
  again(from: number, to: number): void {
    this.copy(this.chunk, from, to);
  }

  /** The bytes from `from` to `to` of `source`, within reserved room: a few at a time, where `set` costs a call. */
  copy(source: Uint8Array, from: number, to: number): void {
    const chunk = this.chunk;
    let p = this.pos;
    for (let i = from; i < to; i++) chunk[p++] = source[i]!;
    this.pos = p;
  }

  /**
   * Text that XML element content takes as it is, ASCII with no `&`, `<`, `>`, CR or other control but tab and LF,
   * and no `_xHHHH_` that Excel would decode: copied byte for byte in one pass, true. Any other text is left to the
   * caller to escape: false, and nothing written. Nearly every cell is the first kind, checked on the value so a
   * cell is escaped only when one of its characters needs it.
   */
  plainXml(text: string): boolean {
    const chunk = this.chunk;
    let p = this.pos;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 ? c !== 0x09 && c !== 0x0a : c > 0x7e || c === 0x26 || c === 0x3c || c === 0x3e) return false;
      if (c === 0x5f && isHexEscapeAt(text, i)) return false;
      chunk[p++] = c;
    }
    this.pos = p;
    return true;
  }

  /** Any text as UTF-8, within reserved room (at most 3 bytes per UTF-16 code unit). */
  utf8(text: string): void {
    this.pos += this.chunk.write(text, this.pos, 'utf8');
  }

  /** True once there is a chunk to hand over: the current one reached `flushBytes`, or one was sealed before. */
  ready(): boolean {
    if (this.pos >= this.flushBytes) this.seal(this.flushBytes + SLACK_BYTES);
    return this.sealed.length > 0;
  }

  /** The bytes sealed so far, as one buffer (several only when the consumer was not taking them). */
  take(): Buffer {
    const sealed = this.sealed;
    this.sealed = [];
    return sealed.length === 1 ? sealed[0]! : Buffer.concat(sealed);
  }

  /** Every byte written, the current chunk's too; the chunks are not written to again. */
  takeAll(): Buffer {
    this.seal(0);
    return this.take();
  }

  private seal(next: number): void {
    if (this.pos > 0) this.sealed.push(this.chunk.subarray(0, this.pos));
    // The sealed bytes are the ZIP writer's until it has deflated them: the next ones go to a new chunk.
    this.chunk = Buffer.allocUnsafe(next);
    this.pos = 0;
  }
}

/** `_xHHHH_` at `i`: Excel's escape of a character, which a literal occurrence must not be read as. */
function isHexEscapeAt(text: string, i: number): boolean {
  if (i + 6 >= text.length || text.charCodeAt(i + 1) !== 0x78 || text.charCodeAt(i + 6) !== 0x5f) return false;
  for (let k = i + 2; k < i + 6; k++) {
    const c = text.charCodeAt(k) | 0x20; // lower case for letters; digits keep their codes
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}
