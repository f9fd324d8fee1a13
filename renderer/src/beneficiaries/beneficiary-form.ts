/**
 * The add form's values and errors. The check before sending is the shared schema main and the API client
 * use (`beneficiaryForm`), so the form cannot pass what main would refuse; the problems main still finds come
 * back as INVALID_INPUT details and land on the same fields.
 */
import { beneficiaryForm, vpaCheck, type BeneficiaryForm, type CachedBeneficiary } from '../../../shared/beneficiaries';
import type { IpcError } from '../../../shared/ipc/contract';
import {
  errorsFromIpc as ipcErrors,
  errorsFromIssues,
  fieldSentence,
  zodIssues,
  type FormErrors as FormErrorsOf,
} from '../ui/form-errors';

export const FIELD_LABELS = {
  name: 'Name',
  phone: 'Phone',
  email: 'Email',
  address: 'Address',
  account_number: 'Account number',
  ifsc: 'IFSC',
  vpa: 'UPI address',
} as const;

export type FieldName = keyof typeof FIELD_LABELS;
export type FormValues = Record<FieldName, string>;
export type FormErrors = FormErrorsOf<FieldName>;

export const EMPTY_VALUES: FormValues = {
  name: '',
  phone: '',
  email: '',
  address: '',
  account_number: '',
  ifsc: '',
  vpa: '',
};

/**
 * Trims every field and leaves out the empty optional ones, so what is sent is what the user meant; case is
 * kept, so an IFSC typed in lower case is shown as an error rather than silently changed.
 */
export function checkBeneficiary(
  values: FormValues,
): { ok: true; beneficiary: BeneficiaryForm } | { ok: false; errors: FormErrors } {
  const trimmed = Object.fromEntries(
    Object.entries(values)
      .map(([k, v]) => [k, v.trim()] as const)
      .filter(([k, v]) => k === 'name' || v !== ''),
  );
  const parsed = beneficiaryForm.safeParse(trimmed);
  if (parsed.success) return { ok: true, beneficiary: trimmed as BeneficiaryForm };
  return { ok: false, errors: errorsFromIssues(FIELD_LABELS, zodIssues(parsed.error.issues)) };
}

/** The UPI field's own check, before asking the service whether the address exists. */
export function vpaProblem(vpa: string): string | null {
  const parsed = vpaCheck.safeParse({ vpa: vpa.trim() });
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return vpa.trim() === ''
    ? 'Type a UPI address first.'
    : fieldSentence(FIELD_LABELS.vpa, issue?.message ?? 'is not valid');
}

export const errorsFromIpc = (error: IpcError, prefix = ''): FormErrors => ipcErrors(FIELD_LABELS, error, prefix);

/**
 * A create whose answer was lost (no answer, or one that could not be read) may have happened. Main keeps the
 * request key of such a submission and answers a second send of it with the same error instead of sending it
 * again; the form says so, and only an edit makes a new key.
 */
export function mayHaveHappened(error: IpcError): boolean {
  return error.code === 'API_OUTCOME_UNKNOWN' || error.code === 'API_INVALID_RESPONSE';
}

/** The API sends "" as often as null for a field it has no value for. */
export const present = (text: string | null | undefined): string | null => (text?.trim() ? text : null);

/** Where payouts to this beneficiary would go, for lists and the confirmation. */
export function targetsOf(b: Pick<CachedBeneficiary, 'account_number' | 'ifsc' | 'vpa'>): {
  bank: { account: string; ifsc: string } | null;
  vpa: string | null;
} {
  const account = present(b.account_number);
  const vpa = present(b.vpa);
  return { bank: account ? { account, ifsc: b.ifsc ?? '' } : null, vpa };
}
