/**
 * The outcome entry of an action at the service that did not succeed, from what the call threw: "unknown" when the
 * request may have taken effect (with what to check before trying again), "refused" when the service said no or
 * the request certainly did nothing. Only the error's composed, scrubbed fields are kept (errors.ts): never a secret.
 */
import { ApiError } from '../api/errors';
import type { JournalInput } from './journal';

export function apiFailureOutcome(e: unknown, event: string): JournalInput {
  if (e instanceof ApiError && (e.kind === 'outcome_unknown' || e.kind === 'invalid_response')) {
    return {
      kind: 'action',
      event,
      outcome: 'unknown',
      requestId: e.requestId ?? null,
      summary: `Outcome unknown — check status. ${e.userMessage}`,
      data: { errorKind: e.kind, reason: e.userMessage, check: e.check ?? null, httpStatus: e.httpStatus ?? null },
    };
  }
  if (e instanceof ApiError) {
    return {
      kind: 'action',
      event,
      outcome: 'refused',
      requestId: e.requestId ?? null,
      summary: `Refused: ${e.userMessage}`,
      data: {
        errorKind: e.kind,
        reason: e.userMessage,
        code: e.code === null ? null : String(e.code),
        httpStatus: e.httpStatus ?? null,
      },
    };
  }
  // A failure before the request left (no secret stored, a locked keychain): nothing reached the service.
  const reason = e instanceof Error ? e.message : String(e);
  return { kind: 'action', event, outcome: 'refused', summary: `Not sent: ${reason}`, data: { reason, sent: false } };
}
