/** The sandbox's transparent classifier: each pure step, and answers one can predict by hand. */
import { describe, expect, it } from 'vitest';
import {
  MODEL_NAME,
  NOUL_NEUTRAL,
  choiceOptions,
  classify,
  concentration,
  contentWords,
  overlap,
  softmax,
  stateText,
  tokenize,
} from '../../electron/sandbox/classify-model';

describe('text', () => {
  it('tokenizes words and single punctuation marks, for usage counts', () => {
    expect(tokenize('Hello, world! ₹500 refunds…')).toEqual(['Hello', ',', 'world', '!', '₹', '500', 'refunds', '…']);
    expect(tokenize('   ')).toEqual([]);
  });

  it('keeps content words: lower case, no stop words, plurals folded', () => {
    expect(contentWords('The Refunds of the Batteries are pending')).toEqual(['refund', 'battery', 'pending']);
    expect(contentWords('class address')).toEqual(['class', 'address']);
  });

  it('reads a state: text as is, objects as JSON, arrays as turns', () => {
    expect(stateText('plain')).toBe('plain');
    expect(stateText({ a: 1 })).toBe('{"a":1}');
    expect(stateText(['hi', { role: 'agent', content: 'yes' }])).toBe('hi\n{"role":"agent","content":"yes"}');
  });

  it('lists choice options from a list or a map', () => {
    expect(choiceOptions(['a', 'b'])).toEqual([
      ['a', 'a'],
      ['b', 'b'],
    ]);
    expect(choiceOptions({ a: 'first one' })).toEqual([['a', 'a first one']]);
  });
});

describe('scoring', () => {
  it('measures overlap as the share of the option’s words found in the state', () => {
    const state = new Set(contentWords('payment failed at the bank'));
    expect(overlap(state, 'payment failed')).toBe(1);
    expect(overlap(state, 'payment succeeded')).toBe(0.5);
    expect(overlap(state, 'the of')).toBe(0);
  });

  it('softmax sums to 1 and sharpens as the temperature falls', () => {
    const p = softmax([0, 0.5, 1], 0.1);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p[2]! / p[1]!).toBeCloseTo(Math.exp(5), 6);
    expect(softmax([0.2, 0.2])).toEqual([0.5, 0.5]);
  });

  it('concentration is 1 for certainty, 0 for a uniform distribution', () => {
    expect(concentration([1, 0, 0])).toBe(1);
    expect(concentration([0.25, 0.25, 0.25, 0.25])).toBeCloseTo(0, 12);
    expect(concentration([1])).toBe(1);
    const c = concentration([0.7, 0.3]);
    expect(c > 0 && c < 1).toBe(true);
  });
});

describe('classify', () => {
  it('chooses the option whose words the state contains, with probabilities over all labels', () => {
    const r = classify({
      state: 'The parcel arrived late again',
      questions: {
        topic: {
          type: 'choice',
          instructions: 'topic?',
          criteria: { shipping: 'parcel late', billing: 'invoice charge' },
        },
      },
    });
    expect(r.model).toBe(MODEL_NAME);
    const a = r.answers.topic!;
    expect(a.type === 'choice' && a.choice).toBe('shipping');
    if (a.type !== 'choice') return;
    expect(a.probabilities.shipping! + a.probabilities.billing!).toBeCloseTo(1, 12);
  });

  it('scores the expected level (0-based) with a legend', () => {
    const r = classify({
      state: 'nothing matches here',
      questions: { s: { type: 'score', instructions: 'i', criteria: ['low', 'mid', 'high'] } },
    });
    const a = r.answers.s!;
    if (a.type !== 'score') throw new Error('score expected');
    expect(a.score).toBeCloseTo(1, 12);
    expect(a.confidence).toBeCloseTo(0, 12);
    expect(a.legend).toEqual({ 0: 'low', 1: 'mid', 2: 'high' });
  });

  it('noul compares the statement with the neutral overlap when there is no "false" side', () => {
    const yes = classify({
      state: 'the invoice is overdue',
      questions: { q: { type: 'noul', instructions: 'invoice overdue' } },
    }).answers.q!;
    const no = classify({ state: 'all good', questions: { q: { type: 'noul', instructions: 'invoice overdue' } } })
      .answers.q!;
    if (yes.type !== 'noul' || no.type !== 'noul') throw new Error('noul expected');
    expect(yes.noul).toBeGreaterThan(0.5);
    expect(no.noul).toBeCloseTo(1 / (1 + Math.exp(NOUL_NEUTRAL / 0.1)), 12);
  });

  it('counts usage tokens of everything read and written', () => {
    const r = classify({ state: 'a b', questions: { q: { type: 'choice', instructions: 'c?', criteria: ['d'] } } });
    expect(r.usage.input_tokens).toBe(2 + 3);
    expect(r.usage.output_tokens).toBe(tokenize(JSON.stringify(r.answers)).length);
  });
});
