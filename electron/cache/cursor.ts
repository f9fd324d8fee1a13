/**
 * Opaque keyset cursors: the last row's sort key as base64url JSON. Callers pass them back untouched;
 * one that does not decode to the expected shape is refused with a sentence, never half-used.
 */
import type { z } from 'zod';

export class CursorError extends Error {
  override name = 'CursorError';
  readonly code = 'INVALID_CURSOR';
}

export function encodeCursor(key: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor<T>(cursor: string, shape: z.ZodType<T>): T {
  let parsed;
  try {
    parsed = shape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw new CursorError('The page position is not readable; start from the first page.');
  return parsed.data;
}

const literal = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally (with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${literal(text)}%`;
}

/** A LIKE pattern matching what starts with `text`, its wildcards taken literally (with ESCAPE '\'). */
export function prefixPattern(text: string): string {
  return `${literal(text)}%`;
}
