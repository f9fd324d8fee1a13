/**
 * The question builder's drafts, made into the document's questions: criteria typed one per line. A choice line
 * "label: description" makes a map of labels to descriptions, plain lines a list of labels; score lines are the
 * levels in order; noul takes optional "false: …" and "true: …" lines.
 */
export type QuestionType = 'choice' | 'score' | 'noul';

export interface QuestionDraft {
  key: string;
  type: QuestionType;
  instructions: string;
  criteria: string;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function pairs(text: string): [string, string][] | null {
  const all = lines(text).map((l) => /^([^:]+):\s*(.+)$/.exec(l));
  return all.every((m) => m !== null) ? all.map((m) => [m![1]!.trim(), m![2]!.trim()]) : null;
}

export function questionOf(d: QuestionDraft): unknown {
  const base = { type: d.type, instructions: d.instructions.trim() };
  if (d.type === 'score') return { ...base, criteria: lines(d.criteria) };
  if (d.type === 'choice') {
    const p = pairs(d.criteria);
    return { ...base, criteria: p && p.length > 0 ? Object.fromEntries(p) : lines(d.criteria) };
  }
  const p = pairs(d.criteria);
  if (!lines(d.criteria).length) return base;
  // Anything but false/true lines is passed on as it is, so the shared schema names what is wrong.
  return { ...base, criteria: p ? Object.fromEntries(p) : lines(d.criteria) };
}

/** The `questions` object: each draft under its key (a blank key is named by its position). */
export function questionsOf(drafts: readonly QuestionDraft[]): Record<string, unknown> {
  return Object.fromEntries(drafts.map((d, i) => [d.key.trim() || `q${i + 1}`, questionOf(d)]));
}
