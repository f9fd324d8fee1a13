/**
 * Only named statements reach SQLite (the project's rule, after Bruno's statements.ts): each repository
 * declares its SQL as a constant map, prepared once when the cache opens. No SQL text is ever built from
 * a caller's input; values travel as bound parameters.
 */
import type { Database, Statement } from 'better-sqlite3';

export type Statements<K extends string> = { readonly [N in K]: Statement };

export function prepareAll<K extends string>(db: Database, sql: Record<K, string>): Statements<K> {
  const out = {} as Record<K, Statement>;
  for (const name of Object.keys(sql) as K[]) out[name] = db.prepare(sql[name]);
  return out;
}

/**
 * A sum read from SQLite as a number, refused when it would not be exact. Sums are read with
 * `safeIntegers`, so a total past 2^53 paise arrives as a bigint instead of a silently rounded double;
 * a double can only come from SQLite's own overflow past 2^63, which is refused too.
 */
const MOST_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
const LEAST_EXACT = BigInt(Number.MIN_SAFE_INTEGER);

export function exactNumber(value: number | bigint | null, what: string): number {
  if (value === null) return 0;
  const exact = typeof value === 'number' ? Number.isSafeInteger(value) : value <= MOST_EXACT && value >= LEAST_EXACT;
  if (!exact) throw new RangeError(`${what} is too large to show exactly`);
  return Number(value);
}
