import { useId, useState, type FormEvent } from 'react';

/**
 * The password of a PDF e-statement, asked for when main says the file needs one (or the one given was wrong). It is
 * sent with this file's reads only; main hands it to the PDF reader and keeps it nowhere, and this form forgets it
 * once the file is imported or dropped.
 */
export function StatementPassword({
  fileName,
  busy,
  onRead,
  onCancel,
}: {
  fileName: string;
  busy: boolean;
  onRead(password: string): void;
  onCancel(): void;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password !== '') onRead(password);
  };
  return (
    <form className="recon-password" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h2 id={`${id}-title`}>Password of {fileName}</h2>
      <label htmlFor={`${id}-password`}>PDF password</label>
      <input
        id={`${id}-password`}
        className="input"
        type="password"
        autoComplete="off"
        autoFocus
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <p className="hint">
        The bank&apos;s e-statement mail says what it is made of (often the customer id or a date of birth).
      </p>
      <div className="recon-mapping-actions">
        <button type="submit" className="button button-primary" disabled={busy || password === ''}>
          Read the statement
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
