/**
 * Classification at {ai_url}/v1/classify/. Errors here are not the merchant envelope but
 * `{error: {message, code}}` with the HTTP status the document's table gives (401, 413, 422, 429, 5xx).
 * The shared request schema is the Limits table; one rule it cannot express is checked here: a choice
 * given as a list must name each label once, because labels become the keys of `probabilities`.
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
  for (const [key, q] of Object.entries(parsed.data.questions)) {
    if (q.type === 'choice' && Array.isArray(q.criteria) && new Set(q.criteria).size !== q.criteria.length) {
      return aiError(422, `questions.${key}.criteria: each label may appear only once`);
    }
  }
  return { http: 200, body: classify(parsed.data) };
}
