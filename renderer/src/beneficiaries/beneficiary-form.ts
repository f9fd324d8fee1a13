/**
 * The add form's values and errors. The check before sending is the shared schema main and the API client
 * use (`beneficiaryForm`), so the form cannot pass what main would refuse; the problems main still finds come
 * back as INVALID_INPUT details and land on the same fields.
 */
import {
  BENEFICIARY_FIELDS,
  beneficiaryForm,
  normaliseBeneficiaryText,
  vpaCheck,
  type BeneficiaryForm,
  type CachedBeneficiary,
} from '../../../shared/beneficiaries';
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
  confirm_account_number: 'Confirm account number',
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
  confirm_account_number: '',
  ifsc: '',
  vpa: '',
};

/**
 * Normalises every field as the import does (shared `normaliseBeneficiaryText`: "+91 98765 43210" is a phone,
 * "1234 5678 9012" an account number, "hdfc0001234" an IFSC) and leaves out the empty optional ones, so what is sent
 * is what the user meant. The account number must be typed twice, the same: a mistyped digit pays a stranger.
 */
export function checkBeneficiary(
  values: FormValues,
): { ok: true; beneficiary: BeneficiaryForm } | { ok: false; errors: FormErrors } {
  const normalised = Object.fromEntries(
    BENEFICIARY_FIELDS.map((k) => [k, normaliseBeneficiaryText(k, values[k])] as const).filter(
      ([k, v]) => k === 'name' || v !== '',
    ),
  );
  const parsed = beneficiaryForm.safeParse(normalised);
  const errors: FormErrors = parsed.success ? {} : errorsFromIssues(FIELD_LABELS, zodIssues(parsed.error.issues));
  const account = normalised['account_number'] ?? '';
  const confirm = normaliseBeneficiaryText('account_number', values.confirm_account_number);
  if (account !== '' && !errors.account_number && confirm !== account) {
    errors.confirm_account_number =
      confirm === ''
        ? 'Confirm account number: type the account number again.'
        : 'Confirm account number does not match the account number.';
  }
  if (Object.values(errors).some(Boolean)) return { ok: false, errors };
  return { ok: true, beneficiary: normalised as BeneficiaryForm };
}

/** The UPI field's own check, before asking the service whether the address exists. */
export function vpaProblem(vpa: string): string | null {
  const parsed = vpaCheck.safeParse({ vpa: normaliseBeneficiaryText('vpa', vpa) });
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return vpa.trim() === ''
    ? 'Type a UPI address first.'
    : fieldSentence(FIELD_LABELS.vpa, issue?.message ?? 'is not valid');
}

export const errorsFromIpc = (error: IpcError, prefix = ''): FormErrors => ipcErrors(FIELD_LABELS, error, prefix);

/**
 * The confirmation after an add, in one sentence of our own: the service's "Beneficiary added successfully" glued
 * to the name read as one run-on line.
 */
export function addedText(b: Pick<CachedBeneficiary, 'name' | 'beneficiary_id'>): string {
  return `${b.name} (${b.beneficiary_id}) was added and is in the list.`;
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
