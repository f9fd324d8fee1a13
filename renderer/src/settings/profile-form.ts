/**
 * The add/edit form's values and errors. The check before sending is the shared schema itself, so the form
 * and main cannot disagree about what a valid profile is; errors main still returns (a name already taken, a
 * schema main has and this build lacks) land on the same fields.
 */
import type { IpcError } from '../../../shared/ipc/contract';
import {
  errorsFromIpc as ipcErrors,
  errorsFromIssues,
  zodIssues,
  type FormErrors as FormErrorsOf,
} from '../ui/form-errors';
import {
  HASH_SCHEMES,
  SYNC_CONCURRENCY,
  profileFields,
  secretInput,
  type Environment,
  type HashScheme,
} from '../../../shared/profiles';
import type { Profile, ProfileFields } from './settings-queries';

export const FIELD_LABELS = {
  name: 'Name',
  environment: 'Environment',
  baseUrl: 'Base URL',
  aiUrl: 'AI URL',
  key: 'Merchant key',
  hashScheme: 'Hash scheme',
  syncConcurrency: 'Pages at once',
} as const;

export type FieldName = keyof typeof FIELD_LABELS;
export type FormValues = Record<FieldName, string>;
export type FormErrors = FormErrorsOf<FieldName>;

export const ENVIRONMENT_CHOICES: { value: Environment; label: string }[] = [
  { value: 'production', label: 'Production' },
  { value: 'sandbox', label: 'Sandbox' },
  { value: 'custom', label: 'Custom' },
];

export const HASH_SCHEME_LABELS: Record<HashScheme, string> = {
  sha512: 'SHA-512 (default)',
  'hmac-sha256': 'HMAC-SHA256',
};

export const HASH_SCHEME_CHOICES = HASH_SCHEMES.map((value) => ({ value, label: HASH_SCHEME_LABELS[value] }));

export const EMPTY_VALUES: FormValues = {
  name: '',
  environment: 'custom',
  baseUrl: '',
  aiUrl: '',
  key: '',
  hashScheme: 'sha512',
  syncConcurrency: String(SYNC_CONCURRENCY.default),
};

export function valuesOf(profile: Profile): FormValues {
  const { name, environment, baseUrl, aiUrl, key, hashScheme, syncConcurrency } = profile;
  return { name, environment, baseUrl, aiUrl, key, hashScheme, syncConcurrency: String(syncConcurrency) };
}

export function checkProfile(
  values: FormValues,
): { ok: true; fields: ProfileFields } | { ok: false; errors: FormErrors } {
  // The box holds text; the schema checks the number it reads as (empty is no number, not 0).
  const pages = values.syncConcurrency.trim();
  const parsed = profileFields.safeParse({ ...values, syncConcurrency: pages === '' ? Number.NaN : Number(pages) });
  if (parsed.success) return { ok: true, fields: parsed.data };
  return { ok: false, errors: errorsFromIssues(FIELD_LABELS, zodIssues(parsed.error.issues)) };
}

export function errorsFromIpc(error: IpcError): FormErrors {
  if (error.code === 'PROFILE_NAME_TAKEN') return { name: error.message };
  // profiles.update nests the fields under `fields`.
  return ipcErrors(FIELD_LABELS, error, error.details?.some((d) => d.path.startsWith('fields.')) ? 'fields.' : '');
}

/** The secret field's check, before anything is sent. */
export function secretProblem(secret: string): string | null {
  const parsed = secretInput.safeParse(secret);
  return parsed.success ? null : `The secret ${parsed.error.issues[0]?.message ?? 'is not valid'}.`;
}
