/**
 * Schema problems as sentences next to the fields they belong to. The forms check with the same shared schemas main
 * uses, and main's INVALID_INPUT details carry the same paths, so one mapping serves both.
 */
import type { IpcError, IpcIssue } from '../../../shared/ipc/contract';
import { fieldSentence } from '../../../shared/messages';

/** One sentence per field, plus `form` for what belongs to no field. */
export type FormErrors<F extends string> = Partial<Record<F | 'form', string>>;

/** One sentence per field problem, composed as everywhere else (shared/messages.ts). */
const sentence = fieldSentence;

/** `prefix` is where a channel nests the form (`beneficiary.` for a create, `fields.` for a profile update). */
export function errorsFromIssues<F extends string>(
  labels: Readonly<Record<F, string>>,
  issues: readonly IpcIssue[],
  prefix = '',
): FormErrors<F> {
  const errors: FormErrors<F> = {};
  for (const { path, message } of issues) {
    const field = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    if (Object.hasOwn(labels, field)) errors[field as F] ??= sentence(labels[field as F], message);
    else errors.form ??= message;
  }
  return errors;
}

/** A zod error's issues in the IPC shape. */
export const zodIssues = (issues: readonly { path: readonly PropertyKey[]; message: string }[]): IpcIssue[] =>
  issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

/** Main's refusal on the fields it names, or as the form's own error. */
export function errorsFromIpc<F extends string>(
  labels: Readonly<Record<F, string>>,
  error: IpcError,
  prefix = '',
): FormErrors<F> {
  if (error.code === 'INVALID_INPUT' && error.details?.length) {
    const errors = errorsFromIssues(labels, error.details, prefix);
    return Object.keys(errors).length > 0 ? errors : ({ form: error.message } as FormErrors<F>);
  }
  return { form: error.message } as FormErrors<F>;
}

/** One field's problem as a sentence, for checks of a single field. */
export { fieldSentence };
