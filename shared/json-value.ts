/**
 * Data that is JSON and nothing else, within bounds. Two places meet unbounded structure: an answer a hostile or
 * broken server nests `[[[[…]]]]` a hundred thousand levels deep (JSON.parse copes, it does not recurse, but every
 * recursive reader after it, serialising for the cache or the log, scrubbing, would overflow the stack), and a
 * payload the renderer sends on to a service as JSON (a classify state), which structured clone lets hold what JSON
 * cannot: BigInt (JSON.stringify throws), NaN and Infinity (sent as null), undefined (dropped), Dates and Maps
 * (sent as something else). No data of the interface nests more than a few levels. The walk is iterative and stops
 * at the first problem, so it never costs more than the value's size and never overflows itself.
 */
import { z } from 'zod';

export const MAX_JSON_DEPTH = 64;

export interface JsonLimits {
  /** Containers inside containers, the outermost counted as 0. */
  maxDepth?: number;
  /** Values in all (containers, keys' values and array items), so a flat but huge value is bounded too. */
  maxValues?: number;
}

/** Why a value that is not an object is not JSON; null for a string, boolean or finite number. */
function scalarProblem(item: unknown): string | null {
  switch (typeof item) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(item) ? null : `holds ${item}, a number JSON cannot carry`;
    case 'bigint':
      return 'holds a BigInt, which JSON cannot carry: send the number as text or a plain number';
    default:
      return `holds ${item === undefined ? 'undefined' : `a ${typeof item}`}, which JSON cannot carry`;
  }
}

/**
 * Why `value` is not bounded JSON, as words to follow "the value …"; null when it is. Only containers are queued
 * (scalars are checked where they are met), so on an answer JSON.parse made the walk costs about what a depth
 * count would.
 */
export function jsonProblem(value: unknown, limits: JsonLimits = {}): string | null {
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const maxValues = limits.maxValues ?? Infinity;
  const tooMany = () => `holds more than ${maxValues.toLocaleString('en-IN')} values`;
  if (typeof value !== 'object' || value === null) return value === null ? null : scalarProblem(value);
  const pending: object[] = [value];
  const depths: number[] = [0];
  let seen = 1;
  while (pending.length > 0) {
    const item = pending.pop()!;
    const depth = depths.pop()!;
    const prototype = Object.getPrototypeOf(item) as unknown;
    if (!Array.isArray(item) && prototype !== Object.prototype && prototype !== null) {
      return `holds a ${item.constructor?.name ?? 'special object'}, which is not JSON`;
    }
    if (depth >= maxDepth) return `nests deeper than ${maxDepth} levels`;
    const children: unknown[] = Array.isArray(item) ? item : Object.values(item);
    if ((seen += children.length) > maxValues) return tooMany();
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      } else if (child !== null) {
        const problem = scalarProblem(child);
        if (problem) return problem;
      }
    }
  }
  return null;
}

/** `schema` (an object, array or union of them) refused, with the problem in words, unless its value is bounded JSON. */
export function boundedJson<T extends z.ZodType>(schema: T, limits: JsonLimits = {}) {
  return schema.superRefine((value, ctx) => {
    const problem = jsonProblem(value, limits);
    if (problem) ctx.addIssue({ code: 'custom', message: `must be plain JSON: the value ${problem}` });
  });
}
