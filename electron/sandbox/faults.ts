/**
 * Armed faults for tests (`POST /__sandbox/faults`). Each fault applies to the next `count` requests whose
 * path equals `path` exactly (classification's is `/ai/v1/classify/`), or to any interface path when
 * `path` is omitted. The first armed fault that matches wins; one fault per request. Kinds:
 *   429 | 500 | 503   answer that status at once (429 with Retry-After when `retryAfter` is given)
 *   delay             wait `delayMs`, then answer normally
 *   drop              reset the connection without answering
 *   malformed         answer normally but cut the JSON body in half (HTTP 200)
 *   variant-b         answer with the operation's Variant B shape (errors in the Variant B envelope)
 * The hooks under /__sandbox are never subject to faults.
 */
import { z } from 'zod';

export const FAULT_KINDS = ['429', '500', '503', 'delay', 'drop', 'malformed', 'variant-b'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultSpec = z
  .object({
    path: z.string().startsWith('/', 'must start with /').optional(),
    kind: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(FAULT_KINDS)),
    count: z.number().int().positive().max(1_000_000).default(1),
    retryAfter: z.number().int().nonnegative().max(3600).optional(),
    delayMs: z.number().int().nonnegative().max(120_000).optional(),
  })
  .strict()
  .refine((f) => f.kind !== 'delay' || f.delayMs !== undefined, {
    message: 'is required for a delay',
    path: ['delayMs'],
  });
export type FaultSpec = z.output<typeof faultSpec>;

export interface Fault {
  kind: FaultKind;
  path?: string;
  retryAfter?: number;
  delayMs?: number;
}

export class FaultQueue {
  private armed: (FaultSpec & { remaining: number })[] = [];

  add(spec: FaultSpec): void {
    this.armed.push({ ...spec, remaining: spec.count });
  }

  clear(): void {
    this.armed = [];
  }

  list(): { path?: string; kind: FaultKind; remaining: number }[] {
    return this.armed.map(({ path, kind, remaining }) => ({ path, kind, remaining }));
  }

  /** Consumes one use of the first fault matching `path`. */
  take(path: string): Fault | undefined {
    const i = this.armed.findIndex((f) => f.path === undefined || f.path === path);
    if (i < 0) return undefined;
    const f = this.armed[i]!;
    f.remaining -= 1;
    if (f.remaining <= 0) this.armed.splice(i, 1);
    return { kind: f.kind, path: f.path, retryAfter: f.retryAfter, delayMs: f.delayMs };
  }
}
