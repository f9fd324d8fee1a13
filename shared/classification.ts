/**
 * The classification tool as the console offers it: the state as text or JSON, 1 to 4 typed questions, the
 * document's Limits table checked before anything is sent, and each error status in plain words.
 */
import { z } from 'zod';
import { CLASSIFY_LIMITS, classifyRequest, classifyResponse, type ClassifyRequest } from './api/classification';
import { MAX_JSON_DEPTH, boundedJson } from './json-value';

export type StateMode = 'text' | 'json';

/**
 * The state as the document takes it: text as it is, or JSON (an object is read as a record, an array as
 * conversation turns). JSON that does not parse, or a bare number or string in JSON mode, is refused with why.
 */
export function parseState(
  text: string,
  mode: StateMode,
): { ok: true; state: ClassifyRequest['state'] } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'The state is empty: paste the text or JSON to classify.' };
  if (mode === 'text') return { ok: true, state: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `The state is not valid JSON: ${e instanceof Error ? e.message : String(e)}.` };
  }
  if (Array.isArray(value)) {
    return value.length
      ? { ok: true, state: value }
      : { ok: false, message: 'A JSON state list needs at least one turn.' };
  }
  if (value !== null && typeof value === 'object') return { ok: true, state: value as Record<string, unknown> };
  return { ok: false, message: 'A JSON state must be an object or a list of turns; use Text for plain text.' };
}

/** The body as the client sends it, for the size limit: the same JSON text. */
export function requestBytes(request: unknown): number {
  return new TextEncoder().encode(JSON.stringify(request)).length;
}

/** Every way the request breaks the document's rules, in words; empty when it may be sent. */
export function classifyProblems(request: unknown): string[] {
  const problems: string[] = [];
  const checked = classifyRequest.safeParse(request);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const where = issue.path.map(String).join('.');
      problems.push(where ? `${where}: ${issue.message}` : issue.message);
    }
  }
  const bytes = requestBytes(request);
  if (bytes > CLASSIFY_LIMITS.maxBodyBytes) {
    problems.push(
      `The request is ${bytes.toLocaleString('en-IN')} bytes; the service takes at most ${CLASSIFY_LIMITS.maxBodyBytes.toLocaleString('en-IN')} (32 KiB). Shorten the state.`,
    );
  }
  return problems;
}

/** What each of the document's error statuses means to the desk. */
export function explainClassifyStatus(status: number | undefined): string | null {
  if (status === 401) {
    return "The classification service did not accept this profile's key and secret (401). Access is given by the merchant's account manager; check the credentials.";
  }
  if (status === 413)
    return 'The request was larger than the service takes (413: more than 32 KiB). Shorten the state.';
  if (status === 422) {
    return 'The service could not read the questions (422): a missing state, an unknown question type, malformed criteria, more than 4 questions or more than 20 options.';
  }
  if (status === 429) return 'The service is receiving too many requests (429). Wait a little and ask again.';
  if (status !== undefined && status >= 500) {
    return `The classification service failed for a moment (${status}). Asking again is safe: it changes nothing.`;
  }
  return null;
}

/**
 * What the renderer may send: the document's limits are checked by the handler (`classifyProblems`, in words), but
 * the state and questions are sent on as JSON, so they must be JSON, nest no deeper than any answer may and stay
 * far below what a 32 KiB body can hold.
 */
const CLASSIFY_JSON = { maxDepth: MAX_JSON_DEPTH, maxValues: 32 * 1024 };
export const classifyInput = z
  .object({
    state: boundedJson(z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]), CLASSIFY_JSON),
    questions: boundedJson(z.record(z.string(), z.unknown()), CLASSIFY_JSON),
  })
  .strict();

export const classification = z.object({
  result: classifyResponse,
  bytes: z.number().int(),
});
export type ClassificationResult = z.output<typeof classification>;

/** A question file or pasted JSON: the `questions` object, or a whole request whose `questions` it takes. */
export function parseQuestions(
  text: string,
): { ok: true; questions: Record<string, unknown> } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `The questions are not valid JSON: ${e instanceof Error ? e.message : String(e)}.` };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const inner = (value as Record<string, unknown>)['questions'];
    const questions = inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : value;
    return { ok: true, questions: questions as Record<string, unknown> };
  }
  return { ok: false, message: 'The questions must be a JSON object: {"key": {"type": …, "instructions": …}}.' };
}
