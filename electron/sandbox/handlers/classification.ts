/**
 * Classification at {ai_url}/v1/classify/. Errors here are not the merchant envelope but
 * `{error: {message, code}}` with the HTTP status the document's table gives (401, 413, 422, 429, 5xx).
 * The shared request schema is the Limits table, including that a choice given as a list names each
 * label once (labels become the keys of `probabilities`); this handler checks nothing beyond it.
 */
import { classifyRequest } from '../../../shared/api/classification';
import { describeIssues } from '../../../shared/api/operations';
import { classify } from '../classify-model';
import type { Reply } from './reply';

export function aiError(http: number, message: string): Reply {
  return { http, body: { error: { message, code: http } } };
}

export function classifyReply(body: unknown): Reply {
  const parsed = classifyRequest.safeParse(body);
  if (!parsed.success) return aiError(422, describeIssues(parsed.error));
  return { http: 200, body: classify(parsed.data) };
}
