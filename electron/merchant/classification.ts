/**
 * The classification tool for the UI and the CLI. The document's limits are checked before anything is sent (a
 * request they refuse never leaves); a failure at the service is said in plain words for its status (401, 413,
 * 422, 429, 5xx), under a code of its own so the screen and the CLI tell them apart. The call has no side
 * effects, so it is not journaled.
 */
import type { ClassifyRequest } from '../../shared/api/classification';
import {
  classifyProblems,
  explainClassifyStatus,
  requestBytes,
  type ClassificationResult,
} from '../../shared/classification';
import { ApiError } from '../api/errors';
import type { Credentials } from '../profiles/credentials';

export class ClassifyError extends Error {
  override name = 'ClassifyError';
  constructor(
    readonly code: string,
    message: string,
    /** True when the request was refused here and nothing was sent. */
    readonly notSent: boolean,
  ) {
    super(message);
  }
}

export function createClassificationService(deps: { credentials: Credentials }) {
  return {
    async classify(profileId: string, request: unknown): Promise<ClassificationResult> {
      const problems = classifyProblems(request);
      if (problems.length > 0) {
        throw new ClassifyError('CLASSIFY_INVALID', `Not sent: ${problems.join('; ')}.`, true);
      }
      const checked = request as ClassifyRequest;
      try {
        const result = await deps.credentials.withApi(profileId, (api) => api.classification.classify(checked));
        return { result, bytes: requestBytes(checked) };
      } catch (e) {
        const plain = e instanceof ApiError ? explainClassifyStatus(e.httpStatus) : null;
        if (e instanceof ApiError && plain) {
          const reference = e.requestId ? ` (request id ${e.requestId})` : '';
          throw new ClassifyError(`CLASSIFY_${e.httpStatus}`, `${plain}${reference}`, false);
        }
        throw e;
      }
    },
  };
}
export type ClassificationService = ReturnType<typeof createClassificationService>;
