/**
 * Classification at `{ai_url}/v1/classify/`: typed questions about a text or JSON `state`, answered with
 * decisions and probabilities. The request rules below are the document's Limits table; the sandbox and
 * the client check the same schema, so a request the client would refuse is one the sandbox answers 422.
 */
import { z } from 'zod';

export const CLASSIFY_LIMITS = {
  maxQuestions: 4,
  maxChoiceOptions: 20,
  minScoreLevels: 2,
  maxScoreLevels: 20,
  maxBodyBytes: 32 * 1024,
} as const;

const description = z.string().min(1);
const choiceQuestion = z.object({
  type: z.literal('choice'),
  instructions: z.string().min(1),
  criteria: z.union([
    z
      .array(z.string().min(1))
      .min(1)
      .max(CLASSIFY_LIMITS.maxChoiceOptions)
      .refine((labels) => new Set(labels).size === labels.length, 'choice labels must be distinct'),
    z
      .record(z.string().min(1), description)
      .refine((m) => Object.keys(m).length >= 1 && Object.keys(m).length <= CLASSIFY_LIMITS.maxChoiceOptions, {
        message: `a choice needs 1 to ${CLASSIFY_LIMITS.maxChoiceOptions} options`,
      }),
  ]),
});
const scoreQuestion = z.object({
  type: z.literal('score'),
  instructions: z.string().min(1),
  criteria: z.array(description).min(CLASSIFY_LIMITS.minScoreLevels).max(CLASSIFY_LIMITS.maxScoreLevels),
});
const noulQuestion = z.object({
  type: z.literal('noul'),
  instructions: z.string().min(1),
  criteria: z.object({ false: description.optional(), true: description.optional() }).strict().optional(),
});
export const classifyQuestion = z.discriminatedUnion('type', [choiceQuestion, scoreQuestion, noulQuestion]);
export type ClassifyQuestion = z.infer<typeof classifyQuestion>;

export const classifyRequest = z.object({
  state: z.union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown()).min(1)]),
  questions: z
    .record(z.string().min(1), classifyQuestion)
    .refine((q) => Object.keys(q).length >= 1 && Object.keys(q).length <= CLASSIFY_LIMITS.maxQuestions, {
      message: `ask 1 to ${CLASSIFY_LIMITS.maxQuestions} questions`,
    }),
});
export type ClassifyRequest = z.infer<typeof classifyRequest>;

const probability = z.number().min(0).max(1);
const probabilities = z.record(z.string(), probability);

export const classifyAnswer = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('choice'), confidence: probability, choice: z.string(), probabilities }),
  z.looseObject({
    type: z.literal('score'),
    confidence: probability,
    score: z.number(),
    legend: z.record(z.string(), z.string()),
    probabilities,
  }),
  z.looseObject({ type: z.literal('noul'), confidence: probability, noul: probability }),
]);
export type ClassifyAnswer = z.output<typeof classifyAnswer>;

export const classifyResponse = z.looseObject({
  model: z.string().optional(),
  answers: z.record(z.string(), classifyAnswer),
  usage: z.looseObject({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() }),
});
export type Classification = z.output<typeof classifyResponse>;

/** The document promises exactly the requested keys; anything else is a broken answer. */
export function answerKeysMismatch(request: ClassifyRequest, response: Classification): string | null {
  const asked = Object.keys(request.questions).sort();
  const got = Object.keys(response.answers).sort();
  if (asked.join('\u0000') === got.join('\u0000')) return null;
  return `asked for ${asked.join(', ')} but got ${got.join(', ') || 'no answers'}`;
}
