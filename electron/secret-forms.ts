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
