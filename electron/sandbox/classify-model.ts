/**
 * The sandbox's classification model, "sandbox-overlap-v1": transparent and deterministic, so tests and
 * demos can predict its answers. It is not a language model and makes no claim to be one.
 *
 *   1. The state becomes text: a string as is, an object as its JSON, an array as its turns (strings as
 *      they are, anything else as JSON) joined by newlines.
 *   2. Text becomes content words: lower case letters/digits runs, minus a few stop words, plurals folded.
 *   3. Each option is scored by overlap = |words(option) ∩ words(state)| / |words(option)|, in [0, 1].
 *      A choice option is its label plus its description; a score level is its description; a noul
 *      question's "true" side is criteria.true (else the instructions), its "false" side criteria.false
 *      (else the fixed neutral score NOUL_NEUTRAL: the statement holds when more than a quarter of its
 *      words appear in the state).
 *   4. A softmax with temperature TEMPERATURE turns scores into probabilities; confidence is
 *      1 - entropy / log(n) (1 for a certain answer, 0 for a uniform one).
 *   5. Usage counts tokens: runs of letters/digits and single punctuation marks, of everything read
 *      (state, instructions, criteria) and of the answers written.
 */
import type { ClassifyQuestion, ClassifyRequest } from '../../shared/api/classification';

export const MODEL_NAME = 'sandbox-overlap-v1';
export const TEMPERATURE = 0.1;
export const NOUL_NEUTRAL = 0.25;

const STOP_WORDS = new Set(
  'a an the is are was were be been to of and or in on for with this that these those it its as at by from has have had do does did i you we they he she them our your their there here which who what when where how'.split(
    ' ',
  ),
);

/** Tokens as the usage counts see them: letter/digit runs and single punctuation marks. */
export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [];
}

/** Content words: lower case, no stop words, simple plurals folded ("refunds" -> "refund"). */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP_WORDS.has(raw)) continue;
    out.push(fold(raw));
  }
  return out;
}

function fold(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function stateText(state: unknown): string {
  if (typeof state === 'string') return state;
  if (Array.isArray(state))
    return state.map((turn) => (typeof turn === 'string' ? turn : JSON.stringify(turn))).join('\n');
  return JSON.stringify(state);
}

/** Share of the option's distinct words found in the state; 0 for an option with no content words. */
export function overlap(stateWords: ReadonlySet<string>, option: string): number {
  const words = new Set(contentWords(option));
  if (words.size === 0) return 0;
  let hits = 0;
  for (const w of words) if (stateWords.has(w)) hits++;
  return hits / words.size;
}

export function softmax(scores: readonly number[], temperature = TEMPERATURE): number[] {
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp((s - max) / temperature));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/** 1 - normalized entropy: 1 when all mass is on one outcome, 0 when uniform. */
export function concentration(p: readonly number[]): number {
  if (p.length < 2) return 1;
  const h = p.reduce((s, x) => (x > 0 ? s - x * Math.log(x) : s), 0);
  return Math.min(1, Math.max(0, 1 - h / Math.log(p.length)));
}

export type Answer =
  | { type: 'choice'; choice: string; probabilities: Record<string, number>; confidence: number }
  | {
      type: 'score';
      score: number;
      legend: Record<string, string>;
      probabilities: Record<string, number>;
      confidence: number;
    }
  | { type: 'noul'; noul: number; confidence: number };

export interface Classification {
  model: string;
  answers: Record<string, Answer>;
  usage: { input_tokens: number; output_tokens: number };
}

export function classify(request: ClassifyRequest): Classification {
  const text = stateText(request.state);
  const stateWords = new Set(contentWords(text));
  let inputTokens = tokenize(text).length;
  const answers: Record<string, Answer> = {};
  for (const [key, question] of Object.entries(request.questions)) {
    inputTokens += tokenize(questionText(question)).length;
    answers[key] = answer(question, stateWords);
  }
  return {
    model: MODEL_NAME,
    answers,
    usage: { input_tokens: inputTokens, output_tokens: tokenize(JSON.stringify(answers)).length },
  };
}

/** The labels of a choice question, in the order given, with the text each is scored on. */
export function choiceOptions(criteria: readonly string[] | Readonly<Record<string, string>>): [string, string][] {
  return Array.isArray(criteria)
    ? criteria.map((label) => [label, label])
    : Object.entries(criteria).map(([l, d]) => [l, `${l} ${d}`]);
}

function answer(q: ClassifyQuestion, stateWords: ReadonlySet<string>): Answer {
  switch (q.type) {
    case 'choice': {
      const options = choiceOptions(q.criteria);
      const p = softmax(options.map(([, text]) => overlap(stateWords, text)));
      const best = p.indexOf(Math.max(...p));
      return {
        type: 'choice',
        choice: options[best]![0],
        probabilities: Object.fromEntries(options.map(([label], i) => [label, p[i]!])),
        confidence: concentration(p),
      };
    }
    case 'score': {
      const p = softmax(q.criteria.map((level) => overlap(stateWords, level)));
      return {
        type: 'score',
        score: p.reduce((s, x, i) => s + x * i, 0),
        legend: Object.fromEntries(q.criteria.map((level, i) => [String(i), level])),
        probabilities: Object.fromEntries(p.map((x, i) => [String(i), x])),
        confidence: concentration(p),
      };
    }
    case 'noul': {
      const yes = overlap(stateWords, q.criteria?.true ?? q.instructions);
      const no = q.criteria?.false === undefined ? NOUL_NEUTRAL : overlap(stateWords, q.criteria.false);
      const p = softmax([no, yes]);
      return { type: 'noul', noul: p[1]!, confidence: concentration(p) };
    }
  }
}

function questionText(q: ClassifyQuestion): string {
  const criteria =
    q.criteria === undefined ? [] : Array.isArray(q.criteria) ? q.criteria : Object.entries(q.criteria).flat();
  return [q.instructions, ...criteria].join('\n');
}
