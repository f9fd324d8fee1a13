/** Classification over HTTP: the Limits table enforced exactly (401, 413, 422) and the answer shapes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLASSIFY_LIMITS,
  answerKeysMismatch,
  classifyResponse,
  type ClassifyRequest,
} from '../../shared/api/classification';
import type { Sandbox } from '../../electron/sandbox/server';
import { basicHeader, rawCall } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const classify = (body: unknown, opts: Parameters<typeof rawCall>[3] = {}) =>
  rawCall(sb.url, 'classify', {}, { rawBody: typeof body === 'string' ? body : JSON.stringify(body), ...opts });
const noul = { type: 'noul', instructions: 'Is this about a refund?' };
const labels = (n: number) => Array.from({ length: n }, (_, i) => `label${i}`);

describe('limits', () => {
  it('401 without valid Basic credentials, whatever the body', async () => {
    for (const authorization of [null, basicHeader('test_key', 'wrong'), 'Basic !!!']) {
      const r = await classify({ state: 'x', questions: { q: noul } }, { authorization });
      expect([r.http, r.body]).toEqual([401, { error: { message: expect.any(String), code: 401 } }]);
    }
  });

  it('413 over 32 KiB; exactly 32 KiB is read', async () => {
    const sized = (bytes: number) => {
      const shell = JSON.stringify({ state: '', questions: { q: noul } });
      return JSON.stringify({ state: 'a'.repeat(bytes - shell.length), questions: { q: noul } });
    };
    expect(Buffer.byteLength(sized(CLASSIFY_LIMITS.maxBodyBytes))).toBe(32 * 1024);
    expect((await classify(sized(CLASSIFY_LIMITS.maxBodyBytes))).http).toBe(200);
    const over = await classify(sized(CLASSIFY_LIMITS.maxBodyBytes + 1));
    expect([over.http, over.body]).toEqual([413, { error: { message: expect.any(String), code: 413 } }]);
  });

  const invalid: [string, unknown][] = [
    ['missing state', { questions: { q: noul } }],
    ['empty state', { state: '', questions: { q: noul } }],
    ['empty turn list', { state: [], questions: { q: noul } }],
    ['no questions field', { state: 'x' }],
    ['0 questions', { state: 'x', questions: {} }],
    ['5 questions', { state: 'x', questions: { a: noul, b: noul, c: noul, d: noul, e: noul } }],
    ['unknown type', { state: 'x', questions: { q: { type: 'rank', instructions: 'i', criteria: ['a', 'b'] } } }],
    ['no instructions', { state: 'x', questions: { q: { type: 'noul' } } }],
    [
      'choice with an empty list',
      { state: 'x', questions: { q: { type: 'choice', instructions: 'i', criteria: [] } } },
    ],
    ['choice with an empty map', { state: 'x', questions: { q: { type: 'choice', instructions: 'i', criteria: {} } } }],
    [
      'choice with 21 options',
      { state: 'x', questions: { q: { type: 'choice', instructions: 'i', criteria: labels(21) } } },
    ],
    [
      'choice with a duplicate label',
      { state: 'x', questions: { q: { type: 'choice', instructions: 'i', criteria: ['a', 'a'] } } },
    ],
    ['choice criteria a number', { state: 'x', questions: { q: { type: 'choice', instructions: 'i', criteria: 3 } } }],
    ['score with 1 level', { state: 'x', questions: { q: { type: 'score', instructions: 'i', criteria: ['only'] } } }],
    [
      'score with 21 levels',
      { state: 'x', questions: { q: { type: 'score', instructions: 'i', criteria: labels(21) } } },
    ],
    [
      'score criteria a map',
      { state: 'x', questions: { q: { type: 'score', instructions: 'i', criteria: { a: 'b' } } } },
    ],
    ['noul criteria with other keys', { state: 'x', questions: { q: { ...noul, criteria: { maybe: 'm' } } } }],
    ['malformed JSON', '{"state": "x", "questions": '],
  ];

  it.each(invalid.map(([why, body]) => ({ why, body })))('422 for $why', async ({ body }) => {
    const r = await classify(body);
    expect([r.http, r.body]).toEqual([422, { error: { message: expect.any(String), code: 422 } }]);
  });

  it('accepts the edges: 4 questions, 1 and 20 options, 2 and 20 levels, noul with both sides', async () => {
    const r = await classify({
      state: 'x',
      questions: {
        one: { type: 'choice', instructions: 'i', criteria: ['only'] },
        twenty: { type: 'choice', instructions: 'i', criteria: labels(20) },
        levels: { type: 'score', instructions: 'i', criteria: labels(20) },
        sides: { ...noul, criteria: { false: 'no', true: 'yes' } },
      },
    });
    expect(r.http).toBe(200);
    const two = await classify({
      state: 'x',
      questions: { q: { type: 'score', instructions: 'i', criteria: ['low', 'high'] } },
    });
    expect(two.http).toBe(200);
  });
});

describe('answers', () => {
  const request: ClassifyRequest = {
    state: [
      { role: 'customer', content: 'My card payment failed twice and I want a refund of the charge' },
      'agent: looking into it',
    ],
    questions: {
      topic: {
        type: 'choice',
        instructions: 'What is the ticket about?',
        criteria: { refund: 'customer wants money back', delivery: 'late parcel or shipping' },
      },
      urgency: {
        type: 'score',
        instructions: 'How urgent?',
        criteria: ['no action needed', 'payment failed', 'fraud or legal threat'],
      },
      angry: {
        type: 'noul',
        instructions: 'The customer is angry',
        criteria: { true: 'angry furious shouting', false: 'wants a refund' },
      },
      labels: { type: 'choice', instructions: 'Pick one', criteria: ['refund', 'shipping', 'kyc'] },
    },
  };

  it('have exactly the requested keys and the documented shapes', async () => {
    const r = await classify(request);
    expect(r.http).toBe(200);
    const parsed = classifyResponse.parse(r.body);
    expect(answerKeysMismatch(request, parsed)).toBeNull();
    expect(parsed.model).toBe('sandbox-overlap-v1');
    expect(Number.isInteger(parsed.usage.input_tokens) && parsed.usage.input_tokens > 0).toBe(true);
    expect(Number.isInteger(parsed.usage.output_tokens) && parsed.usage.output_tokens > 0).toBe(true);

    const sum = (p: Record<string, number>) => Object.values(p).reduce((a, b) => a + b, 0);
    const topic = parsed.answers.topic!;
    if (topic.type !== 'choice') throw new Error('topic should be a choice');
    expect(Object.keys(topic.probabilities)).toEqual(['refund', 'delivery']);
    expect(Math.abs(sum(topic.probabilities) - 1)).toBeLessThan(1e-9);
    expect(topic.choice).toBe('refund');

    const urgency = parsed.answers.urgency!;
    if (urgency.type !== 'score') throw new Error('urgency should be a score');
    expect(urgency.legend).toEqual({ 0: 'no action needed', 1: 'payment failed', 2: 'fraud or legal threat' });
    expect(Object.keys(urgency.probabilities)).toEqual(['0', '1', '2']);
    expect(Math.abs(sum(urgency.probabilities) - 1)).toBeLessThan(1e-9);
    const expected = Object.entries(urgency.probabilities).reduce((s, [i, p]) => s + Number(i) * p, 0);
    expect(urgency.score).toBeCloseTo(expected, 12);
    expect(urgency.probabilities['1']).toBeGreaterThan(0.5);

    const angry = parsed.answers.angry!;
    if (angry.type !== 'noul') throw new Error('angry should be noul');
    expect(angry.noul).toBeGreaterThanOrEqual(0);
    expect(angry.noul).toBeLessThan(0.5);

    for (const a of Object.values(parsed.answers)) {
      expect(a.confidence).toBeGreaterThanOrEqual(0);
      expect(a.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('are deterministic and free of side effects', async () => {
    const a = await classify(request);
    const b = await classify(request);
    expect(a.text).toBe(b.text);
  });
});
