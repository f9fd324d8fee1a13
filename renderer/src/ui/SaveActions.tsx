import { ipcErrorOf } from '../query/ipc-query';
import { ErrorNotice } from './states';

/**
 * The foot of a settings form that main keeps (no service call, so it works offline): its Save button, "Saved." once
 * main has it, and main's refusal in words.
 */
export function SaveActions({
  label,
  save,
}: {
  label: string;
  save: { isPending: boolean; isSuccess: boolean; isError: boolean; error: unknown };
}) {
  return (
    <>
      <div className="bulk-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {label}
        </button>
        {save.isSuccess && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
      </div>
      {save.isError && <ErrorNotice error={ipcErrorOf(save.error)} />}
    </>
  );
}
