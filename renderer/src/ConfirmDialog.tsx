import type { ReactNode } from 'react';
import { Dialog } from './ui/Dialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/** A confirmation: focus starts on Cancel, so a stray Enter never confirms a destructive action. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onCancel={onCancel}
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <div className="dialog-body">{children}</div>
    </Dialog>
  );
}
