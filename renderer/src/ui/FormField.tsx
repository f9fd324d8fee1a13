import { useId, type ReactNode } from 'react';

interface FormFieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Renders the control with the ids that tie it to its label, hint and error. */
  children(control: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }): ReactNode;
}

export function FormField({ label, error, hint: rule, children }: FormFieldProps) {
  const id = useId();
  // An error already states the rule it broke; showing both would say it twice.
  const hint = error ? undefined : rule;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy || undefined })}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
