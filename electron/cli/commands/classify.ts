/**
 * `classify --state FILE|TEXT --questions FILE`: asks the typed questions of the classification service. The
 * request is checked against the document's limits first (exit 2, nothing sent); the service's 401, 413, 422, 429
 * and 5xx are said in plain words (exit 1).
 */
import { existsSync } from 'node:fs';
import { parseQuestions, parseState } from '../../../shared/classification';
import { ClassifyError } from '../../merchant/classification';
import type { Command } from '../command';
import { InputError, UsageError, result } from '../io';
import { readInputFile } from '../local-files';

const classify: Command = {
  words: ['classify'],
  usage:
    'classify --state FILE|TEXT --questions FILE [--as text|json]   (a state file or text; JSON if it reads as an object or a list, unless --as text)',
  options: { state: { type: 'string' }, questions: { type: 'string' }, as: { type: 'string' } },
  async run({ ctx, values, io }) {
    if (typeof values.state !== 'string' || typeof values.questions !== 'string') {
      throw new UsageError('give --state and --questions');
    }
    const as = values.as;
    if (as !== undefined && as !== 'text' && as !== 'json') throw new UsageError('--as takes text or json');
    const stateText = existsSync(values.state)
      ? readInputFile(values.state, 'The state file').toString('utf8')
      : values.state;
    const mode = as ?? (parseState(stateText, 'json').ok ? 'json' : 'text');
    const state = parseState(stateText, mode);
    if (!state.ok) throw new InputError(`--state: ${state.message}`);
    const questions = parseQuestions(readInputFile(values.questions, 'The questions file').toString('utf8'));
    if (!questions.ok) throw new InputError(`--questions: ${questions.message}`);
    let answer;
    try {
      answer = await ctx.core.merchant.classification.classify(ctx.profile.id, {
        state: state.state,
        questions: questions.questions,
      });
    } catch (e) {
      if (e instanceof ClassifyError && e.notSent) throw new InputError(e.message);
      throw e;
    }
    const { result: r } = answer;
    result(io, r, () =>
      [
        ...Object.entries(r.answers).map(([key, a]) => {
          const head =
            a.type === 'choice'
              ? `${key}: ${a.choice}`
              : a.type === 'score'
                ? `${key}: score ${a.score}`
                : `${key}: ${(a.noul * 100).toFixed(1)}% that it holds`;
          const probs =
            a.type === 'noul'
              ? []
              : Object.entries(a.probabilities).map(
                  ([label, p]) =>
                    `    ${(a.type === 'score' ? `${label} ${a.legend[label] ?? ''}` : label).padEnd(24)} ${'#'.repeat(Math.round(p * 20)).padEnd(20)} ${(p * 100).toFixed(1)}%`,
                );
          return [`${head} (confidence ${(a.confidence * 100).toFixed(1)}%)`, ...probs].join('\n');
        }),
        `Model ${r.model ?? 'not given'}; ${r.usage.input_tokens} tokens in, ${r.usage.output_tokens} out.`,
      ].join('\n'),
    );
  },
};

export const classifyCommands = [classify];
