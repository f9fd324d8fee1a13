/**
 * Who may call. Decisions where the document is silent:
 *  - Basic operations need `Authorization: Basic base64(key:secret)`; missing or wrong -> HTTP 401 with the
 *    envelope (classification: `{error:{message, code:401}}`).
 *  - Body operations need `key` equal to the merchant key and a `hash` that verifies with the signer's
 *    default scheme; either failing -> `{status:false, error:{message:"Hash is not verified", code:204}}`
 *    with HTTP 200 (a business answer, like the document's other coded errors). An Authorization header
 *    on them is ignored: the document does not say it is accepted.
 *  - Basic operations whose samples also carry key and hash (`credentials: 'key+hash'`) need a `hash` that
 *    is the literal text "null" (as the document's samples send) or a valid hash; anything else, missing
 *    included, is 204. A `key` in the body of any Basic operation, when present, must be the merchant key
 *    of the Basic credentials, else 401.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OperationSpec } from '../../shared/api/operations';
import { verifyBody } from '../api/signer';
import { CODE, fail, type Reply } from './handlers/reply';

export interface Credentials {
  key: string;
  secret: string;
}

export function basicMatches(header: string | undefined, creds: Credentials): boolean {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!, 'base64').toString('utf8');
  // Compare digests so the comparison is constant-time whatever the lengths.
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(`${creds.key}:${creds.secret}`));
}

export function unauthorized(): Reply {
  return fail(CODE.unauthorized, 'Missing or invalid credentials: send Authorization: Basic base64(key:secret)', 401);
}

const hashNotVerified = () => fail(CODE.hash, 'Hash is not verified');

/** The body's own credentials, per the rules above; null when they pass. */
export function checkBodyCredentials(
  spec: OperationSpec,
  body: Record<string, unknown>,
  creds: Credentials,
): Reply | null {
  if (spec.auth === 'body') {
    return body.key === creds.key && verifyBody(body, creds.secret) ? null : hashNotVerified();
  }
  if ('key' in body && body.key !== creds.key) {
    return fail(CODE.unauthorized, 'key: does not match the merchant key of the Basic credentials', 401);
  }
  if (spec.credentials === 'key+hash' && body.hash !== 'null' && !verifyBody(body, creds.secret))
    return hashNotVerified();
  return null;
}
