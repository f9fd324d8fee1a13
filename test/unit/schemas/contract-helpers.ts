/** Helpers the schema tests share: parse or refuse a body with an operation's schemas, and edit a body by path. */
import { expect } from 'vitest';
import type { z } from 'zod';
import { OPERATIONS, describeIssues, type OperationName, type OperationOutput } from '../../../shared/api/operations';

export function parse<N extends OperationName>(name: N, body: unknown): OperationOutput<N> {
  const r = (OPERATIONS[name].response as z.ZodType).safeParse(body);
  if (!r.success) throw new Error(`${name} refused the body: ${describeIssues(r.error)}`);
  return r.data as OperationOutput<N>;
}

/** Parses a body that must be refused and returns `describeIssues` of the error. */
export function refuse(name: OperationName, body: unknown): string {
  const r = (OPERATIONS[name].response as z.ZodType).safeParse(body);
  expect(r.success, `${name} accepted a body it should refuse`).toBe(false);
  return r.success ? '' : describeIssues(r.error);
}

export function request(name: OperationName, input: unknown) {
  return (OPERATIONS[name].request as z.ZodType).safeParse(input);
}

export function requestIssues(name: OperationName, input: unknown): string {
  const r = request(name, input);
  expect(r.success, `${name} request accepted ${JSON.stringify(input)}`).toBe(false);
  return r.success ? '' : describeIssues(r.error);
}

export const DROP = Symbol('drop');
/** A deep copy of `body` with the dotted `path` set to `value` (or removed with DROP). */
export function edit(body: unknown, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body) as Record<string, unknown>;
  const keys = path.split('.');
  let node = copy;
  for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  if (value === DROP) delete node[last];
  else node[last] = value;
  return copy;
}
