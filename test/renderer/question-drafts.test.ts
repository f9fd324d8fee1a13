/** The classification screen's question builder: criteria typed one per line become the document's shapes. */
import { describe, expect, it } from 'vitest';
import { classifyProblems } from '../../shared/classification';
import { questionOf, questionsOf } from '../../renderer/src/classification/question-drafts';

describe('question drafts', () => {
  it('makes a choice a list of labels, or a map when every line is "label: description"', () => {
    expect(questionOf({ key: 'a', type: 'choice', instructions: ' Which? ', criteria: 'refund\n\n payout ' })).toEqual({
      type: 'choice',
      instructions: 'Which?',
      criteria: ['refund', 'payout'],
    });
    expect(
      questionOf({ key: 'a', type: 'choice', instructions: 'Which?', criteria: 'refund: money back\npayout: sent' }),
    ).toEqual({ type: 'choice', instructions: 'Which?', criteria: { refund: 'money back', payout: 'sent' } });
  });

  it('keeps score levels in order and noul criteria optional', () => {
    expect(questionOf({ key: 's', type: 'score', instructions: 'How?', criteria: 'low\nmid\nhigh' })).toEqual({
      type: 'score',
      instructions: 'How?',
      criteria: ['low', 'mid', 'high'],
    });
    expect(questionOf({ key: 'n', type: 'noul', instructions: 'Is it?', criteria: '' })).toEqual({
      type: 'noul',
      instructions: 'Is it?',
    });
    expect(questionOf({ key: 'n', type: 'noul', instructions: 'Is it?', criteria: 'true: yes\nfalse: no' })).toEqual({
      type: 'noul',
      instructions: 'Is it?',
      criteria: { true: 'yes', false: 'no' },
    });
  });

  it('names blank keys by position, and what the schema refuses is refused before sending', () => {
    const questions = questionsOf([
      { key: ' ', type: 'noul', instructions: 'Is it?', criteria: '' },
      { key: 'n', type: 'noul', instructions: 'Is it?', criteria: 'maybe: perhaps' },
    ]);
    expect(Object.keys(questions)).toEqual(['q1', 'n']);
    expect(classifyProblems({ state: 'x', questions }).join()).toMatch(/^questions\.n\.criteria/);
  });
});
