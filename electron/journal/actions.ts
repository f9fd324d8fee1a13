/**
 * The outcome entry of an action at the service that did not succeed, from what the call threw: "unknown" when the
 * request may have taken effect (with what to check before trying again), "refused" when the service said no or
 * the request certainly did nothing. Only the error's composed, scrubbed fields are kept (errors.ts): never a secret.
 */
import { ApiError } from '../api/errors';
import type { Journal, JournalInput } from './journal';

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

/** Refused before sending: an earlier action on the same thing has an unknown outcome that nobody has checked. */
export class UnsettledActionError extends Error {
  override name = 'UnsettledActionError';
  readonly code = 'OUTCOME_UNKNOWN_UNSETTLED';
}

/**
 * Refuses a new action on `subject` while an earlier one of these `events` on it is unresolved (outcome unknown,
 * or an attempt with nothing after it): sending again could act twice. "Check status" settles it first.
 */
export function refuseWhileUnsettled(journal: Journal, events: readonly string[], subjectKey: string, subject: string) {
  const open = journal
    .unresolved()
    .find((u) => events.includes(u.attempt.event) && u.attempt.data[subjectKey] === subject);
  if (open) {
    throw new UnsettledActionError(
      `Entry ${open.attempt.seq} (${open.attempt.summary}) has an unknown outcome. Check its status before acting on ${subject} again.`,
    );
  }
}
