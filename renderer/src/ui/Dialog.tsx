import { useId, type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog';

/**
 * The one modal `<dialog>`: the browser traps focus in it, Escape cancels, and the title names it. Confirmations
 * and the shortcuts list are this with their own body and buttons.
 */
export function Dialog({
  title,
  onCancel,
  children,
  actions,
}: {
  title: string;
  onCancel(): void;
  children: ReactNode;
  actions: ReactNode;
}) {
  const ref = useModalDialog();
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="dialog-actions">{actions}</div>
    </dialog>
  );
}
