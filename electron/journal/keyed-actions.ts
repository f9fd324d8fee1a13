/**
 * Actions at the service that must never be sent twice (the beneficiary create, process order, plan create, webhook
 * update). Each submission carries a key: a second call with the same key (a double click, a retry while the first
 * is out, a retry after a lost answer) gets the first call's promise. A failure that certainly did nothing frees the
 * key so the user can try again; an unknown outcome keeps it, so the same submission is never sent again, and the
 * error says what to check.
 *
 * `runJournaled` writes the attempt before the request leaves and its outcome after: succeeded, refused or unknown
 * (journal/actions.ts), so a crash in between leaves an attempt with nothing after it, which reads as unknown.
 */
import type { JournalEntry, JsonValue } from '../../shared/journal';
import { ApiError } from '../api/errors';
import { actionContext } from './action-context';
import { apiFailureOutcome } from './actions';
import type { Journal } from './journal';

/** Keys remembered per process; far more than one desk submits between restarts. */
const REMEMBERED_KEYS = 500;

/** A failure after which nothing can have been done at the service. */
export function createdNothing(e: unknown): boolean {
  return e instanceof ApiError && e.kind !== 'outcome_unknown' && e.kind !== 'invalid_response';
}

/** `once(key, start)`: the first call with a key starts it; later calls with that key share its promise. */
export function createSubmissions<T>() {
  const submissions = new Map<string, Promise<T>>();
  return function once(key: string, start: () => Promise<T>): Promise<T> {
    const pending = submissions.get(key);
    if (pending) return pending;
    const submission = start();
    submissions.set(key, submission);
    if (submissions.size > REMEMBERED_KEYS) submissions.delete(submissions.keys().next().value!);
    submission.catch((e: unknown) => {
      if (createdNothing(e)) submissions.delete(key);
    });
    return submission;
  };
}

export interface JournaledAction<T> {
  event: string;
  /** The attempt's line and what was asked (no secret: the request as the desk gave it). */
  summary: string;
  asked: Record<string, JsonValue>;
  /** What the action is on (`{orderId}`), put in every entry of it, so that thing's history finds them all. */
  subject?: Record<string, JsonValue>;
  send(): Promise<T>;
  succeeded(answer: T): { summary: string; data: Record<string, JsonValue | undefined>; requestId?: string | null };
}

/** Journals the attempt, sends, journals the outcome; rethrows a failure after journaling it. */
export async function runJournaled<T>(
  journal: Journal,
  action: JournaledAction<T>,
): Promise<{ answer: T; attempt: JournalEntry; outcome: JournalEntry }> {
  const subject = { ...actionContext(), ...action.subject };
  const attempt = journal.append({
    kind: 'action',
    event: action.event,
    outcome: 'attempted',
    summary: action.summary,
    data: { ...subject, asked: action.asked },
  });
  let answer: T;
  try {
    answer = await action.send();
  } catch (e) {
    const failure = apiFailureOutcome(e, action.event);
    journal.append({ ...failure, data: { ...subject, ...failure.data }, refersTo: attempt.seq });
    throw e;
  }
  const done = action.succeeded(answer);
  const outcome = journal.append({
    kind: 'action',
    event: action.event,
    outcome: 'succeeded',
    refersTo: attempt.seq,
    requestId: done.requestId ?? null,
    summary: done.summary,
    data: { ...subject, ...done.data },
  });
  return { answer, attempt, outcome };
}
