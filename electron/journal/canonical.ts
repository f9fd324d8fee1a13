/**
 * The canonical form an entry is hashed in, and the chain hash. Canonical JSON here is: object keys sorted by
 * code unit, no whitespace, strings and numbers as JSON.stringify writes them, no undefined (a property that is
 * undefined is left out, as JSON does; one in an array is refused). The same value always gives the same text,
 * so the hash depends only on what the entry says.
 */
import { hash } from 'node:crypto';

export class CanonicalError extends Error {
  override name = 'CanonicalError';
}

export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalError(`${value} has no JSON form`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value
          .map((v: unknown) => {
            if (v === undefined) throw new CanonicalError('an array holds undefined');
            return canonicalJson(v);
          })
          .join(',')}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
    }
    default:
      throw new CanonicalError(`a ${typeof value} has no JSON form`);
  }
}

/** The fields of an entry that its hash covers, `data` already in canonical JSON. */
export interface HashedFields {
  seq: number;
  at: string;
  kind: string;
  event: string;
  outcome: string;
  refersTo: number | null;
  requestId: string | null;
  summary: string;
  /** Canonical JSON text of the entry's data. */
  data: string;
  appVersion: string;
  osUser: string;
}

/**
 * The entry's canonical form: the object of its fields, keys sorted, written out by hand because `data` is already
 * canonical text (verification re-hashes a million of these, and parsing each data back would cost more than the
 * hash).
 */
export function canonicalEntry(f: HashedFields): string {
  const s = JSON.stringify;
  return (
    `{"appVersion":${s(f.appVersion)},"at":${s(f.at)},"data":${f.data},"event":${s(f.event)},` +
    `"kind":${s(f.kind)},"osUser":${s(f.osUser)},"outcome":${s(f.outcome)},"refersTo":${s(f.refersTo)},` +
    `"requestId":${s(f.requestId)},"seq":${f.seq},"summary":${s(f.summary)}}`
  );
}

/** SHA-256 (lowercase hex) of a text in UTF-8. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/**
 * SHA-256 (lowercase hex) over the previous entry's hash and this entry's canonical form, in UTF-8. The one-shot
 * `hash` costs about half of a `createHash` object per entry, which is most of verifying a million.
 */
export function chainHash(prevHash: string, canonical: string): string {
  return sha256Hex(prevHash + canonical);
}
