/**
 * How deeply a parsed JSON answer nests. A hostile or broken server can answer `[[[[…]]]]` a hundred thousand levels
 * deep: JSON.parse copes (it does not recurse), but every recursive reader after it (serialising for the cache or the
 * log, scrubbing) would overflow the stack and turn one bad answer into an internal error. No answer of the interface
 * nests more than a few levels. The walk is iterative and visits containers only, a fraction of the parse's cost.
 */
export const MAX_JSON_DEPTH = 64;

export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const pending: unknown[] = [value];
  const depths: number[] = [0];
  while (pending.length > 0) {
    const item = pending.pop();
    const depth = depths.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
