/**
 * Every way a secret can appear in text that came back from a server or passed through our own code: as typed,
 * JSON-escaped, URL- and form-encoded, and inside base64 (standard or URL-safe) at any of the three byte alignments,
 * which is how it sits in `Basic base64(key:secret)` or an echoed, encoded body. Scrubbing every form of every secret
 * from every string taken from the wire is what keeps an echo out of IPC replies and logs.
 */

/** The base64 characters that depend only on the secret's bytes when it starts `offset` bytes into the encoded data. */
function base64Core(secret: Buffer, offset: number, encoding: 'base64' | 'base64url'): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), secret]).toString(encoding);
  const firstBit = offset * 8;
  const endBit = (offset + secret.length) * 8;
  const first = Math.ceil(firstBit / 6);
  const end = Math.floor(endBit / 6);
  return encoded.slice(first, end);
}

export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    // Lower-case percent escapes are the same text to a decoder.
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
  ]);
  for (const encoding of ['base64', 'base64url'] as const) {
    forms.add(bytes.toString(encoding));
    for (const offset of [0, 1, 2]) forms.add(base64Core(bytes, offset, encoding));
  }
  // A form so short it would match ordinary text is not a useful marker (and the secret has at least 4 characters).
  return [...forms].filter((form) => form.length >= 4);
}

/**
 * The shortest piece of a secret treated as the secret wherever it appears: a prefix of 12 characters echoed alone, or
 * either half of a secret split across two fields, gives away most of it. Shorter pieces could match ordinary text.
 */
export const SECRET_PIECE = 12;

/** Every SECRET_PIECE-character piece of `secret` (the whole secret when it is shorter), in NFC. */
export function secretPieces(secret: string): string[] {
  const text = secret.normalize('NFC');
  if (text.length <= SECRET_PIECE) return [text];
  const pieces = new Set<string>();
  for (let i = 0; i + SECRET_PIECE <= text.length; i++) pieces.add(text.slice(i, i + SECRET_PIECE));
  return [...pieces];
}

/**
 * Blocks of half a piece at every multiple of half a piece: any piece of the secret holds one whole block, so a text
 * without any block holds no piece. What a quick search over a whole answer looks for, before a closer look.
 */
export function secretBlocks(secret: string): string[] {
  const text = secret.normalize('NFC');
  const half = SECRET_PIECE / 2;
  if (text.length <= SECRET_PIECE) return [text];
  const blocks: string[] = [];
  for (let i = 0; i + half <= text.length; i += half) blocks.push(text.slice(i, i + half));
  return blocks;
}

const ESCAPE = /%([0-9a-fA-F]{2})/g;
/** Text NFC could change: only non-ASCII text is normalised, which keeps the common case a quick test. */
export const NON_ASCII = /[\u0080-\uffff]/;

/** `text` with its percent escapes (either case) decoded as a server's decoder would; bytes that are not UTF-8
 * become U+FFFD. */
function percentDecoded(text: string): string {
  const bytes: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(ESCAPE)) {
    bytes.push(Buffer.from(text.slice(last, m.index), 'utf8'), Buffer.from([parseInt(m[1]!, 16)]));
    last = m.index + 3;
  }
  bytes.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(bytes).toString('utf8');
}

/**
 * Whether `text`, read as a decoder would read it, holds a piece of the secret (`pieces` from secretPieces): as it
 * is, percent-decoded (every byte escaped, mixed-case escapes) up to three times (double and triple encoding), and
 * in NFC (a secret echoed decomposed).
 */
export function holdsSecretPiece(text: string, pieces: readonly string[]): boolean {
  let reading = text;
  for (let round = 0; ; round++) {
    const normal = NON_ASCII.test(reading) ? reading.normalize('NFC') : reading;
    if (pieces.some((piece) => normal.includes(piece))) return true;
    if (round === 3 || !/%[0-9a-fA-F]{2}/.test(reading)) return false;
    reading = percentDecoded(reading);
  }
}
