import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormField } from '../ui/FormField';
import {
  checkProfile,
  EMPTY_VALUES,
  ENVIRONMENT_CHOICES,
  errorsFromIpc,
  FIELD_LABELS,
  HASH_SCHEME_CHOICES,
  valuesOf,
  type FieldName,
  type FormErrors,
  type FormValues,
} from './profile-form';
import { addressWarning } from './address-warning';
import { SYNC_CONCURRENCY } from '../../../shared/profiles';
import { resultOf } from '../query/ipc-query';
import { useProfileChange, type Profile } from './settings-queries';

type Control = { kind: 'text'; placeholder: string } | { kind: 'select'; choices: { value: string; label: string }[] };

/** In reading order; the grid lays them out two to a row. */
const CONTROLS: [FieldName, Control][] = [
  ['name', { kind: 'text', placeholder: 'e.g. HDFC payouts' }],
  ['environment', { kind: 'select', choices: ENVIRONMENT_CHOICES }],
  ['baseUrl', { kind: 'text', placeholder: 'https://api.example.in' }],
  ['aiUrl', { kind: 'text', placeholder: 'https://ai.example.in' }],
  ['key', { kind: 'text', placeholder: 'Merchant key from the gateway' }],
  ['hashScheme', { kind: 'select', choices: HASH_SCHEME_CHOICES }],
  ['syncConcurrency', { kind: 'text', placeholder: String(SYNC_CONCURRENCY.default) }],
];

function hintFor(name: FieldName, values: FormValues, profile: Profile | undefined): string | undefined {
  if (name === 'environment' && values.environment === 'production') {
    return 'Moves real money: marked in red wherever it is active.';
  }
  if (name === 'baseUrl' || name === 'aiUrl') {
    const warning = addressWarning(values[name], profile?.[name]);
    if (warning) return warning;
  }
  if (name === 'baseUrl') return 'https:// only; plain http:// is allowed for this machine.';
  if (name === 'syncConcurrency') {
    return `Settlement pages a sync asks for at once, 1 to ${SYNC_CONCURRENCY.max}; fewer if the service limits requests.`;
  }
  return undefined;
}

/** Adds a profile, or edits `profile`. Nothing is sent while the shared schema finds a problem. */
export function ProfileForm({ profile, onDone }: { profile?: Profile; onDone(): void }) {
  const create = useProfileChange('profiles.create');
  const update = useProfileChange('profiles.update');
  const [values, setValues] = useState<FormValues>(() => (profile ? valuesOf(profile) : EMPTY_VALUES));
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const change = (name: FieldName, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkProfile(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    const result = await resultOf(
      profile ? update.mutateAsync({ id: profile.id, fields: checked.fields }) : create.mutateAsync(checked.fields),
    );
    setBusy(false);
    if (result.ok) onDone();
    else setErrors(errorsFromIpc(result.error));
  }

  return (
    <form ref={formRef} className="profile-form" onSubmit={submit} noValidate aria-busy={busy}>
      <div className="form-grid">
        {CONTROLS.map(([name, control]) => (
          <FormField key={name} label={FIELD_LABELS[name]} error={errors[name]} hint={hintFor(name, values, profile)}>
            {(ids) =>
              control.kind === 'text' ? (
                <input
                  {...ids}
                  className={`input${name === 'name' ? '' : ' mono'}`}
                  value={values[name]}
                  placeholder={control.placeholder}
                  inputMode={name === 'syncConcurrency' ? 'numeric' : undefined}
                  spellCheck={false}
                  autoComplete="off"
                  autoFocus={name === 'name'}
                  onChange={(e) => change(name, e.target.value)}
                />
              ) : (
                <select {...ids} className="input" value={values[name]} onChange={(e) => change(name, e.target.value)}>
                  {control.choices.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </select>
              )
            }
          </FormField>
        ))}
      </div>
      {errors.form && (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {profile ? 'Save changes' : 'Save profile'}
        </button>
        <button type="button" className="button" onClick={onDone} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
