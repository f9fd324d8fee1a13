/**
 * The error bodies the service sends, read into one shape.
 *
 * | Wire shape                                                   | Where                         |
 * |--------------------------------------------------------------|-------------------------------|
 * | `{status:false, error:{message, code}, request_id?}`          | most operations (HTTP 200/400)|
 * | `{status:false, message:"Invalid request", code?}` (Variant B)| most operations               |
 * | `{status:true|false, error_code, error_message}`             | payout fetch                  |
 * | `{error|detail|message: ...}` with HTTP 401/413/422/429/5xx   | classification                |
 */
import { z } from 'zod';

export interface ErrorBody {
  code: number | string | null;
  message: string;
  requestId?: string;
}

const envelope = z.looseObject({
  status: z.union([z.literal(false), z.literal('false')]),
  error: z.looseObject({ message: z.string(), code: z.union([z.number(), z.string()]).optional() }),
  request_id: z.string().optional(),
});

const variantB = z.looseObject({
  status: z.union([z.literal(false), z.literal('false')]),
  message: z.string(),
  code: z.union([z.number(), z.string()]).optional(),
  request_id: z.string().optional(),
});

const payoutError = z.looseObject({
  error_code: z.union([z.number(), z.string()]),
  error_message: z.string(),
  request_id: z.string().optional(),
});

const detail = z.looseObject({
  error: z.union([z.string(), z.looseObject({ message: z.string() })]).optional(),
  detail: z.unknown().optional(),
  message: z.string().optional(),
});

/** Reads an error body of any documented shape; null when `body` is not an error. */
export function readErrorBody(body: unknown): ErrorBody | null {
  // Each shape needs `status` false or an `error_code`: a success (every settlement page) is let go before three
  // schemas fail on it, which cost a fifth of the settlement page's check.
  if (typeof body !== 'object' || body === null) return null;
  const { status, error_code } = body as Record<string, unknown>;
  if (status !== false && status !== 'false' && error_code === undefined) return null;
  const e = envelope.safeParse(body);
  if (e.success)
    return { code: e.data.error.code ?? null, message: e.data.error.message, requestId: e.data.request_id };
  const b = variantB.safeParse(body);
  if (b.success) return { code: b.data.code ?? null, message: b.data.message, requestId: b.data.request_id };
  const p = payoutError.safeParse(body);
  if (p.success) return { code: p.data.error_code, message: p.data.error_message, requestId: p.data.request_id };
  return null;
}

/** A message from a non-2xx body that is not one of the envelopes (classification, proxies). */
export function readLooseErrorMessage(body: unknown): string | null {
  const d = detail.safeParse(body);
  if (!d.success) return null;
  const { error, detail: det, message } = d.data;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') return error.message;
  if (typeof det === 'string') return det;
  if (Array.isArray(det))
    return det.map((x) => (typeof x === 'object' && x && 'msg' in x ? String(x.msg) : String(x))).join('; ');
  return message ?? null;
}

/** The documented codes with a name the rest of the app can switch on. */
export const ERROR_CODES = {
  hashNotVerified: 204,
  generic: 202,
  alreadyCancelled: 1035,
  invalidRequest: 400,
} as const;
