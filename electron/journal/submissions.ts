/**
 * One promise per submission key, so an action at the service is sent once per submission: a second call with the
 * same key (a double click, a retry while the first is still out, a retry after a lost answer) gets the first
 * call's promise. A failure that certainly did nothing (the service refused, the request never left) frees the key
 * so the user can try again; an outcome the client could not learn keeps it: the error says what to check, and an
 * edited form makes a new key.
 */
import { ApiError } from '../api/errors';

/** Keys remembered per process; far more than one desk submits between restarts. */
const REMEMBERED_KEYS = 500;

/** A failure after which nothing can have happened at the service. */
export function createdNothing(e: unknown): boolean {
  return e instanceof ApiError && e.kind !== 'outcome_unknown' && e.kind !== 'invalid_response';
}

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
