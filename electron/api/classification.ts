/** Typed questions about a text or JSON state, at the classification host. */
import { answerKeysMismatch, type ClassifyRequest } from '../../shared/api/classification';
import type { ApiClient, CallOptions } from './client';
import { ApiError } from './errors';
import { explain } from './user-messages';

export function classificationApi(client: ApiClient) {
  return {
    async classify(request: ClassifyRequest, o?: CallOptions) {
      const answer = await client.call('classify', request, o);
      // client.call has already checked `request` against the schema; only its question keys are read here.
      const mismatch = answerKeysMismatch(request, answer);
      if (mismatch) {
        throw new ApiError({
          kind: 'invalid_response',
          operation: 'classify',
          message: mismatch,
          userMessage: explain('invalid_response'),
        });
      }
      return answer;
    },
  };
}
