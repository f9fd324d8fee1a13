/**
 * Request hashes. The document says only that the hash is computed "from the non-object key values of
 * the request sorted by key"; the algorithm and how the secret enters are not shown. Our default, and a
 * per-profile choice because a real deployment may differ:
 *
 *   canonical = top-level values that are strings, numbers or booleans (not `hash`, not null, not
 *               objects or arrays), ordered by field name in UTF-8 byte order, as text, joined by "|",
 *               then "|" and the secret.
 *   sha512      -> lowercase hex SHA-512 of canonical                       (default)
 *   hmac-sha256 -> lowercase hex HMAC-SHA256 of canonical, keyed by the secret
 *
 * Example: {key:"k", id:"o1", amount:100} -> "100|o1|k|SECRET".
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { HashScheme } from '../../shared/profiles';

function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The text that is hashed, secret included. Never log it. */
export function canonicalString(body: Record<string, unknown>, secret: string): string {
  const values = Object.keys(body)
    .filter((k) => k !== 'hash')
    .sort(byUtf8)
    .map((k) => body[k])
    .filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v))
    .map(String);
  return [...values, secret].join('|');
}

export function signBody(body: Record<string, unknown>, secret: string, scheme: HashScheme = 'sha512'): string {
  const text = canonicalString(body, secret);
  switch (scheme) {
    case 'sha512':
      return createHash('sha512').update(text, 'utf8').digest('hex');
    case 'hmac-sha256':
      return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
  }
}

/** Constant-time check of a received hash under the default scheme, as a server (the sandbox) does it. */
export function verifyBody(body: Record<string, unknown>, secret: string): boolean {
  const given = body.hash;
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(signBody(body, secret), 'utf8');
  const actual = Buffer.from(given.toLowerCase(), 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
