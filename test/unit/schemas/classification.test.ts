/**
 * Classification at {ai_url}/v1/classify/: request limits (the document's Limits table), the answer shapes,
 * and answerKeysMismatch (answers must have exactly the requested keys).
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, request, requestIssues, edit, DROP } from './contract-helpers';
import {
  answerKeysMismatch,
  CLASSIFY_LIMITS,
  type Classification,
  type ClassifyRequest,
} from '../../../shared/api/classification';

const labels = (n: number) => Array.from({ length: n }, (_, i) => `label_${i + 1}`);
const labelMap = (n: number) => Object.fromEntries(labels(n).map((l) => [l, `description of ${l}`]));

const CHOICE = {
  type: 'choice',
  instructions: 'What is the customer asking for?',
  criteria: { refund_request: 'wants money back', complaint: 'unhappy but no request', other: 'anything else' },
};
const SCORE = {
  type: 'score',
  instructions: 'How urgent is this message?',
  criteria: ['not urgent', 'can wait a day', 'today', 'immediately'],
};
const NOUL = { type: 'noul', instructions: 'The message mentions a chargeback.' };
const VALID_REQUEST = {
  state: 'Customer: I was charged twice for order ord_8f3kq2, please refund one charge today.',
  questions: { intent: CHOICE, urgency: SCORE, chargeback: NOUL },
};

describe('classify request', () => {
  it('accepts the documented shapes of state and criteria', () => {
    expect(request('classify', VALID_REQUEST).success).toBe(true);
    expect(request('classify', { ...VALID_REQUEST, state: { order_id: 'ord_1', note: 'double charge' } }).success).toBe(
      true,
    );
    expect(
      request('classify', { ...VALID_REQUEST, state: [{ role: 'customer', text: 'refund please' }] }).success,
    ).toBe(true);
    expect(request('classify', { state: 'x', questions: { q: { ...CHOICE, criteria: ['yes', 'no'] } } }).success).toBe(
      true,
    );
    expect(
      request('classify', {
        state: 'x',
        questions: { q: { ...NOUL, criteria: { false: 'no mention', true: 'mentions it' } } },
      }).success,
    ).toBe(true);
    expect(
      request('classify', { state: 'x', questions: { q: { ...NOUL, criteria: { true: 'mentions it' } } } }).success,
    ).toBe(true);
  });

  it('asks 1 to 4 questions', () => {
    const q = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, NOUL]));
    expect(request('classify', { state: 'x', questions: q(1) }).success).toBe(true);
    expect(request('classify', { state: 'x', questions: q(CLASSIFY_LIMITS.maxQuestions) }).success).toBe(true);
    expect(requestIssues('classify', { state: 'x', questions: q(0) })).toBe('questions: ask 1 to 4 questions');
    expect(requestIssues('classify', { state: 'x', questions: q(5) })).toBe('questions: ask 1 to 4 questions');
  });

  it('choice takes 1 to 20 options, as a list or as a map', () => {
    const choice = (criteria: unknown) => ({ state: 'x', questions: { q: { ...CHOICE, criteria } } });
    expect(request('classify', choice(labels(1))).success).toBe(true);
    expect(request('classify', choice(labels(20))).success).toBe(true);
    expect(request('classify', choice(labelMap(1))).success).toBe(true);
    expect(request('classify', choice(labelMap(20))).success).toBe(true);
    expect(requestIssues('classify', choice([]))).toMatch(/^questions\.q\.criteria: /);
    expect(requestIssues('classify', choice(labels(21)))).toMatch(/^questions\.q\.criteria: /);
    expect(requestIssues('classify', choice({}))).toMatch(/^questions\.q\.criteria: /);
    expect(requestIssues('classify', choice(labelMap(21)))).toMatch(/^questions\.q\.criteria: /);
    expect(requestIssues('classify', choice('yes,no'))).toMatch(/^questions\.q\.criteria: /);
  });

  it('score takes 2 to 20 ordered levels', () => {
    const score = (criteria: unknown) => ({ state: 'x', questions: { q: { ...SCORE, criteria } } });
    expect(request('classify', score(labels(2))).success).toBe(true);
    expect(request('classify', score(labels(20))).success).toBe(true);
    expect(requestIssues('classify', score(labels(1)))).toMatch(/^questions\.q\.criteria: /);
    expect(requestIssues('classify', score(labels(21)))).toMatch(/^questions\.q\.criteria: /);
    expect(requestIssues('classify', score(labelMap(3)))).toMatch(/^questions\.q\.criteria: /);
    expect(requestIssues('classify', { state: 'x', questions: { q: { type: 'score', instructions: 'x' } } })).toMatch(
      /^questions\.q\.criteria: /,
    );
  });

  it('noul criteria is optional and only has the keys false and true', () => {
    expect(
      requestIssues('classify', { state: 'x', questions: { q: { ...NOUL, criteria: { maybe: 'unsure' } } } }),
    ).toBe('questions.q.criteria: Unrecognized key: "maybe"');
    expect(requestIssues('classify', { state: 'x', questions: { q: { ...NOUL, criteria: ['no', 'yes'] } } })).toMatch(
      /^questions\.q\.criteria: /,
    );
  });

  it('refuses an unknown question type and names it', () => {
    expect(requestIssues('classify', { state: 'x', questions: { q: { ...CHOICE, type: 'rank' } } })).toMatch(
      /^questions\.q\.type: /,
    );
  });

  it('refuses a missing or empty state, and missing instructions', () => {
    expect(requestIssues('classify', { questions: VALID_REQUEST.questions })).toMatch(/^state: /);
    expect(requestIssues('classify', { ...VALID_REQUEST, state: '' })).toMatch(/^state: /);
    expect(requestIssues('classify', { ...VALID_REQUEST, state: [] })).toMatch(/^state: /);
    expect(requestIssues('classify', { state: 'x', questions: { q: { type: 'noul' } } })).toMatch(
      /^questions\.q\.instructions: /,
    );
    expect(requestIssues('classify', { state: 'x' })).toMatch(/^questions: /);
  });
});

// ---- response -----------------------------------------------------------------------------------------------

const RESPONSE = {
  model: 'clf-2024-06',
  answers: {
    intent: {
      type: 'choice',
      confidence: 0.82,
      choice: 'refund_request',
      probabilities: { refund_request: 0.9, complaint: 0.07, other: 0.03 },
    },
    urgency: {
      type: 'score',
      confidence: 0.61,
      score: 2.3,
      legend: { '0': 'not urgent', '1': 'can wait a day', '2': 'today', '3': 'immediately' },
      probabilities: { '0': 0.05, '1': 0.15, '2': 0.25, '3': 0.55 },
    },
    chargeback: { type: 'noul', confidence: 0.9, noul: 0.04 },
  },
  usage: { input_tokens: 412, output_tokens: 9 },
};

describe('classify response', () => {
  it('choice, score and noul answers are kept exactly', () => {
    expect(parse('classify', RESPONSE)).toStrictEqual(RESPONSE);
  });

  it('model is optional; unknown fields are kept', () => {
    const withoutModel: Record<string, unknown> = { ...RESPONSE };
    delete withoutModel.model;
    expect(parse('classify', withoutModel)).toStrictEqual(withoutModel);
    const extra = edit({ ...RESPONSE, latency_ms: 120 }, 'answers.intent.reason', 'mentions refund');
    expect(parse('classify', extra)).toMatchObject({
      latency_ms: 120,
      answers: { intent: { reason: 'mentions refund' } },
    });
  });

  it('refuses out-of-range probabilities, unknown answer types, non-integer usage and missing parts, naming them', () => {
    expect(refuse('classify', edit(RESPONSE, 'answers.intent.confidence', 1.2))).toMatch(
      /^answers\.intent\.confidence: /,
    );
    expect(refuse('classify', edit(RESPONSE, 'answers.chargeback.noul', -0.1))).toMatch(/^answers\.chargeback\.noul: /);
    expect(refuse('classify', edit(RESPONSE, 'answers.urgency.probabilities.3', 1.5))).toMatch(
      /^answers\.urgency\.probabilities\.3: /,
    );
    expect(refuse('classify', edit(RESPONSE, 'answers.intent.choice', DROP))).toMatch(/^answers\.intent\.choice: /);
    expect(refuse('classify', edit(RESPONSE, 'answers.urgency.legend', DROP))).toMatch(/^answers\.urgency\.legend: /);
    expect(refuse('classify', edit(RESPONSE, 'answers.intent.type', 'rank'))).toMatch(/^answers\.intent\.type: /);
    expect(refuse('classify', edit(RESPONSE, 'usage.input_tokens', 1.5))).toMatch(/^usage\.input_tokens: /);
    expect(refuse('classify', edit(RESPONSE, 'usage.output_tokens', -1))).toMatch(/^usage\.output_tokens: /);
    expect(refuse('classify', edit(RESPONSE, 'usage', DROP))).toMatch(/^usage: /);
    expect(refuse('classify', edit(RESPONSE, 'answers', DROP))).toMatch(/^answers: /);
  });
});

// ---- answerKeysMismatch -----------------------------------------------------------------------------------

describe('answerKeysMismatch', () => {
  const req = request('classify', VALID_REQUEST).data as ClassifyRequest;
  const res = parse('classify', RESPONSE) as Classification;

  it('is null when the answers have exactly the requested keys, in any order', () => {
    expect(answerKeysMismatch(req, res)).toBeNull();
    const reordered = {
      ...res,
      answers: { chargeback: res.answers.chargeback!, intent: res.answers.intent!, urgency: res.answers.urgency! },
    };
    expect(answerKeysMismatch(req, reordered)).toBeNull();
  });

  it('names the asked and received keys when one is missing', () => {
    const answers = { ...res.answers };
    delete answers.urgency;
    expect(answerKeysMismatch(req, { ...res, answers })).toBe(
      'asked for chargeback, intent, urgency but got chargeback, intent',
    );
  });

  it('reports an extra key', () => {
    const answers = { ...res.answers, sentiment: { type: 'noul' as const, confidence: 0.5, noul: 0.5 } };
    expect(answerKeysMismatch(req, { ...res, answers })).toBe(
      'asked for chargeback, intent, urgency but got chargeback, intent, sentiment, urgency',
    );
  });

  it('reports no answers at all', () => {
    expect(answerKeysMismatch(req, { ...res, answers: {} })).toBe(
      'asked for chargeback, intent, urgency but got no answers',
    );
  });

  it('reports a renamed key even when the count matches', () => {
    const { chargeback, ...rest } = res.answers;
    expect(answerKeysMismatch(req, { ...res, answers: { ...rest, charge_back: chargeback! } })).toMatch(
      /^asked for .* but got /,
    );
  });
});
